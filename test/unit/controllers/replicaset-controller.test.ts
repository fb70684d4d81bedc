import assert from 'node:assert/strict';
import type { PodObject, ReplicaSetObject } from '../../../src/sim/controllers/controller-types';
import { MemoryStore, type StoreOptions } from '../../../src/sim/store/store';
import { QuotaStore, setup, type Harness } from './harness';

function replicaSet(name: string, replicas: number, extra: Partial<NonNullable<ReplicaSetObject['spec']>> = {}): ReplicaSetObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name, tier: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
      ...extra,
    },
  };
}

function rsNamed(h: Harness, name: string): ReplicaSetObject {
  return h.store.read<ReplicaSetObject>('ReplicaSet', 'default', name);
}

function scale(h: Harness, name: string, replicas: number): void {
  h.store.mutate<ReplicaSetObject>('ReplicaSet', 'default', name, (copy) => {
    copy.spec!.replicas = replicas;
  }, { fieldManager: 'kubectl' });
}

function bind(h: Harness, pod: PodObject, node: string): void {
  h.store.mutate<PodObject>('Pod', 'default', pod.metadata?.name ?? '', (copy) => {
    copy.spec!.nodeName = node;
  }, { fieldManager: 'default-scheduler' });
}

/** A store whose pod watch lags behind its writes, as an informer cache does. */
class LaggyPodWatchStore extends MemoryStore {
  constructor(
    private readonly options: StoreOptions,
    private readonly lagMs: number,
  ) {
    super(options);
  }
  override subscribe(kind: Parameters<MemoryStore['subscribe']>[0], listener: Parameters<MemoryStore['subscribe']>[1]): () => void {
    if (kind !== 'Pod') return super.subscribe(kind, listener);
    return super.subscribe(kind, (change) => {
      this.options.clock.after(this.lagMs, () => listener(change));
    });
  }
}

