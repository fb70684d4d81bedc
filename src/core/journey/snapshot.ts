/**
 * Builds the serialisable snapshots from the tracer's records. Each object's snapshot is cached
 * until the object (or, for a parent, one of its children) changes, so re-reading a 10,000-pod
 * journey after one pod moved rebuilds that pod and the arrays above it, not every pod.
 */
import { containerStateLabel, findCondition, type CronJobFields, type JobFields, type PodDigest, type WorkloadDigest } from './digest';
import { emptyCounters, stageList, type Counters, type JourneyRecord, type ObjectRecord } from './records';
import { podMarks, podPhases, refOf } from './status';
import { serviceEndpoints } from './service-status';
import { selectorText } from './derive-service';
import {
  PHASE_NAMES,
  type CronJobDetails,
  type DurationStats,
  type JobDetails,
  type Journey,
  type JourneyStatus,
  type ObjectJourney,
  type PhaseName,
  type PodCounts,
  type PodDetails,
  type ReplicaDetails,
  type ServiceDetails,
  type EndpointDetails,
  type StuckEntry,
} from './types';

export interface SnapshotContext {
  /** Node readiness by name (only nodes the tracer saw). */
  nodeReady(name: string): boolean | undefined;
  stuckListLimit: number;
}

function podDetails(record: ObjectRecord, pod: PodDigest, ctx: SnapshotContext): PodDetails {
  const marks = podMarks(record);
  let ready = 0;
  let restarts = 0;
  const containers: PodDetails['containers'] = [];
  const statusByName = new Map(pod.containers.filter((c) => !c.init).map((c) => [c.name, c]));
  for (const spec of pod.specContainers) {
    const c = spec.sidecar ? pod.containers.find((status) => status.init && status.name === spec.name) : statusByName.get(spec.name);
    if (c?.ready) ready++;
    restarts += c?.restartCount ?? 0;
    const container: PodDetails['containers'][number] = {
      name: spec.name,
      state: c ? containerStateLabel(c) : pod.nodeName ? 'ContainerCreating' : 'Pending',
      ready: c?.ready ?? false,
      restarts: c?.restartCount ?? 0,
      image: spec.image,
    };
    if (c?.state === 'terminated' && c.terminated?.exitCode !== undefined) container.exitCode = c.terminated.exitCode;
    containers.push(container);
  }
  const details: PodDetails = {
    readyContainers: ready,
    totalContainers: pod.specContainers.length,
    restarts,
    containers,
    marks,
    phases: record.preexisting ? {} : podPhases(marks),
  };
  if (pod.nodeName) {
    details.node = pod.nodeName;
    const nodeReady = ctx.nodeReady(pod.nodeName);
    if (nodeReady !== undefined) details.nodeReady = nodeReady;
  }
  if (pod.phase) details.phase = pod.phase;
  if (pod.podIP) details.podIP = pod.podIP;
  return details;
}

function replicaDetails(d: WorkloadDigest): ReplicaDetails {
  const details: ReplicaDetails = {
    desired: d.specReplicas,
    current: d.replicas,
    ready: d.readyReplicas,
    available: d.availableReplicas,
    images: d.images.slice(),
  };
  if (d.kind === 'Deployment' || d.kind === 'StatefulSet' || d.kind === 'DaemonSet') details.updated = d.updatedReplicas;
  if (d.revision) details.revision = d.revision;
  if (d.statefulSet?.updateRevision) {
    details.revision = d.statefulSet.updateRevision;
    if (d.statefulSet.currentRevision && d.statefulSet.currentRevision !== d.statefulSet.updateRevision) details.currentRevision = d.statefulSet.currentRevision;
  }
  if (d.job) details.job = jobDetails(d.job);
  if (d.cronJob) details.cronJob = cronJobDetails(d.cronJob);
  return details;
}

function jobDetails(j: JobFields): JobDetails {
  const details: JobDetails = { parallelism: j.parallelism, backoffLimit: j.backoffLimit, completionMode: j.completionMode, suspended: j.suspend, active: j.active, succeeded: j.succeeded, failed: j.failed };
  if (j.completions !== undefined) details.completions = j.completions;
  if (j.startTime) details.startTime = j.startTime.ms;
  if (j.completionTime) details.completionTime = j.completionTime.ms;
  return details;
}

function cronJobDetails(c: CronJobFields): CronJobDetails {
  const details: CronJobDetails = { schedule: c.schedule, suspended: c.suspend, concurrencyPolicy: c.concurrencyPolicy, active: c.active };
  if (c.timeZone) details.timeZone = c.timeZone;
  if (c.lastScheduleTime) details.lastScheduleTime = c.lastScheduleTime.ms;
  if (c.lastSuccessfulTime) details.lastSuccessfulTime = c.lastSuccessfulTime.ms;
  return details;
}

