/**
 * Event names embed the time in nanoseconds, kept unique when several events share a
 * millisecond (the next name takes the last one plus a nanosecond). Nanoseconds since the epoch
 * exceed 2^53, so they are BigInts, but only once per millisecond: within it, the hex digits of
 * the nanoseconds come from the millisecond's digits and a small offset.
 */
export class EventNames {
  private millis = -Infinity;
  /** Nanoseconds past `millis` of the last name. */
  private offset = 0;
  /** The millisecond's nanoseconds in hex, without the last five digits, and those five as a number. */
  private high = '';
  private low = 0;

  nextHex(now: number): string {
    const millis = Math.floor(now);
    // A later millisecond starts afresh unless the last name already ran past it.
    if (millis > this.millis && (millis - this.millis) * 1_000_000 > this.offset) {
      this.millis = millis;
      this.offset = 0;
      const hex = (BigInt(millis) * 1_000_000n).toString(16);
      this.high = hex.slice(0, -5);
      this.low = Number.parseInt(hex.slice(-5), 16);
    } else {
      this.offset++;
    }
    const low = this.low + this.offset;
    if (low < 0x100000) return this.high + low.toString(16).padStart(5, '0');
    return (BigInt(this.millis) * 1_000_000n + BigInt(this.offset)).toString(16);
  }
}
