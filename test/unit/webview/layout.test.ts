import assert from 'node:assert/strict';
import { densityStrips, hitTest, layoutRows, nearestStageIndex, scrollToRow, visibleRange, type ObjectRowLayout, type SummaryRowLayout } from '../../../src/webview/model/layout';
import type { Journey } from '../../../src/core/journey/types';
import { buildLanes, objectKey, type LaneList } from '../../../src/webview/model/lanes';
import { createTimeScale, fitWindow, type TimeScale } from '../../../src/webview/model/scale';
import { buildLargeJourney } from '../../webview/journey-fixtures';

const measure = (text: string): number => text.length * 7;

describe('lanes layout', () => {
  it('computes the visible row range with overscan, clamped to the list', () => {
    assert.deepEqual(visibleRange(10_002, 30, 0, 600, 1), { first: 0, end: 21 });
    assert.deepEqual(visibleRange(10_002, 30, 150_000, 600, 1), { first: 4999, end: 5021 });
    assert.deepEqual(visibleRange(10_002, 30, 300_000, 600, 1), { first: 9999, end: 10_002 });
    assert.deepEqual(visibleRange(0, 30, 0, 600), { first: 0, end: 0 });
    assert.deepEqual(visibleRange(5, 30, 0, 0), { first: 0, end: 0 });
  });

  it('scrolls as little as needed to show a row', () => {
    assert.equal(scrollToRow(10, 30, 0, 600), 0);
    assert.equal(scrollToRow(25, 30, 0, 600), 26 * 30 - 600);
    assert.equal(scrollToRow(3, 30, 300, 600), 90);
  });

  describe('with 10,000 pods', function () {
    this.timeout(60_000);
    let journey: Journey;
    let all: LaneList;
    let scale: TimeScale;
    before(() => {
      journey = buildLargeJourney({ pods: 10_000 });
      all = buildLanes(journey.tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: true });
      scale = createTimeScale('linear', fitWindow(journey.lastChangeAt - journey.appliedAt), 300, 1200);
    });

    it('lays out only the rows in the viewport', () => {
      assert.equal(all.lanes.length, 10_002);
      const rowHeight = 30;
      const viewportHeight = 720;
      for (const scrollTop of [0, 123_456, all.lanes.length * rowHeight - viewportHeight]) {
        const rows = layoutRows(all, scale, journey.appliedAt, { rowHeight, scrollTop, viewportHeight, nowMs: journey.lastChangeAt - journey.appliedAt, measure, overscan: 1 });
        // The rows in view (one more when a row is cut at the top) plus one overscan row each way.
        assert.ok(rows.length <= Math.ceil(viewportHeight / rowHeight) + 1 + 2, `${rows.length} rows laid out at scrollTop ${scrollTop}`);
        const first = Math.floor(scrollTop / rowHeight);
        assert.ok(rows[0].index >= first - 1 && rows[0].index <= first, `first row ${rows[0].index} for scrollTop ${scrollTop}`);
        for (const row of rows) {
          assert.ok(row.y + rowHeight > -rowHeight && row.y < viewportHeight + rowHeight, `row ${row.index} at y ${row.y} is off screen`);
          assert.equal(row.y, row.index * rowHeight - scrollTop);
        }
      }
    });

    it('simplifies to a short list that still holds every stuck pod', () => {
      const simplified = buildLanes(journey.tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: false });
      assert.equal(simplified.simplified, true);
      const stuck = journey.tree!.children[0].children.filter((p) => p.status === 'stuck');
      assert.equal(stuck.length, journey.stuckCount);
      for (const pod of stuck) assert.ok(simplified.indexByKey.has(objectKey(pod.ref)));
      assert.equal(simplified.lanes.length, 2 + stuck.length + 20 + 5 + 1);
      assert.equal(simplified.foldedPods + stuck.length + 25, 10_000);
    });
  });

  describe('rows', () => {
    const journey = buildLargeJourney({ pods: 6, nodes: 3, podsPerNode: 2, brokenNode: '' });
    const list = buildLanes(journey.tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: false });
    const nowMs = journey.lastChangeAt - journey.appliedAt;

    it('places each stage at its time and labels durations only where they fit', () => {
      const scale = createTimeScale('linear', fitWindow(nowMs), 200, 1000);
      const rows = layoutRows(list, scale, journey.appliedAt, { rowHeight: 30, scrollTop: 0, viewportHeight: 600, nowMs, measure });
      const pod = rows[2] as ObjectRowLayout;
      assert.equal(pod.lane.object.ref.kind, 'Pod');
      assert.equal(pod.marks.length, pod.lane.object.stages.length);
      for (const mark of pod.marks) assert.equal(mark.x, scale.toX(pod.lane.object.stages[mark.stageIndex].time - journey.appliedAt));
      assert.equal(pod.marks.find((m) => pod.lane.object.stages[m.stageIndex].kind === 'scheduled')?.group, 'scheduler');
      for (const segment of pod.segments) {
        if (segment.label) assert.ok(measure(segment.label) + 8 <= segment.x1 - segment.x0);
        else assert.ok(measure('99ms') + 8 > segment.x1 - segment.x0 || segment.ms >= 1000);
      }
      assert.ok(pod.segments.some((s) => s.label === undefined), 'the 3 ms segments have no room for a label');
    });

    it('leaves out marks outside a zoomed window', () => {
      const scale = createTimeScale('linear', { startMs: 0, endMs: 50 }, 200, 1000);
      const rows = layoutRows(list, scale, journey.appliedAt, { rowHeight: 30, scrollTop: 0, viewportHeight: 600, nowMs, measure });
      const pod = rows[2] as ObjectRowLayout;
      assert.ok(pod.marks.length < pod.lane.object.stages.length);
      assert.ok(pod.marks.every((m) => m.x >= 192 && m.x <= 1008));
    });

    it('finds the mark under the pointer, else the row', () => {
      const scale = createTimeScale('linear', fitWindow(nowMs), 200, 1000);
      const rows = layoutRows(list, scale, journey.appliedAt, { rowHeight: 30, scrollTop: 0, viewportHeight: 600, nowMs, measure });
      const pod = rows[3] as ObjectRowLayout;
      const last = pod.marks[pod.marks.length - 1];
      assert.deepEqual(hitTest(rows, last.x + 3, pod.y + 10, 30), { index: 3, stageIndex: last.stageIndex });
      assert.deepEqual(hitTest(rows, 150, pod.y + 10, 30), { index: 3 });
      assert.equal(hitTest(rows, 150, 10_000, 30), undefined);
    });
  });

  it('buckets a summary lane by pixel and counts every folded pod once per stage', () => {
    const journey = buildLargeJourney({ pods: 300, nodes: 10, podsPerNode: 40, brokenNode: '' });
    const list = buildLanes(journey.tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: false, simplifyAbovePods: 100 });
    const summaryIndex = list.lanes.findIndex((l) => l.type === 'summary');
    const summary = list.lanes[summaryIndex];
    assert.equal(summary.type, 'summary');
    const scale = createTimeScale('linear', fitWindow(journey.lastChangeAt - journey.appliedAt), 0, 400);
    const strips = densityStrips(summary, scale, 2);
    assert.deepEqual(strips.map((s) => s.kind), ['podCreated', 'scheduled', 'running', 'ready']);
    for (const strip of strips) {
      assert.equal(strip.counts.length, 200);
      assert.equal(strip.counts.reduce((a, b) => a + b, 0), summary.podCount);
      assert.equal(strip.max, Math.max(...strip.counts));
    }
    const rows = layoutRows(list, scale, journey.appliedAt, { rowHeight: 30, scrollTop: summaryIndex * 30, viewportHeight: 30, nowMs: 0, measure, overscan: 0 });
    assert.equal(rows.length, 1);
    assert.equal((rows[0] as SummaryRowLayout).label.name, `${summary.podCount} more`);
    assert.equal((rows[0] as SummaryRowLayout).label.detail, `${summary.podCount} complete`);
  });

  it('picks the stage nearest in time', () => {
    const stages = buildLargeJourney({ pods: 1, nodes: 1 }).tree!.children[0].children[0].stages;
    assert.equal(nearestStageIndex(stages, stages[3].time + 0.1), 3);
    assert.equal(nearestStageIndex(stages, -1), 0);
    assert.equal(nearestStageIndex([], 5), undefined);
  });
});