function revisionOf(record: ObjectRecord): number {
  const digest = record.digest;
  const revision = digest && digest.kind !== 'Pod' ? Number(digest.revision) : NaN;
  return Number.isFinite(revision) ? revision : 0;
}

function childOrder(a: ObjectRecord, b: ObjectRecord): number {
  if (a.kind === 'ReplicaSet' && b.kind === 'ReplicaSet') {
    const byRevision = revisionOf(a) - revisionOf(b);
    if (byRevision !== 0) return byRevision;
  }
  return (a.createdNoLaterThan ?? 0) - (b.createdNoLaterThan ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function inOrder(children: readonly ObjectRecord[]): boolean {
  for (let i = 1; i < children.length; i++) if (childOrder(children[i - 1], children[i]) > 0) return false;
  return true;
}

function serviceDetails(record: ObjectRecord, digest: WorkloadDigest): ServiceDetails {
  const service = digest.service;
  const details: ServiceDetails = { type: service?.type ?? 'ClusterIP', nodePorts: service?.nodePorts ?? [], readyEndpoints: serviceEndpoints(record).ready.size };
  if (service?.clusterIP) details.clusterIP = service.clusterIP;
  if (service?.selector) details.selector = selectorText(service.selector);
  if (service?.externalName) details.externalName = service.externalName;
  if (record.service?.programmed) {
    details.programmedEndpoints = record.service.programmed.length;
    details.programmedNodes = record.service.programmedNodes;
  }
  return details;
}

function endpointDetails(digest: WorkloadDigest): EndpointDetails[] {
  return (digest.slice?.endpoints ?? []).map((endpoint) => {
    const details: EndpointDetails = { pod: endpoint.target, ready: endpoint.ready, serving: endpoint.serving, terminating: endpoint.terminating };
    if (endpoint.nodeName) details.node = endpoint.nodeName;
    return details;
  });
}

export function objectSnapshot(record: ObjectRecord, ctx: SnapshotContext): ObjectJourney {
  if (record.snapshot) return record.snapshot;
  // Children arrive nearly in creation order: sort only when they are not.
  if (!inOrder(record.children)) record.children.sort(childOrder);
  const children = record.children;
  const snapshot: ObjectJourney = {
    ref: refOf(record),
    status: record.status,
    // Stage objects are immutable (replaced on change): shared, not copied.
    stages: stageList(record),
    children: children.map((child) => objectSnapshot(child, ctx)),
  };
  // Stuck details are made afresh on every status change and never mutated: shared.
  if (record.stuck) snapshot.stuck = record.stuck;
  if (record.createdAt !== undefined) snapshot.createdAt = record.createdAt;
  if (record.deletedAt !== undefined) snapshot.deletedAt = record.deletedAt;
  if (record.preexisting) snapshot.preexisting = true;
  const digest = record.digest;
  if (digest?.kind === 'Pod') snapshot.pod = podDetails(record, digest, ctx);
  else if (digest?.kind === 'Service') snapshot.service = serviceDetails(record, digest);
  else if (digest?.kind === 'EndpointSlice') snapshot.endpoints = endpointDetails(digest);
  else if (digest) snapshot.replicas = replicaDetails(digest);
  record.snapshot = snapshot;
  return snapshot;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: Float64Array, p: number): number {
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1];
}

export function durationStats(values: readonly number[]): DurationStats | undefined {
  let count = 0;
  for (const v of values) if (Number.isFinite(v)) count++;
  if (count === 0) return undefined;
  // A typed array sorts numerically without a comparator call per pair: 150,000 pods sort in milliseconds.
  const sorted = new Float64Array(count);
  let at = 0;
  for (const v of values) if (Number.isFinite(v)) sorted[at++] = v;
  sorted.sort();
  return {
    count: sorted.length,
    min: sorted[0],
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1],
  };
}

function add(into: Counters, from: Counters): void {
  into.live += from.live;
  into.scheduled += from.scheduled;
  into.running += from.running;
  into.ready += from.ready;
  into.stuck += from.stuck;
  into.terminating += from.terminating;
  into.deleted += from.deleted;
  into.restarts += from.restarts;
}

/** The ReplicaSet of the Deployment's newest template (a CronJob's newest Job). */
export function currentReplicaSet(deployment: ObjectRecord): ObjectRecord | undefined {
  let best: ObjectRecord | undefined;
  for (const rs of deployment.children) {
    if (rs.deleted) continue;
    if (!best || childOrder(best, rs) < 0) best = rs;
  }
  return best;
}

