/**
 * The StatefulSet controller's helpers (pkg/controller/statefulset/stateful_set_utils.go): pod
 * identity from ordinals, claim names, the retention policy's owner references, versioned pods
 * and revisions.
 */
import type { KubeObject, OwnerReference, PersistentVolumeClaim, StatefulSet } from '../../../core/k8s';
import { cloneAsJson } from '../../../common/json';
import { newControllerRef, sortedMap, type PodObject } from '../controller-types';
import { isPodAvailable, isPodReady } from '../pod-util';
import { POD_REVISION_LABEL, newControllerRevision, templateReplacePatch, type ControllerRevisionObject } from '../history/controller-history';

export type StatefulSetObject = StatefulSet & KubeObject;
export type StatefulSetStatus = NonNullable<StatefulSet['status']>;
export type ClaimObject = PersistentVolumeClaim & KubeObject;

/** apps.StatefulSetPodNameLabel */
export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** apps.PodIndexLabel (the PodIndexLabel gate is on by default since 1.28). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const STATEFULSET_KIND = { apiVersion: 'apps/v1', kind: 'StatefulSet' };
const POD_KIND = { apiVersion: 'v1', kind: 'Pod' };

const STATEFUL_POD_REGEX = /^(.*)-([0-9]+)$/;
const MAX_INT32 = 2 ** 31 - 1;

/** `getParentNameAndOrdinal`: `web-3` → web, 3; a name without an ordinal → '', -1. */
export function getParentNameAndOrdinal(pod: KubeObject): { parent: string; ordinal: number } {
  const match = STATEFUL_POD_REGEX.exec(pod.metadata?.name ?? '');
  if (!match) return { parent: '', ordinal: -1 };
  const ordinal = Number(match[2]);
  return { parent: match[1], ordinal: ordinal <= MAX_INT32 ? ordinal : -1 };
}

export function getOrdinal(pod: KubeObject): number {
  return getParentNameAndOrdinal(pod).ordinal;
}

export function replicasOf(set: StatefulSetObject): number {
  return set.spec?.replicas ?? 1;
}

/** `getStartOrdinal`: spec.ordinals.start, or 0. */
export function getStartOrdinal(set: StatefulSetObject): number {
  return set.spec?.ordinals?.start ?? 0;
}

/** `getEndOrdinal`: the last ordinal, inclusive. */
export function getEndOrdinal(set: StatefulSetObject): number {
  return getStartOrdinal(set) + replicasOf(set) - 1;
}

export function podInOrdinalRange(pod: KubeObject, set: StatefulSetObject): boolean {
  const ordinal = getOrdinal(pod);
  return ordinal >= getStartOrdinal(set) && ordinal <= getEndOrdinal(set);
}

export function getPodName(set: StatefulSetObject, ordinal: number): string {
  return `${set.metadata?.name ?? ''}-${ordinal}`;
}

/** `getPersistentVolumeClaimName`: `<claim>-<set>-<ordinal>`. */
export function getPersistentVolumeClaimName(set: StatefulSetObject, claimTemplateName: string, ordinal: number): string {
  return `${claimTemplateName}-${set.metadata?.name ?? ''}-${ordinal}`;
}

export function isMemberOf(set: StatefulSetObject, pod: KubeObject): boolean {
  return getParentNameAndOrdinal(pod).parent === set.metadata?.name;
}

/** `identityMatches`: the name, namespace and pod-name label a member of `set` with this ordinal has. */
export function identityMatches(set: StatefulSetObject, pod: PodObject): boolean {
  const { parent, ordinal } = getParentNameAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    set.metadata?.name === parent &&
    pod.metadata?.name === getPodName(set, ordinal) &&
    pod.metadata?.namespace === set.metadata?.namespace &&
    pod.metadata?.labels?.[STATEFULSET_POD_NAME_LABEL] === pod.metadata?.name
  );
}

/** `storageMatches`: the pod has a volume per claim template, pointing at its claim. */
export function storageMatches(set: StatefulSetObject, pod: PodObject): boolean {
  const ordinal = getOrdinal(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec?.volumes ?? []).map((volume) => [volume.name, volume]));
  for (const claim of set.spec?.volumeClaimTemplates ?? []) {
    const name = claim.metadata?.name ?? '';
    const volume = volumes.get(name);
    if (volume?.persistentVolumeClaim?.claimName !== getPersistentVolumeClaimName(set, name, ordinal)) return false;
  }
  return true;
}

export type RetentionPolicyType = 'Retain' | 'Delete';

