/**
 * The scheduler's volume plugins for PersistentVolumeClaims (pkg/scheduler/framework/plugins):
 *
 * - VolumeRestrictions: a ReadWriteOncePod claim another scheduled pod uses refuses every node
 *   (Unschedulable: preempting that pod would help, if it had a lower priority).
 * - VolumeBinding's PreFilter (`GetPodVolumeClaims`): a missing or deleting claim, or an unbound
 *   claim whose class binds immediately (or does not exist), refuses the pod on every node. An
 *   unbound claim of a WaitForFirstConsumer class is left to the Filter.
 * - VolumeBinding's Filter (`FindPodVolumes`) per node: a bound claim's volume must allow the node
 *   (node affinity); a WaitForFirstConsumer claim needs an Available volume that fits the node, or
 *   a class that can provision there (not `kubernetes.io/no-provisioner`, allowedTopologies
 *   matching), and a claim already given a node (`selected-node`) fits that node only.
 * - VolumeZone's Filter: a bound volume labelled with a zone or region fits nodes of that zone.
 *
 * NodeVolumeLimits counts CSI volumes per node; kind's local-path volumes are hostPath, which no
 * limit applies to, so it never refuses a node here and is left out.
 */
import type { KubeObject, Pod } from '../../../core/k8s';
import type { StoreApi } from '../../store/types';
import { anyTermMatches, compileTerm, type SelectableNode } from '../node-selector';
import {
  ANN_SELECTED_NODE,
  NO_PROVISIONER,
  claimClass,
  getStorageClass,
  volumeClass,
  type ClaimObject,
  type StorageClassObject,
  type VolumeObject,
} from '../../storage/storage-objects';
import { findMatchingVolume, volumeFitsNode } from '../../storage/volume-matching';
import { failure, type FilterFailure, type FilterPluginName } from './types';

/** `ErrReasonUnboundImmediatePVC`. */
export const UNBOUND_IMMEDIATE_PVC = 'pod has unbound immediate PersistentVolumeClaims';
/** `ErrReasonNodeConflict`. */
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
/** `ErrReasonBindConflict`. */
export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
/** `ErrReasonPVNotExist`. */
export const ERR_REASON_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
/** VolumeZone's `ErrReasonConflict`. */
export const ERR_REASON_ZONE_CONFLICT = 'node(s) had no available volume zone';
/** VolumeRestrictions' `ErrReasonReadWriteOncePodConflict`. */
export const ERR_REASON_RWOP_CONFLICT = 'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';

const RWOP_CONFLICT = failure('VolumeRestrictions', 'Unschedulable', ERR_REASON_RWOP_CONFLICT);
const NOTHING_EXCLUDED: ReadonlySet<string> = new Set();
const ZONE_LABELS = ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/region'];

/** What the Filter needs, read once per attempt by the PreFilter. */
export interface PodVolumes {
  /** A ReadWriteOncePod claim of the pod is used by a scheduled pod (VolumeRestrictions refuses every node). */
  readWriteOncePodConflict: boolean;
  /** The volumes of the pod's bound claims. */
  bound: VolumeObject[];
  /** A bound claim names a volume that does not exist. */
  boundVolumeMissing: boolean;
  /** Unbound claims of WaitForFirstConsumer classes, each with its class and the volumes of that class. */
  delayed: { claim: ClaimObject; storageClass: StorageClassObject | undefined; volumes: VolumeObject[] }[];
  /** Zone and region requirements of bound volumes (VolumeZone); empty when none is labelled. */
  zones: [string, string[]][];
  /** The filter plugins that run for this pod, in upstream order, for the per-node verdict table. */
  plugins: FilterPluginName[];
  /** Static volumes promised to other pods' claims whose binding has not landed yet (the scheduler's assume cache). */
  excluded: ReadonlySet<string>;
}

export type VolumePreFilter = { rejection: string; plugin: FilterPluginName } | { volumes: PodVolumes | undefined };

function claimNames(pod: Pod): string[] {
  const names: string[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    const claimName = volume.persistentVolumeClaim?.claimName;
    if (claimName !== undefined) names.push(claimName);
  }
  return names;
}

export function usesClaims(pod: Pod): boolean {
  return claimNames(pod).length > 0;
}

/** VolumeBinding's PreFilter, and what the Filters will need. */
export function preFilterVolumes(store: StoreApi, pod: Pod & KubeObject): VolumePreFilter {
  const names = claimNames(pod);
  if (names.length === 0) return { volumes: undefined };
  const namespace = pod.metadata?.namespace;
  const claims: ClaimObject[] = [];
  for (const name of names) {
    const claim = store.get<ClaimObject>('PersistentVolumeClaim', namespace, name);
    if (!claim) return { rejection: `persistentvolumeclaim "${name}" not found`, plugin: 'VolumeBinding' };
    if (claim.metadata?.deletionTimestamp) return { rejection: `persistentvolumeclaim "${name}" is being deleted`, plugin: 'VolumeBinding' };
    claims.push(claim);
  }
  const readWriteOncePodConflict = claims.some((claim) => readWriteOncePodInUse(store, pod, claim));
  // VolumeRestrictions skips its Filter unless a ReadWriteOncePod claim is in use.
  const plugins: FilterPluginName[] = readWriteOncePodConflict ? ['VolumeRestrictions', 'VolumeBinding'] : ['VolumeBinding'];
  const volumes: PodVolumes = { readWriteOncePodConflict, bound: [], boundVolumeMissing: false, delayed: [], zones: [], plugins, excluded: NOTHING_EXCLUDED };
  let unboundImmediate = false;
  let allVolumes: VolumeObject[] | undefined;
  for (const claim of claims) {
    const volumeName = claim.spec?.volumeName;
    if (volumeName) {
      const volume = store.get<VolumeObject>('PersistentVolume', undefined, volumeName);
      if (volume) volumes.bound.push(volume);
      else volumes.boundVolumeMissing = true;
      continue;
    }
    const storageClass = getStorageClass(store, claimClass(claim));
    if (storageClass?.volumeBindingMode !== 'WaitForFirstConsumer') {
      unboundImmediate = true;
      continue;
    }
    allVolumes ??= store.list<VolumeObject>('PersistentVolume').items;
    const className = claimClass(claim);
    volumes.delayed.push({ claim, storageClass, volumes: allVolumes.filter((volume) => volumeClass(volume) === className) });
  }
  if (unboundImmediate) return { rejection: UNBOUND_IMMEDIATE_PVC, plugin: 'VolumeBinding' };
  for (const volume of volumes.bound) {
    for (const key of ZONE_LABELS) {
      const value = volume.metadata?.labels?.[key];
      if (value) volumes.zones.push([key, value.split('__')]);
    }
  }
  if (volumes.zones.length > 0) volumes.plugins.push('VolumeZone');
  return { volumes };
}

