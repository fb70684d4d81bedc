import assert from 'node:assert/strict';
import { FileSummaryBuilder, type PhaseValues } from '../../../src/core/journey/file-summary';
import { renderFileSummary } from '../../../src/core/journey/render-text';
import { PHASE_NAMES, type Journey, type JourneyStatus, type PhaseName, type StuckEntry } from '../../../src/core/journey/types';
import { unfinishedJourney, unfinishedLines } from '../../../src/cli/unfinished';

const APPLIED = Date.UTC(2026, 0, 1);

function stuckPod(name: string, status: JourneyStatus, sinceMs: number, reason = 'FailedScheduling'): StuckEntry {
  const ref = { kind: 'Pod' as const, namespace: 'default', name, uid: name };
  return { ref, status, stuck: { reason, message: `${reason} of ${name}`, since: APPLIED + sinceMs, lastSeen: APPLIED + sinceMs, component: 'default-scheduler', object: ref } };
}

function journey(name: string, ready: number, stuck: StuckEntry[] = []): Journey {
  const status: JourneyStatus = stuck.length > 0 ? 'stuck' : 'complete';
  return {
    id: `Deployment/default/${name}@${APPLIED}`,
    root: { kind: 'Deployment', namespace: 'default', name },
    appliedAt: APPLIED,
    status,
    done: status === 'complete',
    stuck: stuck.length > 0,
    ...(status === 'complete' ? { completedAt: APPLIED + 1000 * ready, totalDurationMs: 1000 * ready } : {}),
    lastChangeAt: APPLIED + 1000 * ready,
    version: 1,
    counts: { desired: ready + stuck.length, live: ready + stuck.length, scheduled: ready, running: ready, ready, stuck: stuck.length, terminating: 0, deleted: 0, oldLive: 0, restarts: 0 },
    phaseStats: {},
    stuckObjects: stuck,
    stuckCount: stuck.length,
  };
}

/** Phase values with only create_to_ready known. */
function readyValues(values: number[]): PhaseValues {
  return { ...Object.fromEntries(PHASE_NAMES.map((name) => [name, values.map(() => NaN)])), create_to_ready: values } as Record<PhaseName, number[]>;
}

describe("a file's summary", () => {
  it('merges the per-pod phase values of every journey, not their percentiles', () => {
    const builder = new FileSummaryBuilder();
    // 1..90 ms in one journey, 91..100 ms in another: per-journey p50s 45 and 95, the file's 50.
    const values = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    builder.add(journey('a', 90), readyValues([...values(1, 90), NaN]));
    builder.add(journey('b', 10), readyValues(values(91, 100)));
    const summary = builder.finish();
    assert.deepEqual(summary.phaseStats.create_to_ready, { count: 100, min: 1, p50: 50, p90: 90, p99: 99, max: 100 });
    assert.equal(summary.counts.ready, 100);
    assert.equal(summary.totalDurationMs, 90_000);
  });

  it('lists stuck objects of all journeys worst first, failed before stuck, bounded with "… and N more"', () => {
    const builder = new FileSummaryBuilder(2);
    builder.add(journey('a', 3, [stuckPod('a-1', 'stuck', 100), stuckPod('a-2', 'stuck', 50)]), undefined);
    builder.add(journey('b', 3, [stuckPod('b-1', 'failed', 900, 'Failed')]), undefined);
    builder.add(journey('c', 3), undefined);
    const summary = builder.finish();
    assert.deepEqual(summary.stuckObjects.map((entry) => `${entry.ref.name} ${entry.journeyId.split('@')[0]}`), ['b-1 Deployment/default/b', 'a-2 Deployment/default/a']);
    assert.equal(summary.stuckCount, 3);
    assert.equal(summary.totalDurationMs, undefined);
    const lines = renderFileSummary(summary).split('\n');
    assert.deepEqual(lines.slice(0, 8), [
      'Summary of 3 journeys',
      '  journeys  1/3 done · 1 complete · 2 stuck',
      '  stuck     3 objects',
      '    Pod default/b-1 [failed]',
      '      ! Failed since +0.900s: Failed of b-1',
      '    Pod default/a-2 [stuck]',
      '      ! FailedScheduling since +0.050s: FailedScheduling of a-2',
      '    … and 1 more',
    ]);
    assert.equal(lines[8], '  pods      9/12 ready · 9 running · 9 scheduled · 3 stuck');
  });
});

