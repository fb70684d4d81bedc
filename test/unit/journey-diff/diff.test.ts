import assert from 'node:assert/strict';
import { diffJourneys } from '../../../src/core/journey-diff/diff';
import { matchJourneys } from '../../../src/core/journey-diff/match';
import { outcomeDelta } from '../../../src/core/journey-diff/outcome';
import { journeyPhaseStats, mergedPhaseStats, phaseChanged, phaseDelta } from '../../../src/core/journey-diff/phases';
import { placementDelta } from '../../../src/core/journey-diff/placement';
import { formatDelta, renderDiff, stageLabel } from '../../../src/core/journey-diff/render-text';
import { stageDeltas } from '../../../src/core/journey-diff/stages';
import type { DiffJourneyInput } from '../../../src/core/journey-diff/types';
import type { PhaseValues } from '../../../src/core/journey/file-summary';
import { PHASE_NAMES, type PhaseName, type StuckEntry } from '../../../src/core/journey/types';
import { journey, pod, stage, workload } from './fixtures';

function values(phase: PhaseName, list: number[]): PhaseValues {
  return Object.fromEntries(PHASE_NAMES.map((name) => [name, name === phase ? list : []])) as unknown as PhaseValues;
}

function input(tree = workload('Deployment', 'web', []), phaseValues?: PhaseValues): DiffJourneyInput {
  return { journey: journey(tree), ...(phaseValues ? { phaseValues } : {}) };
}

function stuckEntry(reason: string): StuckEntry {
  const object = { kind: 'Pod' as const, namespace: 'default', name: 'web' };
  return { ref: object, status: 'stuck', stuck: { reason, message: `${reason} message`, since: 0, lastSeen: 0, component: 'default-scheduler', object } };
}

describe('journey diff: phase statistics', () => {
  it('takes p50, p90 and max of the per-pod values, skipping pods without the phase', () => {
    const stats = journeyPhaseStats(input(undefined, values('pod_startup', [400, NaN, 100, 300, 200])), 'pod_startup');
    assert.deepEqual(stats, { pods: 4, p50: 200, p90: 400, max: 400 });
  });

  it("falls back to the journey's own statistics without values", () => {
    const withStats = { journey: journey(workload('Deployment', 'web', []), { phaseStats: { pod_startup: { count: 2, min: 1, p50: 5, p90: 9, p99: 9, max: 9 } } }) };
    assert.deepEqual(journeyPhaseStats(withStats, 'pod_startup'), { pods: 2, p50: 5, p90: 9, max: 9 });
    assert.equal(journeyPhaseStats(withStats, 'create_to_schedule'), undefined);
  });

  it("merges several journeys' pods before taking percentiles, never averaging percentiles", () => {
    const merged = mergedPhaseStats([input(undefined, values('pod_startup', [1, 2, 3])), input(undefined, values('pod_startup', [100]))], 'pod_startup');
    // Sorted 1, 2, 3, 100: the p50 is the 2nd value; averaging the journeys' p50s would give 51.
    assert.deepEqual(merged, { pods: 4, p50: 2, p90: 100, max: 100 });
  });

  it('cannot merge a journey that kept statistics but no values', () => {
    const noValues = { journey: journey(workload('Deployment', 'web', []), { phaseStats: { pod_startup: { count: 1, min: 1, p50: 1, p90: 1, p99: 1, max: 1 } } }) };
    assert.equal(mergedPhaseStats([input(undefined, values('pod_startup', [5])), noValues], 'pod_startup'), 'unknown');
  });

  it('signs the delta as B − A (positive: B is slower) and needs both sides for it', () => {
    const a = { pods: 3, p50: 100, p90: 200, max: 300 };
    const b = { pods: 6, p50: 150, p90: 150, max: 300 };
    assert.deepEqual(phaseDelta('pod_startup', a, b).delta, { p50: 50, p90: -50, max: 0 });
    assert.equal(phaseDelta('pod_startup', a, undefined).delta, undefined);
    assert.equal(phaseChanged(phaseDelta('pod_startup', a, { ...a })), false);
    assert.equal(phaseChanged(phaseDelta('pod_startup', a, { ...a, pods: 4 })), true);
    assert.equal(phaseChanged(phaseDelta('pod_startup', a, undefined)), true);
  });

  it('formats deltas with their sign, and a sub-millisecond one as ±0', () => {
    assert.deepEqual([1250, -15, 0, -0.3, 65_000].map(formatDelta), ['+1.25s', '-15ms', '±0', '±0', '+1m05s']);
  });
});

