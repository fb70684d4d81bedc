/**
 * Ages as `kubectl get` shows them. Ports of `duration.HumanDuration` (k8s.io/apimachinery
 * pkg/util/duration) and of `translateTimestampSince` / `translateMicroTimestampSince`
 * (kubernetes pkg/printers/internalversion/printers.go).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * A succinct duration with ~2–3 significant figures: `5s`, `119s`, `3m10s`, `70m`, `3h1m`, `47h`,
 * `2d1h`, `367d`, `2y1d`, `8y`. Up to 2 s in the future counts as now (clock skew); more is
 * `<invalid>`.
 */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.trunc(milliseconds / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(milliseconds / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(milliseconds / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * Milliseconds since the epoch of a `metav1.Time`, or undefined when unset. The API server keeps
 * these at whole seconds (RFC 3339 without fraction), so a fraction stored by the simulator is
 * dropped to print the same ages a real cluster prints.
 */
export function parseTime(value: unknown): number | undefined {
  const parsed = parseTimestamp(value);
  return parsed === undefined ? undefined : Math.floor(parsed / SECOND) * SECOND;
}

/** Milliseconds since the epoch of a `metav1.MicroTime` (eventTime), or undefined when unset. */
export function parseMicroTime(value: unknown): number | undefined {
  return parseTimestamp(value);
}

function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** `translateTimestampSince`: the age of a timestamp, `<unknown>` when it is unset. */
export function ageSince(timestampMs: number | undefined, now: number): string {
  return timestampMs === undefined ? '<unknown>' : humanDuration(now - timestampMs);
}

/** AGE of an object: `translateTimestampSince(obj.CreationTimestamp)`. */
export function ageOf(object: { metadata?: { creationTimestamp?: unknown } }, now: number): string {
  return ageSince(parseTime(object.metadata?.creationTimestamp), now);
}
