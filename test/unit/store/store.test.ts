import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import type { InternalStep } from '../../../src/core/internals';
import { VirtualClock } from '../../../src/sim/clock';
import { MemoryStore } from '../../../src/sim/store/store';
import { StoreEventRecorder } from '../../../src/sim/store/events';
import { ApiError } from '../../../src/sim/store/types';

function setup() {
  const clock = new VirtualClock({ seed: 7 });
  const steps: InternalStep[] = [];
  const store = new MemoryStore({ clock, internals: { record: (s) => steps.push(s), recordsWatchDeliveries: true }, historyPerKind: 5 });
  store.create('Namespace', { metadata: { name: 'default' } });
  return { clock, store, steps };
}

function configMap(name: string, data: Record<string, string> = {}): KubeObject {
  return { metadata: { name, namespace: 'default', labels: { app: 'web' } }, data };
}

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('expected an ApiError');
}

describe('MemoryStore', () => {
  it('assigns uid, creationTimestamp, resourceVersion and apiVersion/kind on create', () => {
    const { store } = setup();
    const created = store.create('ConfigMap', configMap('a'));
    assert.equal(created.kind, 'ConfigMap');
    assert.equal(created.apiVersion, 'v1');
    assert.match(created.metadata!.uid!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(created.metadata!.creationTimestamp, '2026-01-01T12:00:00Z');
    assert.equal(created.metadata!.resourceVersion, String(store.currentResourceVersion()));
  });

  it('answers 409 AlreadyExists, 404 NotFound and 404 for a missing namespace like kube-apiserver', () => {
    const { store } = setup();
    store.create('ConfigMap', configMap('a'));
    assert.equal(apiError(() => store.create('ConfigMap', configMap('a'))).message, 'configmaps "a" already exists');
    const missing = apiError(() => store.read('Deployment', 'default', 'nope'));
    assert.equal(missing.code, 404);
    assert.equal(missing.message, 'deployments.apps "nope" not found');
    const noNs = apiError(() => store.create('ConfigMap', { metadata: { name: 'x', namespace: 'nons' } }));
    assert.equal(noNs.message, 'namespaces "nons" not found');
  });

  it('rejects an update carrying a stale resourceVersion with 409 Conflict', () => {
    const { store } = setup();
    const created = store.create('ConfigMap', configMap('a'));
    const stale = structuredClone(created);
    store.update('ConfigMap', { ...structuredClone(created), data: { k: '1' } });
    const conflict = apiError(() => store.update('ConfigMap', { ...stale, data: { k: '2' } }));
    assert.equal(conflict.code, 409);
    assert.match(conflict.message, /the object has been modified; please apply your changes to the latest version and try again/);
  });

  it('bumps generation only when spec changes, and ignores status on main-resource writes', () => {
    const { store } = setup();
    store.create('Deployment', { metadata: { name: 'web' }, spec: { replicas: 1 } });
    const statusOnly = store.mutate('Deployment', 'default', 'web', (d) => { d.status = { replicas: 1 }; }, { subresource: 'status' });
    assert.equal(statusOnly.metadata!.generation, 1);
    const ignoredStatus = store.mutate('Deployment', 'default', 'web', (d) => { d.status = { replicas: 9 }; d.metadata!.labels = { a: 'b' }; });
    assert.equal(ignoredStatus.metadata!.generation, 1);
    assert.deepEqual(ignoredStatus.status, { replicas: 1 });
    const specChange = store.mutate('Deployment', 'default', 'web', (d) => { d.spec = { replicas: 2 }; });
    assert.equal(specChange.metadata!.generation, 2);
  });

  it('does not bump the resourceVersion on a no-op write', () => {
    const { store } = setup();
    store.create('ConfigMap', configMap('a', { k: 'v' }));
    const before = store.currentResourceVersion();
    store.mutate('ConfigMap', 'default', 'a', () => undefined);
    assert.equal(store.currentResourceVersion(), before);
  });

  it('lists with label and field selectors', () => {
    const { store } = setup();
    store.create('ConfigMap', configMap('a'));
    store.create('ConfigMap', { metadata: { name: 'b', labels: { app: 'db', tier: 'back' } } });
    const names = (opts: { labelSelector?: string; fieldSelector?: string }) => store.list('ConfigMap', opts).items.map((i) => i.metadata!.name);
    assert.deepEqual(names({ labelSelector: 'app=web' }), ['a']);
    assert.deepEqual(names({ labelSelector: 'app in (web,db),tier' }), ['b']);
    assert.deepEqual(names({ labelSelector: '!tier' }), ['a']);
    assert.deepEqual(names({ labelSelector: 'app!=web' }), ['b']);
    assert.deepEqual(names({ fieldSelector: 'metadata.name=b' }), ['b']);
  });

  it('generates names from generateName with the apiserver alphabet', () => {
    const { store } = setup();
    const pod = store.create<KubeObject>('ConfigMap', { metadata: { generateName: 'web-5d567cc74c-' } });
    assert.match(pod.metadata!.name!, /^web-5d567cc74c-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('replays a watch from a resourceVersion and answers 410 Expired once history is compacted', () => {
    const { store } = setup();
    const first = store.create('ConfigMap', configMap('a'));
    const seen: string[] = [];
    const stop = store.watch('ConfigMap', { resourceVersion: first.metadata!.resourceVersion }, (type, object) => seen.push(`${type} ${object.metadata!.name}`));
    store.create('ConfigMap', configMap('b'));
    stop();
    assert.deepEqual(seen, ['ADDED b']);
    for (let i = 0; i < 10; i++) store.create('ConfigMap', configMap(`c${i}`));
    const expired = apiError(() => store.watch('ConfigMap', { resourceVersion: first.metadata!.resourceVersion }, () => undefined));
    assert.equal(expired.code, 410);
    assert.match(expired.message, /^too old resource version: \d+ \(\d+\)$/);
  });

  it('turns selector entry and exit into ADDED and DELETED on a watch', () => {
    const { store } = setup();
    const seen: string[] = [];
    store.watch('ConfigMap', { resourceVersion: '0', labelSelector: 'app=web' }, (type, o) => seen.push(`${type} ${o.metadata!.name}`));
    store.create('ConfigMap', { metadata: { name: 'x', labels: { app: 'db' } } });
    store.mutate('ConfigMap', 'default', 'x', (c) => { c.metadata!.labels = { app: 'web' }; });
    store.mutate('ConfigMap', 'default', 'x', (c) => { c.metadata!.labels = { app: 'db' }; });
    assert.deepEqual(seen, ['ADDED x', 'DELETED x']);
  });

  it('deletes bound pods gracefully and records etcd writes in the internals stream', () => {
    const { store, steps } = setup();
    store.create('Pod', { metadata: { name: 'p' }, spec: { nodeName: 'node-1', containers: [] } });
    const marked = store.delete('Pod', 'default', 'p');
    assert.ok(marked.metadata!.deletionTimestamp);
    assert.equal(marked.metadata!.deletionGracePeriodSeconds, 30);
    assert.equal(store.podsOnNode('node-1').length, 1);
    store.delete('Pod', 'default', 'p', { gracePeriodSeconds: 0 });
    assert.equal(store.get('Pod', 'default', 'p'), undefined);
    assert.equal(store.podsOnNode('node-1').length, 0);
    const writes = steps.filter((s) => s.type === 'etcdWrite').map((s) => s.type === 'etcdWrite' ? `${s.verb} ${s.key}` : '');
    assert.deepEqual(writes.slice(-3), ['create /registry/pods/default/p', 'update /registry/pods/default/p', 'delete /registry/pods/default/p']);
  });
});

describe('StoreEventRecorder', () => {
  it('aggregates identical events into one object with a count, and writes events.k8s.io-shaped ones', () => {
    const { store, clock } = setup();
    const recorder = new StoreEventRecorder(store, clock);
    const pod = store.create('Pod', { metadata: { name: 'p' }, spec: { containers: [] } });
    recorder.record(pod, 'Warning', 'BackOff', 'Back-off pulling image "x"', { component: 'kubelet', host: 'node-1' });
    clock.advanceTo(clock.now() + 10_000);
    recorder.record(pod, 'Warning', 'BackOff', 'Back-off pulling image "x"', { component: 'kubelet', host: 'node-1' });
    recorder.record(pod, 'Normal', 'Scheduled', 'Successfully assigned default/p to node-1', { component: 'default-scheduler' }, { eventsV1: { action: 'Binding' } });
    const events = store.list('Event').items;
    assert.equal(events.length, 2);
    const backOff = events.find((e) => e.reason === 'BackOff')!;
    assert.equal(backOff.count, 2);
    assert.equal(backOff.firstTimestamp, '2026-01-01T12:00:00Z');
    assert.equal(backOff.lastTimestamp, '2026-01-01T12:00:10Z');
    assert.deepEqual(backOff.source, { component: 'kubelet', host: 'node-1' });
    const scheduled = events.find((e) => e.reason === 'Scheduled')!;
    assert.deepEqual(scheduled.source, {});
    assert.equal(scheduled.firstTimestamp, null);
    assert.equal(scheduled.eventTime, '2026-01-01T12:00:10.000000Z');
    assert.equal(scheduled.reportingComponent, 'default-scheduler');
  });

  it('expires events after an hour', () => {
    const { store, clock } = setup();
    const recorder = new StoreEventRecorder(store, clock);
    const pod = store.create('Pod', { metadata: { name: 'p' }, spec: { containers: [] } });
    recorder.record(pod, 'Normal', 'Pulled', 'x', { component: 'kubelet' });
    clock.advanceTo(clock.now() + 59 * 60_000);
    assert.equal(store.list('Event').items.length, 1);
    clock.advanceTo(clock.now() + 3 * 60_000);
    assert.equal(store.list('Event').items.length, 0);
  });

  it('expires events after a shorter TTL (--event-ttl), and creates a repeat again under its name with the full count', () => {
    const { store, clock } = setup();
    const recorder = new StoreEventRecorder(store, clock, 10_000);
    const pod = store.create('Pod', { metadata: { name: 'p' }, spec: { containers: [] } });
    recorder.record(pod, 'Warning', 'BackOff', 'Back-off pulling image "x"', { component: 'kubelet', host: 'node-1' });
    const first = store.list('Event').items[0];
    clock.advanceTo(clock.now() + 5_000);
    assert.equal(store.list('Event').items.length, 1);
    clock.advanceTo(clock.now() + 20_000);
    assert.equal(store.list('Event').items.length, 0);
    recorder.record(pod, 'Warning', 'BackOff', 'Back-off pulling image "x"', { component: 'kubelet', host: 'node-1' });
    const again = store.list('Event').items;
    assert.equal(again.length, 1);
    assert.equal(again[0].metadata?.name, first.metadata?.name);
    assert.notEqual(again[0].metadata?.uid, first.metadata?.uid);
    assert.equal(again[0].count, 2);
    assert.equal(again[0].firstTimestamp, first.firstTimestamp);
  });
});
