/**
 * Where each object stands, and why it is stuck. Pod problems come from state first (the
 * PodScheduled condition, containers' waiting reasons, phase Failed) and from warning events
 * when nothing newer happened since (a failing probe, a mount that never succeeds). A Deployment
 * or ReplicaSet is stuck when one of its pods is.
 */
import { deploymentRolledOut, findCondition, type PodDigest, type WorkloadDigest } from './digest';
import { deletedByPodGC, FAILURE_WAITING_REASONS, POD_GARBAGE_COLLECTOR, SCHEDULING_GATED } from './derive-pod';
import { stageOf, type ObjectRecord } from './records';
import { CONTROLLER_OF } from './controllers';
import { daemonSetRolledOut, statefulSetRolledOut } from './derive-sets';
import { jobComplete, jobFailed } from './derive-batch';
import { missingDependency } from './dependencies';
import { endpointSliceStatus, serviceStatus } from './service-status';
import type { JourneyObjectRef, JourneyStatus, PodPhaseDurations, PodPhaseMarks, Stage, StuckDetail } from './types';

export interface StatusResult {
  status: JourneyStatus;
  stuck?: StuckDetail;
  /** The problem is the object's own (not inherited from a pod). */
  own: boolean;
}

export function refOf(record: ObjectRecord): JourneyObjectRef {
  return { kind: record.kind, namespace: record.namespace, name: record.name, uid: record.uid };
}

function lastOccurrence(stage: Stage): number {
  return Math.max(stage.time, stage.lastTime ?? stage.time, stage.evidence.event?.lastTime ?? stage.time);
}

function stuckFromStage(record: ObjectRecord, stage: Stage, reason: string, message: string | undefined): StuckDetail {
  return {
    reason,
    message: message ?? stage.message ?? stage.title,
    since: stage.time,
    lastSeen: lastOccurrence(stage),
    count: Math.max(stage.count ?? 1, stage.evidence.event?.count ?? 1),
    component: stage.component,
    container: stage.container,
    object: refOf(record),
  };
}

function containerProblem(record: ObjectRecord, pod: PodDigest): StuckDetail | undefined {
  for (const c of pod.containers) {
    if (c.state !== 'waiting' || !c.reason || !FAILURE_WAITING_REASONS.has(c.reason)) continue;
    const current = stageOf(record, `waiting:${c.name}:${c.reason}`);
    let since = current?.time;
    let lastSeen = current ? lastOccurrence(current) : undefined;
    // The streak began at the first failure of this container (ErrImagePull before ImagePullBackOff).
    for (const { stage } of record.stages) {
      if (!stage.warning || stage.container !== c.name) continue;
      if (!stage.key.startsWith(`waiting:${c.name}:`) && !stage.key.startsWith(`pullFailed:${c.name}`)) continue;
      if (since === undefined || stage.time < since) since = stage.time;
      const last = lastOccurrence(stage);
      if (lastSeen === undefined || last > lastSeen) lastSeen = last;
    }
    const last = c.lastTerminated;
    return {
      reason: c.reason,
      message: c.message ?? current?.message ?? c.reason,
      since: since ?? record.stages[record.stages.length - 1]?.stage.time ?? 0,
      lastSeen: lastSeen ?? since ?? 0,
      count: current ? Math.max(current.count ?? 1, current.evidence.event?.count ?? 1) : undefined,
      component: 'kubelet',
      container: c.name,
      object: refOf(record),
      lastTermination: last ? { reason: last.reason, exitCode: last.exitCode, finishedAt: last.finishedAt?.ms } : undefined,
    };
  }
  return undefined;
}

/**
 * The scheduler's words about a pod's claims do not name them (`pod has unbound immediate
 * PersistentVolumeClaims`): the latest problem of one of its claims, when there is one, follows.
 */
function withClaimProblem(record: ObjectRecord, message: string | undefined): string | undefined {
  let problem: Stage | undefined;
  for (const { stage } of record.stages) {
    if (stage.key.startsWith('claim:') && (stage.warning || stage.reason === 'FailedBinding') && (!problem || stage.time >= problem.time)) problem = stage;
  }
  return problem && message ? `${message} (${problem.message ?? problem.title})` : message;
}

const EVENT_PROBLEM_KINDS = new Set(['event', 'failed', 'unhealthy', 'backOff', 'failedScheduling']);
/** Warnings after which the kubelet goes on: the pod is not held up by them. */
const ADVISORY_EVENT_REASONS = new Set(['FailedToRetrieveImagePullSecret']);

