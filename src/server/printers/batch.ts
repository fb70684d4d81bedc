/** Job and CronJob rows: ports of `printJob` and `printCronJob` (Wide=true). */
import type { CronJob, Job } from '../../core/k8s';
import type { PrintedRow } from './row';
import { formatLabelSelector } from './selector';
import { ageSince, humanDuration, parseTime } from './time';
import { layoutContainerCells } from './workloads';

export function printJob(job: Job, now: number): PrintedRow {
  const spec = job.spec;
  const status = job.status ?? {};
  const succeeded = status.succeeded ?? 0;
  let completions: string;
  if (spec?.completions !== undefined && spec.completions !== null) completions = `${succeeded}/${spec.completions}`;
  else if ((spec?.parallelism ?? 0) > 1) completions = `${succeeded}/1 of ${spec!.parallelism}`;
  else completions = `${succeeded}/1`;
  const started = parseTime(status.startTime);
  const completed = parseTime(status.completionTime);
  let duration = '';
  if (started !== undefined) duration = humanDuration((completed ?? now) - started);
  const [names, images] = layoutContainerCells(spec?.template?.spec?.containers);
  return {
    cells: [
      job.metadata?.name ?? '',
      jobStatus(job),
      completions,
      duration,
      ageSince(parseTime(job.metadata?.creationTimestamp), now),
      names,
      images,
      formatLabelSelector(spec?.selector),
    ],
  };
}

/** The STATUS cell: terminal conditions first, then deletion, then the interim conditions. */
function jobStatus(job: Job): string {
  const conditions = job.status?.conditions;
  if (hasJobCondition(conditions, 'Complete')) return 'Complete';
  if (hasJobCondition(conditions, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasJobCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasJobCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  if (hasJobCondition(conditions, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

type JobCondition = NonNullable<NonNullable<Job['status']>['conditions']>[number];

/** `hasJobCondition`: the first condition of that type decides. */
function hasJobCondition(conditions: JobCondition[] | undefined, type: string): boolean {
  const condition = conditions?.find((c) => c.type === type);
  return condition?.status === 'True';
}

export function printCronJob(cronJob: CronJob, now: number): PrintedRow {
  const spec = cronJob.spec;
  const lastSchedule = parseTime(cronJob.status?.lastScheduleTime);
  const jobSpec = spec?.jobTemplate?.spec;
  const [names, images] = layoutContainerCells(jobSpec?.template?.spec?.containers);
  return {
    cells: [
      cronJob.metadata?.name ?? '',
      spec?.schedule ?? '',
      spec?.timeZone ?? '<none>',
      printBoolPointer(spec?.suspend),
      cronJob.status?.active?.length ?? 0,
      lastSchedule === undefined ? '<none>' : ageSince(lastSchedule, now),
      ageSince(parseTime(cronJob.metadata?.creationTimestamp), now),
      names,
      images,
      formatLabelSelector(jobSpec?.selector),
    ],
  };
}

/** `printBoolPtr`. */
function printBoolPointer(value: boolean | undefined): string {
  if (value === undefined) return '<unset>';
  return value ? 'True' : 'False';
}