describe('journey diff: matching', () => {
  let uids = 0;
  const root = (kind: 'Deployment' | 'Service', name: string, namespace = 'default'): DiffJourneyInput => ({ journey: { ...journey(workload(kind, name, [])), root: { kind, namespace, name, uid: `uid-${(uids += 1)}` } } });

  it('matches by kind, namespace and name (never uid) and lists the rest as only in A or B', () => {
    const m = matchJourneys([root('Deployment', 'web'), root('Service', 'web'), root('Deployment', 'api', 'prod')], [root('Service', 'web'), root('Deployment', 'api', 'staging'), root('Deployment', 'web')]);
    assert.deepEqual(
      m.pairs.map((p) => `${p.root.kind}/${p.root.namespace}/${p.root.name}`),
      ['Deployment/default/web', 'Service/default/web'],
    );
    assert.deepEqual(m.onlyInA.map((e) => e.root.namespace), ['prod']);
    assert.deepEqual(m.onlyInB.map((e) => e.root.namespace), ['staging']);
  });

  it('pairs the nth journey of a root applied several times with the nth of the other trace', () => {
    const m = matchJourneys([root('Deployment', 'web'), root('Deployment', 'web')], [root('Deployment', 'web')]);
    assert.deepEqual(m.pairs.map((p) => p.occurrence), [1]);
    assert.deepEqual(m.onlyInA.map((e) => e.occurrence), [2]);
  });
});

describe('journey diff: outcome', () => {
  it('calls a new status or stuck reason a different outcome, and more ready replicas not', () => {
    const three = journey(workload('Deployment', 'web', [], { ready: 3, desired: 3 }));
    const six = journey(workload('Deployment', 'web', [], { ready: 6, desired: 6 }));
    const same = outcomeDelta(three, six);
    assert.equal(same.changed, false);
    assert.deepEqual([same.a.ready, same.b.ready, same.b.desired], [3, 6, 6]);
    const stuck = journey(workload('Deployment', 'web', [], { ready: 0, desired: 3 }), { status: 'stuck', stuckObjects: [stuckEntry('FailedScheduling')] });
    const toStuck = outcomeDelta(three, stuck);
    assert.equal(toStuck.changed, true);
    assert.equal(toStuck.b.stuck?.reason, 'FailedScheduling');
    assert.equal(toStuck.b.stuck?.object, 'Pod default/web');
    const restarting = outcomeDelta(three, journey(workload('Deployment', 'web', [], { ready: 3, desired: 3 }), { restarts: 4 }));
    assert.deepEqual([restarting.a.restarts, restarting.b.restarts, restarting.changed], [0, 4, false]);
    const otherReason = journey(workload('Deployment', 'web', []), { status: 'stuck', stuckObjects: [stuckEntry('ImagePullBackOff')] });
    assert.equal(outcomeDelta(stuck, otherReason).changed, true);
  });
});