/** `getPersistentVolumeClaimRetentionPolicy`: Retain/Retain when unset. */
export function getPersistentVolumeClaimRetentionPolicy(set: StatefulSetObject): { whenDeleted: RetentionPolicyType; whenScaled: RetentionPolicyType } {
  const policy = set.spec?.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: (policy?.whenDeleted as RetentionPolicyType | undefined) ?? 'Retain', whenScaled: (policy?.whenScaled as RetentionPolicyType | undefined) ?? 'Retain' };
}

/** `matchesRef`: same kind, group version and name (not uid). */
function matchesRef(ref: OwnerReference, object: KubeObject, kind: { apiVersion: string; kind: string }): boolean {
  return ref.apiVersion === kind.apiVersion && ref.kind === kind.kind && ref.name === object.metadata?.name;
}

/** `hasOwnerRef`: a reference to `owner`'s uid, controller or not. */
export function hasOwnerRef(target: KubeObject, owner: KubeObject): boolean {
  const uid = owner.metadata?.uid;
  return (target.metadata?.ownerReferences ?? []).some((ref) => ref.uid === uid);
}

/** `hasStaleOwnerRef`: a reference naming `object` with another uid (a previous incarnation). */
export function hasStaleOwnerRef(target: KubeObject, object: KubeObject, kind: 'Pod' | 'StatefulSet'): boolean {
  const gvk = kind === 'Pod' ? POD_KIND : STATEFULSET_KIND;
  for (const ref of target.metadata?.ownerReferences ?? []) {
    if (matchesRef(ref, object, gvk)) return ref.uid !== object.metadata?.uid;
  }
  return false;
}

/** `hasUnexpectedController`: with a Delete policy, another controller owns the claim (or our uids are stale). */
export function hasUnexpectedController(claim: KubeObject, set: StatefulSetObject, pod: PodObject): boolean {
  const policy = getPersistentVolumeClaimRetentionPolicy(set);
  if (policy.whenScaled === 'Retain' && policy.whenDeleted === 'Retain') return false;
  for (const ref of claim.metadata?.ownerReferences ?? []) {
    if (matchesRef(ref, set, STATEFULSET_KIND)) {
      if (ref.uid !== set.metadata?.uid) return true;
      continue;
    }
    if (matchesRef(ref, pod, POD_KIND)) {
      if (ref.uid !== pod.metadata?.uid) return true;
      continue;
    }
    if (ref.controller) return true;
  }
  return false;
}

/** `hasNonControllerOwner`: the set or pod owns the claim without being its controller. */
function hasNonControllerOwner(claim: KubeObject, set: StatefulSetObject, pod: PodObject): boolean {
  return (claim.metadata?.ownerReferences ?? []).some((ref) => (ref.uid === set.metadata?.uid || ref.uid === pod.metadata?.uid) && !ref.controller);
}

/**
 * `isClaimOwnerUpToDate`: the claim's references match the retention policy — Retain/Retain: no
 * reference; whenDeleted Delete: the set; whenScaled Delete: the pod once it is scaled down.
 */
export function isClaimOwnerUpToDate(claim: KubeObject, set: StatefulSetObject, pod: PodObject): boolean {
  if (hasStaleOwnerRef(claim, set, 'StatefulSet') || hasStaleOwnerRef(claim, pod, 'Pod')) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const policy = getPersistentVolumeClaimRetentionPolicy(set);
  const scaledDown = !podInOrdinalRange(pod, set);
  if (policy.whenScaled === 'Delete' && policy.whenDeleted === 'Delete') {
    return scaledDown !== hasOwnerRef(claim, set) && scaledDown === hasOwnerRef(claim, pod);
  }
  if (policy.whenScaled === 'Delete') return !hasOwnerRef(claim, set) && scaledDown === hasOwnerRef(claim, pod);
  if (policy.whenDeleted === 'Delete') return hasOwnerRef(claim, set) && !hasOwnerRef(claim, pod);
  return !hasOwnerRef(claim, set) && !hasOwnerRef(claim, pod);
}

/** `addControllerRef`: `owner` as controller, unless already referenced. */
function addControllerRef(refs: OwnerReference[], owner: KubeObject, kind: { apiVersion: string; kind: string }): OwnerReference[] {
  if (refs.some((ref) => ref.uid === owner.metadata?.uid)) return refs;
  return [...refs, newControllerRef(owner, kind.apiVersion, kind.kind)];
}

