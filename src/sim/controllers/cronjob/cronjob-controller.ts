/**
 * The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go and utils.go): creates a
 * Job `<cronjob>-<scheduled minutes since the epoch>` at each scheduled time of the virtual
 * clock, honouring timeZone, startingDeadlineSeconds, concurrencyPolicy and suspend; tracks its
 * Jobs in `status.active`, `lastScheduleTime` and `lastSuccessfulTime`; and deletes finished Jobs
 * beyond the history limits. Event reasons and messages are upstream's.
 *
 * Not simulated: the controller reads its Jobs by owner reference rather than a lister, and the
 * created Job's creationTimestamp is the store's (upstream's template sets the scheduled time,
 * which the API server overwrites too).
 */
import type { CronJob, KubeObject, ObjectReference } from '../../../core/k8s';
import { informer, objectKey, splitKey, type SimContext } from '../../context';
import { cloneAsJson, deepEqual } from '../../../common/json';
import { rfc3339 } from '../../store/object-utils';
import { ApiError, type StoreChange } from '../../store/types';
import { controllerOf, newControllerRef, parseTime, SyncError } from '../controller-types';
import { recordEvent } from '../controller-events';
import { ControllerQueue } from '../work-scheduling';
import { finishedCondition, type JobObject } from '../job/job-types';
import { isKnownTimeZone, nextActivation, parseCronSchedule, type CronSchedule } from './cron-schedule';
import { formatRFC1123Z, formatRFC3339InZone } from './time-format';

export type CronJobObject = CronJob & KubeObject;
type CronJobStatus = NonNullable<CronJob['status']>;

const COMPONENT = 'cronjob-controller';
/** `batch.CronJobScheduledTimestampAnnotation`. */
export const CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** Upstream requeues 100 ms after the next schedule time (`nextScheduleTimeDuration`). */
const NEXT_SCHEDULE_DELTA_MS = 100;
/** `mostRecentScheduleTime` warns beyond this many missed start times. */
const TOO_MANY_MISSED = 100;

/** `getJobName`: `<cronjob>-<minutes since the epoch>` (`getTimeHashInt`). */
export function jobNameFor(cronJobName: string, scheduledTime: number): string {
  return `${cronJobName}-${Math.floor(scheduledTime / 60_000)}`;
}

function timeZoneOf(cj: CronJobObject): string {
  return cj.spec?.timeZone ?? 'UTC';
}

