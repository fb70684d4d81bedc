/**
 * The PersistentVolume controller, the DefaultStorageClass admission and the local-path provisioner
 * through the simulator (kind's storage): binding rules, phases, provisioning, reclaim.
 */
import assert from 'node:assert/strict';
import type { Event, KubeObject } from '../../../../src/core/k8s';
import { Simulator } from '../../../../src/sim/simulator';
import type { ClaimObject, VolumeObject } from '../../../../src/sim/storage/storage-objects';

function volume(name: string, storage: string, extra: { className?: string; accessModes?: string[]; labels?: Record<string, string>; reclaim?: string } = {}): VolumeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, labels: extra.labels },
    spec: {
      capacity: { storage },
      accessModes: extra.accessModes ?? ['ReadWriteOnce'],
      storageClassName: extra.className ?? 'manual',
      persistentVolumeReclaimPolicy: extra.reclaim ?? 'Retain',
      hostPath: { path: `/data/${name}` },
    },
  };
}

function claim(name: string, storage: string, extra: { className?: string | null; accessModes?: string[]; selector?: Record<string, string> } = {}): ClaimObject {
  const spec: ClaimObject['spec'] = { accessModes: extra.accessModes ?? ['ReadWriteOnce'], resources: { requests: { storage } } };
  if (extra.className !== null) spec.storageClassName = extra.className ?? 'manual';
  if (extra.selector) spec.selector = { matchLabels: extra.selector };
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec };
}

function readClaim(simulator: Simulator, name: string): ClaimObject {
  return simulator.store.read<ClaimObject>('PersistentVolumeClaim', 'default', name);
}

function readVolume(simulator: Simulator, name: string): VolumeObject | undefined {
  return simulator.store.get<VolumeObject>('PersistentVolume', undefined, name);
}

function claimEvents(simulator: Simulator, name: string): [string, string][] {
  return simulator.store
    .list<Event & KubeObject>('Event')
    .items.filter((e) => e.involvedObject.kind === 'PersistentVolumeClaim' && e.involvedObject.name === name)
    .map((e) => [e.reason ?? '', e.message ?? '']);
}

function settle(simulator: Simulator, ms = 10_000): void {
  simulator.runUntil(() => false, ms);
}

