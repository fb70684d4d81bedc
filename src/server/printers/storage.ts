/** PersistentVolumeClaim rows: a port of `printPersistentVolumeClaim`. */
import type { PersistentVolumeClaim } from '../../core/k8s';
import type { PrintedRow } from './row';
import { ageSince, parseTime } from './time';

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
    accessModes = ACCESS_MODE_NAMES.filter(([mode]) => modes.includes(mode))
      .map(([, short]) => short)
      .join(',');
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
