import assert from 'node:assert/strict';
import type { InternalStep } from '../../src/core/internals';
import type { KubeObject, WatchEvent } from '../../src/core/k8s';
import { ClusterApiError } from '../../src/cluster/errors';
import { INTERNALS_STREAM_PATH, type InternalsFunction, type InternalsRequest } from '../../src/cluster/internals-reader';
import type { ListResult, WatchRequest } from '../../src/cluster/reflector';
import { ServerClock } from '../../src/cluster/server-clock';
import type { JourneySink } from '../../src/core/journey/types';
import { ClusterWatcher, describeProblem } from '../../src/cluster/watcher';
import { INTERNALS_PATH } from '../../src/server/api-server';
import { expired, object } from './fake-io';

class RecordingSink implements JourneySink {
  readonly log: string[] = [];
  readonly receivedAt: number[] = [];
  ingest(event: WatchEvent, receivedAt: number): void {
    this.log.push(`${event.type} ${event.object.kind} ${event.object.metadata?.name}`);
    this.receivedAt.push(receivedAt);
  }
  ingestInternal(step: InternalStep): void {
    this.log.push(`step ${step.type} ${step.type === 'schedulingCycle' ? step.pod.name : step.object.name}`);
  }
}

/** Every collection lists empty and then holds its watch open; `emit` pushes events into an open watch. */
class OpenWatches {
  readonly listed: string[] = [];
  private readonly open = new Map<string, WatchRequest>();
  private readonly waiting = new Map<string, () => void>();
  list = async (path: string): Promise<ListResult> => {
    this.listed.push(path);
    return { resourceVersion: '1', items: [] };
  };
  watch = (request: WatchRequest): Promise<void> => {
    request.onOpen();
    this.open.set(request.path, request);
    this.waiting.get(request.path)?.();
    return new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
  };
  delay = async (): Promise<void> => undefined;
  emit(path: string, type: string, name: string, rv: string): void {
    const request = this.open.get(path);
    assert.ok(request, `a watch is open on ${path}`);
    request.onEvent(type, object(name, rv));
  }
}

function step(name: string, time = 0): InternalStep {
  return { type: 'etcdWrite', time, key: `/registry/pods/default/${name}`, verb: 'update', resourceVersion: '9', object: { kind: 'Pod', namespace: 'default', name }, actor: 'kubelet' };
}

