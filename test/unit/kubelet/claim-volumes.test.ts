/**
 * The kubelet mounts a pod's claims before its sandbox: a pod that names its node (skipping the
 * scheduler's VolumeBinding) with a missing claim stays ContainerCreating with FailedMount, and
 * starts once the claim exists and is Bound.
 */
import assert from 'node:assert/strict';
import type { Event, KubeObject, Pod } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';

type PodObject = Pod & KubeObject;

describe('kubelet: PersistentVolumeClaim volumes', () => {
  it('reports FailedMount for a missing claim, and starts the pod once the claim is Bound', () => {
    const simulator = new Simulator({ nodes: 1 });
    simulator.store.create('Pod', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pinned', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx:1.25' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'task-pv-claim' } }] },
    });
    simulator.runUntil(() => false, 5_000);
    const pod = () => simulator.store.read<PodObject>('Pod', 'default', 'pinned');
    assert.equal(pod().status?.phase, 'Pending');
    assert.equal(pod().status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
    const failedMount = simulator.store.list<Event & KubeObject>('Event').items.find((e) => e.reason === 'FailedMount');
    assert.equal(
      failedMount?.message,
      'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: error processing PVC default/task-pv-claim: failed to fetch PVC from API server: persistentvolumeclaims "task-pv-claim" not found',
    );
    assert.equal(failedMount?.type, 'Warning');

    simulator.store.create('PersistentVolume', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'task-pv-volume' }, spec: { storageClassName: 'manual', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data/task-pv' } } });
    simulator.store.create('PersistentVolumeClaim', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'task-pv-claim', namespace: 'default' }, spec: { storageClassName: 'manual', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '3Gi' } } } });
    const outcome = simulator.runUntil(() => pod().status?.phase === 'Running', 60_000);
    assert.equal(outcome, 'done');
  });
});