/** `updateClaimOwnerRefForSetAndPod`: the claim's owner references the retention policy asks for. */
export function claimOwnerRefsForSetAndPod(claim: KubeObject, set: StatefulSetObject, pod: PodObject): OwnerReference[] {
  const unexpectedController = hasUnexpectedController(claim, set, pod);
  let refs = (claim.metadata?.ownerReferences ?? []).filter((ref) => !(matchesRef(ref, set, STATEFULSET_KIND) || matchesRef(ref, pod, POD_KIND)));
  if (unexpectedController) return refs;
  const policy = getPersistentVolumeClaimRetentionPolicy(set);
  const scaledDown = !podInOrdinalRange(pod, set);
  if (policy.whenScaled === 'Delete' && scaledDown) refs = addControllerRef(refs, pod, POD_KIND);
  if (policy.whenDeleted === 'Delete' && (policy.whenScaled === 'Retain' || !scaledDown)) refs = addControllerRef(refs, set, STATEFULSET_KIND);
  return refs;
}

/**
 * `getPersistentVolumeClaims`: the claims of the pod with this ordinal, one per template, named
 * `<template>-<set>-<ordinal>` and labelled with the set's selector.matchLabels.
 */
export function getPersistentVolumeClaims(set: StatefulSetObject, ordinal: number): { templateName: string; claim: ClaimObject }[] {
  const matchLabels = set.spec?.selector?.matchLabels ?? {};
  return (set.spec?.volumeClaimTemplates ?? []).map((template) => {
    const templateName = template.metadata?.name ?? '';
    // The template's status (Pending, from defaulting) is not part of the claim's request.
    const { metadata, spec } = cloneAsJson(template) as ClaimObject;
    const claim: ClaimObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { ...metadata, name: getPersistentVolumeClaimName(set, templateName, ordinal), namespace: set.metadata?.namespace, labels: sortedMap({ ...metadata?.labels, ...matchLabels }) },
      spec,
    };
    return { templateName, claim };
  });
}

/** `updateStorage`: a volume per claim template pointing at the pod's claim, replacing same-named volumes. */
export function updateStorage(set: StatefulSetObject, pod: PodObject): void {
  const claims = getPersistentVolumeClaims(set, getOrdinal(pod));
  if (claims.length === 0) return;
  const spec = (pod.spec ??= { containers: [] });
  const names = new Set(claims.map((c) => c.templateName));
  const volumes = claims.map(({ templateName, claim }) => ({ name: templateName, persistentVolumeClaim: { claimName: claim.metadata?.name ?? '' } }));
  for (const volume of spec.volumes ?? []) if (!names.has(volume.name)) volumes.push(volume as (typeof volumes)[number]);
  spec.volumes = volumes;
}

/** `updateIdentity`: name, namespace, and the pod-name and pod-index labels. */
export function updateIdentity(set: StatefulSetObject, pod: PodObject): void {
  const ordinal = getOrdinal(pod);
  const name = getPodName(set, ordinal);
  pod.metadata = { ...pod.metadata, name, namespace: set.metadata?.namespace };
  pod.metadata.labels = sortedMap({ ...pod.metadata.labels, [STATEFULSET_POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal) });
}

/** `initIdentity`: the identity, plus hostname and subdomain, set only when the pod is created. */
function initIdentity(set: StatefulSetObject, pod: PodObject): void {
  updateIdentity(set, pod);
  const spec = (pod.spec ??= { containers: [] });
  spec.hostname = pod.metadata?.name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
}

/** `isRunningAndReady`: phase Running and the Ready condition True. */
export function isRunningAndReady(pod: PodObject): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod);
}

export function isRunningAndAvailable(pod: PodObject, minReadySeconds: number, now: number): boolean {
  return isPodAvailable(pod, minReadySeconds, now);
}

/** `isCreated`: the API server has given it a phase (a pod this sync only planned has none). */
export function isCreated(pod: PodObject): boolean {
  return !!pod.status?.phase;
}

export function isPending(pod: PodObject): boolean {
  return pod.status?.phase === 'Pending';
}

export function isFailed(pod: PodObject): boolean {
  return pod.status?.phase === 'Failed';
}

export function isSucceeded(pod: PodObject): boolean {
  return pod.status?.phase === 'Succeeded';
}

export function isTerminating(pod: PodObject): boolean {
  return !!pod.metadata?.deletionTimestamp;
}

/** `isUnavailable` (stateful_set_control.go): not yet created, terminating, or not available. */
export function isUnavailable(pod: PodObject, minReadySeconds: number, now: number): boolean {
  return !isCreated(pod) || isTerminating(pod) || !isRunningAndAvailable(pod, minReadySeconds, now);
}

/** `allowsBurst`: podManagementPolicy Parallel. */
export function allowsBurst(set: StatefulSetObject): boolean {
  return set.spec?.podManagementPolicy === 'Parallel';
}

export function getPodRevision(pod: PodObject): string {
  return pod.metadata?.labels?.[POD_REVISION_LABEL] ?? '';
}

function setPodRevision(pod: PodObject, revision: string): void {
  pod.metadata = { ...pod.metadata, labels: sortedMap({ ...pod.metadata?.labels, [POD_REVISION_LABEL]: revision }) };
}

