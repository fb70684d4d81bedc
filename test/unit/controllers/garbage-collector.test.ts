import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { VirtualClock } from '../../../src/sim/clock';
import { GarbageCollector } from '../../../src/sim/controllers/garbage-collector';
import { MemoryStore } from '../../../src/sim/store/store';

function setup() {
  const clock = new VirtualClock({ seed: 7 });
  const store = new MemoryStore({ clock, internals: { record: () => undefined, recordsWatchDeliveries: false }, historyPerKind: 5 });
  store.create('Namespace', { metadata: { name: 'default' } });
  new GarbageCollector({ store, clock }).start();
  return { clock, store };
}

function configMap(name: string, data: Record<string, string> = {}): KubeObject {
  return { metadata: { name, namespace: 'default', labels: { app: 'web' } }, data };
}

describe('garbage collector', () => {
  it('collects dependents in the background, foreground and orphans them on request', () => {
    for (const policy of ['Background', 'Foreground', 'Orphan'] as const) {
      const { store, clock } = setup();
      const owner = store.create('ConfigMap', configMap('owner'));
      const ownerRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid!, controller: true, blockOwnerDeletion: true };
      store.create('ConfigMap', { metadata: { name: 'child', ownerReferences: [ownerRef] } });
      store.delete('ConfigMap', 'default', 'owner', { propagationPolicy: policy });
      if (policy === 'Foreground') assert.deepEqual(store.get('ConfigMap', 'default', 'owner')?.metadata?.finalizers, ['foregroundDeletion']);
      while (clock.step()) { /* run the garbage collector */ }
      assert.equal(store.get('ConfigMap', 'default', 'owner'), undefined, policy);
      const child = store.get('ConfigMap', 'default', 'child');
      if (policy === 'Orphan') assert.equal(child?.metadata?.ownerReferences, undefined);
      else assert.equal(child, undefined, policy);
    }
  });

  it('collects events that have owners, and keeps what an event owns while the event exists (events are found by name)', () => {
    const { store, clock } = setup();
    store.create('Namespace', { metadata: { name: 'other' } });
    const owner = store.create('ConfigMap', configMap('owner'));
    const ownerRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! };
    const event = (name: string, namespace: string, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name, namespace, ...extra }, involvedObject: { kind: 'ConfigMap', name: 'owner', namespace }, reason: 'Test', message: name, type: 'Normal' });
    store.create('Event', event('owned', 'default', { ownerReferences: [ownerRef] }));
    const plain = store.create('Event', event('plain', 'default'));
    store.create('Event', event('elsewhere', 'other'));
    const eventRef = { apiVersion: 'v1', kind: 'Event', name: 'plain', uid: plain.metadata!.uid! };
    store.create('ConfigMap', { metadata: { name: 'owned-by-event', ownerReferences: [eventRef] } });
    assert.deepEqual(store.list('Event').items.map((e) => e.metadata?.name).sort(), ['elsewhere', 'owned', 'plain']);
    store.delete('ConfigMap', 'default', 'owner');
    while (clock.step()) { /* run the garbage collector */ }
    assert.equal(store.get('Event', 'default', 'owned'), undefined, 'the owned event is collected with its owner');
    assert.ok(store.get('ConfigMap', 'default', 'owned-by-event'), 'an object owned by an existing event stays');
    store.delete('Event', 'default', 'plain');
    while (clock.step()) { /* run the garbage collector */ }
    assert.equal(store.get('ConfigMap', 'default', 'owned-by-event'), undefined, 'and goes with it');
  });

});
