/**
 * The Job controller (kubernetes pkg/controller/job/job_controller.go, 1.32 behaviour): runs a
 * Job's pods to completion.
 *
 * - Keeps `min(parallelism, completions − succeeded)` pods active (Indexed: one per pending index,
 *   lowest first, named `<job>-<index>-xxxxx` with the completion-index annotation and label, the
 *   hostname `<job>-<index>` and `JOB_COMPLETION_INDEX`).
 * - Every pod carries the `batch.kubernetes.io/job-tracking` finalizer; a finished pod is first
 *   listed in `status.uncountedTerminatedPods`, its finalizer removed, then folded into
 *   `succeeded`/`failed` (`trackJobStatusAndRemoveFinalizers`).
 * - A failed pod is judged by the podFailurePolicy (FailJob, FailIndex, Ignore, Count), then
 *   counted against backoffLimit (or backoffLimitPerIndex/maxFailedIndexes); the next pod waits
 *   the pod-failure back-off (backoff-utils.ts).
 * - The terminal condition comes in two steps, as with JobManagedBy/JobPodReplacementPolicy on:
 *   `FailureTarget` (or `SuccessCriteriaMet`) at once, active pods deleted, then `Failed` (or
 *   `Complete` with completionTime) once no pod is left running, with the event.
 * - `suspend` deletes the active pods and sets `Suspended`; resuming resets startTime.
 *
 * Not simulated: expectations (the store is synchronous, so the controller's reads are never
 * stale), adoption of orphan pods by selector, the `managedBy` field, MaxUncountedPods batching.
 */
import type { KubeObject, OwnerReference } from '../../../core/k8s';
import { informer, objectKey, splitKey, type SimContext } from '../../context';
import { cloneAsJson, deepEqual } from '../../../common/json';
import { rfc3339 } from '../../store/object-utils';
import { ApiError, type StoreChange } from '../../store/types';
import { controllerOf, newControllerRef, parseTime, SyncError, type PodObject } from '../controller-types';
import { recordEvent } from '../controller-events';
import { isPodActive, isPodReady } from '../pod-util';
import { ControllerQueue } from '../work-scheduling';
import { nextBackoffRecord, remainingBackoffMs, type BackoffRecord } from './backoff-utils';
import { completionIndexOf, formatIndexes, generateNameWithIndex, indexFailureCountOf, parseIndexes } from './indexed-job-utils';
import {
  completionModeOf,
  finishedCondition,
  hasCondition,
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_COMPLETION_INDEX_ENV,
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  JOB_TRACKING_FINALIZER,
  JobMessage,
  JobReason,
  type JobCondition,
  type JobObject,
  type JobStatus,
} from './job-types';
import { matchPodFailurePolicy } from './pod-failure-policy';
import { matchSuccessPolicy } from './success-policy';

const COMPONENT = 'job-controller';
/** `syncJobBatchPeriod`: pod changes are batched into one sync per second. */
export const SYNC_JOB_BATCH_PERIOD_MS = 1000;
/** `MaxPodCreateDeletePerSync`. */
const MAX_POD_CREATE_DELETE_PER_SYNC = 500;

interface Target {
  type: 'FailureTarget' | 'SuccessCriteriaMet';
  reason: string;
  message: string;
}

function isTerminal(pod: PodObject): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

