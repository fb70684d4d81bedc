/**
 * Drives the virtual clock. Two modes:
 * - `runUntil`: as fast as possible, synchronously, for the CLI, tests and benchmarks;
 * - `PacedDriver`: virtual time follows the wall clock times a speed factor, for a simulator that
 *   people (or kubectl) watch. Work due "now" is run in slices so the event loop stays responsive.
 */
import type { VirtualClock } from './clock';

export type RunOutcome = 'done' | 'idle' | 'timeout';

/**
 * Called every `GUARD_EVERY` timers, from inside the loop: throwing stops the run (the heap
 * guard does, before the process runs out of memory). A synchronous run never yields to the
 * event loop, so an interval timer could not do it.
 */
export type RunGuard = () => void;

export const GUARD_EVERY = 256;

/** Advance virtual time until `done()` holds, nothing is scheduled, or `maxVirtualMs` passes. */
export function runUntil(clock: VirtualClock, done: () => boolean, maxVirtualMs: number, checkEvery = 1, guard?: RunGuard): RunOutcome {
  const deadline = clock.now() + maxVirtualMs;
  let sinceCheck = 0;
  let sinceGuard = 0;
  if (done()) return 'done';
  for (;;) {
    if (guard && ++sinceGuard >= GUARD_EVERY) {
      sinceGuard = 0;
      guard();
    }
    const due = clock.nextDue();
    if (due === undefined) return done() ? 'done' : 'idle';
    if (due > deadline) {
      clock.advanceTo(deadline);
      return done() ? 'done' : 'timeout';
    }
    clock.advanceTo(due, 1);
    if (++sinceCheck >= checkEvery) {
      sinceCheck = 0;
      if (done()) return 'done';
    }
  }
}

export interface PacedDriverOptions {
  /** Virtual ms per wall ms. 1 = real time. */
  speed: number;
  /** Max timers run per slice before yielding to the event loop. */
  sliceBudget?: number;
  wallNow?: () => number;
}

export class PacedDriver {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private wallStart = 0;
  private virtualStart = 0;
  private readonly speed: number;
  private readonly sliceBudget: number;
  private readonly wallNow: () => number;

  constructor(private readonly clock: VirtualClock, options: PacedDriverOptions) {
    if (!(options.speed > 0)) throw new Error(`speed must be a positive number, got ${options.speed}`);
    this.speed = options.speed;
    this.sliceBudget = options.sliceBudget ?? 2000;
    this.wallNow = options.wallNow ?? (() => performance.now());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wallStart = this.wallNow();
    this.virtualStart = this.clock.now();
    this.tick();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The virtual time that corresponds to the wall clock now. */
  targetTime(): number {
    return this.virtualStart + (this.wallNow() - this.wallStart) * this.speed;
  }

  /** Bring virtual time up to the wall clock before an outside write (an API request). */
  catchUp(): void {
    if (!this.running) return;
    this.clock.advanceTo(Math.max(this.clock.now(), this.targetTime()));
  }

  /** Reschedule after outside work added timers that may be due sooner than the current wake-up. */
  poke(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 0);
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.running) return;
    const target = this.targetTime();
    const ran = this.clock.advanceTo(Math.max(this.clock.now(), target), this.sliceBudget);
    if (ran >= this.sliceBudget) {
      // Behind schedule: yield, then continue at once.
      this.timer = setTimeout(() => this.tick(), 0);
      return;
    }
    const due = this.clock.nextDue();
    const wait = due === undefined ? 1000 : Math.max(0, (due - this.clock.now()) / this.speed);
    this.timer = setTimeout(() => this.tick(), Math.min(wait, 1000));
  }
}
