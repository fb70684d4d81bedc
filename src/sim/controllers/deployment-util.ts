/**
 * The deployment controller's arithmetic and bookkeeping, as pure functions
 * (kubernetes pkg/controller/deployment/util/deployment_util.go and the parts of
 * pkg/controller/controller_utils.go it uses). Reads are defensive: a field the API server would
 * have defaulted falls back to that default here.
 */
import { rfc3339 } from '../store/object-utils';
import {
  parseTime,
  SyncError,
  type DeploymentCondition,
  type DeploymentObject,
  type DeploymentStatus,
  type PodTemplateSpec,
  type ReplicaSetObject,
} from './controller-types';

export const DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY = 'pod-template-hash';
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
const LAST_APPLIED_CONFIG_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
const DEPRECATED_ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';
/** `--deployment-controller` default of kube-controller-manager's maxRevHistoryLengthInChars. */
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

export const Reasons = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

export type ConditionType = 'Available' | 'Progressing' | 'ReplicaFailure';
export type ConditionStatus = 'True' | 'False' | 'Unknown';

const MAX_INT32 = 2147483647;

// ---------------------------------------------------------------------------------------------
// Spec fields with the API server's defaults (pkg/apis/apps/v1/defaults.go)

export function deploymentReplicas(d: DeploymentObject): number {
  return d.spec?.replicas ?? 1;
}

export function replicaSetReplicas(rs: ReplicaSetObject): number {
  return rs.spec?.replicas ?? 1;
}

export function isRollingUpdate(d: DeploymentObject): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

export function isRecreate(d: DeploymentObject): boolean {
  return d.spec?.strategy?.type === 'Recreate';
}

export function minReadySeconds(object: DeploymentObject | ReplicaSetObject): number {
  return object.spec?.minReadySeconds ?? 0;
}

export function progressDeadlineSeconds(d: DeploymentObject): number {
  return d.spec?.progressDeadlineSeconds ?? 600;
}

export function hasProgressDeadline(d: DeploymentObject): boolean {
  return progressDeadlineSeconds(d) !== MAX_INT32;
}

export function revisionHistoryLimit(d: DeploymentObject): number {
  return d.spec?.revisionHistoryLimit ?? 10;
}

export function hasRevisionHistoryLimit(d: DeploymentObject): boolean {
  return revisionHistoryLimit(d) !== MAX_INT32;
}

// ---------------------------------------------------------------------------------------------
// Fenceposts

