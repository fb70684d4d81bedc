/**
 * Timestamps as Kubernetes writes them. `metav1.Time` (creationTimestamp, lastTransitionTime,
 * startedAt, core/v1 event first/lastTimestamp) is serialised to the whole second; `MicroTime`
 * (events.k8s.io eventTime, series.lastObservedTime) carries microseconds. A whole-second stamp
 * says "somewhere in this second", so a more precise observation inside that second is a better
 * estimate of when it happened.
 */

export interface TimeValue {
  /** Milliseconds since the epoch (MicroTime's sub-millisecond digits are dropped, as Date does). */
  ms: number;
  /** False for whole-second stamps: the true instant lies in [ms, ms + 1000). */
  precise: boolean;
}

const FRACTION = /\.(\d+)/;
const CACHE_LIMIT = 4096;
/** Busy streams repeat the same few seconds' stamps over and over; parsed values are immutable and shared. */
const cache = new Map<string, TimeValue | null>();

/** Parses an RFC 3339 timestamp; undefined for missing, null or malformed values. The result is shared: do not mutate. */
export function parseTime(value: unknown): TimeValue | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  const cached = cache.get(value);
  if (cached !== undefined) return cached ?? undefined;
  const ms = Date.parse(value);
  // A fraction of only zeros is still a precise stamp: writers that keep sub-seconds write them all.
  const parsed = Number.isNaN(ms) ? null : Object.freeze({ ms, precise: FRACTION.test(value) });
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(value, parsed);
  return parsed ?? undefined;
}

/** Milliseconds of an RFC 3339 timestamp, or undefined. */
export function parseMs(value: unknown): number | undefined {
  return parseTime(value)?.ms;
}

/**
 * The best estimate of when something happened: the coarse stamp, sharpened by the earliest
 * precise candidate that falls inside its second.
 */
export function sharpen(coarse: TimeValue, candidates: readonly (number | undefined)[]): number {
  if (coarse.precise) return coarse.ms;
  let best: number | undefined;
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    if (candidate < coarse.ms || candidate >= coarse.ms + 1000) continue;
    if (best === undefined || candidate < best) best = candidate;
  }
  return best ?? coarse.ms;
}

/** Kept in src/common so that the webview formats as the text report does without loading core/. */
export { formatDuration, formatOffset } from '../../common/duration-format';
