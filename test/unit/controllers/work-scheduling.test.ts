import assert from 'node:assert/strict';
import { VirtualClock } from '../../../src/sim/clock';
import { ControllerExpectations, ControllerQueue, slowStartBatch, slowStartBatchSizes } from '../../../src/sim/controllers/work-scheduling';

describe('work scheduling', () => {
  describe('slow start', () => {
    it('creates in batches of 1, 2, 4, … up to the count', () => {
      assert.deepEqual(slowStartBatchSizes(1), [1]);
      assert.deepEqual(slowStartBatchSizes(3), [1, 2]);
      assert.deepEqual(slowStartBatchSizes(10), [1, 2, 4, 3]);
      assert.deepEqual(slowStartBatchSizes(500), [1, 2, 4, 8, 16, 32, 64, 128, 245]);
      assert.deepEqual(slowStartBatchSizes(0), []);
    });

    it('finishes the batch that failed, then stops', () => {
      let calls = 0;
      // Calls 5 and 6 (in the batch of 4: calls 4..7) fail.
      const result = slowStartBatch(20, 1, () => {
        calls++;
        if (calls === 5 || calls === 6) throw new Error(`quota ${calls}`);
      });
      assert.equal(calls, 7);
      assert.equal(result.successes, 5);
      assert.equal((result.error as Error).message, 'quota 5');
    });
  });

  describe('expectations', () => {
    it('waits for the expected creations and deletions, then for nothing', () => {
      const clock = new VirtualClock();
      const expectations = new ControllerExpectations(clock);
      assert.equal(expectations.satisfied('default/rs'), true);
      expectations.expectCreations('default/rs', 2);
      assert.equal(expectations.satisfied('default/rs'), false);
      expectations.creationObserved('default/rs');
      expectations.creationObserved('default/rs');
      assert.equal(expectations.satisfied('default/rs'), true);
      expectations.expectDeletions('default/rs', ['default/a', 'default/b']);
      expectations.deletionObserved('default/rs', 'default/a');
      expectations.deletionObserved('default/rs', 'default/a');
      assert.equal(expectations.satisfied('default/rs'), false, 'the same pod seen twice counts once');
      expectations.deletionObserved('default/rs', 'default/b');
      assert.equal(expectations.satisfied('default/rs'), true);
    });

    it('gives up waiting after 5 minutes', () => {
      const clock = new VirtualClock();
      const expectations = new ControllerExpectations(clock);
      expectations.expectCreations('k', 1);
      clock.advanceTo(clock.now() + 5 * 60 * 1000);
      assert.equal(expectations.satisfied('k'), false);
      clock.advanceTo(clock.now() + 1);
      assert.equal(expectations.satisfied('k'), true);
    });
  });

  describe('queue', () => {
    it('processes a key once per reaction delay, and a delayed add does not block normal adds', () => {
      const clock = new VirtualClock();
      const start = clock.now();
      const seen: number[] = [];
      const queue = new ControllerQueue(clock, 5, () => seen.push(clock.now() - start));
      queue.addAfter('k', 10_000);
      queue.add('k');
      queue.add('k');
      clock.advanceTo(start + 20_000);
      assert.deepEqual(seen, [5, 10_000]);
    });

    it('keeps the earliest of several delayed adds and backs off failures exponentially', () => {
      const clock = new VirtualClock();
      const start = clock.now();
      const seen: number[] = [];
      const queue = new ControllerQueue(clock, 5, () => seen.push(clock.now() - start));
      queue.addAfter('k', 3000);
      queue.addAfter('k', 1000);
      queue.addAfter('k', 2000);
      clock.advanceTo(start + 5000);
      assert.deepEqual(seen, [1000]);
      seen.length = 0;
      const t = clock.now() - start;
      queue.addRateLimited('k');
      clock.advanceTo(clock.now() + 100);
      queue.addRateLimited('k');
      clock.advanceTo(clock.now() + 100);
      queue.addRateLimited('k');
      clock.advanceTo(clock.now() + 100);
      assert.deepEqual(seen, [t + 5, t + 100 + 10, t + 200 + 20]);
    });
  });
});