function journeyCounts(journey: JourneyRecord): PodCounts {
  const root = journey.rootRecord;
  const counts: PodCounts = { desired: 0, live: 0, scheduled: 0, running: 0, ready: 0, stuck: 0, terminating: 0, deleted: 0, oldLive: 0, restarts: 0 };
  if (!root) return counts;
  const digest = root.digest;
  if (root.kind === 'Pod') {
    const c = journey.rootPodCounters;
    Object.assign(counts, { desired: 1, live: c.live, scheduled: c.scheduled, running: c.running, ready: c.ready, stuck: c.stuck, terminating: c.terminating, deleted: c.deleted, restarts: c.restarts });
    return counts;
  }
  counts.desired = digest && digest.kind !== 'Pod' ? digest.specReplicas : 0;
  // A workload that owns its pods counts them itself; a Deployment (ReplicaSets) or a CronJob
  // (Jobs) counts its newest child's as current and the older children's as old.
  const ownsPods = root.podCounters !== undefined;
  const current = ownsPods ? root : currentReplicaSet(root);
  const all = emptyCounters();
  const sets = ownsPods ? [root] : root.children;
  for (const rs of sets) {
    if (!rs.podCounters) continue;
    add(all, rs.podCounters);
    if (rs === current) {
      const c = rs.podCounters;
      counts.live = c.live;
      counts.scheduled = c.scheduled;
      counts.running = c.running;
      counts.ready = c.ready;
      counts.stuck = c.stuck;
      counts.terminating = c.terminating;
    } else {
      // Pods of an older ReplicaSet may predate the journey and be unseen: its status counts them.
      const status = rs.digest && rs.digest.kind !== 'Pod' && !rs.deleted ? rs.digest.replicas : 0;
      counts.oldLive += Math.max(rs.podCounters.live, status);
    }
  }
  counts.deleted = all.deleted;
  counts.restarts = all.restarts;
  return counts;
}

const STATUS_SEVERITY: Record<JourneyStatus, number> = { failed: 0, stuck: 1, pending: 2, progressing: 3, complete: 4, deleted: 5 };

function stuckEntries(journey: JourneyRecord, limit: number): StuckEntry[] {
  const entries: StuckEntry[] = [];
  for (const record of journey.stuckObjects) {
    if (record.stuck) entries.push({ ref: refOf(record), status: record.status, stuck: record.stuck });
  }
  // The root's own problem is the journey's answer (a Job failed with BackoffLimitExceeded), ahead
  // of the pods that led to it; then the worst, oldest first.
  const root = journey.rootRecord;
  const rootFirst = (entry: StuckEntry): number => (root && entry.ref.uid === root.uid ? 0 : 1);
  entries.sort((a, b) => rootFirst(a) - rootFirst(b) || STATUS_SEVERITY[a.status] - STATUS_SEVERITY[b.status] || a.stuck.since - b.stuck.since);
  return entries.slice(0, limit);
}

/** A journey's status is its root object's (pending until the root is seen). */
export function journeyStatus(journey: JourneyRecord): JourneyStatus {
  return journey.rootRecord ? journey.rootRecord.status : 'pending';
}

export function isFinished(status: JourneyStatus): boolean {
  return status === 'complete' || status === 'failed' || status === 'deleted';
}

export function journeySnapshot(journey: JourneyRecord, ctx: SnapshotContext): Journey {
  if (journey.snapshot) return journey.snapshot;
  const root = journey.rootRecord;
  const status = journeyStatus(journey);
  const phaseStats: Partial<Record<PhaseName, DurationStats>> = {};
  for (const name of PHASE_NAMES) {
    const stats = durationStats(journey.phaseValues[name]);
    if (stats) phaseStats[name] = stats;
  }
  const snapshot: Journey = {
    id: journey.id,
    root: root ? refOf(root) : { ...journey.root },
    appliedAt: journey.appliedAt,
    status,
    done: isFinished(status),
    stuck: journey.stuckObjects.size > 0,
    lastChangeAt: journey.lastChangeAt,
    version: journey.version,
    counts: journeyCounts(journey),
    phaseStats,
    stuckObjects: stuckEntries(journey, ctx.stuckListLimit),
    stuckCount: journey.stuckObjects.size,
  };
  if (journey.assumptions.length > 0) {
    snapshot.assumptions = journey.assumptions.slice(0, ctx.stuckListLimit);
    snapshot.assumptionCount = journey.assumptions.length;
    snapshot.assumedObjects = journey.assumedObjects ?? 0;
  }
  if (journey.completedAt !== undefined) {
    snapshot.completedAt = journey.completedAt;
    snapshot.totalDurationMs = journey.completedAt - journey.appliedAt;
  }
  if (root) snapshot.tree = objectSnapshot(root, ctx);
  journey.snapshot = snapshot;
  return snapshot;
}

/** Whether a Deployment's Available condition is True (for completion times). */
export function deploymentAvailable(d: WorkloadDigest): boolean {
  return findCondition(d.conditions, 'Available')?.status === 'True';
}
