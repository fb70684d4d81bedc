/** PersistentVolumeClaim, PersistentVolume and StorageClass rows: ports of `printPersistentVolumeClaim`, `printPersistentVolume` and `printStorageClass`. */
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../core/k8s';
import type { PrintedRow } from './row';
import { quantityString } from './quantity';
import { ageOf, ageSince, parseTime } from './time';

/** `helper.GetAccessModesAsString`: the short names, in this order, of the modes present. */
const ACCESS_MODE_NAMES: readonly [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

export function printPersistentVolumeClaim(claim: PersistentVolumeClaim, now: number): PrintedRow {
  const spec = claim.spec;
  const phase = claim.metadata?.deletionTimestamp ? 'Terminating' : (claim.status?.phase ?? '');
  let capacity = '';
  let accessModes = '';
  // Capacity and access modes are the bound volume's: nothing to show until the claim is bound.
  if (spec?.volumeName) {
    const modes = claim.status?.accessModes ?? [];
    accessModes = accessModesString(modes);
    capacity = claim.status?.capacity?.storage ?? '0';
  }
  return {
    cells: [
      claim.metadata?.name ?? '',
      phase,
      spec?.volumeName ?? '',
      capacity,
      accessModes,
      storageClassOf(claim),
      spec?.volumeAttributesClassName ?? '<unset>',
      ageSince(parseTime(claim.metadata?.creationTimestamp), now),
      spec?.volumeMode ?? '<unset>',
    ],
  };
}

/** `helper.GetPersistentVolumeClaimClass`: the beta annotation wins over spec.storageClassName. */
function storageClassOf(claim: PersistentVolumeClaim): string {
  const annotated = claim.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (annotated !== undefined) return annotated;
  return claim.spec?.storageClassName ?? '';
}

/** `helper.GetAccessModesAsString`. */
function accessModesString(modes: readonly string[]): string {
  return ACCESS_MODE_NAMES.filter(([mode]) => modes.includes(mode))
    .map(([, short]) => short)
    .join(',');
}

export function printPersistentVolume(volume: PersistentVolume, now: number): PrintedRow {
  const spec = volume.spec;
  const claim = spec?.claimRef ? `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}` : '';
  const phase = volume.metadata?.deletionTimestamp ? 'Terminating' : (volume.status?.phase ?? '');
  // `helper.GetPersistentVolumeClass`: the beta annotation wins over spec.storageClassName.
  const storageClass = volume.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? spec?.storageClassName ?? '';
  return {
    cells: [
      volume.metadata?.name ?? '',
      quantityString(spec?.capacity?.storage),
      accessModesString(spec?.accessModes ?? []),
      spec?.persistentVolumeReclaimPolicy ?? '',
      phase,
      claim,
      storageClass,
      spec?.volumeAttributesClassName ?? '<unset>',
      volume.status?.reason ?? '',
      ageOf(volume, now),
      spec?.volumeMode ?? '<unset>',
    ],
  };
}

const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

/** `storageutil.IsDefaultAnnotation`. */
export function isDefaultStorageClass(storageClass: Partial<StorageClass>): boolean {
  const annotations = storageClass.metadata?.annotations ?? {};
  return DEFAULT_CLASS_ANNOTATIONS.some((key) => annotations[key] === 'true');
}

export function printStorageClass(storageClass: Partial<StorageClass>, now: number): PrintedRow {
  const name = storageClass.metadata?.name ?? '';
  return {
    cells: [
      isDefaultStorageClass(storageClass) ? `${name} (default)` : name,
      storageClass.provisioner ?? '',
      storageClass.reclaimPolicy ?? 'Delete',
      storageClass.volumeBindingMode ?? 'Immediate',
      storageClass.allowVolumeExpansion ?? false,
      ageOf(storageClass, now),
    ],
  };
}