export class CronJobController {
  private readonly queue: ControllerQueue;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly ctx: SimContext) {
    this.queue = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.processKey(key));
  }

  start(): void {
    this.unsubscribe.push(
      informer(this.ctx, COMPONENT, 'CronJob', (change) => this.onCronJob(change)),
      informer(this.ctx, COMPONENT, 'Job', (change) => this.onJob(change), (job) => controllerOf(job)?.kind === 'CronJob'),
    );
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  private onCronJob(change: StoreChange): void {
    if (change.type !== 'DELETED') this.queue.add(objectKey(change.object));
  }

  private onJob(change: StoreChange): void {
    const ref = controllerOf(change.object);
    if (ref?.kind !== 'CronJob') return;
    this.queue.add(`${change.object.metadata?.namespace ?? ''}/${ref.name}`);
  }

  private processKey(key: string): void {
    try {
      this.syncCronJob(key);
      this.queue.forget(key);
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof SyncError)) throw error;
      this.queue.addRateLimited(key);
    }
  }

  /** `sync` + `syncCronJob` + `cleanupFinishedJobs`. */
  syncCronJob(key: string): void {
    const { namespace, name } = splitKey(key);
    const cj = this.ctx.store.get<CronJobObject>('CronJob', namespace, name);
    if (!cj) return;
    const now = this.ctx.clock.now();
    const jobs = this.ctx.store.ownedBy<JobObject>('Job', cj.metadata?.uid ?? '');
    const status: CronJobStatus = cloneAsJson(cj.status ?? {});
    let active = [...(status.active ?? [])];
    const activeUids = (): Set<string> => new Set(active.map((ref) => ref.uid ?? ''));

    for (const job of jobs) {
      const uid = job.metadata?.uid ?? '';
      const found = activeUids().has(uid);
      const finished = finishedCondition(job);
      if (!found && !finished) {
        recordEvent(this.ctx, COMPONENT, cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata?.name ?? ''}`);
      } else if (found && finished) {
        active = active.filter((ref) => ref.uid !== uid);
        recordEvent(this.ctx, COMPONENT, cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata?.name ?? ''}, status: ${finished.type}`);
      }
      if (finished?.type === 'Complete' && job.status?.completionTime) {
        const last = parseTime(status.lastSuccessfulTime);
        const completed = parseTime(job.status.completionTime);
        if (completed !== undefined && (last === undefined || completed > last)) status.lastSuccessfulTime = job.status.completionTime;
      }
    }
    // Active references whose Job is gone.
    const present = new Set(jobs.map((job) => job.metadata?.uid ?? ''));
    for (const ref of [...active]) {
      if (present.has(ref.uid ?? '')) continue;
      if (!this.ctx.store.get('Job', ref.namespace, ref.name ?? '')) {
        recordEvent(this.ctx, COMPONENT, cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name ?? ''}`);
        active = active.filter((r) => r !== ref);
      }
    }
    status.active = active;

    if (!cj.metadata?.deletionTimestamp) this.schedule(cj, key, status, now);
    this.writeStatus(cj, status);
    this.cleanupFinishedJobs(cj);
  }

  /** The scheduling half of `syncCronJob`: creates the Job for the most recent missed time, if any. */
  private schedule(cj: CronJobObject, key: string, status: CronJobStatus, now: number): void {
    const zone = timeZoneOf(cj);
    if (cj.spec?.timeZone && !isKnownTimeZone(cj.spec.timeZone)) {
      recordEvent(this.ctx, COMPONENT, cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${cj.spec.timeZone}": unknown time zone ${cj.spec.timeZone}`);
      return;
    }
    if (cj.spec?.suspend) return;
    let schedule: CronSchedule;
    try {
      schedule = parseCronSchedule(cj.spec?.schedule ?? '');
    } catch (error) {
      recordEvent(this.ctx, COMPONENT, cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: "${cj.spec?.schedule ?? ''}" : ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const scheduledTime = this.mostRecentScheduleTime(cj, status, schedule, zone, now);
    const requeue = (): void => {
      const next = nextActivation(schedule, now, zone);
      if (next !== undefined) this.queue.addAfter(key, next - now + NEXT_SCHEDULE_DELTA_MS);
    };
    if (scheduledTime === undefined) {
      requeue();
      return;
    }
    const deadline = cj.spec?.startingDeadlineSeconds;
    if (deadline !== undefined && deadline !== null && scheduledTime + deadline * 1000 < now) {
      recordEvent(this.ctx, COMPONENT, cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${formatRFC1123Z(scheduledTime)}`);
      requeue();
      return;
    }
    const jobName = jobNameFor(cj.metadata?.name ?? '', scheduledTime);
    if ((status.active ?? []).some((ref) => ref.name === jobName) || parseTime(status.lastScheduleTime) === scheduledTime) {
      requeue();
      return;
    }
    const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && (status.active ?? []).length > 0) {
      recordEvent(this.ctx, COMPONENT, cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      requeue();
      return;
    }
    if (policy === 'Replace') {
      for (const ref of [...(status.active ?? [])]) {
        const job = this.ctx.store.get<JobObject>('Job', ref.namespace, ref.name ?? '');
        if (!job) continue;
        if (!this.deleteJob(cj, job)) return;
        status.active = (status.active ?? []).filter((r) => r.uid !== ref.uid);
      }
    }
    const created = this.createJob(cj, jobName, scheduledTime, zone);
    if (created) {
      const ref: ObjectReference = { apiVersion: 'batch/v1', kind: 'Job', name: created.metadata?.name, namespace: created.metadata?.namespace, resourceVersion: created.metadata?.resourceVersion, uid: created.metadata?.uid };
      status.active = [...(status.active ?? []), ref];
    }
    status.lastScheduleTime = rfc3339(scheduledTime);
    requeue();
  }

  /**
   * `nextScheduleTime` with `mostRecentScheduleTime` (utils.go): the latest activation after the
   * last schedule (or the creation time, or now − startingDeadlineSeconds) and not after now. The
   * missed count is upstream's estimate from the interval between the first two activations;
   * beyond 100 it warns.
   */
  private mostRecentScheduleTime(cj: CronJobObject, status: CronJobStatus, schedule: CronSchedule, zone: string, now: number): number | undefined {
    let earliest = parseTime(status.lastScheduleTime) ?? parseTime(cj.metadata?.creationTimestamp) ?? now;
    const deadline = cj.spec?.startingDeadlineSeconds;
    if (deadline !== undefined && deadline !== null) earliest = Math.max(earliest, now - deadline * 1000);
    const t1 = nextActivation(schedule, earliest, zone);
    if (t1 === undefined || now < t1) return undefined;
    const t2 = nextActivation(schedule, t1, zone);
    if (t2 === undefined || now < t2) return t1;
    const interval = Math.round((t2 - t1) / 1000);
    const missed = Math.floor(Math.floor((now - t1) / 1000) / interval) + 1;
    let latest: number | undefined;
    const potentialEarliest = t1 + (missed - 2) * interval * 1000;
    for (let t = nextActivation(schedule, potentialEarliest, zone); t !== undefined && t <= now; t = nextActivation(schedule, t, zone)) latest = t;
    if (missed > TOO_MANY_MISSED) {
      recordEvent(this.ctx, COMPONENT, cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    }
    return latest;
  }

  /** `getJobFromTemplate2` and the create, with the scheduled-timestamp annotation. */
  private createJob(cj: CronJobObject, name: string, scheduledTime: number, zone: string): JobObject | undefined {
    const template = cj.spec?.jobTemplate ?? {};
    const annotations: Record<string, string> = { ...(template.metadata?.annotations ?? {}), [CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION]: formatRFC3339InZone(scheduledTime, zone) };
    const job: JobObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: cj.metadata?.namespace, labels: { ...(template.metadata?.labels ?? {}) }, annotations, ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')] },
      spec: cloneAsJson(template.spec ?? ({} as NonNullable<JobObject['spec']>)),
    };
    try {
      const created = this.ctx.store.create<JobObject>('Job', job, { fieldManager: COMPONENT });
      recordEvent(this.ctx, COMPONENT, cj, 'Normal', 'SuccessfulCreate', `Created job ${name}`);
      return created;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 409) return undefined;
      recordEvent(this.ctx, COMPONENT, cj, 'Warning', 'FailedCreate', `Error creating job: ${error.message}`);
      throw error;
    }
  }

  /** `deleteJob`: background propagation, so the Job's pods go too. */
  private deleteJob(cj: CronJobObject, job: JobObject): boolean {
    const name = job.metadata?.name ?? '';
    try {
      this.ctx.store.delete('Job', job.metadata?.namespace, name, { propagationPolicy: 'Background', actor: COMPONENT });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code !== 404) {
        recordEvent(this.ctx, COMPONENT, cj, 'Warning', 'FailedDelete', `Deleted job: ${error.message}`);
        return false;
      }
    }
    recordEvent(this.ctx, COMPONENT, cj, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
    return true;
  }

  /** `cleanupFinishedJobs`: keep the newest successfulJobsHistoryLimit Complete and failedJobsHistoryLimit Failed Jobs. */
  private cleanupFinishedJobs(cj: CronJobObject): void {
    const jobs = this.ctx.store.ownedBy<JobObject>('Job', cj.metadata?.uid ?? '').filter((job) => !job.metadata?.deletionTimestamp);
    const byStart = (a: JobObject, b: JobObject): number => (parseTime(a.status?.startTime) ?? 0) - (parseTime(b.status?.startTime) ?? 0) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
    for (const [type, limit] of [['Complete', cj.spec?.successfulJobsHistoryLimit], ['Failed', cj.spec?.failedJobsHistoryLimit]] as const) {
      if (limit === undefined || limit === null) continue;
      const finished = jobs.filter((job) => finishedCondition(job)?.type === type).sort(byStart);
      for (const job of finished.slice(0, Math.max(0, finished.length - limit))) this.deleteJob(cj, job);
    }
  }

  private writeStatus(cj: CronJobObject, status: CronJobStatus): void {
    const next: CronJobStatus = {};
    if ((status.active ?? []).length > 0) next.active = status.active;
    if (status.lastScheduleTime) next.lastScheduleTime = status.lastScheduleTime;
    if (status.lastSuccessfulTime) next.lastSuccessfulTime = status.lastSuccessfulTime;
    if (deepEqual(cj.status ?? {}, next)) return;
    this.ctx.store.mutate<CronJobObject>('CronJob', cj.metadata?.namespace, cj.metadata?.name ?? '', (copy) => {
      copy.status = next;
    }, { fieldManager: COMPONENT, subresource: 'status' });
  }
}
