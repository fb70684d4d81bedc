/**
 * Job and CronJob stages from state. A Job's goal is its `Complete` condition; its `Failed`
 * condition (BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy…) ends it for good, with
 * upstream's message. Each failed pod on the way is a stage: the Job retries it after a back-off
 * (10 s, doubling, at most 6 minutes) until `backoffLimit` is used up. A CronJob waits for its
 * schedule, then creates Jobs (their journeys hang below it); its goal is its first Job complete.
 */
import { findCondition, type ConditionDigest, type WorkloadDigest } from './digest';
import { deriveDeletion, deriveStored, type WorkloadDeriveContext } from './derive-workload';
import type { StageDraft } from './records';
import type { ConditionChange } from './types';

function conditionChange(prev: ConditionDigest | undefined, next: ConditionDigest): ConditionChange {
  return { type: next.type, from: prev?.status, to: next.status, reason: next.reason, message: next.message };
}

function becameTrue(prev: WorkloadDigest | undefined, next: WorkloadDigest, type: string): { before?: ConditionDigest; now: ConditionDigest } | undefined {
  const now = findCondition(next.conditions, type);
  if (now?.status !== 'True') return undefined;
  const before = prev ? findCondition(prev.conditions, type) : undefined;
  return before?.status === 'True' ? undefined : { before, now };
}

export function jobComplete(d: WorkloadDigest): boolean {
  return findCondition(d.conditions, 'Complete')?.status === 'True';
}

export function jobFailed(d: WorkloadDigest): ConditionDigest | undefined {
  const failed = findCondition(d.conditions, 'Failed');
  return failed?.status === 'True' ? failed : undefined;
}

function deriveSuspension(prev: WorkloadDigest | undefined, suspendedNow: boolean, suspendedBefore: boolean, component: string, what: string, out: StageDraft[], ctx: WorkloadDeriveContext): void {
  if (suspendedNow && (!prev || !suspendedBefore)) {
    out.push({ key: ctx.unique('suspended'), kind: 'suspended', component, title: `${what} suspended: nothing runs until spec.suspend is false`, warning: true, fields: [{ path: 'spec.suspend', to: 'true' }] });
  }
}

export function deriveJob(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext & { ownedByCronJob: boolean }): StageDraft[] {
  const out: StageDraft[] = [];
  const job = next.job;
  if (!prev && !ctx.preexisting && ctx.ownedByCronJob) {
    out.push({
      key: 'jobCreated',
      kind: 'jobCreated',
      component: 'cronjob-controller',
      title: `Created Job ${next.name}`,
      objectTime: next.created,
      fields: next.owner ? [{ path: 'metadata.ownerReferences[CronJob]', to: next.owner.name }] : undefined,
    });
  } else {
    deriveStored(prev, next, ctx, out);
  }
  if (job) {
    deriveSuspension(prev, job.suspend, prev?.job?.suspend ?? false, 'job-controller', 'Job', out, ctx);
    const failedBefore = prev?.job?.failed ?? 0;
    for (let failure = failedBefore + 1; failure <= job.failed; failure++) {
      const retriesLeft = job.backoffLimit - failure + 1;
      out.push({
        key: `podFailed:${failure}`,
        kind: retriesLeft > 0 ? 'waiting' : 'failed',
        component: 'job-controller',
        title: retriesLeft > 0 ? `Pod failed (${failure} of ${job.backoffLimit + 1} tries); retrying after back-off` : `Pod failed (${failure} of ${job.backoffLimit + 1} tries): backoffLimit ${job.backoffLimit} reached`,
        warning: true,
        fields: [{ path: 'status.failed', from: String(failure - 1), to: String(failure) }],
      });
    }
  }
  for (const type of ['SuccessCriteriaMet', 'FailureTarget'] as const) {
    const change = becameTrue(prev, next, type);
    if (!change) continue;
    out.push({
      key: `condition:${type}`,
      kind: 'progressing',
      component: 'job-controller',
      title: type === 'SuccessCriteriaMet' ? 'Success criteria met' : `Failure target: ${change.now.reason ?? ''}`.trim(),
      message: change.now.message,
      warning: type === 'FailureTarget',
      objectTime: change.now.lastTransitionTime,
      conditions: [conditionChange(change.before, change.now)],
    });
  }
  const complete = becameTrue(prev, next, 'Complete');
  if (complete) {
    const succeeded = job?.succeeded ?? 0;
    out.push({
      key: 'complete',
      kind: 'complete',
      component: 'job-controller',
      title: `Job completed (${succeeded}/${next.specReplicas} succeeded)`,
      message: complete.now.message,
      objectTime: complete.now.lastTransitionTime ?? job?.completionTime,
      conditions: [conditionChange(complete.before, complete.now)],
    });
  }
  const failed = becameTrue(prev, next, 'Failed');
  if (failed) {
    out.push({
      key: 'jobFailed',
      kind: 'failed',
      component: 'job-controller',
      title: `Job failed: ${failed.now.reason ?? 'Failed'}`,
      message: failed.now.message,
      warning: true,
      objectTime: failed.now.lastTransitionTime,
      conditions: [conditionChange(failed.before, failed.now)],
    });
  }
  deriveDeletion(prev, next, ctx, out);
  return out;
}

export function deriveCronJob(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext): StageDraft[] {
  const out: StageDraft[] = [];
  deriveStored(prev, next, ctx, out);
  const cron = next.cronJob;
  if (!cron) return out;
  deriveSuspension(prev, cron.suspend, prev?.cronJob?.suspend ?? false, 'cronjob-controller', 'CronJob', out, ctx);
  if (!prev && !cron.suspend && !cron.lastScheduleTime) {
    out.push({
      key: 'waiting:schedule',
      kind: 'waiting',
      component: 'cronjob-controller',
      title: `Waiting for the schedule "${cron.schedule}"${cron.timeZone ? ` (${cron.timeZone})` : ''}`,
      objectTime: next.created,
    });
  }
  const scheduled = cron.lastScheduleTime;
  if (scheduled && scheduled.ms !== prev?.cronJob?.lastScheduleTime?.ms) {
    out.push({
      key: `scheduled:${scheduled.ms}`,
      kind: 'jobCreated',
      component: 'cronjob-controller',
      title: `Scheduled run at ${new Date(scheduled.ms).toISOString().replace('.000Z', 'Z')}`,
      objectTime: scheduled,
      fields: [{ path: 'status.lastScheduleTime', to: new Date(scheduled.ms).toISOString().replace('.000Z', 'Z') }],
    });
  }
  const succeeded = cron.lastSuccessfulTime;
  if (succeeded && succeeded.ms !== prev?.cronJob?.lastSuccessfulTime?.ms) {
    out.push({
      key: ctx.has('complete') ? `complete@${succeeded.ms}` : 'complete',
      kind: 'complete',
      component: 'cronjob-controller',
      title: 'A scheduled Job completed',
      objectTime: succeeded,
      fields: [{ path: 'status.lastSuccessfulTime', to: new Date(succeeded.ms).toISOString().replace('.000Z', 'Z') }],
    });
  }
  deriveDeletion(prev, next, ctx, out);
  return out;
}
