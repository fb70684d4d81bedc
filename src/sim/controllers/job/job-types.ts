/**
 * The Job shapes and the well-known names the Job controller uses (k8s.io/api/batch/v1 types.go,
 * pkg/apis/batch/types.go).
 */
import type { Job, KubeObject } from '../../../core/k8s';

export type JobObject = Job & KubeObject;
export type JobSpec = NonNullable<Job['spec']>;
export type JobStatus = NonNullable<Job['status']>;
export type JobCondition = NonNullable<JobStatus['conditions']>[number];
export type PodFailurePolicy = NonNullable<JobSpec['podFailurePolicy']>;
export type SuccessPolicy = NonNullable<JobSpec['successPolicy']>;

/** `batch.JobTrackingFinalizer`: keeps a finished pod until the controller has counted it. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
/** `batch.JobCompletionIndexAnnotation`, also set as a label (`PodIndexLabel`, GA in 1.32). */
export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
/** `batch.JobIndexFailureCountAnnotation`: failures of the index before this pod. */
export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';
export const JOB_COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

/** Condition reasons and messages, verbatim from pkg/apis/batch/types.go and job_controller.go. */
export const JobReason = {
  BackoffLimitExceeded: 'BackoffLimitExceeded',
  DeadlineExceeded: 'DeadlineExceeded',
  PodFailurePolicy: 'PodFailurePolicy',
  MaxFailedIndexesExceeded: 'MaxFailedIndexesExceeded',
  FailedIndexes: 'FailedIndexes',
  SuccessPolicy: 'SuccessPolicy',
  CompletionsReached: 'CompletionsReached',
} as const;

export const JobMessage = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded: 'Job was active longer than specified deadline',
  MaxFailedIndexesExceeded: 'Job has exceeded the specified maximal number of failed indexes',
  FailedIndexes: 'Job has failed indexes',
  CompletionsReached: 'Reached expected number of succeeded pods',
  SuccessPolicy: 'Matched rules at index',
} as const;

export function completionModeOf(job: JobObject): 'NonIndexed' | 'Indexed' {
  return job.spec?.completionMode === 'Indexed' ? 'Indexed' : 'NonIndexed';
}

/** `IsJobFinished`: a Complete or Failed condition that is True. */
export function finishedCondition(job: JobObject): JobCondition | undefined {
  return job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

export function hasCondition(job: JobObject, type: string): JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type && c.status === 'True');
}
