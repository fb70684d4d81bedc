import assert from 'node:assert/strict';
import { durationStats } from '../../../src/core/journey/snapshot';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey, ObjectJourney } from '../../../src/core/journey/types';
import { DEPLOYMENT, deploymentObject, iso, micro, podObject, replicaSetObject, T0 } from './objects';

function startedPod(tracer: JourneyTracer, name: string, uid: string, offset: number, opts: { precise: boolean; arrivalDelay?: number }): void {
  const at = (ms: number): number => T0 + offset + ms;
  const delay = opts.arrivalDelay ?? 0;
  // Created at +0, bound at +18, container started at +700, Running seen at +725, Ready at +800.
  tracer.ingest({ type: 'ADDED', object: podObject({ name, uid, created: at(0) }) }, at(0) + delay);
  const scheduled = { type: 'PodScheduled', status: 'True', at: at(18), precise: opts.precise };
  tracer.ingest({ type: 'MODIFIED', object: podObject({ name, uid, created: at(0), nodeName: 'node-1', conditions: [scheduled] }) }, at(18) + delay);
  const running = podObject({
    name,
    uid,
    created: at(0),
    nodeName: 'node-1',
    phase: 'Running',
    conditions: [scheduled, { type: 'Ready', status: 'True', at: at(800), precise: opts.precise }, { type: 'ContainersReady', status: 'True', at: at(800), precise: opts.precise }],
    containers: [{ running: { startedAt: opts.precise ? micro(at(700)) : iso(at(700)) }, ready: true }],
  });
  if (opts.precise) {
    // A writer that keeps sub-seconds (the simulator can) stamps creation precisely too.
    (running.metadata as { creationTimestamp: string }).creationTimestamp = micro(at(0));
  }
  tracer.ingest({ type: 'MODIFIED', object: running }, at(725) + delay);
}

function journeyWith(build: (tracer: JourneyTracer) => void): Journey {
  const tracer = new JourneyTracer();
  const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
  tracer.ingest({ type: 'ADDED', object: deploymentObject({}) }, T0 + 5);
  tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT }) }, T0 + 6);
  build(tracer);
  return tracer.journey(id) as Journey;
}

function pods(j: Journey): ObjectJourney[] {
  return j.tree?.children[0]?.children ?? [];
}

describe('pod phase durations (clusterloader2 PodStartupLatency)', () => {
  it('measures create → schedule → run → watch and to Ready from precise stamps', () => {
    const j = journeyWith((tracer) => startedPod(tracer, 'web-5d567cc74c-ss4lb', 'pod-1', 100, { precise: true }));
    const p = pods(j)[0].pod;
    assert.deepEqual(p?.marks, { created: T0 + 100, scheduled: T0 + 118, running: T0 + 800, watched: T0 + 825, ready: T0 + 900 });
    assert.deepEqual(p?.phases, {
      create_to_schedule: 18,
      schedule_to_run: 682,
      run_to_watch: 25,
      schedule_to_watch: 707,
      create_to_run: 700,
      pod_startup: 725,
      create_to_ready: 800,
    });
  });

  it('uses whole-second stamps sharpened by arrival, as from a real cluster', () => {
    // T0 is 12:00:00.250: creation 12:00:00Z seen at .250, binding seen at .268, Running seen at .975.
    const j = journeyWith((tracer) => startedPod(tracer, 'web-5d567cc74c-ss4lb', 'pod-1', 0, { precise: false }));
    const p = pods(j)[0].pod;
    assert.equal(p?.marks.created, T0);
    assert.equal(p?.marks.scheduled, T0 + 18);
    assert.equal(p?.marks.watched, T0 + 725);
    assert.equal(p?.phases.create_to_schedule, 18);
    assert.equal(p?.phases.pod_startup, 725);
  });

  it('keeps whole-second stamps when the watch delivers them late', () => {
    const j = journeyWith((tracer) => startedPod(tracer, 'web-5d567cc74c-ss4lb', 'pod-1', 0, { precise: false, arrivalDelay: 5_000 }));
    const p = pods(j)[0].pod;
    const second = Date.parse(iso(T0));
    assert.equal(p?.marks.created, second);
    assert.equal(p?.marks.scheduled, second);
    assert.equal(p?.marks.watched, T0 + 5_725, 'the watch phase is always the arrival');
    assert.equal(p?.phases.pod_startup, T0 + 5_725 - second);
  });

  it('summarises every pod’s phases as nearest-rank percentiles', () => {
    const j = journeyWith((tracer) => {
      for (let i = 0; i < 10; i++) startedPod(tracer, `web-5d567cc74c-p${i}`, `p${i}`, i * 1_000, { precise: true });
    });
    assert.equal(pods(j).length, 10);
    assert.deepEqual(j.phaseStats.pod_startup, { count: 10, min: 725, p50: 725, p90: 725, p99: 725, max: 725 });
    assert.deepEqual(j.phaseStats.create_to_schedule, { count: 10, min: 18, p50: 18, p90: 18, p99: 18, max: 18 });
    assert.deepEqual(durationStats([5, 1, 9, 3, 7, 2, 8, 4, 10, 6]), { count: 10, min: 1, p50: 5, p90: 9, p99: 10, max: 10 });
    assert.deepEqual(durationStats([NaN, 4]), { count: 1, min: 4, p50: 4, p90: 4, p99: 4, max: 4 });
    assert.equal(durationStats([]), undefined);
  });

  it('leaves pods that existed before the apply out of the statistics', () => {
    const j = journeyWith((tracer) => {
      startedPod(tracer, 'web-5d567cc74c-new', 'new', 0, { precise: true });
      tracer.ingest({ type: 'MODIFIED', object: podObject({ name: 'web-5d567cc74c-old', uid: 'old', created: T0 - 600_000, nodeName: 'node-2', phase: 'Running', containers: [{ running: { startedAt: iso(T0 - 590_000) }, ready: true }] }) }, T0 + 2_000);
    });
    const old = pods(j).find((p) => p.ref.uid === 'old');
    assert.equal(old?.preexisting, true);
    assert.deepEqual(old?.pod?.phases, {});
    assert.equal(j.phaseStats.pod_startup?.count, 1);
  });
});