/** Another pod, not finished, uses this ReadWriteOncePod claim. */
function readWriteOncePodInUse(store: StoreApi, pod: Pod & KubeObject, claim: ClaimObject): boolean {
  if (!(claim.spec?.accessModes ?? []).includes('ReadWriteOncePod')) return false;
  const name = claim.metadata?.name;
  for (const other of store.list<Pod & KubeObject>('Pod', { namespace: pod.metadata?.namespace }).items) {
    if (other.metadata?.uid === pod.metadata?.uid || !other.spec?.nodeName) continue;
    if (other.status?.phase === 'Succeeded' || other.status?.phase === 'Failed') continue;
    if ((other.spec.volumes ?? []).some((volume) => volume.persistentVolumeClaim?.claimName === name)) return true;
  }
  return false;
}

/** VolumeRestrictions', VolumeBinding's and VolumeZone's Filters, in that order, for one node. */
export function filterVolumes(volumes: PodVolumes, node: SelectableNode): FilterFailure | null {
  if (volumes.readWriteOncePodConflict) return RWOP_CONFLICT;
  const binding = filterVolumeBinding(volumes, node, volumes.excluded);
  if (binding.length > 0) return failure('VolumeBinding', 'UnschedulableAndUnresolvable', ...binding);
  for (const [key, values] of volumes.zones) {
    const label = node.labels[key];
    if (label === undefined || !values.includes(label)) return failure('VolumeZone', 'UnschedulableAndUnresolvable', ERR_REASON_ZONE_CONFLICT);
  }
  return null;
}

function filterVolumeBinding(volumes: PodVolumes, node: SelectableNode, excluded: ReadonlySet<string> | undefined): string[] {
  const reasons: string[] = [];
  if (volumes.bound.some((volume) => !volumeFitsNode(volume, node))) reasons.push(ERR_REASON_NODE_CONFLICT);
  else if (!delayedClaimsFit(volumes, node, excluded)) reasons.push(ERR_REASON_BIND_CONFLICT);
  if (volumes.boundVolumeMissing) reasons.push(ERR_REASON_PV_NOT_EXIST);
  return reasons;
}

/** `findMatchingVolumes` then `checkVolumeProvisions`, for the WaitForFirstConsumer claims. */
function delayedClaimsFit(volumes: PodVolumes, node: SelectableNode, excluded: ReadonlySet<string> | undefined): boolean {
  const chosen = new Set(excluded);
  for (const { claim, storageClass, volumes: candidates } of volumes.delayed) {
    const selected = claim.metadata?.annotations?.[ANN_SELECTED_NODE];
    if (selected !== undefined) {
      if (selected !== node.name) return false;
    } else {
      const match = findMatchingVolume(claim, candidates, { node, excluded: chosen, delayBinding: true });
      if (match) {
        chosen.add(match.metadata?.name ?? '');
        continue;
      }
    }
    if (!canProvisionOn(storageClass, node)) return false;
  }
  return true;
}

function canProvisionOn(storageClass: StorageClassObject | undefined, node: SelectableNode): boolean {
  const provisioner = storageClass?.provisioner ?? '';
  if (provisioner === '' || provisioner === NO_PROVISIONER) return false;
  const topologies = storageClass?.allowedTopologies;
  if (!topologies || topologies.length === 0) return true;
  const terms = topologies.map((term) => compileTerm({ matchExpressions: (term.matchLabelExpressions ?? []).map((e) => ({ key: e.key, operator: 'In', values: e.values })) }));
  return anyTermMatches(terms, node);
}

/**
 * What PreBind writes for the chosen node (`bindAPIUpdate`): a static volume's claimRef for each
 * claim a volume matched, the `selected-node` annotation on each claim to provision.
 */
export interface VolumeBindingPlan {
  staticBindings: { claim: ClaimObject; volume: VolumeObject }[];
  provisions: ClaimObject[];
}

export function planVolumeBinding(volumes: PodVolumes, node: SelectableNode): VolumeBindingPlan {
  const plan: VolumeBindingPlan = { staticBindings: [], provisions: [] };
  const chosen = new Set(volumes.excluded);
  for (const { claim, volumes: candidates } of volumes.delayed) {
    if (claim.metadata?.annotations?.[ANN_SELECTED_NODE] === undefined) {
      const match = findMatchingVolume(claim, candidates, { node, excluded: chosen, delayBinding: true });
      if (match) {
        chosen.add(match.metadata?.name ?? '');
        plan.staticBindings.push({ claim, volume: match });
        continue;
      }
    }
    plan.provisions.push(claim);
  }
  return plan;
}
