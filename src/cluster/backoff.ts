/**
 * Reconnect delays. The defaults are client-go's reflector back-off (800 ms doubling up to 30 s),
 * without its jitter: one client has no thundering herd to spread, and tests can name the sequence.
 */

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 800, maxMs: 30_000, factor: 2 };

/** The delay before retry number `attempt` (0-based): initial × factor^attempt, capped. */
export function backoffDelay(policy: BackoffPolicy, attempt: number): number {
  return Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
}

/** Waits `ms`, or less when the signal aborts. The default delay function of the watchers. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