function hasTrackingFinalizer(pod: PodObject): boolean {
  return (pod.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/** `getFinishedTime`: the last container's finishedAt, else the deletion time, else now. */
function finishedTime(pod: PodObject, now: number): number {
  let latest: number | undefined;
  for (const status of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    const at = parseTime(status.state?.terminated?.finishedAt);
    if (at !== undefined && (latest === undefined || at > latest)) latest = at;
  }
  return latest ?? parseTime(pod.metadata?.deletionTimestamp) ?? now;
}

/** `pastBackoffLimitOnFailure`: with restartPolicy OnFailure, container restarts count as failures. */
function pastBackoffLimitOnFailure(job: JobObject, pods: readonly PodObject[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    if (pod.status?.phase !== 'Running' && pod.status?.phase !== 'Pending') continue;
    for (const status of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) restarts += status.restartCount ?? 0;
  }
  const limit = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class JobController {
  private readonly queue: ControllerQueue;
  /** Job uid → the pod-failure back-off record (upstream keeps it in memory too). */
  private readonly backoff = new Map<string, BackoffRecord>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly ctx: SimContext) {
    this.queue = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.processKey(key));
  }

  start(): void {
    this.unsubscribe.push(
      informer(this.ctx, COMPONENT, 'Job', (change) => this.onJob(change)),
      informer(this.ctx, COMPONENT, 'Pod', (change) => this.onPod(change), (pod) => controllerOf(pod)?.kind === 'Job' || hasTrackingFinalizer(pod as PodObject)),
    );
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  private onJob(change: StoreChange): void {
    if (change.type === 'DELETED') this.backoff.delete(change.object.metadata?.uid ?? '');
    this.queue.add(objectKey(change.object));
  }

  private onPod(change: StoreChange): void {
    const pod = change.object as PodObject;
    const ref = controllerOf(pod);
    const job = ref?.kind === 'Job' ? this.ctx.store.get<JobObject>('Job', pod.metadata?.namespace, ref.name) : undefined;
    if (!ref || !job || job.metadata?.uid !== ref.uid) {
      // An orphan keeps no finalizer: nothing will count it any more.
      if (change.type !== 'DELETED' && hasTrackingFinalizer(pod)) this.ctx.clock.after(this.ctx.timings.controllerReaction, () => this.removeTrackingFinalizer(pod));
      return;
    }
    this.queue.addAfter(objectKey(job), SYNC_JOB_BATCH_PERIOD_MS);
  }

  private processKey(key: string): void {
    try {
      this.syncJob(key);
      this.queue.forget(key);
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof SyncError)) throw error;
      this.queue.addRateLimited(key);
    }
  }

  /** `syncJob`: one reconciliation of the Job named by `key`. */
  syncJob(key: string): void {
    const { namespace, name } = splitKey(key);
    const job = this.ctx.store.get<JobObject>('Job', namespace, name);
    if (!job) return;
    const uid = job.metadata?.uid ?? '';
    const pods = this.ctx.store.ownedBy<PodObject>('Pod', uid);
    // A Job being deleted (foreground) keeps no pod waiting on its finalizer (`canRemoveFinalizer`).
    if (job.metadata?.deletionTimestamp) {
      for (const pod of pods) if (hasTrackingFinalizer(pod)) this.removeTrackingFinalizer(pod);
      return;
    }
    if (finishedCondition(job)) {
      for (const pod of pods) if (hasTrackingFinalizer(pod) && (isTerminal(pod) || pod.metadata?.deletionTimestamp)) this.removeTrackingFinalizer(pod);
      return;
    }
    const now = this.ctx.clock.now();
    const spec = job.spec ?? ({} as NonNullable<JobObject['spec']>);
    const indexed = completionModeOf(job) === 'Indexed';
    const completions = spec.completions ?? undefined;
    const suspended = spec.suspend === true;
    const perIndex = indexed && spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null;
    // `isPodFailed`: unless only failed pods are replaced, a deleted pod counts as failed at once.
    const onlyReplaceFailed = spec.podReplacementPolicy === 'Failed' || spec.podFailurePolicy !== undefined;
    const status: JobStatus = cloneAsJson(job.status ?? {});
    let conditions: JobCondition[] = [...(status.conditions ?? [])];
    let target: Target | undefined;
    const existingTarget = hasCondition(job, 'FailureTarget') ?? hasCondition(job, 'SuccessCriteriaMet');
    if (existingTarget) target = { type: existingTarget.type as Target['type'], reason: existingTarget.reason ?? '', message: existingTarget.message ?? '' };

    // --- Newly finished pods: judged once, listed as uncounted, finalizer removed, then counted.
    const uncounted = { succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])], failed: [...(status.uncountedTerminatedPods?.failed ?? [])] };
    const completed = parseIndexes(status.completedIndexes, completions ?? 0);
    const failedIndexes = parseIndexes(status.failedIndexes ?? undefined, completions ?? 0);
    const newlySucceededAt: number[] = [];
    const newlyFailedAt: number[] = [];
    const toRelease: PodObject[] = [];
    for (const pod of pods) {
      if (!hasTrackingFinalizer(pod)) continue;
      const podUid = pod.metadata?.uid ?? '';
      if (uncounted.succeeded.includes(podUid) || uncounted.failed.includes(podUid)) {
        toRelease.push(pod);
        continue;
      }
      if (!isTerminal(pod) && !(pod.metadata?.deletionTimestamp !== undefined && !onlyReplaceFailed)) continue;
      toRelease.push(pod);
      if (pod.status?.phase === 'Succeeded') {
        const index = indexed ? completionIndexOf(pod, completions ?? 0) : undefined;
        if (indexed && (index === undefined || completed.has(index))) continue;
        if (index !== undefined) completed.add(index);
        uncounted.succeeded.push(podUid);
        newlySucceededAt.push(finishedTime(pod, now));
        continue;
      }
      const match = matchPodFailurePolicy(spec.podFailurePolicy, pod);
      if (match.action === 'FailJob' && !target) target = { type: 'FailureTarget', reason: JobReason.PodFailurePolicy, message: match.message ?? '' };
      if (!match.countFailed) continue;
      uncounted.failed.push(podUid);
      newlyFailedAt.push(finishedTime(pod, now));
      if (perIndex) {
        const index = completionIndexOf(pod, completions ?? 0);
        if (index !== undefined && (match.action === 'FailIndex' || indexFailureCountOf(pod) + 1 > (spec.backoffLimitPerIndex ?? 0))) failedIndexes.add(index);
      }
    }
    this.backoff.set(uid, nextBackoffRecord(this.backoff.get(uid) ?? { failuresAfterLastSuccess: 0 }, newlySucceededAt, newlyFailedAt));

    if (toRelease.length > 0) {
      // The first write makes the pods countable even if this sync stops after removing finalizers.
      if (uncounted.succeeded.length + uncounted.failed.length > (status.uncountedTerminatedPods?.succeeded?.length ?? 0) + (status.uncountedTerminatedPods?.failed?.length ?? 0)) {
        this.writeStatus(job, { ...status, uncountedTerminatedPods: uncounted });
      }
      for (const pod of toRelease) this.removeTrackingFinalizer(pod);
    }
    const succeeded = (status.succeeded ?? 0) + uncounted.succeeded.length;
    const failed = (status.failed ?? 0) + uncounted.failed.length;
    const current = this.ctx.store.ownedBy<PodObject>('Pod', uid);
    const active = current.filter(isPodActive);

    // --- Start time and suspension.
    const suspendedCondition = conditions.find((c) => c.type === 'Suspended');
    if (suspended && !target) {
      if (suspendedCondition?.status !== 'True') {
        conditions = this.setCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
        recordEvent(this.ctx, COMPONENT, job, 'Normal', 'Suspended', 'Job suspended');
      }
    } else if (suspendedCondition?.status === 'True') {
      conditions = this.setCondition(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
      status.startTime = rfc3339(now);
      recordEvent(this.ctx, COMPONENT, job, 'Normal', 'Resumed', 'Job resumed');
    }
    if (!suspended && !status.startTime) status.startTime = rfc3339(now);

    // --- Failure and success criteria, in upstream's order.
    if (!target) {
      const backoffLimit = spec.backoffLimit ?? 6;
      const startTime = parseTime(status.startTime);
      const deadline = spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null && startTime !== undefined && !suspended ? startTime + spec.activeDeadlineSeconds * 1000 : undefined;
      if (!perIndex && (failed > backoffLimit || pastBackoffLimitOnFailure(job, current))) {
        target = { type: 'FailureTarget', reason: JobReason.BackoffLimitExceeded, message: JobMessage.BackoffLimitExceeded };
      } else if (deadline !== undefined && now >= deadline) {
        target = { type: 'FailureTarget', reason: JobReason.DeadlineExceeded, message: JobMessage.DeadlineExceeded };
      } else if (deadline !== undefined) {
        this.queue.addAfter(objectKey(job), deadline - now);
      }
    }
    if (!target && perIndex) {
      const maxFailedIndexes = spec.maxFailedIndexes;
      if (maxFailedIndexes !== undefined && maxFailedIndexes !== null && failedIndexes.size > maxFailedIndexes) {
        target = { type: 'FailureTarget', reason: JobReason.MaxFailedIndexesExceeded, message: JobMessage.MaxFailedIndexesExceeded };
      } else if (failedIndexes.size > 0 && completed.size + failedIndexes.size >= (completions ?? 0)) {
        target = { type: 'FailureTarget', reason: JobReason.FailedIndexes, message: JobMessage.FailedIndexes };
      }
    }
    if (!target) {
      const matched = indexed ? matchSuccessPolicy(spec.successPolicy, completions ?? 0, completed) : undefined;
      let complete: boolean;
      if (indexed) complete = completed.size >= (completions ?? 0);
      else if (completions === undefined || completions === null) complete = succeeded > 0 && active.length === 0;
      else complete = succeeded >= completions && active.length === 0;
      if (matched !== undefined) target = { type: 'SuccessCriteriaMet', reason: JobReason.SuccessPolicy, message: matched };
      else if (complete) target = { type: 'SuccessCriteriaMet', reason: JobReason.CompletionsReached, message: JobMessage.CompletionsReached };
    }

    // --- Pods.
    if (target) {
      if (!conditions.some((c) => c.type === target.type && c.status === 'True')) conditions = this.setCondition(conditions, target.type, 'True', target.reason, target.message, now);
      for (const pod of active) this.deletePod(job, pod, false);
    } else if (suspended) {
      for (const pod of active) this.deletePod(job, pod, true);
    } else {
      this.manageJob(job, key, active, succeeded, completed, failedIndexes, current);
    }

    // --- The terminal condition, once nothing runs any more.
    const remaining = this.ctx.store.ownedBy<PodObject>('Pod', uid);
    const settled = remaining.every((pod) => isTerminal(pod) && !hasTrackingFinalizer(pod));
    let finished: Target | undefined;
    if (target && settled) {
      finished = target;
      const type = target.type === 'FailureTarget' ? 'Failed' : 'Complete';
      conditions = this.setCondition(conditions, type, 'True', target.reason, target.message, now);
      if (type === 'Complete') status.completionTime = rfc3339(now);
    }

    const running = remaining.filter(isPodActive);
    const next: JobStatus = {};
    if (conditions.length > 0) next.conditions = conditions;
    if (status.startTime) next.startTime = status.startTime;
    if (status.completionTime) next.completionTime = status.completionTime;
    if (running.length) next.active = running.length;
    if (succeeded) next.succeeded = succeeded;
    if (failed) next.failed = failed;
    next.terminating = remaining.filter((pod) => !isTerminal(pod) && pod.metadata?.deletionTimestamp !== undefined).length;
    if (indexed) next.completedIndexes = formatIndexes(completed);
    if (perIndex) next.failedIndexes = formatIndexes(failedIndexes);
    next.uncountedTerminatedPods = {};
    next.ready = running.filter(isPodReady).length;
    this.writeStatus(job, next);
    if (finished) {
      if (finished.type === 'SuccessCriteriaMet') recordEvent(this.ctx, COMPONENT, job, 'Normal', 'Completed', 'Job completed');
      else recordEvent(this.ctx, COMPONENT, job, 'Warning', finished.reason, finished.message);
    }
  }

  /** `manageJob`: create or delete pods so that the wanted number is active, honouring the back-off. */
  private manageJob(job: JobObject, key: string, active: PodObject[], succeeded: number, completed: Set<number>, failedIndexes: Set<number>, pods: PodObject[]): void {
    const spec = job.spec ?? ({} as NonNullable<JobObject['spec']>);
    const parallelism = spec.parallelism ?? 1;
    const completions = spec.completions ?? undefined;
    const now = this.ctx.clock.now();
    const considered = spec.podReplacementPolicy === 'Failed' ? active.length + pods.filter((pod) => !isTerminal(pod) && pod.metadata?.deletionTimestamp !== undefined).length : active.length;

    if (completionModeOf(job) === 'Indexed') {
      const activeIndexes = new Set(active.map((pod) => completionIndexOf(pod, completions ?? 0)));
      const pending: number[] = [];
      for (let index = 0; index < (completions ?? 0) && pending.length < parallelism - considered; index++) {
        if (!completed.has(index) && !failedIndexes.has(index) && !activeIndexes.has(index)) pending.push(index);
      }
      let wait = 0;
      for (const index of pending.slice(0, MAX_POD_CREATE_DELETE_PER_SYNC)) {
        const { failures, lastFailure } = this.indexFailures(pods, index, completions ?? 0);
        const remaining = spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null ? remainingBackoffMs(failures, lastFailure, now) : this.globalBackoff(job, now);
        if (remaining > 0) {
          wait = wait === 0 ? remaining : Math.min(wait, remaining);
          continue;
        }
        this.createPod(job, index, failures);
      }
      if (wait > 0) this.queue.addAfter(key, wait);
      return;
    }

    let wantActive: number;
    if (completions === undefined || completions === null) wantActive = succeeded > 0 ? active.length : parallelism;
    else wantActive = Math.max(0, Math.min(parallelism, completions - succeeded));
    if (considered > wantActive) {
      const excess = [...active].sort((a, b) => (b.metadata?.creationTimestamp ?? '').localeCompare(a.metadata?.creationTimestamp ?? '')).slice(0, Math.min(considered - wantActive, MAX_POD_CREATE_DELETE_PER_SYNC));
      for (const pod of excess) this.deletePod(job, pod, true);
      return;
    }
    if (considered === wantActive) return;
    const remaining = this.globalBackoff(job, now);
    if (remaining > 0) {
      this.queue.addAfter(key, remaining);
      return;
    }
    for (let i = 0; i < Math.min(wantActive - considered, MAX_POD_CREATE_DELETE_PER_SYNC); i++) this.createPod(job, undefined, 0);
  }

  private globalBackoff(job: JobObject, now: number): number {
    const record = this.backoff.get(job.metadata?.uid ?? '');
    return record ? remainingBackoffMs(record.failuresAfterLastSuccess, record.lastFailureTime, now) : 0;
  }

  /** An index's failures so far (from its failed pods' failure-count annotations) and when the last one finished. */
  private indexFailures(pods: readonly PodObject[], index: number, completions: number): { failures: number; lastFailure?: number } {
    let failures = 0;
    let lastFailure: number | undefined;
    const now = this.ctx.clock.now();
    for (const pod of pods) {
      if (pod.status?.phase !== 'Failed' || completionIndexOf(pod, completions) !== index) continue;
      failures = Math.max(failures, indexFailureCountOf(pod) + 1);
      const at = finishedTime(pod, now);
      if (lastFailure === undefined || at > lastFailure) lastFailure = at;
    }
    return { failures, lastFailure };
  }

  /** `podControl.CreatePodsWithGenerateName` with the Job's template, index and tracking finalizer. */
  private createPod(job: JobObject, index: number | undefined, indexFailures: number): void {
    const template = job.spec?.template ?? {};
    const jobName = job.metadata?.name ?? '';
    const labels: Record<string, string> = { ...(template.metadata?.labels ?? {}) };
    const annotations: Record<string, string> = { ...(template.metadata?.annotations ?? {}) };
    const spec = cloneAsJson(template.spec ?? ({ containers: [] } as NonNullable<PodObject['spec']>));
    if (index !== undefined) {
      annotations[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
      labels[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
      if (job.spec?.backoffLimitPerIndex !== undefined && job.spec.backoffLimitPerIndex !== null) annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = String(indexFailures);
      if (!spec.hostname) spec.hostname = `${jobName}-${index}`;
      const env = { name: JOB_COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${JOB_COMPLETION_INDEX_ANNOTATION}']` } } };
      for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
        if (!(container.env ?? []).some((e) => e.name === JOB_COMPLETION_INDEX_ENV)) container.env = [...(container.env ?? []), env];
      }
    }
    const metadata: NonNullable<KubeObject['metadata']> = {
      generateName: index === undefined ? `${jobName}-` : generateNameWithIndex(jobName, index),
      namespace: job.metadata?.namespace,
      labels,
      finalizers: [...(template.metadata?.finalizers ?? []), JOB_TRACKING_FINALIZER],
      ownerReferences: [newControllerRef(job, 'batch/v1', 'Job') as OwnerReference],
    };
    if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
    let created: PodObject;
    try {
      created = this.ctx.store.create<PodObject>('Pod', { apiVersion: 'v1', kind: 'Pod', metadata, spec }, { fieldManager: COMPONENT });
    } catch (error) {
      recordEvent(this.ctx, COMPONENT, job, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(error)}`);
      throw error;
    }
    recordEvent(this.ctx, COMPONENT, job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata?.name ?? ''}`);
  }

  /**
   * `deleteJobPods` (release: the finalizer is removed first, so the pod is not counted: excess
   * and suspended pods) or `deleteActivePods` (a failing or succeeding Job's pods, counted when
   * they end).
   */
  private deletePod(job: JobObject, pod: PodObject, release: boolean): void {
    const name = pod.metadata?.name ?? '';
    try {
      if (release) this.removeTrackingFinalizer(pod);
      this.ctx.store.delete('Pod', pod.metadata?.namespace, name, { actor: COMPONENT });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 404) return;
      recordEvent(this.ctx, COMPONENT, job, 'Warning', 'FailedDelete', `Error deleting: ${error.message}`);
      throw error;
    }
    recordEvent(this.ctx, COMPONENT, job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
  }

  private removeTrackingFinalizer(pod: PodObject): void {
    const current = this.ctx.store.get<PodObject>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '');
    if (!current || !hasTrackingFinalizer(current)) return;
    this.ctx.store.mutate<PodObject>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '', (copy) => {
      const finalizers = (copy.metadata?.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER);
      if (finalizers.length > 0) copy.metadata!.finalizers = finalizers;
      else delete copy.metadata!.finalizers;
    }, { fieldManager: COMPONENT });
  }

  /** Set (or flip) a condition; lastTransitionTime changes only when the status does, as `ensureJobConditionStatus`. */
  private setCondition(conditions: JobCondition[], type: string, status: 'True' | 'False', reason: string, message: string, now: number): JobCondition[] {
    const time = rfc3339(now);
    const existing = conditions.find((c) => c.type === type);
    if (existing && existing.status === status && existing.reason === reason && existing.message === message) return conditions;
    const condition: JobCondition = { type, status, lastProbeTime: time, lastTransitionTime: existing && existing.status === status ? existing.lastTransitionTime : time, reason, message };
    return existing ? conditions.map((c) => (c === existing ? condition : c)) : [...conditions, condition];
  }

  private writeStatus(job: JobObject, status: JobStatus): void {
    const latest = this.ctx.store.get<JobObject>('Job', job.metadata?.namespace, job.metadata?.name ?? '');
    if (!latest || latest.metadata?.uid !== job.metadata?.uid || deepEqual(latest.status ?? {}, status)) return;
    this.ctx.store.mutate<JobObject>('Job', job.metadata?.namespace, job.metadata?.name ?? '', (copy) => {
      copy.status = status;
    }, { fieldManager: COMPONENT, subresource: 'status' });
  }
}
