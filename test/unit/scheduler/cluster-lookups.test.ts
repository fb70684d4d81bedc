/**
 * `helper.DefaultSelector` through the store: built once per controller and set of selecting
 * Services, and built again when one of them changes.
 */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { VirtualClock } from '../../../src/sim/clock';
import type { InternalsLog } from '../../../src/sim/context';
import { MemoryStore } from '../../../src/sim/store/store';
import { storeLookups } from '../../../src/sim/scheduler/cluster-lookups';
import { podSchedulingInfo } from '../../../src/sim/scheduler/pod-info';
import type { PodSchedulingInfo } from '../../../src/sim/scheduler/pod-info';

const internals: InternalsLog = { recordsWatchDeliveries: false, record: () => undefined };

function setup() {
  const store = new MemoryStore({ clock: new VirtualClock({ seed: 1 }), internals });
  store.create('Namespace', { metadata: { name: 'default' } });
  const replicaSet = store.create<KubeObject>('ReplicaSet', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  });
  const pod = (name: string): PodSchedulingInfo =>
    podSchedulingInfo({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', uid: name, labels: { app: 'web', tier: 'front' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: replicaSet.metadata!.uid!, controller: true }] },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
  return { store, lookups: storeLookups(store), pod };
}

function service(name: string, selector: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { selector, ports: [{ port: 80, protocol: 'TCP' }] } };
}

describe('Scheduler: default spread selector lookups', () => {
  it('the pods of one ReplicaSet share one selector object, the ReplicaSet selector', () => {
    const { lookups, pod } = setup();
    const first = lookups.defaultSpreadSelector(pod('web-1'));
    assert.equal(first?.key, 'app In web');
    assert.equal(lookups.defaultSpreadSelector(pod('web-2')), first, 'built once, not per pod');
  });

  it('a Service selecting the pods, created or changed, gives a new selector with its labels', () => {
    const { store, lookups, pod } = setup();
    const before = lookups.defaultSpreadSelector(pod('web-1'));
    store.create('Service', service('front', { tier: 'front' }));
    const withService = lookups.defaultSpreadSelector(pod('web-2'));
    assert.notEqual(withService, before);
    assert.equal(withService?.key, 'app In web;tier In front');
    const current = store.read<KubeObject>('Service', 'default', 'front');
    store.update('Service', { ...current, spec: { ...(current.spec as object), selector: { app: 'web' } } });
    // Selector.Add keeps both equal requirements, the Service's and the ReplicaSet's.
    const changed = lookups.defaultSpreadSelector(pod('web-3'));
    assert.equal(changed?.key, 'app In web;app In web');
    store.create('Service', service('other', { app: 'api' }));
    assert.equal(lookups.defaultSpreadSelector(pod('web-4')), changed, 'a Service selecting other pods changes nothing');
  });
});
