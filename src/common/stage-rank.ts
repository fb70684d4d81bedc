/**
 * Lifecycle order of the journey's stage kinds, the tie-breaker between stages stamped with the
 * same time. Plain data so that the webview sorts as the tracer does without loading core/;
 * core/journey/records.ts types it as `Record<StageKind, number>`, so a kind missing here fails
 * the build.
 */
export const STAGE_RANK = {
  submitted: 0,
  stored: 1,
  replicaSetCreated: 2,
  jobCreated: 2,
  scaled: 3,
  waiting: 3,
  suspended: 3,
  podCreated: 4,
  failedScheduling: 5,
  scheduled: 6,
  initialized: 7,
  sandboxReady: 8,
  pulling: 9,
  pulled: 10,
  imagePresent: 10,
  failed: 11,
  backOff: 12,
  containerCreated: 13,
  containerStarted: 14,
  containerTerminated: 15,
  running: 16,
  containersReady: 17,
  ready: 18,
  notReady: 19,
  unhealthy: 19,
  succeeded: 19,
  progressing: 20,
  available: 21,
  unavailable: 21,
  complete: 21,
  event: 22,
  terminating: 23,
  killing: 24,
  deleted: 25,
} as const;
