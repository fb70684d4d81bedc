/**
 * The API server's clock as seen from here. The tracer compares times the server wrote
 * (creationTimestamp, condition transitions, event times) with times taken here (the apply, watch
 * arrivals); a skewed client clock would make objects look older than the apply ("existed
 * before") or pods take negative time to be watched. So client times are shifted by an estimate
 * of (server − client), bounded by what was observed:
 * - a write made while our request was in flight, stamped to the second (creationTimestamp or our
 *   managedFields entry), bounds the offset on both sides;
 * - a step of the simulator's internals stream, stamped to the millisecond and received after it
 *   happened, bounds it from below, tightly.
 * With nothing observed the offset is 0: clocks are assumed in sync until shown otherwise.
 */

export class ServerClock {
  private lower = -Infinity;
  private upper = Infinity;
  private preciseLower = false;

  constructor(private readonly local: () => number = Date.now) {}

  /** Server time − local time, ms. */
  offset(): number {
    const wanted = this.preciseLower ? this.lower : 0;
    return Math.min(Math.max(wanted, this.lower), this.upper);
  }

  /** The server's time now, estimated. */
  now(): number {
    return this.local() + this.offset();
  }

  /** A local time on the server's clock. */
  toServer(localMs: number): number {
    return localMs + this.offset();
  }

  /** The server reached `serverMs` (ms-exact) no later than `receivedAt` (local). */
  observeExact(serverMs: number, receivedAt: number = this.local()): void {
    if (!Number.isFinite(serverMs)) return;
    this.lower = Math.max(this.lower, serverMs - receivedAt);
    this.preciseLower = true;
    // An exact observation outweighs a second-granular bound that contradicts it.
    if (this.upper < this.lower) this.upper = Infinity;
  }

  /** A write the server stamped `stampMs` (floored to the second) while our request ran from `sentAt` to `answeredAt` (local). */
  observeWrite(stampMs: number, sentAt: number, answeredAt: number): void {
    if (!Number.isFinite(stampMs)) return;
    const lower = stampMs - answeredAt;
    const upper = stampMs + 1000 - sentAt;
    if (lower > this.upper || upper < this.lower) {
      // The clocks drifted since the older bounds (or a stamp was wrong): the newest observation wins.
      this.lower = lower;
      this.upper = upper;
      this.preciseLower = false;
      return;
    }
    this.lower = Math.max(this.lower, lower);
    this.upper = Math.min(this.upper, upper);
  }
}
