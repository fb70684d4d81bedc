import assert from 'node:assert/strict';
import { heapGrowingPercent, TRACE_HEAP_HEADROOM } from '../../../src/cli/trace-heap-growth';
import { HEAP_GROWING_PERCENT } from '../../../src/server/heap-tuning';

const MB = 2 ** 20;

describe('trace heap growth cap', () => {
  it('lets a small heap grow by the simulator processes\' 60 %', () => {
    assert.equal(heapGrowingPercent(200 * MB), HEAP_GROWING_PERCENT);
    assert.equal(heapGrowingPercent(0), HEAP_GROWING_PERCENT);
  });

  it('caps the growth of a large live heap at the headroom, never below 20 %', () => {
    const live = 1300 * MB;
    const percent = heapGrowingPercent(live);
    assert.ok(percent < HEAP_GROWING_PERCENT);
    assert.ok((live * percent) / 100 <= TRACE_HEAP_HEADROOM, `${percent} % of 1,300 MB stays within the headroom`);
    assert.ok((live * (percent + 1)) / 100 > TRACE_HEAP_HEADROOM, 'and is the largest percent that does');
    assert.equal(heapGrowingPercent(10_000 * MB), 20);
  });
});
