import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';

type PodObject = Pod & KubeObject;

function podWithClaim(name: string, claimName: string): PodObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25', volumeMounts: [{ name: 'data', mountPath: '/data' }] }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
  };
}

function scheduledCondition(simulator: Simulator, name: string) {
  return simulator.store.read<PodObject>('Pod', 'default', name).status?.conditions?.find((c) => c.type === 'PodScheduled');
}

describe('Scheduler: VolumeBinding PreFilter (no storage provisioning)', () => {
  it('keeps a pod whose claim is unbound or missing Pending, and schedules it once the claim is bound', () => {
    const simulator = new Simulator({ nodes: 2, seed: 9 });
    simulator.store.create('PersistentVolumeClaim', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    simulator.store.create('Pod', podWithClaim('unbound', 'data'));
    simulator.store.create('Pod', podWithClaim('missing', 'nothing'));
    simulator.runUntil(() => false, 5_000);
    const preemption = 'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
    assert.equal(scheduledCondition(simulator, 'unbound')?.message, `0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${preemption}`);
    assert.equal(scheduledCondition(simulator, 'missing')?.message, `0/2 nodes are available: persistentvolumeclaim "nothing" not found. ${preemption}`);

    // What a volume binder will do once storage exists: the claim names its volume.
    simulator.store.mutate('PersistentVolumeClaim', 'default', 'data', (copy) => {
      (copy.spec as { volumeName?: string }).volumeName = 'pv-data';
    });
    simulator.runUntil(() => !!simulator.store.read<PodObject>('Pod', 'default', 'unbound').spec?.nodeName, 60_000);
    assert.ok(simulator.store.read<PodObject>('Pod', 'default', 'unbound').spec?.nodeName);
    assert.equal(simulator.store.read<PodObject>('Pod', 'default', 'missing').spec?.nodeName, undefined);
  });
});
