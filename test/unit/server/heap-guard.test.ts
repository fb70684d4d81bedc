import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HeapExhaustedError, HeapGuard, heapAfterFullCollections, type HeapNumbers } from '../../../src/server/heap-guard';

const LIMIT = 4e9;

/** A guard reading the given heaps after full collections in turn (undefined: none ran). */
function guardOver(samples: (number | undefined)[]): () => void {
  let next = 0;
  const statistics = (): HeapNumbers | undefined => {
    const used = samples[Math.min(next++, samples.length - 1)];
    return used === undefined ? undefined : { used_heap_size: used, heap_size_limit: LIMIT };
  };
  const guard = new HeapGuard({ statistics, doing: () => 'while tracing 120,000 pods', advice: 'trace fewer pods' });
  return () => guard.check();
}

describe('HeapGuard', () => {
  it('lets a run go on while full collections leave less than 85 % of the limit, or none ran', () => {
    const check = guardOver([undefined, 2.5e9, undefined, 3.3e9, undefined]);
    for (let i = 0; i < 5; i++) check();
  });

  it('stops with one line naming the heap, its limit, what ran and what to do when a full collection leaves more than 85 %', () => {
    const check = guardOver([3.3e9, undefined, 3.6e9]);
    check();
    check();
    assert.throws(check, (error: unknown) => error instanceof HeapExhaustedError && error.message === 'out of memory: the heap reached 3.6 GB of its 4.0 GB limit while tracing 120,000 pods; trace fewer pods');
  });

  it('reads the heap after full collections from V8', () => {
    // From any heap size (a test process is far from its limit); the first call starts the profiler.
    const read = heapAfterFullCollections(0);
    assert.equal(read(), undefined, 'not profiling yet');
    // A full collection on demand: expose V8's gc() to a fresh context.
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    const heap = read();
    assert.ok(heap, 'the forced full collection was recorded');
    assert.ok(heap.used_heap_size > 0 && heap.heap_size_limit >= heap.used_heap_size);
  });
});
