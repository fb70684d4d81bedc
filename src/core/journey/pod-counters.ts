/** One pod's share of its owners' tallies; owners add and subtract these deltas instead of rescanning pods. */
import { findCondition, type PodDigest } from './digest';
import type { Counters, ObjectRecord } from './records';
import { retriedByJob } from './status';

/**
 * Every pod keeps its share, and most shares are alike (one live, running, ready pod): equal ones
 * are one frozen object, found by a number (the seven 0-or-1 flags, then the restarts) so that
 * counting a pod allocates nothing. Pods count each change, 150,000 of them in a large trace.
 */
const SHARED_LIMIT = 1024;
const shares = new Map<number, Counters>();
const FLAG_BITS = 7;

function shared(live: number, scheduled: number, running: number, ready: number, stuck: number, terminating: number, deleted: number, restarts: number): Counters {
  const key = live | (scheduled << 1) | (running << 2) | (ready << 3) | (stuck << 4) | (terminating << 5) | (deleted << 6) | (restarts * (1 << FLAG_BITS));
  let found = shares.get(key);
  if (!found) {
    if (shares.size >= SHARED_LIMIT) shares.clear();
    found = Object.freeze({ live, scheduled, running, ready, stuck, terminating, deleted, restarts });
    shares.set(key, found);
  }
  return found;
}

/** The pod's share, read only (shared between pods). */
export function countPod(pod: ObjectRecord, digest: PodDigest | undefined): Counters {
  if (pod.deleted) return shared(0, 0, 0, 0, 0, 0, 1, 0);
  if (!digest) return shared(0, 0, 0, 0, 0, 0, 0, 0);
  if (digest.deletionTimestamp) return shared(0, 0, 0, 0, 0, 1, 0, 0);
  const scheduled = digest.nodeName ? 1 : 0;
  const running = digest.phase === 'Running' ? 1 : 0;
  const ready = findCondition(digest.conditions, 'Ready')?.status === 'True' ? 1 : 0;
  const stuck = pod.status === 'stuck' || (pod.status === 'failed' && !retriedByJob(pod)) ? 1 : 0;
  let restarts = 0;
  for (const c of digest.containers) if (!c.init) restarts += c.restartCount;
  return shared(1, scheduled, running, ready, stuck, 0, 0, restarts);
}
