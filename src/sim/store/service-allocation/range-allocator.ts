/**
 * The bitmap allocator under upstream's IP and port allocators
 * (pkg/registry/core/service/allocator/bitmap.go) with the static-subrange scan strategy
 * (`randomScanStrategyWithOffset`): a dynamic allocation picks a random free item of the upper
 * band first and falls back to the lower band, which is kept for values users choose. Items are
 * offsets 0…size-1; who holds each is recorded so a Service's own values are not "taken" from it.
 */
import type { SeededRandom } from '../../clock';

export class RangeAllocator {
  private readonly holders = new Map<number, string>();

  constructor(
    readonly size: number,
    /** Where the dynamic band starts (upstream's `offset`). */
    private readonly offset: number,
    private readonly random: SeededRandom,
  ) {}

  holder(offset: number): string | undefined {
    return this.holders.get(offset);
  }

  claim(offset: number, holder: string): void {
    this.holders.set(offset, holder);
  }

  release(offset: number, holder: string): void {
    if (this.holders.get(offset) === holder) this.holders.delete(offset);
  }

  get free(): number {
    return this.size - this.holders.size;
  }

  /** A free offset not in `excluded`, or undefined when the range is full. */
  next(excluded: ReadonlySet<number> = new Set()): number | undefined {
    return this.scan(this.offset, this.size, excluded) ?? this.scan(0, this.offset, excluded);
  }

  private scan(from: number, to: number, excluded: ReadonlySet<number>): number | undefined {
    const span = to - from;
    if (span <= 0) return undefined;
    const start = this.random.int(0, span - 1);
    for (let i = 0; i < span; i++) {
      const candidate = from + ((start + i) % span);
      if (!this.holders.has(candidate) && !excluded.has(candidate)) return candidate;
    }
    return undefined;
  }
}

/** `calculateRangeOffset` of the IP allocator: min(max(16, size/16), 256). */
export function ipRangeOffset(size: number): number {
  return Math.min(Math.max(16, Math.floor(size / 16)), 256);
}

/** `calculateRangeOffset` of the port allocator: min(max(16, size/32), 128). */
export function portRangeOffset(size: number): number {
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}
