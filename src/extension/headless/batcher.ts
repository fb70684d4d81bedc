/**
 * Collects keys that changed and hands them over at most once per `delayMs`: the tracer reports
 * every watch event, and a view that repainted on each one would fall behind on a 3,000-pod
 * rollout. The first change of a quiet period is flushed after `delayMs` (a throttle, not a
 * debounce, so a steady stream still shows progress). Timers are injected for tests.
 */
import type { IDisposable } from './disposable';

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class Batcher<K> implements IDisposable {
  private pending = new Set<K>();
  private handle: unknown;
  private scheduled = false;

  constructor(
    private readonly delayMs: number,
    private readonly flush: (keys: ReadonlySet<K>) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  add(key: K): void {
    this.pending.add(key);
    if (this.scheduled) return;
    this.scheduled = true;
    this.handle = this.timers.setTimeout(() => this.run(), this.delayMs);
  }

  /** Flushes now (tests, and before showing something that must be current). */
  flushNow(): void {
    if (this.scheduled) this.timers.clearTimeout(this.handle);
    this.run();
  }

  private run(): void {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const keys = this.pending;
    this.pending = new Set();
    this.flush(keys);
  }

  dispose(): void {
    if (this.scheduled) this.timers.clearTimeout(this.handle);
    this.scheduled = false;
    this.pending.clear();
  }
}