describe('cluster ClusterWatcher', () => {
  it('watches Nodes cluster-wide and every traceable kind and Events per namespace', async () => {
    const io = new OpenWatches();
    const watcher = new ClusterWatcher({ sink: new RecordingSink(), io, namespaces: ['default'] });
    watcher.start();
    watcher.watchNamespace('shop');
    watcher.watchNamespace('shop');
    await watcher.synced();
    assert.equal(watcher.isWatching(), true);
    await watcher.stop();
    assert.equal(watcher.isWatching(), false);
    const perNamespace = (ns: string) => [
      `/api/v1/namespaces/${ns}/events`,
      `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
      `/api/v1/namespaces/${ns}/pods`,
      `/api/v1/namespaces/${ns}/replicationcontrollers`,
      `/api/v1/namespaces/${ns}/services`,
      `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`,
      `/apis/apps/v1/namespaces/${ns}/daemonsets`,
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      `/apis/apps/v1/namespaces/${ns}/replicasets`,
      `/apis/apps/v1/namespaces/${ns}/statefulsets`,
      `/apis/batch/v1/namespaces/${ns}/cronjobs`,
      `/apis/batch/v1/namespaces/${ns}/jobs`,
    ];
    assert.deepEqual(io.listed.sort(), [...perNamespace('default'), ...perNamespace('shop'), '/api/v1/nodes'].sort());
    assert.equal(watcher.internals, 'absent', 'no internals function: a real cluster');
  });

  it('holds watch events and internals steps while applying, then delivers them in arrival order', async () => {
    const io = new OpenWatches();
    const sink = new RecordingSink();
    let feed: InternalsRequest | undefined;
    const internals: InternalsFunction = (request) => {
      feed = request;
      request.onOpen();
      return new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
    };
    const watcher = new ClusterWatcher({ sink, io: { ...io, internals }, namespaces: ['default'], kinds: ['Pod'] });
    watcher.start();
    await watcher.synced();
    const release = watcher.hold();
    io.emit('/api/v1/namespaces/default/pods', 'ADDED', 'web-1', '5');
    feed!.onStep(1, step('web-1'));
    io.emit('/api/v1/namespaces/default/pods', 'MODIFIED', 'web-1', '6');
    assert.deepEqual(sink.log, [], 'nothing reaches the tracer while held');
    release();
    release();
    assert.deepEqual(sink.log, ['ADDED Pod web-1', 'step etcdWrite web-1', 'MODIFIED Pod web-1']);
    io.emit('/api/v1/namespaces/default/pods', 'MODIFIED', 'web-1', '7');
    assert.equal(sink.log.length, 4, 'delivered at once when not held');
    await watcher.stop();
  });

  it('puts arrival times on the server clock, with the estimate known when delivered', async () => {
    const io = new OpenWatches();
    const sink = new RecordingSink();
    const clock = new ServerClock();
    const watcher = new ClusterWatcher({ sink, io, namespaces: ['default'], kinds: ['Pod'], clock });
    watcher.start();
    await watcher.synced();
    const release = watcher.hold();
    const before = Date.now();
    io.emit('/api/v1/namespaces/default/pods', 'ADDED', 'web-1', '5');
    // The server turns out to be an hour behind.
    clock.observeExact(before - 3_600_000, before);
    release();
    const after = Date.now();
    assert.ok(sink.receivedAt[0] >= before - 3_600_000 && sink.receivedAt[0] <= after - 3_600_000, `${sink.receivedAt[0] - before}`);
    await watcher.stop();
  });

  it('skips the internals stream when the server answers 404, and resumes it after the last sequence otherwise', async () => {
    const absent = new ClusterWatcher({
      sink: new RecordingSink(),
      io: { ...new OpenWatches(), internals: async () => Promise.reject(new ClusterApiError(404, 'NotFound', 'the server could not find the requested resource')) },
      kinds: ['Node'],
    });
    absent.start();
    await absent.synced();
    assert.equal(absent.internals, 'absent');
    await absent.stop();

    const sink = new RecordingSink();
    const sinces: number[] = [];
    let calls = 0;
    const internals: InternalsFunction = async (request) => {
      sinces.push(request.since);
      calls++;
      if (calls === 1) {
        request.onOpen();
        request.onStep(41, step('a'));
        request.onStep(42, step('b'));
        throw new Error('socket hang up');
      }
      request.onOpen();
      request.onStep(42, step('b'));
      request.onStep(43, step('c'));
      await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
    };
    const watcher = new ClusterWatcher({ sink, io: { ...new OpenWatches(), internals }, kinds: ['Node'] });
    watcher.start();
    assert.equal(await watcher.waitForStep((s) => s.type === 'etcdWrite' && s.object.name === 'c', 5000), true);
    assert.deepEqual(sinces, [0, 42]);
    assert.deepEqual(sink.log, ['step etcdWrite a', 'step etcdWrite b', 'step etcdWrite c']);
    assert.equal(watcher.internals, 'streaming');
    await watcher.stop();
  });

  it('lists what cannot be watched, and keeps the other collections going', async () => {
    const message = 'events is forbidden: User "dev" cannot list resource "events" in API group "" in the namespace "default"';
    const io = new OpenWatches();
    const list = async (path: string): Promise<ListResult> => {
      if (path.endsWith('/events')) throw new ClusterApiError(403, 'Forbidden', message);
      return io.list(path);
    };
    const sink = new RecordingSink();
    const watcher = new ClusterWatcher({ sink, io: { ...io, list, delay: (_ms, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })) }, namespaces: ['default'] });
    const seen: number[] = [];
    watcher.onProblemsChanged((problems) => seen.push(problems.length));
    watcher.start();
    await watcher.synced();
    const problems = watcher.problems();
    assert.equal(problems.length, 1);
    assert.deepEqual({ kind: problems[0].kind, namespace: problems[0].namespace, reason: problems[0].reason, path: problems[0].path }, { kind: 'Event', namespace: 'default', reason: 'Forbidden', path: '/api/v1/namespaces/default/events' });
    assert.equal(describeProblem(problems[0]), `cannot watch events in namespace "default": ${message}`);
    assert.deepEqual(seen, [1]);
    io.emit('/api/v1/namespaces/default/pods', 'ADDED', 'web-1', '2');
    assert.deepEqual(sink.log, ['ADDED Pod web-1']);
    assert.equal(watcher.isWatching(), false);
    await watcher.stop();
  });

  it('reads the internals stream at the path the simulator serves it', () => {
    assert.equal(INTERNALS_STREAM_PATH, INTERNALS_PATH);
  });
});

describe('cluster ClusterWatcher: what it keeps for relists', () => {
  /** Each collection lists `first` and then, after its watch expired, lists nothing: what it knew is delivered as DELETED. */
  function relistingIo(first: Record<string, KubeObject>) {
    const lists = new Map<string, number>();
    return {
      list: async (path: string): Promise<ListResult> => {
        const count = (lists.get(path) ?? 0) + 1;
        lists.set(path, count);
        const item = Object.entries(first).find(([suffix]) => path.endsWith(suffix))?.[1];
        return { resourceVersion: String(10 * count), items: count === 1 && item ? [structuredClone(item)] : [] };
      },
      watch: (request: WatchRequest): Promise<void> => {
        request.onOpen();
        if ((lists.get(request.path) ?? 0) === 1 && Object.keys(first).some((suffix) => request.path.endsWith(suffix))) {
          request.onEvent('ERROR', expired(request.resourceVersion));
          return Promise.resolve();
        }
        return new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
      },
      delay: async (): Promise<void> => undefined,
    };
  }

  it('hands on each listed object without its managed field sets, their managers kept', async () => {
    const managedFields = [
      { manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: '2026-11-29T06:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': {} } } },
      { manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-11-29T06:00:02Z', subresource: 'status', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:phase': {} } } },
    ];
    const pod: KubeObject = { ...object('web-1', '6'), spec: { nodeName: 'node-1' }, status: { phase: 'Running' } };
    pod.metadata = { ...pod.metadata, managedFields };
    let added: (object: KubeObject) => void = () => undefined;
    const delivered = new Promise<KubeObject>((resolve) => (added = resolve));
    const sink: JourneySink = {
      ingest: (change) => {
        if (change.type === 'ADDED' && change.object.kind === 'Pod') added(change.object);
      },
      ingestInternal: () => undefined,
    };
    const watcher = new ClusterWatcher({ sink, io: relistingIo({ '/namespaces/default/pods': pod }), namespaces: ['default'], kinds: ['Pod'] });
    watcher.start();
    const received = await delivered;
    await watcher.stop();
    assert.deepEqual(
      received.metadata?.managedFields,
      managedFields.map(({ fieldsV1: _fieldSet, ...entry }) => entry),
    );
    assert.deepEqual(received.status, pod.status, 'the rest of the object is as listed');
    assert.deepEqual(received.spec, pod.spec);
  });

  it('keeps an Event and a Pod by their identity only: a relist delivers each as DELETED from what was kept', async () => {
    const event: KubeObject = { ...object('web-1.17a', '5'), involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'uid-web-1' }, reason: 'Scheduled', message: 'Successfully assigned default/web-1 to node-1', source: { component: 'default-scheduler' } };
    const pod: KubeObject = { ...object('web-1', '6'), spec: { nodeName: 'node-1' }, status: { phase: 'Running' } };
    const deleted = new Map<string, KubeObject>();
    let bothDeleted: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (bothDeleted = resolve));
    const sink: JourneySink = {
      ingest: (change) => {
        if (change.type !== 'DELETED' || !change.object.kind) return;
        deleted.set(change.object.kind, change.object);
        if (deleted.size === 2) bothDeleted();
      },
      ingestInternal: () => undefined,
    };
    const watcher = new ClusterWatcher({ sink, io: relistingIo({ '/namespaces/default/events': event, '/namespaces/default/pods': pod }), namespaces: ['default'] });
    watcher.start();
    await done;
    await watcher.stop();
    assert.deepEqual(deleted.get('Event'), { kind: 'Event', apiVersion: 'v1', metadata: { name: 'web-1.17a', namespace: 'default', uid: 'uid-web-1.17a', resourceVersion: '5' } });
    assert.deepEqual(deleted.get('Pod'), { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'web-1', namespace: 'default', uid: 'uid-web-1', resourceVersion: '6' } });
  });
});

describe('cluster ClusterWatcher: releasing a hold in slices', () => {
  async function heldWatcher(count: number) {
    const io = new OpenWatches();
    const sink = new RecordingSink();
    const watcher = new ClusterWatcher({ sink, io, namespaces: ['default'], kinds: ['Pod'], releaseSliceMs: 0 });
    watcher.start();
    await watcher.synced();
    const release = watcher.hold();
    for (let i = 0; i < count; i++) io.emit('/api/v1/namespaces/default/pods', 'ADDED', `web-${i}`, String(10 + i));
    return { io, sink, watcher, release };
  }

  /** Lets the event loop turn until `condition` holds. */
  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise((resolve) => setImmediate(resolve));
  }

  it('delivers what was held over several turns of the event loop, in order, with later arrivals behind it', async () => {
    const { io, sink, watcher, release } = await heldWatcher(500);
    release();
    assert.ok(sink.log.length > 0 && sink.log.length < 500, `a first slice only: ${sink.log.length}`);
    io.emit('/api/v1/namespaces/default/pods', 'MODIFIED', 'web-0', '9999');
    assert.ok(sink.log.length < 501);
    await until(() => sink.log.length === 501);
    assert.deepEqual(sink.log.slice(0, 3), ['ADDED Pod web-0', 'ADDED Pod web-1', 'ADDED Pod web-2']);
    assert.equal(sink.log[499], 'ADDED Pod web-499');
    assert.equal(sink.log[500], 'MODIFIED Pod web-0', 'an arrival during the release comes after what was held');
    io.emit('/api/v1/namespaces/default/pods', 'MODIFIED', 'web-1', '10000');
    assert.equal(sink.log.length, 502, 'delivered at once once the release is over');
    await watcher.stop();
  });

  it('goes on delivering what came before a new hold while it lasts, holding what comes after, and delivers nothing more once stopped', async () => {
    const { io, sink, watcher, release } = await heldWatcher(500);
    release();
    assert.ok(sink.log.length < 500, 'a first slice only');
    const again = watcher.hold();
    io.emit('/api/v1/namespaces/default/pods', 'ADDED', 'late', '20000');
    await until(() => sink.log.length === 500);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sink.log.length, 500, 'what came after the new hold waits for it');
    again();
    await until(() => sink.log.length === 501);
    assert.equal(sink.log[500], 'ADDED Pod late');

    const second = await heldWatcher(500);
    second.release();
    const before = second.sink.log.length;
    await second.watcher.stop();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(second.sink.log.length, before, 'a stopped watcher delivers nothing more');
    await watcher.stop();
  });
});
