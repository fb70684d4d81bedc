/**
 * The scheduler's volume plugins through the simulator: VolumeBinding (PreFilter, the per-node
 * Filter for WaitForFirstConsumer claims, PreBind), VolumeRestrictions and VolumeZone, with
 * upstream's messages.
 */
import assert from 'node:assert/strict';
import type { Event, KubeObject, Pod } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';
import type { ClaimObject, VolumeObject } from '../../../src/sim/storage/storage-objects';
import { cycleVerdicts } from '../../../src/common/verdict-table';

type PodObject = Pod & KubeObject;

const PREEMPTION_2 = 'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';

function podWithClaim(name: string, claimName: string): PodObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25', volumeMounts: [{ name: 'data', mountPath: '/data' }] }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
  };
}

function claim(name: string, className: string | undefined, accessModes = ['ReadWriteOnce']): ClaimObject {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec: { accessModes, resources: { requests: { storage: '1Gi' } }, ...(className === undefined ? {} : { storageClassName: className }) } };
}

function localVolume(name: string, node: string, className = 'local-storage', labels?: Record<string, string>): VolumeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, labels },
    spec: {
      capacity: { storage: '5Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: className,
      persistentVolumeReclaimPolicy: 'Retain',
      local: { path: '/data/disks/ssd1' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
    },
  };
}

/** The docs' local volumes class: static volumes only, bound once a pod is scheduled. */
const LOCAL_STORAGE_CLASS = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'local-storage' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' };

function readPod(simulator: Simulator, name: string): PodObject {
  return simulator.store.read<PodObject>('Pod', 'default', name);
}

function scheduledMessage(simulator: Simulator, name: string): string | undefined {
  return readPod(simulator, name).status?.conditions?.find((c) => c.type === 'PodScheduled')?.message;
}

function readClaim(simulator: Simulator, name: string): ClaimObject {
  return simulator.store.read<ClaimObject>('PersistentVolumeClaim', 'default', name);
}

