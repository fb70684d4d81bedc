/**
 * The Job controller's pod-failure back-off (pkg/controller/job/backoff_utils.go): after a failed
 * pod, the next pod of the Job is created only once `10 s × 2^(failures since the last success − 1)`
 * have passed since the last failure, capped at `MaxJobPodFailureBackOff`.
 */

/** `DefaultJobPodFailureBackOff`. */
export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
/**
 * `MaxJobPodFailureBackOff` in job_controller.go: 10 minutes. (The Job concept page says "capped
 * at six minutes"; the controller's constant is what runs.)
 */
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 600_000;

/** `backoffRecord`: failures since the last success and when the last one happened. */
export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
}

/**
 * `newBackoffRecord`: a success among the newly finished pods resets the count (failures that
 * finished after it still count), else each new failure adds one.
 */
export function nextBackoffRecord(previous: BackoffRecord, newlySucceededAt: number[], newlyFailedAt: number[]): BackoffRecord {
  if (newlySucceededAt.length === 0 && newlyFailedAt.length === 0) return previous;
  const lastFailure = newlyFailedAt.length > 0 ? Math.max(...newlyFailedAt) : undefined;
  if (newlySucceededAt.length > 0) {
    const lastSuccess = Math.max(...newlySucceededAt);
    const after = newlyFailedAt.filter((at) => at > lastSuccess);
    return after.length === 0 ? { failuresAfterLastSuccess: 0 } : { failuresAfterLastSuccess: after.length, lastFailureTime: lastFailure };
  }
  return { failuresAfterLastSuccess: previous.failuresAfterLastSuccess + newlyFailedAt.length, lastFailureTime: lastFailure ?? previous.lastFailureTime };
}

/** `getRemainingTimeForFailuresCount`: how long pod creation must still wait, 0 when it may go ahead. */
export function remainingBackoffMs(failures: number, lastFailureTime: number | undefined, now: number): number {
  if (failures === 0 || lastFailureTime === undefined) return 0;
  const backoff = Math.min(DEFAULT_JOB_POD_FAILURE_BACKOFF_MS * 2 ** (failures - 1), MAX_JOB_POD_FAILURE_BACKOFF_MS);
  return Math.max(0, lastFailureTime + backoff - now);
}
