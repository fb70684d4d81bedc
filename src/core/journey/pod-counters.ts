/** One pod's share of its owners' tallies; owners add and subtract these deltas instead of rescanning pods. */
import { findCondition, type PodDigest } from './digest';
import { emptyCounters, type Counters, type ObjectRecord } from './records';
import { retriedByJob } from './status';

/** Every pod keeps its share, and most shares are alike (one live, running, ready pod): equal ones are one frozen object. */
const SHARED_LIMIT = 1024;
const shares = new Map<string, Counters>();

function shared(counters: Counters): Counters {
  const { live, scheduled, running, ready, stuck, terminating, deleted, restarts } = counters;
  const key = `${live},${scheduled},${running},${ready},${stuck},${terminating},${deleted},${restarts}`;
  let found = shares.get(key);
  if (!found) {
    if (shares.size >= SHARED_LIMIT) shares.clear();
    found = Object.freeze(counters);
    shares.set(key, found);
  }
  return found;
}

/** The pod's share, read only (shared between pods). */
export function countPod(pod: ObjectRecord, digest: PodDigest | undefined): Counters {
  return shared(podShare(pod, digest));
}

function podShare(pod: ObjectRecord, digest: PodDigest | undefined): Counters {
  const counters = emptyCounters();
  if (pod.deleted) {
    counters.deleted = 1;
    return counters;
  }
  if (!digest) return counters;
  if (digest.deletionTimestamp) {
    counters.terminating = 1;
    return counters;
  }
  counters.live = 1;
  if (digest.nodeName) counters.scheduled = 1;
  if (digest.phase === 'Running') counters.running = 1;
  if (findCondition(digest.conditions, 'Ready')?.status === 'True') counters.ready = 1;
  if (pod.status === 'stuck' || (pod.status === 'failed' && !retriedByJob(pod))) counters.stuck = 1;
  for (const c of digest.containers) if (!c.init) counters.restarts += c.restartCount;
  return counters;
}
