/**
 * kind's storage provisioner, rancher's local-path-provisioner (run through
 * sig-storage-lib-external-provisioner): for a claim the PV controller handed to
 * `rancher.io/local-path` and, with WaitForFirstConsumer, once the scheduler chose a node, it makes
 * a hostPath volume under /var/local-path-provisioner on that node (a helper pod creates the
 * directory: about two seconds on kind) and pins the volume to the node with node affinity. When a
 * released volume's policy is Delete, it removes the directory and the PersistentVolume.
 *
 * local-path serves only ReadWriteOnce and ReadWriteOncePod claims; any other mode fails as it does
 * on kind (`ProvisioningFailed`).
 */
import { informer, objectKey, type SimContext } from '../../context';
import { ApiError, type StoreChange } from '../../store/types';
import {
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  LOCAL_PATH_PROVISIONER,
  claimClass,
  getStorageClass,
  type ClaimObject,
  type StorageClassObject,
  type VolumeObject,
} from '../../storage/storage-objects';

const COMPONENT = 'local-path-provisioner';
/** The helper pod that creates (or removes) the volume's directory on the node. */
const PROVISION_MS = 2_000;
const DELETE_MS = 1_500;
const BASE_PATH = '/var/local-path-provisioner';
const SUPPORTED_ACCESS_MODES = ['ReadWriteOnce', 'ReadWriteOncePod'];

function randomName(random: () => number, length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

export class LocalPathProvisioner {
  private unsubscribe: (() => void)[] = [];
  private readonly inFlight = new Set<string>();
  private readonly deleting = new Set<string>();
  /** The identity its events carry, as kind shows it: `rancher.io/local-path_<pod>_<uuid>`. */
  readonly identity: string;

  constructor(private readonly ctx: SimContext) {
    const random = () => ctx.clock.random.next();
    const hex = '0123456789abcdef';
    const uuid = [8, 4, 4, 4, 12].map((n) => randomName(random, n, hex)).join('-');
    this.identity = `${LOCAL_PATH_PROVISIONER}_local-path-provisioner-7dc846544d-${randomName(random, 5, 'bcdfghjklmnpqrstvwxz2456789')}_${uuid}`;
  }

  start(): void {
    this.unsubscribe = [
      informer(this.ctx, COMPONENT, 'PersistentVolumeClaim', (change) => this.onClaim(change)),
      informer(this.ctx, COMPONENT, 'PersistentVolume', (change) => this.onVolume(change)),
    ];
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
  }

  private onClaim(change: StoreChange): void {
    if (change.type === 'DELETED') return;
    const claim = change.object as ClaimObject;
    // Its informer and work queue, in another process than kube-controller-manager.
    this.ctx.clock.after(this.ctx.timings.controllerReaction, () => this.syncClaim(claim));
  }

  private syncClaim(seen: ClaimObject): void {
    const claim = this.ctx.store.get<ClaimObject>('PersistentVolumeClaim', seen.metadata?.namespace, seen.metadata?.name ?? '');
    if (!claim || claim.metadata?.uid !== seen.metadata?.uid) return;
    const annotations = claim.metadata?.annotations ?? {};
    if (annotations[ANN_STORAGE_PROVISIONER] !== LOCAL_PATH_PROVISIONER || claim.spec?.volumeName || claim.metadata?.deletionTimestamp) return;
    const storageClass = getStorageClass(this.ctx.store, claimClass(claim));
    if (storageClass?.provisioner !== LOCAL_PATH_PROVISIONER) return;
    const node = annotations[ANN_SELECTED_NODE];
    // The library leaves a WaitForFirstConsumer claim alone until the scheduler names a node.
    if (storageClass.volumeBindingMode === 'WaitForFirstConsumer' && !node) return;
    const key = objectKey(claim);
    if (this.inFlight.has(key)) return;
    this.inFlight.add(key);
    this.record(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`);
    const unsupported = (claim.spec?.accessModes ?? []).find((mode) => !SUPPORTED_ACCESS_MODES.includes(mode));
    if (unsupported !== undefined || !node) {
      const reason = unsupported !== undefined ? 'NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes' : 'configuration error, no node was specified';
      this.record(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${storageClass.metadata?.name}": ${reason}`);
      return;
    }
    this.ctx.clock.after(PROVISION_MS, () => this.provision(key, claim, storageClass, node));
  }

  private provision(key: string, requested: ClaimObject, storageClass: StorageClassObject, node: string): void {
    const claim = this.ctx.store.get<ClaimObject>('PersistentVolumeClaim', requested.metadata?.namespace, requested.metadata?.name ?? '');
    if (!claim || claim.metadata?.uid !== requested.metadata?.uid || claim.spec?.volumeName) {
      this.inFlight.delete(key);
      return;
    }
    const meta = claim.metadata ?? {};
    const name = `pvc-${meta.uid}`;
    const volume: VolumeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name, annotations: { 'local.path.provisioner/selected-node': node, [ANN_DYNAMICALLY_PROVISIONED]: LOCAL_PATH_PROVISIONER } },
      spec: {
        accessModes: claim.spec?.accessModes,
        capacity: { storage: claim.spec?.resources?.requests?.storage ?? '0' },
        claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: meta.name, namespace: meta.namespace, resourceVersion: meta.resourceVersion, uid: meta.uid },
        hostPath: { path: `${BASE_PATH}/${name}_${meta.namespace}_${meta.name}`, type: 'DirectoryOrCreate' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
        persistentVolumeReclaimPolicy: storageClass.reclaimPolicy ?? 'Delete',
        storageClassName: storageClass.metadata?.name,
        volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      },
    };
    try {
      this.ctx.store.create('PersistentVolume', volume, { fieldManager: 'local-path-provisioner' });
      this.record(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${name}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code !== 409) this.record(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${storageClass.metadata?.name}": ${error.message}`);
    }
    this.inFlight.delete(key);
  }

  /** A released volume of ours with the Delete policy: the helper pod removes the directory, then the volume goes. */
  private onVolume(change: StoreChange): void {
    if (change.type === 'DELETED') return;
    const volume = change.object as VolumeObject;
    const name = volume.metadata?.name ?? '';
    if (volume.metadata?.annotations?.[ANN_DYNAMICALLY_PROVISIONED] !== LOCAL_PATH_PROVISIONER) return;
    if (volume.status?.phase !== 'Released' || volume.spec?.persistentVolumeReclaimPolicy !== 'Delete' || this.deleting.has(name)) return;
    this.deleting.add(name);
    this.ctx.clock.after(DELETE_MS, () => {
      this.deleting.delete(name);
      try {
        this.ctx.store.delete('PersistentVolume', undefined, name, { preconditions: { uid: volume.metadata?.uid }, actor: COMPONENT });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    });
  }

  private record(claim: ClaimObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    try {
      this.ctx.events.record(claim, type, reason, message, { component: COMPONENT, reportAs: this.identity });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
}
