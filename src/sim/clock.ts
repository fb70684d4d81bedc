/**
 * Virtual time for the simulator. Every component schedules its work on this clock instead of
 * real timers, so a run is deterministic for a seed and can go as fast as the CPU allows
 * (tests, benchmarks) or be paced against the wall clock (the extension, where a user watches).
 */

export interface TimerHandle {
  readonly id: number;
}

/** A pending timer is its own handle: cancelling marks it, and the heap drops it when it surfaces. */
interface Timer extends TimerHandle {
  at: number;
  seq: number;
  fn: () => void;
  /** Cancelled, or already run. */
  settled: boolean;
}

function noop(): void {}

/** Deterministic pseudo-random numbers (mulberry32): same seed, same run. */
export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  /** A value around `mean`, spread by ±`jitter` (a fraction), never negative. */
  around(mean: number, jitter = 0.3): number {
    return Math.max(0, mean * (1 + (this.next() * 2 - 1) * jitter));
  }
}

export interface ClockOptions {
  /** Virtual start time, ms since the epoch. */
  startTime?: number;
  seed?: number;
}

export class VirtualClock {
  private current: number;
  // A 4-ary heap in three parallel arrays: sifting compares only the two number arrays, which stay
  // contiguous in memory, instead of visiting a timer object per comparison; four children share a
  // cache line and the heap is half as deep as a binary one (150,000 pods keep ~150,000 timers).
  private readonly heap: Timer[] = [];
  private readonly heapAt: number[] = [];
  private readonly heapSeq: number[] = [];
  private nextId = 1;
  private nextSeq = 0;
  /** Timers set and neither run nor cancelled. */
  private live = 0;
  readonly random: SeededRandom;

  constructor(options: ClockOptions = {}) {
    this.current = options.startTime ?? Date.UTC(2026, 0, 1, 12, 0, 0);
    this.random = new SeededRandom(options.seed ?? 1);
  }

  now(): number {
    return this.current;
  }

  /** Run `fn` after `delayMs` of virtual time. Timers due at the same instant run in the order they were set. */
  after(delayMs: number, fn: () => void): TimerHandle {
    const timer: Timer = { id: this.nextId++, at: this.current + Math.max(0, delayMs), seq: this.nextSeq++, fn, settled: false };
    this.push(timer);
    this.live++;
    return timer;
  }

  cancel(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const timer = handle as Timer;
    if (timer.settled) return;
    timer.settled = true;
    timer.fn = noop;
    this.live--;
  }

  /** Virtual time of the next pending timer, or undefined when nothing is scheduled. */
  nextDue(): number | undefined {
    this.dropCancelledHead();
    return this.heap.length > 0 ? this.heap[0].at : undefined;
  }

  pending(): number {
    return this.live;
  }

  /**
   * Fire every timer due at or before `time` (in order), then set the clock to `time`.
   * Returns how many timers ran.
   */
  advanceTo(time: number, budget = Infinity): number {
    let ran = 0;
    while (ran < budget) {
      this.dropCancelledHead();
      const head = this.heap[0];
      if (!head || head.at > time) break;
      this.pop();
      this.live--;
      if (head.at > this.current) this.current = head.at;
      const fn = head.fn;
      // Settled before it runs, so cancelling it from inside (or later) changes nothing, and the closure is released.
      head.settled = true;
      head.fn = noop;
      fn();
      ran++;
    }
    if (ran < budget && time > this.current) this.current = time;
    return ran;
  }

  /** Fire the next due timer (advancing time to it). Returns false when nothing is scheduled. */
  step(): boolean {
    const due = this.nextDue();
    if (due === undefined) return false;
    this.advanceTo(due, 1);
    return true;
  }

  private dropCancelledHead(): void {
    while (this.heap.length > 0 && this.heap[0].settled) this.pop();
  }

  private push(timer: Timer): void {
    const { heap, heapAt, heapSeq } = this;
    const at = timer.at;
    const seq = timer.seq;
    let i = heap.length;
    heap.push(timer);
    heapAt.push(at);
    heapSeq.push(seq);
    while (i > 0) {
      const parent = (i - 1) >> 2;
      const parentAt = heapAt[parent];
      if (!(at < parentAt || (at === parentAt && seq < heapSeq[parent]))) break;
      heap[i] = heap[parent];
      heapAt[i] = parentAt;
      heapSeq[i] = heapSeq[parent];
      i = parent;
    }
    heap[i] = timer;
    heapAt[i] = at;
    heapSeq[i] = seq;
  }

  private pop(): Timer | undefined {
    const { heap, heapAt, heapSeq } = this;
    const top = heap[0];
    const last = heap.pop();
    const lastAt = heapAt.pop()!;
    const lastSeq = heapSeq.pop()!;
    const size = heap.length;
    if (size > 0 && last) {
      let i = 0;
      for (;;) {
        const first = 4 * i + 1;
        if (first >= size) break;
        // The earliest of up to four children, ties broken by sequence.
        let child = first;
        let childAt = heapAt[first];
        const end = Math.min(first + 4, size);
        for (let c = first + 1; c < end; c++) {
          const at = heapAt[c];
          if (at < childAt || (at === childAt && heapSeq[c] < heapSeq[child])) {
            child = c;
            childAt = at;
          }
        }
        if (!(childAt < lastAt || (childAt === lastAt && heapSeq[child] < lastSeq))) break;
        heap[i] = heap[child];
        heapAt[i] = childAt;
        heapSeq[i] = heapSeq[child];
        i = child;
      }
      heap[i] = last;
      heapAt[i] = lastAt;
      heapSeq[i] = lastSeq;
    }
    return top;
  }
}
