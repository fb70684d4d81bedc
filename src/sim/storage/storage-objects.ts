/**
 * The storage objects the PV controller, the local-path provisioner and the scheduler's volume
 * plugins share: their shapes, the annotations upstream spells (pkg/controller/volume/persistentvolume/util
 * and component-helpers/storage/volume), and kind's default StorageClass.
 */
import type { PersistentVolume } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { KubeObject, PersistentVolumeClaim } from '../../core/k8s';
import type { StoreApi } from '../store/types';

export type ClaimObject = PersistentVolumeClaim & KubeObject;
export type VolumeObject = PersistentVolume & KubeObject;
export type StorageClassObject = StorageClass & KubeObject;

/** `AnnBindCompleted`: the claim's binding is complete; set by the PV controller. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** `AnnBoundByController`: the controller, not the user, bound the claim or volume. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** `AnnSelectedNode`: the node the scheduler picked for a WaitForFirstConsumer claim. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** `AnnStorageProvisioner` and its beta form: which provisioner is expected to provision the claim. */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
/** `AnnDynamicallyProvisioned`: on a PV, the provisioner that made it. */
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
/** The beta class annotation, which wins over `spec.storageClassName` on claims and volumes. */
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
export const ANN_IS_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const ANN_BETA_IS_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';

/** The provisioner kind installs (rancher local-path-provisioner) and its class. */
export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
export const KIND_DEFAULT_CLASS = 'standard';
/** `NotSupportedProvisioner`: a class for static volumes only. */
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

/** kind's `standard` StorageClass, as `kubectl get sc standard -o yaml` shows it on a fresh cluster. */
export function kindDefaultStorageClass(): StorageClassObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: KIND_DEFAULT_CLASS, annotations: { [ANN_IS_DEFAULT_CLASS]: 'true' } },
    provisioner: LOCAL_PATH_PROVISIONER,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

/** `GetPersistentVolumeClaimClass`: the beta annotation wins; '' means no class. */
export function claimClass(claim: ClaimObject): string {
  return claim.metadata?.annotations?.[ANN_BETA_STORAGE_CLASS] ?? claim.spec?.storageClassName ?? '';
}

/** `GetPersistentVolumeClass`. */
export function volumeClass(volume: VolumeObject): string {
  return volume.metadata?.annotations?.[ANN_BETA_STORAGE_CLASS] ?? volume.spec?.storageClassName ?? '';
}

export function getStorageClass(store: StoreApi, name: string): StorageClassObject | undefined {
  return name === '' ? undefined : store.get<StorageClassObject>('StorageClass', undefined, name);
}

/** `IsDelayBindingMode`: the claim's class exists and binds WaitForFirstConsumer (a missing class binds immediately). */
export function isDelayBindingMode(store: StoreApi, claim: ClaimObject): boolean {
  return getStorageClass(store, claimClass(claim))?.volumeBindingMode === 'WaitForFirstConsumer';
}

export function isDefaultClass(storageClass: StorageClassObject): boolean {
  const annotations = storageClass.metadata?.annotations ?? {};
  return annotations[ANN_IS_DEFAULT_CLASS] === 'true' || annotations[ANN_BETA_IS_DEFAULT_CLASS] === 'true';
}

/** `GetDefaultClass`: the newest default class (by creation time, then name), or undefined. */
export function defaultStorageClass(store: StoreApi): StorageClassObject | undefined {
  const defaults = store.list<StorageClassObject>('StorageClass').items.filter(isDefaultClass);
  defaults.sort((a, b) => (b.metadata?.creationTimestamp ?? '').localeCompare(a.metadata?.creationTimestamp ?? '') || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  return defaults[0];
}

/** `pvc.Spec.VolumeName` set and the binding annotated complete. */
export function isClaimBound(claim: ClaimObject): boolean {
  return !!claim.spec?.volumeName && claim.metadata?.annotations?.[ANN_BIND_COMPLETED] !== undefined;
}

export function claimKey(claim: ClaimObject): string {
  return `${claim.metadata?.namespace ?? 'default'}/${claim.metadata?.name ?? ''}`;
}