/** A stuck pod's detail with the object it waits for, when its message names one. */
function naming(stuck: StuckDetail): StuckDetail {
  const dependency = missingDependency(stuck.reason, stuck.message);
  return dependency ? { ...stuck, dependency } : stuck;
}

/** A pod of a Job: its failure is one try of several, not the journey's problem. */
export function retriedByJob(record: ObjectRecord): boolean {
  return record.parent?.kind === 'Job';
}

export function podStatus(record: ObjectRecord): StatusResult {
  const pod = record.digest?.kind === 'Pod' ? record.digest : undefined;
  const collected = pod && !record.parent ? deletedByPodGC(pod) : undefined;
  if (collected) {
    // A bare pod naming a node that does not exist: the pod garbage collector failed and deleted it.
    const stage = stageOf(record, 'phaseFailed');
    const since = stage?.time ?? record.createdAt ?? 0;
    return { status: 'failed', own: true, stuck: { reason: collected.reason ?? 'DeletionByPodGC', message: collected.message ?? '', since, lastSeen: since, component: POD_GARBAGE_COLLECTOR, object: refOf(record) } };
  }
  if (record.deleted || pod?.deletionTimestamp) return { status: 'deleted', own: false };
  if (!pod) return { status: 'pending', own: false };
  if (pod.phase === 'Failed') {
    const stage = stageOf(record, 'phaseFailed');
    return {
      status: 'failed',
      // A Job retries its failed pods: the Job reports the failure that ends it, not each try.
      own: !retriedByJob(record),
      stuck: {
        reason: pod.statusReason ?? 'Failed',
        message: pod.statusMessage ?? stage?.message ?? 'Pod phase Failed',
        since: stage?.time ?? record.createdAt ?? 0,
        lastSeen: stage?.time ?? record.createdAt ?? 0,
        component: 'kubelet',
        object: refOf(record),
      },
    };
  }
  if (pod.phase === 'Succeeded' || findCondition(pod.conditions, 'Ready')?.status === 'True') return { status: 'complete', own: false };
  if (!pod.nodeName) {
    const failed = stageOf(record, 'failedScheduling');
    if (failed) {
      const condition = findCondition(pod.conditions, 'PodScheduled');
      const message = condition?.status === 'False' && condition.message ? condition.message : (failed.evidence.event?.message ?? failed.message);
      const reason = condition?.status === 'False' && condition.reason === SCHEDULING_GATED ? SCHEDULING_GATED : 'FailedScheduling';
      return { status: 'stuck', own: true, stuck: naming(stuckFromStage(record, failed, reason, withClaimProblem(record, message))) };
    }
  }
  const problem = containerProblem(record, pod);
  if (problem) return { status: 'stuck', own: true, stuck: naming(problem) };
  const latest = record.stages[record.stages.length - 1]?.stage;
  const latestReason = latest?.evidence.event?.reason;
  if (latest?.warning && EVENT_PROBLEM_KINDS.has(latest.kind) && !(latest.kind === 'failedScheduling' && pod.nodeName) && !(latestReason && ADVISORY_EVENT_REASONS.has(latestReason))) {
    // A container's waiting stage seen through the kubelet's `Error: …` event, before the status says it.
    const waiting = /^waiting:[^:]*:(.+)$/.exec(latest.key)?.[1];
    const message = latest.evidence.event?.message;
    if (waiting) return { status: 'stuck', own: true, stuck: naming(stuckFromStage(record, latest, waiting, message?.replace(/^Error: /, ''))) };
    return { status: 'stuck', own: true, stuck: naming(stuckFromStage(record, latest, latestReason ?? latest.kind, message)) };
  }
  return { status: pod.nodeName ? 'progressing' : 'pending', own: false };
}

/**
 * The first own problem among the journey's stuck objects that lies under `record`. A Job's
 * failed pods are not problems of the Job (it retries them): pass `stuckOnly` to skip them.
 */
function inheritedProblem(record: ObjectRecord, stuckOnly = false): StuckDetail | undefined {
  for (const candidate of record.journey.stuckObjects) {
    if (candidate === record || (stuckOnly && candidate.status !== 'stuck')) continue;
    if (candidate.parent === record || candidate.parent?.parent === record) return candidate.stuck;
  }
  return undefined;
}

