import assert from 'node:assert/strict';
import { VirtualClock } from '../../../src/sim/clock';
import { SchedulingQueue } from '../../../src/sim/scheduler/queue';
import { makePod } from './fixtures';

function setup() {
  const clock = new VirtualClock();
  let activations = 0;
  const queue = new SchedulingQueue(clock, { queueingDelayMs: () => 15 }, () => activations++);
  return { clock, queue, activations: () => activations, run: (ms: number) => clock.advanceTo(clock.now() + ms) };
}

describe('SchedulingQueue', () => {
  it('backs off 1 s, doubling per attempt up to 10 s', () => {
    const { queue } = setup();
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((n) => queue.backoffDuration(n)), [0, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });

  it('makes a pod available queueingDelayMs after it is added, highest priority first', () => {
    const t = setup();
    t.queue.add(makePod({ name: 'low', uid: 'low' }));
    t.queue.add(makePod({ name: 'high', uid: 'high', priority: 10 }));
    t.run(14);
    assert.equal(t.queue.pop(), undefined);
    t.run(1);
    assert.equal(t.activations(), 2);
    assert.equal(t.queue.pop()?.uid, 'high');
    assert.equal(t.queue.pop()?.uid, 'low');
  });

  it('parks an unschedulable pod and leaves no timer once the queue is empty', () => {
    const t = setup();
    t.queue.add(makePod({ name: 'p', uid: 'p' }));
    t.run(15);
    const qp = t.queue.pop()!;
    qp.attempts++;
    t.queue.markUnschedulable(qp);
    assert.equal(t.queue.unschedulableCount, 1);
    assert.ok(t.clock.pending() > 0, 'the leftover flush is armed');
    t.queue.delete('p');
    assert.equal(t.clock.pending(), 0);
  });

  it('moves parked pods once per instant, waiting out their backoff', () => {
    const t = setup();
    for (const uid of ['a', 'b']) t.queue.add(makePod({ name: uid, uid }));
    t.run(15);
    for (let qp = t.queue.pop(); qp; qp = t.queue.pop()) {
      qp.attempts++;
      t.queue.markUnschedulable(qp);
    }
    t.queue.moveAllToActiveOrBackoff();
    t.queue.moveAllToActiveOrBackoff();
    assert.equal(t.clock.pending(), 2, 'one move timer beside the flush timer');
    t.run(0);
    assert.equal(t.queue.unschedulableCount, 0);
    t.run(1_000);
    assert.equal(t.queue.pop(), undefined, 'still inside the queueing delay after the 1 s backoff');
    t.run(15);
    assert.ok(t.queue.pop());
    assert.ok(t.queue.pop());
  });
});
