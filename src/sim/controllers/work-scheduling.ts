/**
 * The pieces of client-go's work queue and kube-controller-manager's bookkeeping the two controllers
 * need on top of `WorkQueue`: delayed and rate-limited re-adds, the slow-start batches of pod
 * creation, and expectations (pkg/controller/controller_utils.go).
 */
import type { TimerHandle, VirtualClock } from '../clock';
import { WorkQueue } from '../context';

/** client-go's default controller rate limiter: 5 ms, doubling per failure of a key, capped at 1000 s. */
const BASE_RETRY_MS = 5;
const MAX_RETRY_MS = 1000 * 1000;

/**
 * A work queue with `AddAfter` and `AddRateLimited`. A delayed add does not hold the key in the
 * queue, so a change seen meanwhile is still processed after the normal reaction delay.
 */
export class ControllerQueue {
  private readonly queue: WorkQueue;
  private readonly delayed = new Map<string, { at: number; handle: TimerHandle }>();
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly clock: VirtualClock,
    private readonly reactionMs: number,
    process: (key: string) => void,
  ) {
    this.queue = new WorkQueue(clock, process);
  }

  add(key: string): void {
    this.queue.add(key, this.reactionMs);
  }

  /** Process `key` after `delayMs`; an earlier pending re-add wins over a later one. */
  addAfter(key: string, delayMs: number): void {
    const at = this.clock.now() + Math.max(0, delayMs);
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    this.clock.cancel(pending?.handle);
    const handle = this.clock.after(Math.max(0, delayMs), () => {
      this.delayed.delete(key);
      this.queue.add(key, 0);
    });
    this.delayed.set(key, { at, handle });
  }

  /** Retry after a failure, backing off exponentially per key. */
  addRateLimited(key: string): void {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    this.addAfter(key, Math.min(MAX_RETRY_MS, BASE_RETRY_MS * 2 ** failures));
  }

  /** Forget a key's failures after a successful sync. */
  forget(key: string): void {
    this.failures.delete(key);
  }
}

/** `controller.SlowStartInitialBatchSize`. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** The batch sizes `slowStartBatch` uses for `count` calls: 1, 2, 4, … and the remainder. */
export function slowStartBatchSizes(count: number, initialBatchSize = SLOW_START_INITIAL_BATCH_SIZE): number[] {
  const sizes: number[] = [];
  let remaining = count;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    sizes.push(batch);
    remaining -= batch;
  }
  return sizes;
}

/**
 * `slowStartBatch`: call `fn` in batches of growing size; every call of a batch is made (upstream
 * runs them in parallel), and no further batch starts after a batch with an error. Returns how many
 * calls succeeded and the first error.
 */
export function slowStartBatch(count: number, initialBatchSize: number, fn: () => void): { successes: number; error?: unknown } {
  let successes = 0;
  for (const size of slowStartBatchSizes(count, initialBatchSize)) {
    let firstError: unknown;
    let failed = false;
    for (let i = 0; i < size; i++) {
      try {
        fn();
        successes++;
      } catch (error) {
        if (!failed) firstError = error;
        failed = true;
      }
    }
    if (failed) return { successes, error: firstError };
  }
  return { successes };
}

/** `controller.ExpectationsTimeout`. */
const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  /** Pod keys whose deletion is awaited (UIDTrackingControllerExpectations). */
  deleting: Set<string>;
  timestamp: number;
}

/**
 * `UIDTrackingControllerExpectations`: how many creations and which deletions a controller still
 * waits to see through its informer, so it does not act twice on the same need.
 */
export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(private readonly clock: VirtualClock) {}

  expectCreations(key: string, count: number): void {
    this.byKey.set(key, { add: count, del: 0, deleting: new Set(), timestamp: this.clock.now() });
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.byKey.set(key, { add: 0, del: podKeys.length, deleting: new Set(podKeys), timestamp: this.clock.now() });
  }

  /** `SetExpectations`: creations and deletions awaited together (the DaemonSet controller's syncNodes). */
  expect(key: string, creations: number, podKeys: readonly string[]): void {
    this.byKey.set(key, { add: creations, del: podKeys.length, deleting: new Set(podKeys), timestamp: this.clock.now() });
  }

  creationObserved(key: string): void {
    const expectation = this.byKey.get(key);
    if (expectation) expectation.add--;
  }

  deletionObserved(key: string, podKey: string): void {
    const expectation = this.byKey.get(key);
    if (expectation && expectation.deleting.delete(podKey)) expectation.del--;
  }

  /** True when nothing is awaited, or the wait has outlived the 5-minute timeout. */
  satisfied(key: string): boolean {
    const expectation = this.byKey.get(key);
    if (!expectation) return true;
    if (expectation.add <= 0 && expectation.del <= 0) return true;
    return this.clock.now() - expectation.timestamp > EXPECTATIONS_TIMEOUT_MS;
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }
}