describe('PersistentVolume controller', () => {
  it('binds a claim to the smallest Available volume of its class that is big enough, and marks both Bound', () => {
    const simulator = new Simulator({ nodes: 1 });
    for (const pv of [volume('small', '1Gi'), volume('big', '20Gi'), volume('medium', '5Gi'), volume('other-class', '2Gi', { className: 'fast' })]) simulator.store.create('PersistentVolume', pv);
    simulator.store.create('PersistentVolumeClaim', claim('task-pv-claim', '3Gi'));
    settle(simulator);
    const bound = readClaim(simulator, 'task-pv-claim');
    assert.equal(bound.spec?.volumeName, 'medium');
    assert.equal(bound.status?.phase, 'Bound');
    assert.deepEqual(bound.status?.capacity, { storage: '5Gi' });
    assert.deepEqual(bound.status?.accessModes, ['ReadWriteOnce']);
    assert.equal(bound.metadata?.annotations?.['pv.kubernetes.io/bind-completed'], 'yes');
    assert.equal(bound.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
    const pv = readVolume(simulator, 'medium')!;
    assert.equal(pv.status?.phase, 'Bound');
    assert.equal(pv.spec?.claimRef?.name, 'task-pv-claim');
    assert.equal(pv.spec?.claimRef?.uid, bound.metadata?.uid);
    assert.equal(readVolume(simulator, 'small')?.status?.phase, 'Available');
    assert.equal(readVolume(simulator, 'big')?.status?.phase, 'Available');
  });

  it('honours access modes, the selector and the volume mode', () => {
    const simulator = new Simulator({ nodes: 1 });
    simulator.store.create('PersistentVolume', volume('rwo', '10Gi', { labels: { tier: 'db' } }));
    simulator.store.create('PersistentVolume', volume('rwx', '10Gi', { accessModes: ['ReadWriteMany'], labels: { tier: 'web' } }));
    simulator.store.create('PersistentVolumeClaim', claim('shared', '1Gi', { accessModes: ['ReadWriteMany'] }));
    simulator.store.create('PersistentVolumeClaim', claim('db', '1Gi', { selector: { tier: 'db' } }));
    simulator.store.create('PersistentVolumeClaim', { ...claim('block', '1Gi'), spec: { ...claim('block', '1Gi').spec, volumeMode: 'Block' } });
    settle(simulator);
    assert.equal(readClaim(simulator, 'shared').spec?.volumeName, 'rwx');
    assert.equal(readClaim(simulator, 'db').spec?.volumeName, 'rwo');
    assert.equal(readClaim(simulator, 'block').spec?.volumeName, undefined);
    assert.equal(readClaim(simulator, 'block').status?.phase, 'Pending');
  });

  it('binds a claim that arrived first once a fitting volume is created', () => {
    const simulator = new Simulator({ nodes: 1 });
    simulator.store.create('PersistentVolumeClaim', claim('early', '1Gi'));
    settle(simulator, 2_000);
    assert.equal(readClaim(simulator, 'early').status?.phase, 'Pending');
    simulator.store.create('PersistentVolume', volume('late', '1Gi'));
    simulator.runUntil(() => readClaim(simulator, 'early').status?.phase === 'Bound', 10_000);
    assert.equal(readClaim(simulator, 'early').spec?.volumeName, 'late');
  });

  it('leaves a claim whose class does not exist Pending with ProvisioningFailed', () => {
    const simulator = new Simulator({ nodes: 1 });
    simulator.store.create('PersistentVolumeClaim', claim('www-web-0', '1Gi', { className: 'my-storage-class' }));
    settle(simulator);
    assert.equal(readClaim(simulator, 'www-web-0').status?.phase, 'Pending');
    assert.deepEqual(claimEvents(simulator, 'www-web-0'), [['ProvisioningFailed', 'storageclass.storage.k8s.io "my-storage-class" not found']]);
  });

  it('says so when a claim asks for no class and no volume fits', () => {
    const simulator = new Simulator({ nodes: 1 });
    simulator.store.create('PersistentVolumeClaim', claim('too-big', '1Gi', { className: '' }));
    settle(simulator);
    assert.equal(readClaim(simulator, 'too-big').spec?.storageClassName, '', 'an explicit empty class is kept');
    assert.deepEqual(claimEvents(simulator, 'too-big'), [['FailedBinding', 'no persistent volumes available for this claim and no storage class is set']]);
  });

  it('gives a claim without a class the default class standard, which waits for its first consumer', () => {
    const simulator = new Simulator({ nodes: 1 });
    const sc = simulator.store.read<KubeObject>('StorageClass', undefined, 'standard');
    assert.equal(sc.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'], 'true');
    assert.equal(sc.provisioner, 'rancher.io/local-path');
    assert.equal(sc.volumeBindingMode, 'WaitForFirstConsumer');
    assert.equal(sc.reclaimPolicy, 'Delete');
    simulator.store.create('PersistentVolumeClaim', claim('lonely', '1Gi', { className: null }));
    settle(simulator);
    const lonely = readClaim(simulator, 'lonely');
    assert.equal(lonely.spec?.storageClassName, 'standard');
    assert.equal(lonely.status?.phase, 'Pending');
    assert.deepEqual(claimEvents(simulator, 'lonely'), [['WaitForFirstConsumer', 'waiting for first consumer to be created before binding']]);
    assert.equal(simulator.store.list('PersistentVolume').items.length, 0);
  });

  it('provisions through local-path once the scheduler picked a node, and deletes the volume with its claim', () => {
    const simulator = new Simulator({ nodes: 2 });
    simulator.store.create('PersistentVolumeClaim', claim('notes', '10Mi', { className: null }));
    settle(simulator, 1_000);
    simulator.store.mutate<ClaimObject>('PersistentVolumeClaim', 'default', 'notes', (copy) => {
      copy.metadata!.annotations = { ...copy.metadata!.annotations, 'volume.kubernetes.io/selected-node': 'node-2' };
    });
    simulator.runUntil(() => readClaim(simulator, 'notes').status?.phase === 'Bound', 30_000);
    const notes = readClaim(simulator, 'notes');
    const uid = notes.metadata!.uid!;
    assert.equal(notes.spec?.volumeName, `pvc-${uid}`);
    assert.equal(notes.metadata?.annotations?.['volume.kubernetes.io/storage-provisioner'], 'rancher.io/local-path');
    const pv = readVolume(simulator, `pvc-${uid}`)!;
    assert.equal(pv.spec?.hostPath?.path, `/var/local-path-provisioner/pvc-${uid}_default_notes`);
    assert.deepEqual(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms, [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-2'] }] }]);
    assert.equal(pv.spec?.persistentVolumeReclaimPolicy, 'Delete');
    assert.equal(pv.spec?.storageClassName, 'standard');
    assert.equal(pv.status?.phase, 'Bound');
    assert.deepEqual(claimEvents(simulator, 'notes'), [
      ['WaitForFirstConsumer', 'waiting for first consumer to be created before binding'],
      ['ExternalProvisioning', "Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."],
      ['Provisioning', 'External provisioner is provisioning volume for claim "default/notes"'],
      ['ProvisioningSucceeded', `Successfully provisioned volume pvc-${uid}`],
    ]);
    const provisioning = simulator.store.list<Event & KubeObject>('Event').items.find((e) => e.reason === 'ProvisioningSucceeded');
    assert.match(provisioning?.source?.component ?? '', /^rancher\.io\/local-path_local-path-provisioner-[a-z0-9]+-[a-z0-9]{5}_[0-9a-f-]{36}$/);

    simulator.store.delete('PersistentVolumeClaim', 'default', 'notes');
    simulator.runUntil(() => readVolume(simulator, `pvc-${uid}`) === undefined, 30_000);
    assert.equal(readVolume(simulator, `pvc-${uid}`), undefined);
  });

  it('keeps a Retain volume as Released when its claim goes', () => {
    const simulator = new Simulator({ nodes: 1 });
    simulator.store.create('PersistentVolume', volume('pv-manual', '100Mi'));
    simulator.store.create('PersistentVolumeClaim', claim('manual-claim', '50Mi'));
    simulator.runUntil(() => readClaim(simulator, 'manual-claim').status?.phase === 'Bound', 10_000);
    simulator.store.delete('PersistentVolumeClaim', 'default', 'manual-claim');
    simulator.runUntil(() => readVolume(simulator, 'pv-manual')?.status?.phase === 'Released', 10_000);
    const pv = readVolume(simulator, 'pv-manual')!;
    assert.equal(pv.status?.phase, 'Released');
    assert.equal(pv.spec?.claimRef?.name, 'manual-claim');
  });

  it('keeps a claim a running pod uses Terminating until the pod is gone (pvc-protection), then reclaims its volume', () => {
    const simulator = new Simulator({ nodes: 1 });
    simulator.store.create('PersistentVolumeClaim', claim('notes', '10Mi', { className: null }));
    simulator.store.create('Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'writer', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', 'infinity'] }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'notes' } }] } });
    simulator.runUntil(() => simulator.store.read<KubeObject & { status?: { phase?: string } }>('Pod', 'default', 'writer').status?.phase === 'Running', 60_000);
    const notes = readClaim(simulator, 'notes');
    const volumeName = notes.spec!.volumeName!;
    assert.deepEqual(notes.metadata?.finalizers, ['kubernetes.io/pvc-protection']);
    assert.deepEqual(readVolume(simulator, volumeName)?.metadata?.finalizers, ['kubernetes.io/pv-protection']);

    simulator.store.delete('PersistentVolumeClaim', 'default', 'notes');
    settle(simulator, 5_000);
    assert.ok(readClaim(simulator, 'notes').metadata?.deletionTimestamp, 'the claim in use is Terminating');
    assert.equal(readVolume(simulator, volumeName)?.status?.phase, 'Bound');

    simulator.store.delete('Pod', 'default', 'writer', { gracePeriodSeconds: 0 });
    simulator.runUntil(() => readVolume(simulator, volumeName) === undefined, 60_000);
    assert.equal(simulator.store.get('PersistentVolumeClaim', 'default', 'notes'), undefined);
    assert.equal(readVolume(simulator, volumeName), undefined);
  });

  it('gives a claim made while no default class existed the default class once one exists (RetroactiveDefaultStorageClass)', () => {
    const simulator = new Simulator({ nodes: 1 });
    simulator.store.delete('StorageClass', undefined, 'standard');
    simulator.store.create('PersistentVolumeClaim', claim('early', '1Gi', { className: null }));
    settle(simulator, 2_000);
    assert.equal(readClaim(simulator, 'early').spec?.storageClassName, undefined);
    assert.deepEqual(claimEvents(simulator, 'early'), [['FailedBinding', 'no persistent volumes available for this claim and no storage class is set']]);
    simulator.store.create('StorageClass', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' });
    simulator.runUntil(() => readClaim(simulator, 'early').spec?.storageClassName !== undefined, 10_000);
    assert.equal(readClaim(simulator, 'early').spec?.storageClassName, 'fast');
  });
});