describe('Scheduler: volume plugins', () => {
  it('PreFilter: a missing claim, and an unbound claim whose class binds immediately (or does not exist), refuse every node', () => {
    const simulator = new Simulator({ nodes: 2, seed: 9 });
    simulator.store.create('PersistentVolumeClaim', claim('www-web-0', 'my-storage-class'));
    simulator.store.create('Pod', podWithClaim('unbound', 'www-web-0'));
    simulator.store.create('Pod', podWithClaim('missing', 'task-pv-claim'));
    simulator.runUntil(() => false, 5_000);
    assert.equal(scheduledMessage(simulator, 'unbound'), `0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${PREEMPTION_2}`);
    assert.equal(scheduledMessage(simulator, 'missing'), `0/2 nodes are available: persistentvolumeclaim "task-pv-claim" not found. ${PREEMPTION_2}`);

    simulator.store.create('PersistentVolumeClaim', claim('task-pv-claim', undefined));
    simulator.runUntil(() => !!readPod(simulator, 'missing').spec?.nodeName, 60_000);
    assert.ok(readPod(simulator, 'missing').spec?.nodeName, 'the claim created later lets the pod schedule');
    assert.equal(readPod(simulator, 'unbound').spec?.nodeName, undefined);
  });

  it('WaitForFirstConsumer: schedules the pod, names its node on the claim, and binds the pod after the provisioned volume is Bound', () => {
    const simulator = new Simulator({ nodes: 3, seed: 2 });
    simulator.store.create('PersistentVolumeClaim', claim('notes', undefined));
    simulator.store.create('Pod', podWithClaim('writer', 'notes'));
    simulator.runUntil(() => readPod(simulator, 'writer').status?.phase === 'Running', 60_000);
    const pod = readPod(simulator, 'writer');
    const node = pod.spec?.nodeName;
    assert.ok(node);
    const notes = readClaim(simulator, 'notes');
    assert.equal(notes.status?.phase, 'Bound');
    assert.equal(notes.metadata?.annotations?.['volume.kubernetes.io/selected-node'], node);
    const pv = simulator.store.read<VolumeObject>('PersistentVolume', undefined, notes.spec!.volumeName!);
    assert.deepEqual(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0].matchExpressions?.[0].values, [node]);
    const scheduledAt = Date.parse(pod.status!.conditions!.find((c) => c.type === 'PodScheduled')!.lastTransitionTime!);
    const boundEvent = simulator.store.list<Event & KubeObject>('Event').items.find((e) => e.reason === 'ProvisioningSucceeded');
    assert.ok(scheduledAt >= Date.parse(boundEvent!.firstTimestamp!), 'the pod is bound to its node after its volume was provisioned');
    const cycle = simulator.components.scheduler.lastCycle(pod.metadata!.uid!)!;
    assert.deepEqual(cycleVerdicts(cycle)[0].filters.map((f) => f.plugin).slice(-1), ['VolumeBinding']);

    // A second pod on the same claim goes where the volume is.
    simulator.store.create('Pod', podWithClaim('reader', 'notes'));
    simulator.runUntil(() => !!readPod(simulator, 'reader').spec?.nodeName, 60_000);
    assert.equal(readPod(simulator, 'reader').spec?.nodeName, node);
    const rejected = cycleVerdicts(simulator.components.scheduler.lastCycle(readPod(simulator, 'reader').metadata!.uid!)!).filter((row) => row.node !== node);
    assert.deepEqual(rejected.map((row) => row.filters.at(-1)), [
      { plugin: 'VolumeBinding', code: 'UnschedulableAndUnresolvable', reason: 'node(s) had volume node affinity conflict' },
      { plugin: 'VolumeBinding', code: 'UnschedulableAndUnresolvable', reason: 'node(s) had volume node affinity conflict' },
    ]);
  });

  it('WaitForFirstConsumer with static local volumes: the pod goes to the node of an Available volume, which is bound to its claim', () => {
    const simulator = new Simulator({ nodes: 3, seed: 5 });
    simulator.store.create('StorageClass', LOCAL_STORAGE_CLASS);
    simulator.store.create('PersistentVolume', localVolume('local-pv', 'node-3'));
    simulator.store.create('PersistentVolumeClaim', claim('local-claim', 'local-storage'));
    simulator.store.create('Pod', podWithClaim('db', 'local-claim'));
    simulator.runUntil(() => !!readPod(simulator, 'db').spec?.nodeName, 60_000);
    assert.equal(readPod(simulator, 'db').spec?.nodeName, 'node-3');
    assert.equal(readClaim(simulator, 'local-claim').spec?.volumeName, 'local-pv');
    assert.equal(readClaim(simulator, 'local-claim').status?.phase, 'Bound');

    // No volume left and a class that cannot provision: no node fits.
    simulator.store.create('PersistentVolumeClaim', claim('second-claim', 'local-storage'));
    simulator.store.create('Pod', podWithClaim('db-2', 'second-claim'));
    simulator.runUntil(() => false, 5_000);
    assert.equal(scheduledMessage(simulator, 'db-2'), "0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
  });

  it("a bound volume's node affinity that no node satisfies: volume node affinity conflict", () => {
    const simulator = new Simulator({ nodes: 2, seed: 3 });
    simulator.store.create('PersistentVolume', localVolume('gone-node-pv', 'node-9', 'manual'));
    simulator.store.create('PersistentVolumeClaim', claim('pinned', 'manual'));
    simulator.runUntil(() => readClaim(simulator, 'pinned').status?.phase === 'Bound', 10_000);
    simulator.store.create('Pod', podWithClaim('stuck', 'pinned'));
    simulator.runUntil(() => false, 5_000);
    assert.equal(scheduledMessage(simulator, 'stuck'), `0/2 nodes are available: 2 node(s) had volume node affinity conflict. ${PREEMPTION_2}`);
  });

  it('VolumeZone: a bound volume labelled with a zone admits only nodes of that zone', () => {
    const simulator = new Simulator({ nodes: 3, seed: 3 });
    const zone = simulator.store.read<KubeObject>('Node', undefined, 'node-2').metadata!.labels!['topology.kubernetes.io/zone'];
    const pv: VolumeObject = { ...localVolume('zonal', 'node-2', 'manual', { 'topology.kubernetes.io/zone': zone }) };
    delete pv.spec!.nodeAffinity;
    simulator.store.create('PersistentVolume', pv);
    simulator.store.create('PersistentVolumeClaim', claim('zonal-claim', 'manual'));
    simulator.runUntil(() => readClaim(simulator, 'zonal-claim').status?.phase === 'Bound', 10_000);
    simulator.store.create('Pod', podWithClaim('zonal-pod', 'zonal-claim'));
    simulator.runUntil(() => !!readPod(simulator, 'zonal-pod').spec?.nodeName, 10_000);
    const cycle = simulator.components.scheduler.lastCycle(readPod(simulator, 'zonal-pod').metadata!.uid!)!;
    const zoneOf = (node: string) => simulator.store.read<KubeObject>('Node', undefined, node).metadata!.labels!['topology.kubernetes.io/zone'];
    assert.equal(zoneOf(readPod(simulator, 'zonal-pod').spec!.nodeName!), zone);
    for (const row of cycleVerdicts(cycle)) {
      if (zoneOf(row.node) === zone) assert.equal(row.filters.at(-1)?.code, 'Success');
      else assert.deepEqual(row.filters.at(-1), { plugin: 'VolumeZone', code: 'UnschedulableAndUnresolvable', reason: 'node(s) had no available volume zone' });
    }
  });

  it('VolumeRestrictions: a ReadWriteOncePod claim in use keeps a second pod Pending (preemption could help, but not at equal priority)', () => {
    const simulator = new Simulator({ nodes: 2, seed: 3 });
    simulator.store.create('PersistentVolumeClaim', claim('single', undefined, ['ReadWriteOncePod']));
    simulator.store.create('Pod', podWithClaim('rwop-a', 'single'));
    simulator.runUntil(() => readPod(simulator, 'rwop-a').status?.phase === 'Running', 60_000);
    simulator.store.create('Pod', podWithClaim('rwop-b', 'single'));
    simulator.runUntil(() => false, 5_000);
    assert.equal(readPod(simulator, 'rwop-b').spec?.nodeName, undefined);
    assert.equal(scheduledMessage(simulator, 'rwop-b'), '0/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.');
    const cycle = simulator.components.scheduler.lastCycle(readPod(simulator, 'rwop-b').metadata!.uid!)!;
    assert.deepEqual(cycleVerdicts(cycle)[0].filters.at(-1), { plugin: 'VolumeRestrictions', code: 'Unschedulable', reason: 'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode' });
  });
});
