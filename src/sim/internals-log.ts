import type { AssumedExit, InternalStep } from '../core/internals';
import type { InternalsLog } from './context';

/**
 * The simulator's internals stream: a bounded log with live listeners. Bounded because a
 * 150,000-pod run produces millions of steps; listeners (the tracer, the HTTP stream) see every
 * step as it happens, the log keeps the recent ones for late readers.
 */
export class BoundedInternalsLog implements InternalsLog {
  private readonly steps: InternalStep[] = [];
  private dropped = 0;
  private readonly listeners = new Set<(step: InternalStep) => void>();
  private readonly assumed: AssumedExit[] = [];
  private readonly assumptionListeners = new Set<(step: AssumedExit) => void>();

  constructor(
    private readonly capacity = 100_000,
    readonly recordsWatchDeliveries = true,
    /** Whether to keep steps at all (listeners still see them). */
    private readonly keep = true,
  ) {}

  record(step: InternalStep): void {
    if (this.keep) {
      this.steps.push(step);
      if (this.steps.length > this.capacity * 2) {
        const excess = this.steps.length - this.capacity;
        this.steps.splice(0, excess);
        this.dropped += excess;
      }
    }
    for (const listener of this.listeners) listener(step);
  }

  get recordsSteps(): boolean {
    return this.keep || this.listeners.size > 0;
  }

  onStep(listener: (step: InternalStep) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Kept in full: one per container whose exit was assumed, a handful per Job. */
  recordAssumption(step: AssumedExit): void {
    if (this.keep) this.assumed.push(step);
    for (const listener of this.assumptionListeners) listener(step);
  }

  onAssumption(listener: (step: AssumedExit) => void): () => void {
    this.assumptionListeners.add(listener);
    return () => this.assumptionListeners.delete(listener);
  }

  assumptions(): readonly AssumedExit[] {
    return this.assumed;
  }

  /** The retained steps, oldest first, and how many older ones were dropped. */
  snapshot(): { steps: readonly InternalStep[]; dropped: number } {
    return { steps: this.steps, dropped: this.dropped };
  }
}