function replicaFailure(record: ObjectRecord, digest: WorkloadDigest): StuckDetail | undefined {
  const condition = findCondition(digest.conditions, 'ReplicaFailure');
  if (condition?.status === 'True') {
    const stage = stageOf(record, `replicaFailure:${condition.reason ?? ''}`) ?? stageOf(record, 'failedCreate');
    return {
      reason: condition.reason ?? 'ReplicaFailure',
      message: condition.message ?? stage?.message ?? '',
      since: stage?.time ?? condition.lastTransitionTime?.ms ?? 0,
      lastSeen: stage ? lastOccurrence(stage) : (condition.lastTransitionTime?.ms ?? 0),
      count: stage?.evidence.event?.count,
      component: CONTROLLER_OF[digest.kind],
      object: refOf(record),
    };
  }
  const failedCreate = stageOf(record, 'failedCreate');
  if (failedCreate && digest.replicas < digest.specReplicas && record.stages[record.stages.length - 1]?.stage === failedCreate) {
    return stuckFromStage(record, failedCreate, 'FailedCreate', failedCreate.evidence.event?.message);
  }
  return undefined;
}

/** What the workload's goal is, given that it has no failure of its own to report. */
function workloadGoal(d: WorkloadDigest): boolean {
  switch (d.kind) {
    case 'StatefulSet':
      return d.specReplicas === 0 || statefulSetRolledOut(d);
    case 'DaemonSet':
      return (d.observedGeneration ?? 0) >= 1 && (d.specReplicas === 0 || daemonSetRolledOut(d));
    default: {
      const observed = (d.observedGeneration ?? 0) >= (d.generation ?? 0);
      return d.specReplicas === 0 || (observed && d.availableReplicas >= d.specReplicas);
    }
  }
}

function workloadDigest(record: ObjectRecord): WorkloadDigest | undefined {
  return record.digest && record.digest.kind !== 'Pod' ? record.digest : undefined;
}

/** ReplicaSets, ReplicationControllers, StatefulSets and DaemonSets: all their pods ready (and updated). */
export function podSetStatus(record: ObjectRecord): StatusResult {
  const rs = workloadDigest(record);
  if (record.deleted || rs?.deletionTimestamp) return { status: 'deleted', own: false };
  if (!rs) return { status: 'pending', own: false };
  const failure = replicaFailure(record, rs);
  if (failure) return { status: 'stuck', own: true, stuck: failure };
  if ((record.podCounters?.stuck ?? 0) > 0) return { status: 'stuck', own: false, stuck: inheritedProblem(record) };
  if (workloadGoal(rs)) return { status: 'complete', own: false };
  return { status: 'progressing', own: false };
}

function suspended(record: ObjectRecord, what: string): StatusResult {
  const stage = record.stages.map((s) => s.stage).filter((s) => s.kind === 'suspended').pop();
  const since = stage?.time ?? record.createdAt ?? 0;
  return { status: 'stuck', own: true, stuck: { reason: 'Suspended', message: `${what} is suspended (spec.suspend: true): nothing runs until it is resumed`, since, lastSeen: since, component: 'kube-apiserver', object: refOf(record) } };
}

/** A Job: Complete, or Failed for good with upstream's reason; its failed pods are retries, not problems. */
export function jobStatus(record: ObjectRecord): StatusResult {
  const job = workloadDigest(record);
  if (record.deleted || job?.deletionTimestamp) return { status: 'deleted', own: false };
  if (!job) return { status: 'pending', own: false };
  if (jobComplete(job)) return { status: 'complete', own: false };
  const failed = jobFailed(job);
  if (failed) {
    const stage = stageOf(record, 'jobFailed');
    const since = stage?.time ?? failed.lastTransitionTime?.ms ?? 0;
    return { status: 'failed', own: true, stuck: { reason: failed.reason ?? 'Failed', message: failed.message ?? '', since, lastSeen: since, component: 'job-controller', object: refOf(record) } };
  }
  if (job.job?.suspend) return suspended(record, 'The Job');
  const inherited = inheritedProblem(record, true);
  if (inherited) return { status: 'stuck', own: false, stuck: inherited };
  return { status: 'progressing', own: false };
}

