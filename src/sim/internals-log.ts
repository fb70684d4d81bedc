import type { FollowedSteps, InternalStep } from '../core/internals';
import type { KubeObject } from '../core/k8s';

export interface InternalsLog {
  record(step: InternalStep): void;
  /** Whether watch deliveries are recorded (off in large benchmarks, where they would dominate memory). */
  readonly recordsWatchDeliveries: boolean;
  /** False when no step is kept or listened to, so writers may skip building them (undefined: true). */
  readonly recordsSteps?: boolean;
  /**
   * Which of this object's watch deliveries and etcd writes are wanted (undefined: all of every
   * object's); writers skip building the others. `trace` wants them all only for each journey's
   * first pods, and a large trace makes millions of the others.
   */
  readonly followsObject?: ObjectFollower;
}

export type ObjectFollower = (kind: string, object: KubeObject) => FollowedSteps;

/**
 * The simulator's internals stream: a bounded log with live listeners. Bounded because a
 * 150,000-pod run produces millions of steps; listeners (the tracer, the HTTP stream) see every
 * step as it happens, the log keeps the recent ones for late readers.
 */
export class BoundedInternalsLog implements InternalsLog {
  private readonly steps: InternalStep[] = [];
  private dropped = 0;
  private readonly listeners = new Set<(step: InternalStep) => void>();
  /** Set by the one listener that decides (the trace command's tracer); see `InternalsLog.followsObject`. */
  followsObject: ObjectFollower | undefined = undefined;

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

  /** The retained steps, oldest first, and how many older ones were dropped. */
  snapshot(): { steps: readonly InternalStep[]; dropped: number } {
    return { steps: this.steps, dropped: this.dropped };
  }
}
