import assert from 'node:assert/strict';
import { HeapExhaustedError, HeapGuard, type HeapNumbers } from '../../../src/server/heap-guard';

const LIMIT = 4e9;

/** A guard reading the given used-heap samples in turn. */
function guardOver(samples: number[]): { guard: HeapGuard; check: () => void } {
  let next = 0;
  const statistics = (): HeapNumbers => ({ used_heap_size: samples[Math.min(next++, samples.length - 1)], heap_size_limit: LIMIT });
  const guard = new HeapGuard({ statistics, doing: () => 'while tracing 120,000 pods', advice: 'trace fewer pods' });
  return { guard, check: () => guard.check() };
}

describe('HeapGuard', () => {
  it('lets a heap full of garbage pass: only samples just after a collection count', () => {
    // Growing samples: no collection ran between them, so 3.9 GB may be mostly garbage.
    const { check } = guardOver([1e9, 2e9, 3.9e9]);
    for (let i = 0; i < 3; i++) check();
  });

  it('lets a collection that brings the heap back under 85 % pass', () => {
    const { check } = guardOver([3.9e9, 2.5e9, 3.8e9, 3.3e9]);
    for (let i = 0; i < 4; i++) check();
  });

  it('stops with one line naming the heap, its limit, what ran and what to do when live heap passed 85 %', () => {
    const { check } = guardOver([3.9e9, 3.6e9]);
    check();
    assert.throws(check, (error: unknown) => error instanceof HeapExhaustedError && error.message === 'out of memory: the heap reached 3.6 GB of its 4.0 GB limit while tracing 120,000 pods; trace fewer pods');
  });
});