describe("a file's summary of assumptions", () => {
  it('sums the distinct assumptions and the pods they apply to over every journey', () => {
    const builder = new FileSummaryBuilder();
    builder.add({ ...journey('a', 100), assumptionCount: 2, assumedObjects: 100 }, undefined);
    builder.add({ ...journey('b', 3), assumptionCount: 1, assumedObjects: 3 }, undefined);
    builder.add(journey('c', 3), undefined);
    const summary = builder.finish();
    assert.deepEqual([summary.assumptionCount, summary.assumedObjects], [3, 103]);
    assert.ok(renderFileSummary(summary).includes('\n  assumed   3 outcomes, for 103 pods (a real cluster may differ; see each journey)\n'), renderFileSummary(summary));
  });

  it('leaves the pods out when a journey saved before they were counted does not say', () => {
    const builder = new FileSummaryBuilder();
    builder.add({ ...journey('a', 100), assumptionCount: 2, assumedObjects: 100 }, undefined);
    builder.add({ ...journey('old', 3), assumptionCount: 4 }, undefined);
    const summary = builder.finish();
    assert.deepEqual([summary.assumptionCount, summary.assumedObjects], [6, undefined]);
    assert.ok(renderFileSummary(summary).includes('\n  assumed   6 outcomes (a real cluster may differ; see each journey)\n'), renderFileSummary(summary));
  });
});

describe("a file's summary of Jobs beside Deployments", () => {
  it('counts the pods of Jobs apart, as pods that end rather than pods that are ready', () => {
    const builder = new FileSummaryBuilder();
    builder.add(journey('web', 3), undefined);
    const job = journey('pi', 0);
    builder.add({ ...job, root: { ...job.root, kind: 'Job' }, counts: { ...job.counts, desired: 3, live: 3, scheduled: 3 } }, undefined);
    const summary = builder.finish();
    assert.deepEqual([summary.counts.ready, summary.counts.desired, summary.batchCounts?.live], [3, 3, 3]);
    const lines = renderFileSummary(summary).split('\n');
    assert.deepEqual(lines.slice(2, 4), ['  pods      3/3 ready · 3 running · 3 scheduled', '  job pods  3 pods · 0 running · 3 scheduled']);
  });
});

describe('the lines about unfinished journeys', () => {
  it('reads as it always did for one journey', () => {
    const entry = unfinishedJourney(journey('web', 0, [stuckPod('web-1', 'stuck', 10)]), 'within 300s of simulated time');
    assert.deepEqual(unfinishedLines([entry]), ['kube-journey: deployment/web did not finish within 300s of simulated time: pod/web-1: FailedScheduling: FailedScheduling of web-1']);
  });

  it('gives 50 journeys stuck the same way one line naming the first few', () => {
    const entries = Array.from({ length: 50 }, (_, i) => unfinishedJourney(journey(`app-${i}`, 0, [stuckPod(`app-${i}-x`, 'stuck', 10)]), "within the simulator's pod budget of 100 pods"));
    entries.push(unfinishedJourney(journey('other', 0, [stuckPod('other-x', 'stuck', 10, 'ErrImagePull')]), "within the simulator's pod budget of 100 pods"));
    assert.deepEqual(unfinishedLines(entries), [
      "kube-journey: 50 deployments did not finish within the simulator's pod budget of 100 pods: deployment/app-0, deployment/app-1, deployment/app-2 and 47 more; the first, deployment/app-0: pod/app-0-x: FailedScheduling: FailedScheduling of app-0-x",
      "kube-journey: deployment/other did not finish within the simulator's pod budget of 100 pods: pod/other-x: ErrImagePull: ErrImagePull of other-x",
    ]);
  });
});