describe('ReplicaSetController', () => {
  it('creates the pods from the template with generateName and a controller reference, and says so in events', () => {
    const h = setup({ deployments: false });
    const rs = h.store.create('ReplicaSet', replicaSet('web', 3));
    h.run(10);
    const pods = h.pods(rs);
    assert.equal(pods.length, 3);
    for (const pod of pods) {
      assert.match(pod.metadata!.name!, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.equal(pod.metadata!.generateName, 'web-');
      assert.deepEqual(pod.metadata!.labels, { app: 'web', tier: 'web' });
      assert.deepEqual(pod.metadata!.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
      assert.equal(pod.spec!.containers[0].image, 'nginx:1.25');
    }
    assert.deepEqual(
      h.recorded.filter((e) => e.kind === 'ReplicaSet').map((e) => [e.type, e.reason, e.message, e.component]),
      pods.map((p) => ['Normal', 'SuccessfulCreate', `Created pod: ${p.metadata!.name}`, 'replicaset-controller']),
    );
  });

  it('does not create again while its own creations are not yet seen (expectations)', () => {
    const h = setup({ deployments: false, makeStore: (options) => new LaggyPodWatchStore(options, 50) });
    const rs = h.store.create('ReplicaSet', replicaSet('web', 3));
    // The first sync creates 3 pods and writes status, which triggers a second sync 5 ms later,
    // while the pod watch has not delivered the pods yet.
    h.run(30);
    assert.equal(h.pods(rs).length, 3);
    h.run(100);
    assert.equal(h.pods(rs).length, 3);
    assert.equal(rsNamed(h, 'web').status!.replicas, 3);
  });

  it('reports replicas, fullyLabeledReplicas, readyReplicas, availableReplicas and observedGeneration', () => {
    const h = setup({ deployments: false, readyAfterMs: 1000 });
    h.store.create('ReplicaSet', replicaSet('web', 3));
    h.run(10);
    assert.deepEqual(rsNamed(h, 'web').status, { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
    h.run(2000);
    assert.deepEqual(rsNamed(h, 'web').status, { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    // A pod relabelled by hand no longer counts as fully labelled.
    const pod = h.pods(rsNamed(h, 'web'))[0];
    h.store.mutate<PodObject>('Pod', 'default', pod.metadata!.name!, (copy) => {
      delete copy.metadata!.labels!.tier;
    });
    h.run(10);
    assert.equal(rsNamed(h, 'web').status!.fullyLabeledReplicas, 2);
    scale(h, 'web', 3); // no-op write: no generation change
    h.store.mutate<ReplicaSetObject>('ReplicaSet', 'default', 'web', (copy) => {
      copy.spec!.minReadySeconds = 5;
    });
    h.run(10);
    assert.equal(rsNamed(h, 'web').status!.observedGeneration, 2);
  });

  it('creates at most 500 pods per sync, in slow-start batches, and re-syncs until the count is reached', () => {
    const h = setup({ deployments: false });
    const rs = h.store.create('ReplicaSet', replicaSet('big', 1200));
    const sizes: number[] = [];
    for (let i = 0; i < 4; i++) {
      h.run(5);
      sizes.push(h.pods(rs).length);
    }
    assert.deepEqual(sizes, [500, 1000, 1200, 1200]);
    assert.equal(rsNamed(h, 'big').status!.replicas, 1200);
  });

  it('stops creating after a failed batch, reports FailedCreate and ReplicaFailure, and retries', () => {
    let store: QuotaStore | undefined;
    const h = setup({ deployments: false, makeStore: (options) => (store = new QuotaStore(options)) });
    store!.limit = 5;
    const rs = h.store.create('ReplicaSet', replicaSet('web', 10));
    h.run(5);
    // Batches 1, 2, 4: the third batch makes its 4 attempts, 2 of which fail, and no fourth batch starts.
    assert.equal(h.pods(rs).length, 5);
    const failures = h.recorded.filter((e) => e.reason === 'FailedCreate');
    assert.equal(failures.length, 2);
    assert.equal(failures[0].type, 'Warning');
    assert.equal(failures[0].message, 'Error creating: pods "web-" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=5, limited: pods=5');
    const condition = rsNamed(h, 'web').status!.conditions![0];
    assert.deepEqual({ ...condition, lastTransitionTime: undefined }, {
      type: 'ReplicaFailure',
      status: 'True',
      lastTransitionTime: undefined,
      reason: 'FailedCreate',
      message: 'pods "web-" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=5, limited: pods=5',
    });
    store!.limit = Infinity;
    h.run(1000);
    assert.equal(h.pods(rs).length, 10);
    assert.equal(rsNamed(h, 'web').status!.conditions, undefined);
  });

  it('scales down the cheapest pods first: unassigned, then not ready, and never the ready ones', () => {
    const h = setup({ deployments: false });
    const rs = h.store.create('ReplicaSet', replicaSet('web', 5));
    h.run(10);
    const [a, b, c, d, e] = h.pods(rs);
    for (const pod of [a, b, c, d]) bind(h, pod, 'node-1');
    h.markReady(a);
    h.markReady(b);
    h.run(10);
    scale(h, 'web', 2);
    h.run(10);
    const deleted = h.recorded.filter((ev) => ev.reason === 'SuccessfulDelete').map((ev) => ev.message);
    // e is unassigned; c and d are assigned but not ready and newest-first within the same second, tie broken by uid.
    assert.equal(deleted.length, 3);
    assert.equal(deleted[0], `Deleted pod: ${e.metadata!.name}`);
    assert.deepEqual(new Set(deleted.slice(1)), new Set([`Deleted pod: ${c.metadata!.name}`, `Deleted pod: ${d.metadata!.name}`]));
    // Bound pods are deleted gracefully: they stay, terminating, but no longer count.
    const remaining = h.pods(rsNamed(h, 'web'));
    assert.equal(remaining.filter((p) => !p.metadata!.deletionTimestamp).length, 2);
    assert.deepEqual(new Set(remaining.filter((p) => !p.metadata!.deletionTimestamp).map((p) => p.metadata!.name)), new Set([a.metadata!.name, b.metadata!.name]));
    assert.equal(rsNamed(h, 'web').status!.replicas, 2);
  });

  it('replaces a pod that is being deleted, since terminating pods do not count as active', () => {
    const h = setup({ deployments: false });
    const rs = h.store.create('ReplicaSet', replicaSet('web', 2));
    h.run(10);
    const [first] = h.pods(rs);
    bind(h, first, 'node-1');
    h.store.delete('Pod', 'default', first.metadata!.name!);
    assert.ok(h.store.get<PodObject>('Pod', 'default', first.metadata!.name!)!.metadata!.deletionTimestamp, 'graceful: still there');
    h.run(10);
    const pods = h.pods(rsNamed(h, 'web'));
    assert.equal(pods.length, 3);
    assert.equal(pods.filter((p) => !p.metadata!.deletionTimestamp).length, 2);
    assert.equal(rsNamed(h, 'web').status!.replicas, 2);
    assert.equal(h.recorded.filter((e) => e.reason === 'SuccessfulCreate').length, 3);
  });

  it('counts a pod available only minReadySeconds after it became Ready', () => {
    const h = setup({ deployments: false, readyAfterMs: 1000 });
    h.store.create('ReplicaSet', replicaSet('web', 2, { minReadySeconds: 10 }));
    h.run(2000);
    assert.equal(rsNamed(h, 'web').status!.readyReplicas, 2);
    assert.equal(rsNamed(h, 'web').status!.availableReplicas, undefined);
    h.run(9000);
    assert.equal(rsNamed(h, 'web').status!.availableReplicas, undefined, '10 s after Ready, not yet (strictly after)');
    h.run(1000);
    assert.equal(rsNamed(h, 'web').status!.availableReplicas, 2);
  });
});
