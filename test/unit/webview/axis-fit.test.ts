import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Journey } from '../../../src/core/journey/types';
import { journeyBounds, visibleWindow } from '../../../src/webview/model/axis-fit';
import { layoutRows, type ObjectRowLayout } from '../../../src/webview/model/layout';
import { buildLanes, type LaneList } from '../../../src/webview/model/lanes';
import { createTimeScale, ticks } from '../../../src/webview/model/scale';
import { simulateJourneys } from '../../webview/journey-fixtures';

const examples = join(__dirname, '../../../examples');
const measure = (text: string): number => text.length * 7;

describe('time axis fit', function () {
  this.timeout(60_000);
  let nginx: Journey;
  let nginxLanes: LaneList;
  let stuck: Journey;
  let stuckLanes: LaneList;
  let stuckNowMs: number;
  before(() => {
    nginx = simulateJourneys(join(examples, 'nginx-deployment.yaml')).journeys[0];
    nginxLanes = buildLanes(nginx.tree, nginx.appliedAt, nginx.lastChangeAt, { showAllPods: false });
    const tooBig = simulateJourneys(join(examples, 'too-big.yaml'), { timeoutMs: 20_000 });
    stuck = tooBig.journeys[0];
    stuckNowMs = tooBig.now - stuck.appliedAt;
    stuckLanes = buildLanes(stuck.tree, stuck.appliedAt, tooBig.now, { showAllPods: false });
  });

  it('fits an ended journey to its stages, however long after its end it is looked at', () => {
    assert.equal(nginx.done, true);
    const lastStageMs = nginxLanes.extent.lastMs;
    assert.ok(lastStageMs > 1000 && lastStageMs < 30_000, `the nginx journey lasts ${lastStageMs} ms`);
    const atEnd = journeyBounds(nginx, nginxLanes.extent, lastStageMs);
    const minuteAndHalfLater = journeyBounds(nginx, nginxLanes.extent, 90_000);
    assert.deepEqual(minuteAndHalfLater, atEnd);
    assert.equal(minuteAndHalfLater.startMs, 0);
    assert.ok(minuteAndHalfLater.endMs >= lastStageMs && minuteAndHalfLater.endMs <= lastStageMs * 1.05, `axis ends at ${minuteAndHalfLater.endMs} ms for a journey of ${lastStageMs} ms`);
  });

  it('spreads an ended journey\'s marks across the axis instead of squeezing them to the left', () => {
    const scale = createTimeScale('linear', journeyBounds(nginx, nginxLanes.extent, 90_000), 200, 1200);
    const rows = layoutRows(nginxLanes, scale, nginx.appliedAt, { rowHeight: 30, scrollTop: 0, viewportHeight: 600, nowMs: 90_000, measure });
    const xs = rows.filter((row): row is ObjectRowLayout => row.type === 'object').flatMap((row) => row.marks.map((mark) => mark.x));
    assert.ok(xs.length > 10, `${xs.length} marks laid out`);
    const rightmost = Math.max(...xs);
    assert.ok(rightmost > 200 + 0.9 * 1000, `the last mark is at x ${rightmost.toFixed(0)} of 200…1200`);
    assert.ok(ticks(scale).every((tick) => tick.ms <= nginxLanes.extent.lastMs * 1.05), 'no tick beyond the journey');
  });

  it('follows the live edge while a journey runs', () => {
    const running = { ...nginx, done: false };
    const early = journeyBounds(running, nginxLanes.extent, 20_000);
    const later = journeyBounds(running, nginxLanes.extent, 30_000);
    assert.ok(early.endMs >= 20_000 && early.endMs <= 20_000 * 1.05, `axis ends at ${early.endMs} ms with now at 20 s`);
    assert.ok(later.endMs > early.endMs, 'the axis grows as now moves on');
    assert.equal(later.startMs, early.startMs);
  });

  it('keeps following now while a pod is stuck: the journey has not ended', () => {
    assert.equal(stuck.done, false);
    assert.equal(stuck.stuck, true);
    const bounds = journeyBounds(stuck, stuckLanes.extent, stuckNowMs);
    assert.ok(bounds.endMs >= stuckNowMs, `axis ends at ${bounds.endMs} ms, now is ${stuckNowMs} ms`);
    assert.ok(journeyBounds(stuck, stuckLanes.extent, stuckNowMs + 60_000).endMs > bounds.endMs);
  });

  it('starts at the earliest stage when one is stamped before the apply', () => {
    const bounds = journeyBounds(nginx, { firstMs: -800, lastMs: 4200 }, 90_000);
    assert.equal(bounds.startMs, -800);
    assert.ok(bounds.endMs >= 4200 && bounds.endMs < 4200 + 0.05 * 5000);
  });

  it('keeps a window the user chose, whatever the journey does, and fits when there is none', () => {
    const chosen = { startMs: 1000, endMs: 2000 };
    const running = journeyBounds({ ...nginx, done: false }, nginxLanes.extent, 20_000);
    const ended = journeyBounds(nginx, nginxLanes.extent, 90_000);
    assert.deepEqual(visibleWindow(chosen, running), chosen);
    assert.deepEqual(visibleWindow(chosen, ended), chosen);
    assert.deepEqual(visibleWindow(undefined, ended), ended);
    assert.deepEqual(visibleWindow({ startMs: 5, endMs: 5 }, ended), ended, 'an empty window fits instead');
  });
});
