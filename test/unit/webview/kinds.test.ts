/**
 * The timeline's lanes for StatefulSets, DaemonSets, Jobs and CronJobs: pods in their owner's
 * order, kubectl's short kind names, each kind's counts, and waits drawn as spans.
 */
import assert from 'node:assert/strict';
import type { Journey } from '../../../src/core/journey/types';
import { layoutRows, rowLabel, type ObjectRowLayout } from '../../../src/webview/model/layout';
import { buildLanes, type LaneList } from '../../../src/webview/model/lanes';
import { countsLine } from '../../../src/webview/model/stats';
import { controlPlanePod, controlPlaneSteps } from '../../../src/webview/model/control-plane';
import { createTimeScale, fitWindow, type TimeScale } from '../../../src/webview/model/scale';
import { cronJobJourney, daemonSetJourney, failedJobJourney, jobJourney, statefulSetJourney, waitingCronJobJourney } from '../journey/kind-journeys';

const measure = (text: string): number => text.length * 7;

function rowsOf(journey: Journey, nowMs = journey.lastChangeAt - journey.appliedAt): { list: LaneList; rows: ObjectRowLayout[]; scale: TimeScale } {
  const list = buildLanes(journey.tree, journey.appliedAt, journey.appliedAt + nowMs, { showAllPods: true });
  const scale = createTimeScale('linear', fitWindow(Math.max(nowMs, 1000)), 300, 1200);
  const rows = layoutRows(list, scale, journey.appliedAt, { rowHeight: 30, scrollTop: 0, viewportHeight: 30 * list.lanes.length, nowMs, measure }).filter((row): row is ObjectRowLayout => row.type === 'object');
  return { list, rows, scale };
}

describe('timeline lanes of workload kinds beyond Deployments', () => {
  it('lists a StatefulSet’s pods by ordinal, under an `sts` row with its counts', () => {
    const { list } = rowsOf(statefulSetJourney(12, undefined, true));
    const labels = list.lanes.map(rowLabel);
    assert.deepEqual([labels[0].kind, labels[0].name, labels[0].detail], ['sts', 'web', '12/12']);
    assert.deepEqual(labels.slice(1).map((l) => l.name), Array.from({ length: 12 }, (_, i) => `web-${i}`));
  });

  it('lists a DaemonSet’s pods by node', () => {
    const journey = daemonSetJourney(12);
    const { list } = rowsOf(journey);
    assert.equal(rowLabel(list.lanes[0]).kind, 'ds');
    const nodes = list.lanes.slice(1).map((lane) => (lane.type === 'object' ? lane.object.pod?.node : undefined));
    assert.deepEqual(nodes, Array.from({ length: 12 }, (_, i) => `node-${i + 1}`));
  });

  it('labels a Job with its successes and failures, and a CronJob with its schedule, its Job and pod below it', () => {
    assert.deepEqual(rowLabel(rowsOf(jobJourney()).list.lanes[0]), { glyph: '✓', status: 'complete', kind: 'job', name: 'pi', detail: '1/1 succeeded · 1 failed' });
    const { list } = rowsOf(cronJobJourney());
    assert.deepEqual(list.lanes.map((lane) => [rowLabel(lane).kind, lane.depth]), [['cj', 0], ['job', 1], ['pod', 2]]);
    assert.equal(rowLabel(list.lanes[0]).detail, '*/1 * * * *');
  });

  it('draws a StatefulSet’s OrderedReady wait as a span up to the next pod’s creation, labelled in place of the lifeline duration', () => {
    const journey = statefulSetJourney(2);
    const { rows, scale } = rowsOf(journey);
    const set = rows[0];
    const waiting = set.lane.object.stages.findIndex((s) => s.kind === 'waiting');
    assert.equal(set.waits.length, 1);
    const wait = set.waits[0];
    assert.equal(wait.stageIndex, waiting);
    const web1 = journey.tree!.children.find((p) => p.ref.name === 'web-1')!;
    assert.equal(wait.ms, web1.createdAt! - set.lane.object.stages[waiting].time);
    assert.equal(wait.x1, scale.toX(web1.createdAt! - journey.appliedAt));
    assert.equal(wait.open, undefined);
    assert.match(wait.label ?? '', /^waited \d/);
    for (const segment of set.segments) {
      const middle = (segment.x0 + segment.x1) / 2;
      if (middle >= wait.x0 && middle <= wait.x1) assert.equal(segment.label, undefined, 'no second label under the wait’s');
    }
  });

  it('draws a CronJob’s wait for its schedule up to the Job it created, and as open while none was', () => {
    const done = rowsOf(cronJobJourney());
    const jobCreated = done.rows[0].lane.object.stages.find((s) => s.kind === 'jobCreated')!;
    const [wait] = done.rows[0].waits;
    assert.ok(wait && !wait.open);
    assert.ok(Math.abs(wait.x1 - done.scale.toX(Math.min(jobCreated.time, done.rows[1].lane.object.createdAt!) - cronJobJourney().appliedAt)) < 1e-6);
    const waiting = waitingCronJobJourney();
    const pending = rowsOf(waiting, 30_000);
    assert.equal(pending.rows[0].waits[0]?.open, true);
    assert.match(pending.rows[0].waits[0]?.label ?? '', /^waited .* so far$/);
  });

  it('heads a Job with its successes and failures, not ready pods, and a CronJob with its schedule and Jobs', () => {
    assert.match(countsLine(jobJourney()), /^1\/1 succeeded · 1 failed · 2 scheduled · complete in 18\.3s$/);
    assert.match(countsLine(cronJobJourney()), /^schedule \*\/1 \* \* \* \* · 1 Job · 1 scheduled · complete in /);
    assert.match(countsLine(statefulSetJourney(2)), /^2\/2 ready · 2 scheduled · 2 running · complete in /);
  });

  it('walks the control plane of each kind: the controller that creates the pod, a Job’s failure, a DaemonSet’s eligible nodes', () => {
    const sts = statefulSetJourney(2);
    const stsSteps = controlPlaneSteps(sts, controlPlanePod(sts));
    const created = stsSteps.find((step) => step.stage.kind === 'podCreated');
    assert.equal(created?.actor, 'controllerManager');
    assert.deepEqual(created?.arrows.map((a) => a.label), ['create Pod web-0']);
    assert.equal(stsSteps.find((step) => step.stage.kind === 'waiting')?.arrows.length, 0, 'a wait sends nothing');
    const failed = failedJobJourney();
    assert.equal(controlPlanePod(failed)?.ref.name, 'pi-abcde');
    const jobFailed = controlPlaneSteps(failed, controlPlanePod(failed)).find((step) => step.object.kind === 'Job' && step.stage.kind === 'failed');
    assert.deepEqual(jobFailed?.arrows.map((a) => [a.from, a.to]), [['controllerManager', 'apiserver']]);
    const ds = daemonSetJourney(2);
    const wants = controlPlaneSteps(ds, controlPlanePod(ds)).find((step) => step.stage.kind === 'scaled');
    assert.deepEqual(wants?.arrows.map((a) => a.label), ['update daemonsets/status: Wants 2 pods, one per eligible node']);
  });
});