/** `intstr.GetScaledValueFromIntOrPercent`: an int as is, `"N%"` of `total` rounded up or down. */
export function valueFromIntOrPercent(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) throw new SyncError(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const digits = value.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) throw new SyncError(`invalid value "${value}": strconv.Atoi: parsing "${digits}": invalid syntax`);
  const scaled = (Number(digits) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * `ResolveFenceposts`: maxSurge rounds up, maxUnavailable rounds down, and when both come out 0,
 * maxUnavailable becomes 1 so the rollout can move at all.
 */
export function resolveFenceposts(maxSurge: number | string | undefined, maxUnavailable: number | string | undefined, desired: number): { surge: number; unavailable: number } {
  const surge = valueFromIntOrPercent(maxSurge ?? 0, desired, true);
  let unavailable = valueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

function rollingFenceposts(d: DeploymentObject): { surge: number; unavailable: number } {
  const rolling = d.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(rolling?.maxSurge ?? '25%', rolling?.maxUnavailable ?? '25%', deploymentReplicas(d));
}

export function maxSurge(d: DeploymentObject): number {
  if (!isRollingUpdate(d)) return 0;
  return rollingFenceposts(d).surge;
}

export function maxUnavailable(d: DeploymentObject): number {
  const replicas = deploymentReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(rollingFenceposts(d).unavailable, replicas);
}

// ---------------------------------------------------------------------------------------------
// ReplicaSet sets

export function replicaCount(replicaSets: readonly (ReplicaSetObject | undefined)[]): number {
  let total = 0;
  for (const rs of replicaSets) if (rs) total += replicaSetReplicas(rs);
  return total;
}

export function actualReplicaCount(replicaSets: readonly (ReplicaSetObject | undefined)[]): number {
  let total = 0;
  for (const rs of replicaSets) if (rs) total += rs.status?.replicas ?? 0;
  return total;
}

export function readyReplicaCount(replicaSets: readonly (ReplicaSetObject | undefined)[]): number {
  let total = 0;
  for (const rs of replicaSets) if (rs) total += rs.status?.readyReplicas ?? 0;
  return total;
}

export function availableReplicaCount(replicaSets: readonly (ReplicaSetObject | undefined)[]): number {
  let total = 0;
  for (const rs of replicaSets) if (rs) total += rs.status?.availableReplicas ?? 0;
  return total;
}

/** `controller.FilterActiveReplicaSets`: the ones with spec.replicas > 0. */
export function filterActiveReplicaSets(replicaSets: readonly (ReplicaSetObject | undefined)[]): ReplicaSetObject[] {
  return replicaSets.filter((rs): rs is ReplicaSetObject => !!rs && replicaSetReplicas(rs) > 0);
}

function creationTime(rs: ReplicaSetObject): number {
  return parseTime(rs.metadata?.creationTimestamp) ?? 0;
}

/** `ReplicaSetsByCreationTimestamp`: oldest first, ties broken by name. */
export function compareByCreation(a: ReplicaSetObject, b: ReplicaSetObject): number {
  const diff = creationTime(a) - creationTime(b);
  if (diff !== 0) return diff;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0;
}

/** `ReplicaSetsBySizeNewer`: larger first, ties newer first. */
export function compareBySizeNewer(a: ReplicaSetObject, b: ReplicaSetObject): number {
  const diff = replicaSetReplicas(b) - replicaSetReplicas(a);
  return diff !== 0 ? diff : compareByCreation(b, a);
}

/** `ReplicaSetsBySizeOlder`: larger first, ties older first. */
export function compareBySizeOlder(a: ReplicaSetObject, b: ReplicaSetObject): number {
  const diff = replicaSetReplicas(b) - replicaSetReplicas(a);
  return diff !== 0 ? diff : compareByCreation(a, b);
}

/** `ReplicaSetsByRevision`: lowest revision first, ties by creation. */
export function compareByRevision(a: ReplicaSetObject, b: ReplicaSetObject): number {
  const diff = revisionOf(a) - revisionOf(b);
  return diff !== 0 ? diff : compareByCreation(a, b);
}

// ---------------------------------------------------------------------------------------------
// Templates

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  for (const key in record) if (hasOwn(record, key) && record[key] !== undefined) return false;
  return true;
}

/**
 * semanticEqual over the union of two records' own keys, skipping `skip`; `compare` decides each
 * key. Written without collecting the keys: deployment syncs compare templates on every pod change.
 */
function recordsEqual(left: Record<string, unknown>, right: Record<string, unknown>, skip: string | undefined, compare: (key: string) => boolean): boolean {
  for (const key in left) if (hasOwn(left, key) && key !== skip && !compare(key)) return false;
  for (const key in right) if (hasOwn(right, key) && key !== skip && !hasOwn(left, key) && !compare(key)) return false;
  return true;
}

/** `apiequality.Semantic.DeepEqual`: like deep equality, but a missing, empty or null map/slice are the same. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], other[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  return recordsEqual(left, right, undefined, (key) => semanticEqual(left[key], right[key]));
}

/** The keys `{ ...value }` would have. */
function asRecord(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return { ...(value as unknown as object) } as Record<string, unknown>;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * Verdicts of `equalIgnoreHash` per stored ReplicaSet template, for the Deployment template it was
 * compared with. Stored objects are never changed in place (a write stores a new object), so a
 * pair compared once stays equal or different; a Deployment syncs on every change of its pods and
 * would otherwise walk both templates each time.
 */
const templateVerdicts = new WeakMap<object, { other: object; equal: boolean }>();

/** `EqualIgnoreHash`: the templates are equal once the pod-template-hash label is ignored. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return compareIgnoringHash(a, b);
  const known = templateVerdicts.get(a);
  if (known?.other === b) return known.equal;
  const equal = compareIgnoringHash(a, b);
  templateVerdicts.set(a, { other: b, equal });
  return equal;
}

function compareIgnoringHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  const left = asRecord(a);
  const right = asRecord(b);
  if (!recordsEqual(left, right, 'metadata', (key) => semanticEqual(left[key], right[key]))) return false;
  const leftMeta = asRecord(left.metadata);
  const rightMeta = asRecord(right.metadata);
  if (!recordsEqual(leftMeta, rightMeta, 'labels', (key) => semanticEqual(leftMeta[key], rightMeta[key]))) return false;
  const leftLabels = asRecord(leftMeta.labels);
  const rightLabels = asRecord(rightMeta.labels);
  return recordsEqual(leftLabels, rightLabels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, (key) => semanticEqual(leftLabels[key], rightLabels[key]));
}

/** `FindNewReplicaSet`: the oldest ReplicaSet whose template is the deployment's. */
export function findNewReplicaSet(d: DeploymentObject, replicaSets: readonly ReplicaSetObject[]): ReplicaSetObject | undefined {
  const sorted = [...replicaSets].sort(compareByCreation);
  return sorted.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** `FindOldReplicaSets`: every other ReplicaSet (`all`), and those of them with replicas (`active`). */
export function findOldReplicaSets(d: DeploymentObject, replicaSets: readonly ReplicaSetObject[]): { active: ReplicaSetObject[]; all: ReplicaSetObject[] } {
  const newRS = findNewReplicaSet(d, replicaSets);
  const all = replicaSets.filter((rs) => !newRS || rs.metadata?.uid !== newRS.metadata?.uid);
  return { active: all.filter((rs) => replicaSetReplicas(rs) !== 0), all };
}

// ---------------------------------------------------------------------------------------------
// Revisions and annotations

export function revisionOf(object: { metadata?: { annotations?: Record<string, string> } }): number {
  const value = object.metadata?.annotations?.[REVISION_ANNOTATION];
  if (value === undefined) return 0;
  return /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
}

/** `MaxRevision`: unparsable revisions are skipped. */
export function maxRevision(replicaSets: readonly ReplicaSetObject[]): number {
  let max = 0;
  for (const rs of replicaSets) {
    const revision = revisionOf(rs);
    if (Number.isFinite(revision) && revision > max) max = revision;
  }
  return max;
}

const annotationsToSkip = new Set([
  LAST_APPLIED_CONFIG_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  DEPRECATED_ROLLBACK_TO_ANNOTATION,
]);

/** `SetReplicasAnnotations`; returns whether anything changed. */
export function setReplicasAnnotations(annotations: Record<string, string>, desired: number, max: number): boolean {
  let updated = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    updated = true;
  }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    annotations[MAX_REPLICAS_ANNOTATION] = String(max);
    updated = true;
  }
  return updated;
}

export function replicasAnnotationsNeedUpdate(rs: ReplicaSetObject, desired: number, max: number): boolean {
  const annotations = rs.metadata?.annotations;
  if (!annotations) return true;
  return annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || annotations[MAX_REPLICAS_ANNOTATION] !== String(max);
}

function intAnnotation(rs: ReplicaSetObject, key: string): number | undefined {
  const value = rs.metadata?.annotations?.[key];
  return value !== undefined && /^[+-]?\d+$/.test(value) ? Number(value) : undefined;
}

export function desiredReplicasAnnotation(rs: ReplicaSetObject): number | undefined {
  return intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
}

/**
 * `SetNewReplicaSetAnnotations`: copy the deployment's own annotations, raise the revision, keep
 * the revision history when a ReplicaSet is reused (a rollback), and set the replica annotations on
 * a ReplicaSet about to be created. Mutates `annotations`; returns whether anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: DeploymentObject,
  annotations: Record<string, string>,
  newRevision: number,
  exists: boolean,
  revHistoryLimitInChars = MAX_REV_HISTORY_LENGTH_IN_CHARS,
): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(d.metadata?.annotations ?? {})) {
    if (annotationsToSkip.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  const oldRevision = annotations[REVISION_ANNOTATION];
  const hadRevision = oldRevision !== undefined;
  let oldRevisionInt = 0;
  if (hadRevision && oldRevision !== '') {
    if (!/^[+-]?\d+$/.test(oldRevision)) return false;
    oldRevisionInt = Number(oldRevision);
  }
  if (oldRevisionInt < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (hadRevision) appendRevisionHistory(annotations, oldRevision, revHistoryLimitInChars);
  }
  if (!exists && setReplicasAnnotations(annotations, deploymentReplicas(d), deploymentReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

function appendRevisionHistory(annotations: Record<string, string>, oldRevision: string, limitInChars: number): void {
  const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
  const oldRevisions = history.split(',');
  if (oldRevisions[0].length === 0) {
    annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
    return;
  }
  let totalLen = history.length + oldRevision.length + 1;
  let start = 0;
  while (totalLen > limitInChars && start < oldRevisions.length) {
    totalLen -= oldRevisions[start].length + 1;
    start++;
  }
  if (totalLen <= limitInChars) annotations[REVISION_HISTORY_ANNOTATION] = [...oldRevisions.slice(start), oldRevision].join(',');
}

// ---------------------------------------------------------------------------------------------
// Scaling

/**
 * `NewRSNewReplicas`: how many replicas the new ReplicaSet may have now. Rolling update: as many as
 * the surge allows, never more than the deployment wants. Recreate: all of them.
 */
export function newRSNewReplicas(d: DeploymentObject, allRSs: readonly (ReplicaSetObject | undefined)[], newRS: ReplicaSetObject): number {
  if (isRecreate(d)) return deploymentReplicas(d);
  if (!isRollingUpdate(d)) throw new SyncError(`deployment type ${d.spec?.strategy?.type} isn't supported`);
  const replicas = deploymentReplicas(d);
  const surge = valueFromIntOrPercent(d.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%', replicas, true);
  const currentPodCount = replicaCount(allRSs);
  const maxTotalPods = replicas + surge;
  const newRSReplicas = replicaSetReplicas(newRS);
  if (currentPodCount >= maxTotalPods) return newRSReplicas;
  const scaleUpCount = Math.min(maxTotalPods - currentPodCount, replicas - newRSReplicas);
  return newRSReplicas + scaleUpCount;
}

/** `IsSaturated`: the new ReplicaSet holds (and both sides agree it should hold) every replica, all available. */
export function isSaturated(d: DeploymentObject, rs: ReplicaSetObject | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicasAnnotation(rs);
  if (desired === undefined) return false;
  const replicas = deploymentReplicas(d);
  return replicaSetReplicas(rs) === replicas && desired === replicas && (rs.status?.availableReplicas ?? 0) === replicas;
}

/** `FindActiveOrLatest`: the only active ReplicaSet, or the newest when none is active; undefined when several are. */
export function findActiveOrLatest(newRS: ReplicaSetObject | undefined, oldRSs: readonly ReplicaSetObject[]): ReplicaSetObject | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => compareByCreation(b, a));
  const active = filterActiveReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  if (active.length === 1) return active[0];
  return undefined;
}