describe('journey diff: stages seen in one trace only', () => {
  it('groups ReplicaSets by revision and the pods of an owner together, counting each stage kind and reason', () => {
    const a = workload('Deployment', 'web', [workload('ReplicaSet', 'web-aaa', [pod('web-aaa-1', 'node-1', { stages: [stage('scheduled')] })], { revision: '1' })]);
    const oldPods = ['x', 'y', 'z'].map((suffix) => pod(`web-aaa-${suffix}`, 'node-1', { status: 'deleted', stages: [stage('scheduled'), stage('killing', 'Killing')] }));
    const b = workload('Deployment', 'web', [workload('ReplicaSet', 'web-aaa', oldPods, { revision: '1' }), workload('ReplicaSet', 'web-bbb', [], { revision: '2', stages: [stage('replicaSetCreated')] })]);
    assert.deepEqual(stageDeltas(a, b), [
      { group: 'pods of ReplicaSet revision 1', kind: 'killing', reason: 'Killing', a: 0, b: 3 },
      { group: 'ReplicaSet revision 2', kind: 'replicaSetCreated', a: 0, b: 1 },
    ]);
  });

  it('tells stages of the same kind apart by reason, and labels them with the reason unless the kind says it', () => {
    const a = workload('Pod', 'web', [], { stages: [stage('failed', 'ErrImagePull'), stage('containerCreated', 'Created')] });
    const b = workload('Pod', 'web', [], { stages: [stage('failed', 'CreateContainerConfigError'), stage('containerCreated', 'Created')] });
    const deltas = stageDeltas(a, b);
    assert.deepEqual(deltas.map(stageLabel), ['failed (ErrImagePull) ×1', 'failed (CreateContainerConfigError) ×1']);
    assert.equal(stageLabel({ group: 'Pod', kind: 'containerCreated', reason: 'Created', a: 2, b: 0 }), 'containerCreated ×2');
  });
});

describe('journey diff: placement', () => {
  it("counts a Deployment's live pods per node, deleted pods left out", () => {
    const a = workload('Deployment', 'web', [workload('ReplicaSet', 'web-1', [pod('p1', 'node-1'), pod('p2', 'node-2'), pod('gone', 'node-3', { status: 'deleted' })])]);
    const b = workload('Deployment', 'web', [workload('ReplicaSet', 'web-1', [pod('p1', 'node-1'), pod('p2', 'node-1'), pod('p3', undefined, { status: 'stuck' })])]);
    assert.deepEqual(placementDelta(a, b), {
      by: 'node',
      rows: [
        { key: 'node-1', a: 1, b: 2 },
        { key: 'node-2', a: 1, b: 0 },
        { key: 'not scheduled', a: 0, b: 1 },
      ],
    });
    assert.equal(placementDelta(a, a), undefined);
  });

  it('prints the first placement rows and counts the rest, which --json keeps', () => {
    const spread = (perNode: number): DiffJourneyInput => input(workload('Deployment', 'web', [workload('ReplicaSet', 'web-1', Array.from({ length: 20 * perNode }, (_, i) => pod(`p${i}`, `node-${(i % 20) + 1}`)))]));
    const diff = diffJourneys({ label: 'a', journeys: [spread(1)] }, { label: 'b', journeys: [spread(2)] });
    assert.equal(diff.matched[0].placement?.rows.length, 20);
    const text = renderDiff(diff);
    assert.match(text, /^ {4}node-12 {2}1 → 2\n {4}… 8 more nodes differ \(--json lists every one\)$/m);
    assert.doesNotMatch(text, /node-13/);
  });

  it("compares a StatefulSet's pods by ordinal, in ordinal order", () => {
    const a = workload('StatefulSet', 'web', [pod('web-0', 'node-1'), pod('web-1', 'node-2'), pod('web-10', 'node-3')]);
    const b = workload('StatefulSet', 'web', [pod('web-0', 'node-1'), pod('web-1', 'node-3'), pod('web-2', 'node-2'), pod('web-10', 'node-1')]);
    assert.deepEqual(placementDelta(a, b), {
      by: 'ordinal',
      rows: [
        { key: 'web-1', a: 'node-2', b: 'node-3' },
        { key: 'web-2', a: '-', b: 'node-2' },
        { key: 'web-10', a: 'node-3', b: 'node-1' },
      ],
    });
  });

  it("compares a DaemonSet's pod on each node", () => {
    const a = workload('DaemonSet', 'agent', [pod('agent-a', 'node-1'), pod('agent-b', 'node-2')]);
    const b = workload('DaemonSet', 'agent', [pod('agent-c', 'node-1'), pod('agent-d', 'node-2', { status: 'stuck' }), pod('agent-e', 'node-3')]);
    assert.deepEqual(placementDelta(a, b), {
      by: 'daemon',
      rows: [
        { key: 'node-2', a: 'complete', b: 'stuck' },
        { key: 'node-3', a: '-', b: 'complete' },
      ],
    });
  });
});

