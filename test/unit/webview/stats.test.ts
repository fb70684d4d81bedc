import assert from 'node:assert/strict';
import { countsLine, durationStatsOf, phaseRows, statsCells } from '../../../src/webview/model/stats';
import { buildLargeJourney } from '../../webview/journey-fixtures';

describe('phase statistics', () => {
  it('uses nearest-rank percentiles like the tracer', () => {
    assert.deepEqual(durationStatsOf([5, 1, 4, 2, 3, Number.NaN]), { count: 5, min: 1, p50: 3, p90: 5, p99: 5, max: 5 });
    assert.equal(durationStatsOf([]), undefined);
  });

  it('shows create → scheduled → running → ready and create → ready across the pods', () => {
    const journey = buildLargeJourney({ pods: 30, nodes: 3, podsPerNode: 9, brokenNode: '' });
    const rows = phaseRows(journey);
    assert.deepEqual(rows.map((r) => r.label), ['create → scheduled', 'scheduled → running', 'running → ready', 'create → ready']);
    assert.equal(rows[0].stats, journey.phaseStats.create_to_schedule);
    assert.equal(rows[3].stats, journey.phaseStats.create_to_ready);
    const pods = journey.tree!.children[0].children.filter((p) => p.pod?.marks.ready !== undefined);
    const runToReady = pods.map((p) => p.pod!.marks.ready! - p.pod!.marks.running!);
    assert.deepEqual(rows[2].stats, durationStatsOf(runToReady));
    assert.equal(rows[2].stats!.count, 27);
    assert.deepEqual(statsCells(undefined), { count: '0', p50: '—', p90: '—', max: '—' });
    assert.deepEqual(statsCells({ count: 3, min: 15, p50: 15, p90: 1500, p99: 1500, max: 65_000 }), { count: '3', p50: '15ms', p90: '1.50s', max: '1m05s' });
  });

  it('summarises counts with thousands separators', () => {
    const journey = buildLargeJourney({ pods: 1200, nodes: 12, podsPerNode: 99, brokenNode: 'node-3' });
    assert.equal(countsLine(journey), `${journey.counts.ready.toLocaleString('en-US')}/1,200 ready · 1,188 scheduled · ${journey.counts.running.toLocaleString('en-US')} running · ${journey.stuckCount} stuck`);
  });
});
