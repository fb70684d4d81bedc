/**
 * The compare view's model: each file's objects as lanes from its own apply, the clusterloader2
 * phases with p50/p90/max of both sides and B − A, and what differs beyond them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { JourneyFile, SavedJourney } from '../../../src/core/journey-file/types';
import { buildCompareModel, MAX_PODS_PER_OWNER } from '../../../src/extension/headless/compare-model';
import { decodeJourneyFile } from '../../../src/extension/headless/journey-file-view';
import { isCompareHostMessage } from '../../../src/protocol/journey-compare';
import { traceJourneys } from '../journey-file/traced';

function fileOf(journeys: SavedJourney[]): JourneyFile {
  return {
    meta: { toolVersion: '0.1.0', createdAt: '2026-01-01T00:00:00.000Z', source: 'x.yaml', target: { type: 'simulator', nodes: 3, seed: 1 }, exitCode: 0, outcome: 'done', limit: 'within 300s of simulated time' },
    results: [],
    warnings: [],
    claimNotes: [],
    journeys,
    stored: [],
    unfinished: [],
    closing: [],
  };
}

/** Nearest-rank percentile, as clusterloader2 (and core/journey-diff) take it. */
function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((x, y) => x - y);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

describe('compare model: two journey files on one axis', () => {
  const a = traceJourneys('test/golden/diff-nginx-replicas/a.yaml');
  const b = traceJourneys('test/golden/diff-nginx-replicas/b.yaml');
  const model = buildCompareModel({ label: 'a.journey.json', file: fileOf(a) }, { label: 'b.journey.json', file: fileOf(b) });

  it('draws every object of each side, root first, times from its own apply', () => {
    const kinds = (side: typeof model.a) => side.lanes.map((lane) => `${lane.depth}:${lane.kind}`);
    assert.deepEqual(kinds(model.a), ['0:Deployment', '1:ReplicaSet', '2:Pod', '2:Pod', '2:Pod']);
    assert.deepEqual(kinds(model.b), ['0:Deployment', '1:ReplicaSet', ...Array(6).fill('2:Pod')]);
    assert.ok(model.a.lanes.every((lane) => lane.side === 'a') && model.b.lanes.every((lane) => lane.side === 'b'));
    const root = a[0].journey.tree!;
    assert.deepEqual(model.a.lanes[0].marks.map((mark) => mark.atMs), root.stages.map((stage) => stage.time - a[0].journey.appliedAt));
    assert.equal(model.a.lanes[0].startMs, 0, 'the root starts at its apply');
    assert.equal(model.axisEndMs, Math.max(...[...model.a.lanes, ...model.b.lanes].map((lane) => lane.endMs)));
    for (const lane of [...model.a.lanes, ...model.b.lanes]) assert.ok(lane.startMs <= lane.endMs && lane.marks.every((m) => m.atMs <= lane.endMs), lane.label);
  });

  it('tabulates the clusterloader2 phases with p50/p90/max of both sides and B − A', () => {
    assert.deepEqual(model.phases.map((row) => row.phase), ['create_to_schedule', 'schedule_to_run', 'run_to_watch', 'schedule_to_watch', 'pod_startup']);
    for (const row of model.phases) {
      assert.equal(row.podsA, 3, row.phase);
      assert.equal(row.podsB, 6, row.phase);
      const valuesA = Array.from(a[0].phaseValues![row.phase]);
      const valuesB = Array.from(b[0].phaseValues![row.phase]);
      assert.ok(Math.abs(row.a!.max - Math.max(...valuesA)) < 0.01, `${row.phase} max A`);
      assert.ok(Math.abs(row.b!.p50 - percentile(valuesB, 50)) < 0.01, `${row.phase} p50 B`);
      for (const stat of ['p50', 'p90', 'max'] as const) assert.ok(Math.abs(row.delta![stat] - (row.b![stat] - row.a![stat])) < 0.01, `${row.phase} Δ ${stat}`);
    }
    assert.deepEqual(model.notes, [], 'both complete: nothing beyond the phases');
  });

  it('says when the outcome differs (a pod that cannot be scheduled in B)', () => {
    const stuck = buildCompareModel({ label: 'a', file: fileOf(traceJourneys('test/golden/diff-node-selector/a.yaml')) }, { label: 'b', file: fileOf(traceJourneys('test/golden/diff-node-selector/b.yaml')) });
    assert.equal(stuck.notes.length, 1);
    assert.match(stuck.notes[0], /complete in A, stuck \(\w+\) in B$/);
  });

  it(`draws at most ${MAX_PODS_PER_OWNER} pods per owner and counts the rest`, () => {
    const many = traceJourneys('examples/nginx-deployment.yaml');
    const big = { ...many[0], journey: { ...many[0].journey, tree: { ...many[0].journey.tree!, children: many[0].journey.tree!.children.map((rs) => ({ ...rs, children: Array.from({ length: 30 }, (_, i) => ({ ...rs.children[0], ref: { ...rs.children[0].ref, name: `pod-${i}` } })) })) } } };
    const capped = buildCompareModel({ label: 'a', file: fileOf([big]) }, { label: 'b', file: fileOf(many) });
    assert.equal(capped.a.lanes.filter((lane) => lane.kind === 'Pod').length, MAX_PODS_PER_OWNER);
    assert.equal(capped.a.hiddenPods, 30 - MAX_PODS_PER_OWNER);
    assert.equal(capped.b.hiddenPods, 0);
  });

  it('compares the committed fixtures (3 vs 6 nginx replicas) and the message passes the webview’s check', () => {
    const read = (name: string) => decodeJourneyFile(readFileSync(`test/fixtures/journey-files/${name}`), name);
    const fixtures = buildCompareModel({ label: '3', file: read('nginx-3-replicas.journey.json') }, { label: '6', file: read('nginx-6-replicas.journey.json') });
    assert.equal(fixtures.phases.find((row) => row.phase === 'pod_startup')?.podsB, 6);
    const message = JSON.parse(JSON.stringify({ type: 'compare', model: fixtures })) as unknown;
    assert.ok(isCompareHostMessage(message));
    assert.ok(!isCompareHostMessage({ type: 'compare', model: { a: {} } }));
  });
});