describe('journey diff: the whole', () => {
  it('is the same for a trace and itself, and says "no differences"', () => {
    const side = { label: 'a.journey.json', journeys: [input(workload('Deployment', 'web', [workload('ReplicaSet', 'web-1', [pod('p', 'node-1')])]), values('pod_startup', [5, 7]))] };
    const diff = diffJourneys(side, side);
    assert.equal(diff.same, true);
    assert.equal(diff.sameOutcome, true);
    assert.match(renderDiff(diff), /^no differences/m);
  });

  it('shows restarts that changed as part of the outcome, without calling it a different one', () => {
    const calm = { label: 'a', journeys: [{ journey: journey(workload('Deployment', 'web', [])) }] };
    const restarting = { label: 'b', journeys: [{ journey: journey(workload('Deployment', 'web', []), { restarts: 4 }) }] };
    const diff = diffJourneys(calm, restarting);
    assert.equal(diff.sameOutcome, true);
    assert.equal(diff.same, false);
    assert.match(renderDiff(diff), /^ {2}restarts {3}0 → 4$/m);
  });

  it('makes a journey found in one trace only a different outcome', () => {
    const web = input(workload('Deployment', 'web', []));
    const api = input(workload('Deployment', 'api', []));
    const diff = diffJourneys({ label: 'a', journeys: [web] }, { label: 'b', journeys: [web, api] });
    assert.equal(diff.sameOutcome, false);
    assert.deepEqual(diff.onlyInB.map((e) => e.root.name), ['api']);
    const text = renderDiff(diff);
    assert.match(text, /^only in B: Deployment default\/api \[complete\]$/m);
    assert.match(text, /^outcome differs: 1 journey only in B$/m);
  });

  it('merges the phases of every journey when a trace has several, and keeps every line within the width', () => {
    const a = { label: 'a', journeys: [input(workload('Deployment', 'web', []), values('pod_startup', [100, 200])), input(workload('Deployment', 'api', []), values('pod_startup', [300]))] };
    const b = { label: 'b', journeys: [input(workload('Deployment', 'web', []), values('pod_startup', [100, 200])), input(workload('Deployment', 'api', []), values('pod_startup', [900]))] };
    const diff = diffJourneys(a, b);
    assert.deepEqual(diff.phases?.map((p) => [p.phase, p.delta?.max]), [['pod_startup', 600]]);
    for (const width of [80, 100]) for (const line of renderDiff(diff, { width }).split('\n')) assert.ok(line.length <= width, `${width}: ${line}`);
  });

  it('stacks the phase table when 5-digit pod counts would not fit one row per phase in 100 columns', () => {
    const many = (n: number, ms: number): number[] => Array.from({ length: n }, (_, i) => ms + i);
    const small = diffJourneys({ label: 'a', journeys: [input(undefined, values('pod_startup', many(3, 100)))] }, { label: 'b', journeys: [input(undefined, values('pod_startup', many(6, 100)))] });
    assert.match(renderDiff(small, { width: 100 }), /^ {2}pod_startup +3→6 /m);
    const large = diffJourneys({ label: 'a', journeys: [input(undefined, values('pod_startup', many(10_000, 100)))] }, { label: 'b', journeys: [input(undefined, values('pod_startup', many(12_000, 100)))] });
    const text = renderDiff(large, { width: 100 });
    assert.match(text, /^ {2}pod_startup +A +10000 /m);
    assert.match(text, /^ +B +12000 /m);
    for (const line of text.split('\n')) assert.ok(line.length <= 100, line);
    assert.match(renderDiff(large, { width: 120 }), /^ {2}pod_startup +10000→12000 /m);
  });

  it('colours only when asked (slower in B in yellow)', () => {
    const a = { label: 'a', journeys: [input(workload('Deployment', 'web', []), values('pod_startup', [100]))] };
    const b = { label: 'b', journeys: [input(workload('Deployment', 'web', []), values('pod_startup', [900]))] };
    const escape = '\x1b[';
    assert.ok(!renderDiff(diffJourneys(a, b)).includes(escape));
    assert.ok(renderDiff(diffJourneys(a, b), { color: true }).includes(`${escape}33m+800ms`));
  });
});
