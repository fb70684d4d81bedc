/**
 * client-go's `flowcontrol.Backoff` without jitter, as the kubelet uses it for image pulls and
 * container restarts: 10 s initial, doubled on every failure, capped at 5 min, and forgotten once
 * an item has been quiet for twice the cap.
 */
export const INITIAL_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 300_000;

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs = INITIAL_BACKOFF_MS,
    private readonly maxMs = MAX_BACKOFF_MS,
  ) {}

  /** Record a failure at `eventTime` (observed `now`): start at the initial delay or double it. */
  next(key: string, eventTime: number, now: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.hasExpired(eventTime, entry.lastUpdate)) {
      this.entries.set(key, { backoffMs: this.initialMs, lastUpdate: now });
      return;
    }
    entry.backoffMs = Math.min(entry.backoffMs * 2, this.maxMs);
    entry.lastUpdate = now;
  }

  /** Whether `now` is still within the back-off that started at `eventTime` (restart back-off). */
  isInBackOffSince(key: string, eventTime: number, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || this.hasExpired(eventTime, entry.lastUpdate)) return false;
    return now - eventTime < entry.backoffMs;
  }

  /** Whether `now` is within the back-off counted from the last failure (image pull back-off). */
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || this.hasExpired(now, entry.lastUpdate)) return false;
    return now - entry.lastUpdate < entry.backoffMs;
  }

  /** The current delay for `key`, 0 when there is none. */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /** When the current back-off of `key` ends, counted from `since`. */
  endsAt(key: string, since: number): number | undefined {
    const entry = this.entries.get(key);
    return entry ? since + entry.backoffMs : undefined;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private hasExpired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.maxMs * 2;
  }
}
