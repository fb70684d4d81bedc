/**
 * Scale check: 5,000 nodes and 20,000 pods through the real store. Prints the throughput (the
 * machine is shared, so it is reported, not asserted) and checks the outcome is correct.
 */
import assert from 'node:assert/strict';
import type { InternalStep } from '../../../src/core/internals';
import { VirtualClock } from '../../../src/sim/clock';
import { defaultTimings, type InternalsLog, type SimContext } from '../../../src/sim/context';
import { Scheduler } from '../../../src/sim/scheduler/scheduler';
import { StoreEventRecorder } from '../../../src/sim/store/events';
import { MemoryStore } from '../../../src/sim/store/store';
import { makeNode, makePod, type PodObject } from './fixtures';

const NODES = 5_000;
const PODS = 20_000;

class CycleCounter implements InternalsLog {
  readonly recordsWatchDeliveries = false;
  cycles = 0;
  evaluatedOtherThan500 = 0;
  withVerdicts = 0;
  record(step: InternalStep): void {
    if (step.type !== 'schedulingCycle') return;
    this.cycles++;
    if (step.evaluatedNodes !== 500) this.evaluatedOtherThan500++;
    if (step.table) this.withVerdicts++;
  }
}

describe('Scheduler at scale', function () {
  this.timeout(300_000);

  it(`schedules ${PODS} pods on ${NODES} nodes without over-allocating any`, () => {
    const clock = new VirtualClock({ seed: 7 });
    const internals = new CycleCounter();
    const store = new MemoryStore({ clock, internals, historyPerKind: 1_000 });
    store.create('Namespace', { metadata: { name: 'default' } });
    const ctx: SimContext = { store, clock, events: new StoreEventRecorder(store, clock, false), internals, timings: defaultTimings };
    const scheduler = new Scheduler(ctx, { verdicts: 'summary' });
    scheduler.start();
    for (let i = 0; i < NODES; i++) store.create('Node', makeNode({ name: `node-${i}`, cpu: '16', memory: '64Gi', pods: '110', images: [{ names: ['nginx:1.25'], sizeBytes: 72_000_000 }] }));
    const requests = new Map<string, number>();
    for (let i = 0; i < PODS; i++) {
      const milli = 100 * (1 + (i % 5));
      const { uid: _assignedByTheStore, ...metadata } = makePod({ name: `web-${i}` }).metadata!;
      store.create('Pod', { ...makePod({ name: `web-${i}`, cpu: `${milli}m`, memory: `${64 * (1 + (i % 8))}Mi` }), metadata });
      requests.set(`web-${i}`, milli);
    }

    const started = performance.now();
    while (scheduler.pendingCount > 0 && clock.step()) {
      // Run the virtual clock until every pod has been placed.
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`      ${PODS} pods on ${NODES} nodes: ${seconds.toFixed(2)} s, ${Math.round(PODS / seconds)} pods/s`);

    const cpuByNode = new Map<string, number>();
    const podsByNode = new Map<string, number>();
    for (const pod of store.list<PodObject>('Pod').items) {
      const node = pod.spec?.nodeName;
      assert.ok(node, `${pod.metadata?.name} was not scheduled`);
      cpuByNode.set(node, (cpuByNode.get(node) ?? 0) + requests.get(pod.metadata!.name!)!);
      podsByNode.set(node, (podsByNode.get(node) ?? 0) + 1);
    }
    for (const [node, cpu] of cpuByNode) assert.ok(cpu <= 16_000, `${node} has ${cpu}m requested`);
    // Least-allocated scoring over a 10% sample spreads the pods: about 4 per node, none piled up.
    assert.ok(Math.max(...podsByNode.values()) <= 12, `a node got ${Math.max(...podsByNode.values())} pods`);
    assert.ok(podsByNode.size > NODES * 0.9, `only ${podsByNode.size} nodes used`);
    assert.equal(internals.cycles, PODS);
    assert.equal(internals.evaluatedOtherThan500, 0);
    assert.equal(internals.withVerdicts, 0);
  });
});
