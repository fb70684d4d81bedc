/**
 * Which PersistentVolume fits a claim: `FindMatchingVolume` (component-helpers/storage/volume) and
 * the PV controller's `findByClaim`, which tries the volumes grouped by access modes, fewest modes
 * first, so a ReadWriteOnce claim takes a ReadWriteOnce volume before a ReadWriteOnce+ReadOnlyMany one.
 */
import type { SelectableNode } from '../scheduler/node-selector';
import { anyTermMatches, compileTerm } from '../scheduler/node-selector';
import { quantityValue } from '../scheduler/quantity';
import { labelSelectorMatches } from '../store/selectors';
import { claimClass, volumeClass, type ClaimObject, type VolumeObject } from './storage-objects';

/** `IsVolumeBoundToClaim`: the volume's claimRef names the claim (and its uid, when set). */
export function isVolumeBoundToClaim(volume: VolumeObject, claim: ClaimObject): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata?.name || (ref.namespace ?? '') !== (claim.metadata?.namespace ?? '')) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

/** `CheckNodeAffinity`: a volume without required node affinity fits every node. */
export function volumeFitsNode(volume: VolumeObject, node: SelectableNode): boolean {
  const terms = volume.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  return anyTermMatches(terms.map(compileTerm), node);
}

/** `CheckVolumeModeMismatches`: both default to Filesystem. */
function volumeModeMismatches(claim: ClaimObject, volume: VolumeObject): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (volume.spec?.volumeMode ?? 'Filesystem');
}

/** `CheckAccessModes`: the volume offers every mode the claim asks for. */
export function volumeOffersAccessModes(claim: ClaimObject, volume: VolumeObject): boolean {
  const offered = volume.spec?.accessModes ?? [];
  return (claim.spec?.accessModes ?? []).every((mode) => offered.includes(mode));
}

function selectorMatches(claim: ClaimObject, volume: VolumeObject): boolean {
  const selector = claim.spec?.selector;
  if (!selector) return true;
  // An empty selector matches everything (LabelSelectorAsSelector), unlike labelSelectorMatches' nil case.
  if (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0) return true;
  return labelSelectorMatches(selector, volume.metadata?.labels);
}

export function requestedStorage(claim: ClaimObject): number {
  return quantityValue(claim.spec?.resources?.requests?.storage);
}

export function volumeCapacity(volume: VolumeObject): number {
  return quantityValue(volume.spec?.capacity?.storage);
}

export interface MatchOptions {
  /** The scheduler's candidate node: node affinity and access modes are checked against it. */
  node?: SelectableNode;
  /** Volumes already promised to other claims in this scheduling cycle. */
  excluded?: ReadonlySet<string>;
  /** The claim's class binds WaitForFirstConsumer: without a node, only a volume pre-bound to it matches. */
  delayBinding: boolean;
}

/** `FindMatchingVolume`: a volume pre-bound to the claim, else the smallest fitting Available one. */
export function findMatchingVolume(claim: ClaimObject, volumes: readonly VolumeObject[], options: MatchOptions): VolumeObject | undefined {
  const requested = requestedStorage(claim);
  const requestedClass = claimClass(claim);
  let smallest: VolumeObject | undefined;
  let smallestSize = 0;
  for (const volume of volumes) {
    if (options.excluded?.has(volume.metadata?.name ?? '')) continue;
    if (volume.spec?.claimRef && !isVolumeBoundToClaim(volume, claim)) continue;
    const size = volumeCapacity(volume);
    if (size < requested) continue;
    if (volumeModeMismatches(claim, volume)) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const nodeAffinityValid = options.node === undefined || volumeFitsNode(volume, options.node);
    if (isVolumeBoundToClaim(volume, claim)) return nodeAffinityValid ? volume : undefined;
    if (options.node === undefined && options.delayBinding) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (!selectorMatches(claim, volume)) continue;
    if (volumeClass(volume) !== requestedClass) continue;
    if (!nodeAffinityValid) continue;
    if (options.node !== undefined && !volumeOffersAccessModes(claim, volume)) continue;
    if (smallest === undefined || smallestSize > size) {
      smallest = volume;
      smallestSize = size;
    }
  }
  return smallest;
}

/**
 * The PV controller's `findByClaim`: the volumes offering at least the claim's access modes,
 * tried in groups of equal mode sets, fewest modes first (`allPossibleMatchingAccessModes`).
 */
export function findBestMatchForClaim(claim: ClaimObject, volumes: readonly VolumeObject[], delayBinding: boolean): VolumeObject | undefined {
  const groups = new Map<string, VolumeObject[]>();
  for (const volume of volumes) {
    if (!volumeOffersAccessModes(claim, volume)) continue;
    const modes = [...new Set(volume.spec?.accessModes ?? [])].sort().join(',');
    let group = groups.get(modes);
    if (!group) groups.set(modes, (group = []));
    group.push(volume);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => a.split(',').length - b.split(',').length || a.localeCompare(b));
  for (const [, group] of ordered) {
    const match = findMatchingVolume(claim, group, { delayBinding });
    if (match) return match;
  }
  return undefined;
}