/** A CronJob: waiting for its schedule, then complete when a Job it created completed. */
export function cronJobStatus(record: ObjectRecord): StatusResult {
  const cron = workloadDigest(record);
  if (record.deleted || cron?.deletionTimestamp) return { status: 'deleted', own: false };
  if (!cron) return { status: 'pending', own: false };
  if (cron.cronJob?.lastSuccessfulTime || record.children.some((job) => job.status === 'complete')) return { status: 'complete', own: false };
  const failedJob = record.children.find((job) => job.status === 'failed');
  if (failedJob?.stuck) return { status: 'failed', own: false, stuck: failedJob.stuck };
  if (cron.cronJob?.suspend) return suspended(record, 'The CronJob');
  const inherited = inheritedProblem(record, true);
  if (inherited) return { status: 'stuck', own: false, stuck: inherited };
  return { status: record.children.length > 0 ? 'progressing' : 'pending', own: false };
}

export function deploymentStatus(record: ObjectRecord): StatusResult {
  const d = record.digest?.kind === 'Deployment' ? record.digest : undefined;
  if (record.deleted || d?.deletionTimestamp) return { status: 'deleted', own: false };
  if (!d) return { status: 'pending', own: false };
  const progressing = findCondition(d.conditions, 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    const stage = stageOf(record, `progressing:${progressing.reason}:${progressing.message ?? ''}`);
    const since = stage?.time ?? progressing.lastUpdateTime?.ms ?? 0;
    return {
      status: 'failed',
      own: true,
      stuck: { reason: 'ProgressDeadlineExceeded', message: progressing.message ?? '', since, lastSeen: since, component: 'deployment-controller', object: refOf(record) },
    };
  }
  if (deploymentRolledOut(d) && findCondition(d.conditions, 'Available')?.status === 'True') return { status: 'complete', own: false };
  const failure = replicaFailure(record, d);
  if (failure) return { status: 'stuck', own: true, stuck: failure };
  const inherited = inheritedProblem(record);
  if (inherited) return { status: 'stuck', own: false, stuck: inherited };
  return { status: 'progressing', own: false };
}

export function statusOf(record: ObjectRecord): StatusResult {
  switch (record.kind) {
    case 'Pod':
      return podStatus(record);
    case 'ReplicaSet':
    case 'ReplicationController':
    case 'StatefulSet':
    case 'DaemonSet':
      return podSetStatus(record);
    case 'Job':
      return jobStatus(record);
    case 'CronJob':
      return cronJobStatus(record);
    case 'Deployment':
      return deploymentStatus(record);
    case 'Service':
      return serviceStatus(record);
    case 'EndpointSlice':
      return endpointSliceStatus(record);
  }
}

/** The instants clusterloader2 measures between, from the pod's stages. */
export function podMarks(record: ObjectRecord): PodPhaseMarks {
  const created = stageOf(record, 'podCreated') ?? stageOf(record, 'stored');
  const scheduled = stageOf(record, 'scheduled');
  const running = stageOf(record, 'running');
  const ready = stageOf(record, 'ready');
  let runAt: number | undefined;
  if (running && record.digest?.kind === 'Pod') {
    // clusterloader2's "run": the latest container start when the pod first turned Running.
    for (const c of record.digest.containers) {
      if (c.init) continue;
      const start = stageOf(record, `containerStarted:${c.name}#0`);
      if (start && (runAt === undefined || start.time > runAt)) runAt = start.time;
    }
    if (runAt === undefined || runAt > running.time) runAt = running.time;
  }
  const marks: PodPhaseMarks = {};
  if (created) marks.created = created.time;
  if (scheduled) marks.scheduled = scheduled.time;
  if (runAt !== undefined) marks.running = runAt;
  if (record.watchedRunningAt !== undefined) marks.watched = record.watchedRunningAt;
  if (ready) marks.ready = ready.time;
  return marks;
}

function between(from: number | undefined, to: number | undefined): number | undefined {
  return from === undefined || to === undefined ? undefined : to - from;
}

export function podPhases(marks: PodPhaseMarks): PodPhaseDurations {
  const phases: PodPhaseDurations = {};
  const set = (name: keyof PodPhaseDurations, value: number | undefined): void => {
    if (value !== undefined) phases[name] = value;
  };
  set('create_to_schedule', between(marks.created, marks.scheduled));
  set('schedule_to_run', between(marks.scheduled, marks.running));
  set('run_to_watch', between(marks.running, marks.watched));
  set('schedule_to_watch', between(marks.scheduled, marks.watched));
  set('create_to_run', between(marks.created, marks.running));
  set('pod_startup', between(marks.created, marks.watched));
  set('create_to_ready', between(marks.created, marks.ready));
  return phases;
}