/** Go's `math.Round` (half away from zero), which `integer.RoundToInt32` uses. */
function roundHalfAwayFromZero(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

function replicaSetFraction(rs: ReplicaSetObject, d: DeploymentObject): number {
  const rsReplicas = replicaSetReplicas(rs);
  if (deploymentReplicas(d) === 0) return -rsReplicas;
  const deploymentMax = deploymentReplicas(d) + maxSurge(d);
  const annotated = intAnnotation(rs, MAX_REPLICAS_ANNOTATION) ?? d.status?.replicas ?? 0;
  return roundHalfAwayFromZero((rsReplicas * deploymentMax) / annotated) - rsReplicas;
}

/** `GetProportion`: this ReplicaSet's share of a scaling event during a rollout. */
export function getProportion(rs: ReplicaSetObject | undefined, d: DeploymentObject, toAdd: number, added: number): number {
  if (!rs || replicaSetReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

// ---------------------------------------------------------------------------------------------
// Conditions and status

export function newCondition(type: ConditionType, status: ConditionStatus, reason: string, message: string, now: number): DeploymentCondition {
  const time = rfc3339(now);
  return { type, status, lastUpdateTime: time, lastTransitionTime: time, reason, message };
}

export function getCondition(status: DeploymentStatus | undefined, type: ConditionType): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/** `SetDeploymentCondition`: same status and reason is a no-op; same status keeps lastTransitionTime; the condition moves last. */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type as ConditionType);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: ConditionType): void {
  const rest = (status.conditions ?? []).filter((c) => c.type !== type);
  status.conditions = rest.length > 0 ? rest : undefined;
}

/**
 * `calculateStatus`: the counts from the ReplicaSets and the Available condition. Zero counts are
 * left out, as the API serializes DeploymentStatus (every count is `omitempty`).
 */
export function calculateStatus(allRSs: readonly (ReplicaSetObject | undefined)[], newRS: ReplicaSetObject | undefined, d: DeploymentObject, now: number): DeploymentStatus {
  const available = availableReplicaCount(allRSs);
  const unavailable = Math.max(0, replicaCount(allRSs) - available);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata?.generation,
    replicas: actualReplicaCount(allRSs),
    updatedReplicas: actualReplicaCount([newRS]),
    readyReplicas: readyReplicaCount(allRSs),
    availableReplicas: available,
    unavailableReplicas: unavailable,
    conditions: d.status?.conditions ? [...d.status.conditions] : undefined,
    collisionCount: d.status?.collisionCount,
  };
  if (available >= deploymentReplicas(d) - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', Reasons.minimumReplicasAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition('Available', 'False', Reasons.minimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

/** The status as the API server would store it: zero counts and empty lists dropped. */
export function serializedStatus(status: DeploymentStatus): DeploymentStatus {
  const out: DeploymentStatus = {};
  if (status.observedGeneration) out.observedGeneration = status.observedGeneration;
  if (status.replicas) out.replicas = status.replicas;
  if (status.updatedReplicas) out.updatedReplicas = status.updatedReplicas;
  if (status.readyReplicas) out.readyReplicas = status.readyReplicas;
  if (status.availableReplicas) out.availableReplicas = status.availableReplicas;
  if (status.unavailableReplicas) out.unavailableReplicas = status.unavailableReplicas;
  if (status.conditions && status.conditions.length > 0) out.conditions = status.conditions;
  if (status.collisionCount !== undefined && status.collisionCount !== null) out.collisionCount = status.collisionCount;
  return out;
}

export function statusEqual(a: DeploymentStatus | undefined, b: DeploymentStatus | undefined): boolean {
  return semanticEqual(serializedStatus(a ?? {}), serializedStatus(b ?? {}));
}

/** `DeploymentComplete`: every replica updated and available, no old ones, generation observed. */
export function deploymentComplete(d: DeploymentObject, status: DeploymentStatus): boolean {
  const replicas = deploymentReplicas(d);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** `DeploymentProgressing`: new pods came, old pods went, or more are ready or available. */
export function deploymentProgressing(d: DeploymentObject, next: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (
    (next.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (next.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (next.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * `DeploymentTimedOut`: the Progressing condition's lastUpdateTime is more than
 * progressDeadlineSeconds ago (or it already says ProgressDeadlineExceeded).
 */
export function deploymentTimedOut(d: DeploymentObject, status: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const condition = getCondition(status, 'Progressing');
  if (!condition) return false;
  if (condition.reason === Reasons.newRSAvailable) return false;
  if (condition.reason === Reasons.timedOut) return true;
  const from = parseTime(condition.lastUpdateTime) ?? 0;
  return from + progressDeadlineSeconds(d) * 1000 < now;
}