/** `newStatefulSetPod`: `GetPodFromTemplate` with the ordinal's identity and storage. */
function newStatefulSetPod(set: StatefulSetObject, ordinal: number): PodObject {
  const template = set.spec?.template ?? {};
  const metadata: NonNullable<KubeObject['metadata']> = {
    name: getPodName(set, ordinal),
    namespace: set.metadata?.namespace,
    labels: { ...template.metadata?.labels },
    ownerReferences: [newControllerRef(set, STATEFULSET_KIND.apiVersion, STATEFULSET_KIND.kind)],
  };
  if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
  if (template.metadata?.finalizers) metadata.finalizers = [...template.metadata.finalizers];
  const pod: PodObject = { apiVersion: 'v1', kind: 'Pod', metadata, spec: cloneAsJson(template.spec ?? ({ containers: [] } as NonNullable<PodObject['spec']>)) };
  initIdentity(set, pod);
  updateStorage(set, pod);
  return pod;
}

/**
 * `newVersionedStatefulSetPod`: below the partition (or, without a rollingUpdate, below the current
 * replicas) a new pod is made at the current revision, otherwise at the update revision.
 */
export function newVersionedStatefulSetPod(currentSet: StatefulSetObject, updateSet: StatefulSetObject, currentRevision: string, updateRevision: string, ordinal: number): PodObject {
  const strategy = currentSet.spec?.updateStrategy;
  const start = getStartOrdinal(currentSet);
  // Upstream's condition, operator precedence included: the partition branch applies to OnDelete too.
  const belowCurrent =
    (strategy?.type === 'RollingUpdate' && !strategy.rollingUpdate && ordinal < start + (currentSet.status?.currentReplicas ?? 0)) ||
    (!!strategy?.rollingUpdate && ordinal < start + (strategy.rollingUpdate.partition ?? 0));
  const pod = belowCurrent ? newStatefulSetPod(currentSet, ordinal) : newStatefulSetPod(updateSet, ordinal);
  setPodRevision(pod, belowCurrent ? currentRevision : updateRevision);
  return pod;
}

/** `newRevision`: a revision holding the template-replacing patch, with the set's annotations. */
export function newRevision(set: StatefulSetObject, revision: number, collisionCount: number): ControllerRevisionObject {
  const cr = newControllerRevision(set, STATEFULSET_KIND, set.spec?.template?.metadata?.labels, templateReplacePatch(set), revision, collisionCount);
  if (set.metadata?.annotations) cr.metadata = { ...cr.metadata, annotations: { ...set.metadata.annotations } };
  return cr;
}

/**
 * `ApplyRevision`: the set with the revision's template. The revision's patch only replaces the
 * template, so applying it is taking the template out of it.
 */
export function applyRevision(set: StatefulSetObject, revision: ControllerRevisionObject): StatefulSetObject {
  const data = revision.data as { spec?: { template?: Record<string, unknown> } } | undefined;
  const template: Record<string, unknown> = { ...cloneAsJson(data?.spec?.template ?? {}) };
  delete template.$patch;
  return { ...set, spec: { ...set.spec!, template: template as NonNullable<StatefulSet['spec']>['template'] } };
}

/** `inconsistentStatus`: the computed status differs from the stored one. */
export function inconsistentStatus(set: StatefulSetObject, status: StatefulSetStatus): boolean {
  const current = set.status ?? ({ replicas: 0 } as StatefulSetStatus);
  return (
    (status.observedGeneration ?? 0) > (current.observedGeneration ?? 0) ||
    status.replicas !== (current.replicas ?? 0) ||
    (status.currentReplicas ?? 0) !== (current.currentReplicas ?? 0) ||
    (status.readyReplicas ?? 0) !== (current.readyReplicas ?? 0) ||
    (status.updatedReplicas ?? 0) !== (current.updatedReplicas ?? 0) ||
    (status.currentRevision ?? '') !== (current.currentRevision ?? '') ||
    (status.availableReplicas ?? 0) !== (current.availableReplicas ?? 0) ||
    (status.updateRevision ?? '') !== (current.updateRevision ?? '')
  );
}

/** `completeRollingUpdate`: once every replica is updated and ready, the update revision becomes current. */
export function completeRollingUpdate(set: StatefulSetObject, status: StatefulSetStatus): void {
  const replicas = replicasOf(set);
  if (set.spec?.updateStrategy?.type === 'RollingUpdate' && status.updatedReplicas === replicas && status.readyReplicas === replicas && status.replicas === replicas) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

/** `descendingOrdinal`. */
export function byDescendingOrdinal(a: PodObject, b: PodObject): number {
  return getOrdinal(b) - getOrdinal(a);
}
