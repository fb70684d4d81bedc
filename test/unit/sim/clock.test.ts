import assert from 'node:assert/strict';
import { SeededRandom, VirtualClock } from '../../../src/sim/clock';

describe('virtual clock', () => {
  it('fires timers in time order, same-time timers in the order they were set, cancelled ones never', () => {
    const clock = new VirtualClock({ seed: 1 });
    const start = clock.now();
    const random = new SeededRandom(42);
    const fired: number[] = [];
    const expected: Array<{ at: number; order: number }> = [];
    const handles = [];
    for (let order = 0; order < 5_000; order++) {
      // Few distinct delays, so that many timers share a time and their order decides.
      const delay = random.int(0, 40) * 0.5;
      handles.push(clock.after(delay, () => fired.push(order)));
      expected.push({ at: clock.now() + delay, order });
    }
    const cancelled = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const order = random.int(0, 4_999);
      cancelled.add(order);
      clock.cancel(handles[order]);
    }
    // Timers set while the clock runs join the same order.
    clock.after(7.25, () => {
      clock.after(0, () => fired.push(-1));
    });
    while (clock.step()) {
      /* run everything */
    }
    const want = expected
      .filter((t) => !cancelled.has(t.order))
      .sort((a, b) => a.at - b.at || a.order - b.order)
      .map((t) => t.order);
    // The late timer is due at 7.25 after every timer set earlier for 7.25 or before.
    const late = want.findIndex((order) => expected[order].at > start + 7.25);
    want.splice(late, 0, -1);
    assert.deepEqual(fired, want);
    assert.equal(clock.pending(), 0);
  });
});
