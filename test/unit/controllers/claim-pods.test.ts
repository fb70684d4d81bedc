/**
 * The ReplicaSet controller's claimPods: bare pods whose labels match a ReplicaSet's selector are
 * acquired by it (the docs' "Non-Template Pod acquisitions"), pods of another controller are not.
 */
import assert from 'node:assert/strict';
import type { KubeObject, Pod, ReplicaSet } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';

const MINUTE = 60_000;

const frontend: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'frontend', namespace: 'default', labels: { app: 'guestbook', tier: 'frontend' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { tier: 'frontend' } },
    template: { metadata: { labels: { tier: 'frontend' } }, spec: { containers: [{ name: 'php-redis', image: 'us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5' }] } },
  },
};

const barePod = (name: string, labels: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels },
  spec: { containers: [{ name: 'hello', image: 'gcr.io/google-samples/hello-app:2.0' }] },
});

describe('ReplicaSet claimPods', () => {
  it('acquires matching bare pods and creates only the rest', () => {
    const simulator = new Simulator({ seed: 6 });
    simulator.apply(barePod('pod1', { tier: 'frontend' }));
    simulator.apply(barePod('pod2', { tier: 'frontend' }));
    simulator.apply(barePod('other', { tier: 'backend' }));
    const rs = simulator.apply(frontend).object;
    const readyReplicas = () => simulator.store.read<ReplicaSet & KubeObject>('ReplicaSet', 'default', 'frontend').status?.readyReplicas;
    simulator.runUntil(() => readyReplicas() === 3, 5 * MINUTE);
    const owned = simulator.store.ownedBy<Pod & KubeObject>('Pod', rs.metadata?.uid ?? '').map((pod) => pod.metadata?.name ?? '');
    assert.equal(owned.length, 3);
    assert.ok(owned.includes('pod1') && owned.includes('pod2'), owned.join(','));
    assert.match(owned.find((name) => !name.startsWith('pod')) ?? '', /^frontend-[a-z0-9]{5}$/);
    const other = simulator.store.read<Pod & KubeObject>('Pod', 'default', 'other');
    assert.equal(other.metadata?.ownerReferences, undefined);
    const pod1 = simulator.store.read<Pod & KubeObject>('Pod', 'default', 'pod1');
    assert.deepEqual(pod1.metadata?.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'frontend', uid: rs.metadata?.uid, controller: true, blockOwnerDeletion: true }]);
  });

  it('deletes surplus pods once bare pods that match arrive after its own', () => {
    const simulator = new Simulator({ seed: 8 });
    const rs = simulator.apply(frontend).object;
    const owned = () => simulator.store.ownedBy<Pod & KubeObject>('Pod', rs.metadata?.uid ?? '').filter((pod) => !pod.metadata?.deletionTimestamp);
    simulator.runUntil(() => owned().length === 3, 5 * MINUTE);
    simulator.apply(barePod('pod1', { tier: 'frontend' }));
    simulator.apply(barePod('pod2', { tier: 'frontend' }));
    simulator.runUntil(() => simulator.store.list('Pod', { namespace: 'default' }).items.length === 3, 5 * MINUTE);
    assert.equal(simulator.store.list('Pod', { namespace: 'default' }).items.length, 3);
    assert.equal(owned().length, 3);
  });
});
