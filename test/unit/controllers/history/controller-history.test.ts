import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import { VirtualClock } from '../../../../src/sim/clock';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  ControllerHistory,
  equalRevision,
  hashControllerRevision,
  newControllerRevision,
  nextRevision,
  sortControllerRevisions,
  templateReplacePatch,
} from '../../../../src/sim/controllers/history/controller-history';
import { MemoryStore } from '../../../../src/sim/store/store';

const STS_KIND = { apiVersion: 'apps/v1', kind: 'StatefulSet' };

function setup() {
  const clock = new VirtualClock({ seed: 5 });
  const store = new MemoryStore({ clock, internals: { record: () => undefined, recordsWatchDeliveries: false } });
  store.create('Namespace', { metadata: { name: 'default' } });
  const owner: KubeObject = { metadata: { name: 'web', namespace: 'default', uid: 'owner-uid' }, spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } } };
  return { store, owner, history: new ControllerHistory(store, 'statefulset-controller') };
}

describe('controller history', () => {
  it('hashes with FNV-1 into the safe alphabet, and the collision count changes the hash', () => {
    const data = { spec: { template: { $patch: 'replace' } } };
    const hash = hashControllerRevision(data);
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    assert.equal(hashControllerRevision(data), hash, 'deterministic');
    assert.notEqual(hashControllerRevision(data, 0), hash, 'a collision count of 0 still changes the hash');
    assert.notEqual(hashControllerRevision(data, 1), hashControllerRevision(data, 0));
    assert.notEqual(hashControllerRevision({ spec: { template: { $patch: 'replace', x: 1 } } }), hash);
  });

  it('stores the template as a replace patch and names the revision <owner>-<hash>', () => {
    const { owner } = setup();
    const data = templateReplacePatch(owner);
    assert.deepEqual((data.spec as { template: Record<string, unknown> }).template.$patch, 'replace');
    const revision = newControllerRevision(owner, STS_KIND, { app: 'web' }, data, 1);
    const hash = revision.metadata!.labels![CONTROLLER_REVISION_HASH_LABEL];
    assert.equal(revision.metadata!.name, `web-${hash}`);
    assert.equal(revision.metadata!.labels!.app, 'web');
    assert.deepEqual(revision.metadata!.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'owner-uid', controller: true, blockOwnerDeletion: true }]);
  });

  it('creates through the API, returns an equal revision on a name clash, and bumps the collision count on a real collision', () => {
    const { store, owner, history } = setup();
    const created = store.create<KubeObject>('StatefulSet', { metadata: { name: 'web' }, spec: owner.spec });
    const revision = newControllerRevision(created, STS_KIND, { app: 'web' }, templateReplacePatch(created), 1);
    const collision = { value: 0 };
    const first = history.createControllerRevision(created, revision, collision);
    assert.equal(first.metadata!.name, `web-${hashControllerRevision(revision.data, 0)}`);
    assert.equal(history.createControllerRevision(created, revision, collision).metadata!.uid, first.metadata!.uid, 'same data: the existing revision');
    assert.equal(collision.value, 0);
    assert.deepEqual(history.listControllerRevisions(created).map((r) => r.metadata!.name), [first.metadata!.name]);

    // A revision with other data already holds the name the next data would get.
    const next = newControllerRevision(created, STS_KIND, {}, { spec: { template: { $patch: 'replace', other: true } } }, 2);
    const squatter = { ...next, data: { unrelated: true }, metadata: { ...next.metadata, name: `web-${hashControllerRevision(next.data, 0)}` } };
    store.create('ControllerRevision', squatter);
    const second = history.createControllerRevision(created, next, collision);
    assert.equal(collision.value, 1);
    assert.equal(second.metadata!.name, `web-${hashControllerRevision(next.data, 1)}`);
    assert.equal(history.updateControllerRevision(second, 5).revision, 5);
    history.deleteControllerRevision(second);
    assert.equal(store.get('ControllerRevision', 'default', second.metadata!.name!), undefined);
  });

  it('sorts by revision and finds the next one', () => {
    const { owner } = setup();
    const make = (n: number) => newControllerRevision(owner, STS_KIND, {}, { n }, n);
    const sorted = sortControllerRevisions([make(3), make(1), make(2)]);
    assert.deepEqual(sorted.map((r) => r.revision), [1, 2, 3]);
    assert.equal(nextRevision(sorted), 4);
    assert.equal(nextRevision([]), 1);
    assert.ok(equalRevision(make(1), { ...make(1), revision: 9 }));
    assert.ok(!equalRevision(make(1), make(2)));
  });
});
