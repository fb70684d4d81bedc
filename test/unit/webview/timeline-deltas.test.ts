import assert from 'node:assert/strict';
import type { Journey, ObjectJourney } from '../../../src/core/journey/types';
import { encodeLanes } from '../../../src/protocol/timeline-lanes';
import { isHostToWebviewMessage, journeyObjectKey, type DeltaMessage, type SnapshotMessage } from '../../../src/protocol/timeline-protocol';
import { buildSnapshot, TimelineSync } from '../../../src/protocol/timeline-sync';
import { LaneStore } from '../../../src/webview/model/lane-store';
import { buildLanes } from '../../../src/webview/model/lanes';
import { phaseRows } from '../../../src/webview/model/stats';
import { advanceJourney, buildLargeJourney } from '../../webview/journey-fixtures';

/** 300 pods on 4 nodes: some stuck (no room, and a node that cannot pull), most ready. */
const base = buildLargeJourney({ pods: 300, nodes: 4, podsPerNode: 70, brokenNode: 'node-3', detailPods: 10 });

/** Everything the lanes view reads of a journey: lane keys, notes, depths, objects' status and stages. */
function laneModel(journey: Journey, showAllPods: boolean): unknown {
  const list = buildLanes(journey.tree, journey.appliedAt, journey.lastChangeAt, { showAllPods });
  return {
    totalPods: list.totalPods,
    foldedPods: list.foldedPods,
    extent: list.extent,
    lanes: list.lanes.map((lane) =>
      lane.type === 'summary'
        ? { key: lane.key, podCount: lane.podCount, statusCounts: lane.statusCounts, times: Object.fromEntries(Object.entries(lane.times).map(([k, v]) => [k, Array.from(v)])) }
        : {
            key: lane.key,
            depth: lane.depth,
            note: lane.note,
            status: lane.object.status,
            node: lane.object.pod?.node,
            marks: lane.object.pod?.marks,
            stages: lane.object.stages.map((s) => [s.key, s.kind, s.time, s.title, s.component, s.reason, s.warning, s.count, s.lastTime]),
          },
    ),
  };
}

/** The journey with `pod` gone from its ReplicaSet, the objects above rebuilt (as the tracer does). */
function withoutPod(journey: Journey, podKey: string, version: number): Journey {
  const visit = (node: ObjectJourney): ObjectJourney => {
    const children = node.children.filter((child) => journeyObjectKey(child.ref) !== podKey).map(visit);
    return children.length !== node.children.length || children.some((c, i) => c !== node.children[i]) ? { ...node, children } : node;
  };
  return { ...journey, version, tree: visit(journey.tree!) };
}

/** The journey with a copy of its first pod under a new name appended to the ReplicaSet. */
function withNewPod(journey: Journey, name: string, version: number): Journey {
  const deployment = journey.tree!;
  const rs = deployment.children[0];
  const pod: ObjectJourney = { ...rs.children[0], ref: { ...rs.children[0].ref, name, uid: `uid-${name}` } };
  return { ...journey, version, tree: { ...deployment, children: [{ ...rs, children: [...rs.children, pod] }] } };
}

describe('timeline deltas', () => {
  it('a snapshot then deltas (changed, added and removed pods) give the lane model of the final snapshot', () => {
    const sync = new TimelineSync();
    const store = new LaneStore();
    let journey = base;
    store.applySnapshot(sync.snapshot([journey], { now: journey.lastChangeAt }));
    const removed = journeyObjectKey(base.tree!.children[0].children[7].ref);
    const steps: ((j: Journey, step: number) => Journey)[] = [
      (j, step) => advanceJourney(j, step, 20),
      (j, step) => advanceJourney(j, step, 40, 250),
      (j) => withoutPod(j, removed, j.version + 1),
      (j) => withNewPod(j, 'web-late-pod', j.version + 1),
      (j, step) => advanceJourney(j, step, 5, 0),
    ];
    const deltas: DeltaMessage[] = [];
    steps.forEach((step, i) => {
      journey = step(journey, i);
      const message = sync.next([journey], { now: journey.lastChangeAt });
      assert.equal(message.type, 'delta');
      if (message.type !== 'delta') return;
      assert.equal(isHostToWebviewMessage(message), true);
      deltas.push(message);
      assert.equal(store.applyDelta(message), 'applied');
    });
    assert.deepEqual(deltas[2].removed, [removed]);
    // Only the changed pods and the objects above them travel.
    assert.equal(deltas[0].changed.objectFlags.length, 20 + 2);
    assert.equal(deltas[2].changed.objectFlags.length, 2);

    const fresh = new LaneStore();
    fresh.applySnapshot(buildSnapshot([journey], { now: journey.lastChangeAt }));
    const viaDeltas = store.journeys()[0];
    const viaSnapshot = fresh.journeys()[0];
    assert.equal(viaDeltas.version, journey.version);
    for (const showAllPods of [false, true]) assert.deepEqual(laneModel(viaDeltas, showAllPods), laneModel(viaSnapshot, showAllPods));
    assert.deepEqual(laneModel(viaDeltas, true), laneModel(journey, true), 'the decoded lanes are the journey’s');
  });

  it('keeps the objects a delta did not change (their decoded stages are reused)', () => {
    const sync = new TimelineSync();
    const store = new LaneStore();
    store.applySnapshot(sync.snapshot([base]));
    const before = store.journeys()[0].tree!.children[0].children;
    const next = advanceJourney(base, 0, 1, 3);
    store.applyDelta(sync.next([next]) as DeltaMessage);
    const after = store.journeys()[0].tree!.children[0].children;
    assert.equal(after[2], before[2]);
    assert.notEqual(after[3], before[3]);
    assert.equal(after[3].stages.length, before[3].stages.length + 1);
  });

  it('compacts the columns of a journey whose objects were all replaced, with the same lanes', () => {
    const sync = new TimelineSync();
    const store = new LaneStore({ compactSlack: 0 });
    let journey = base;
    store.applySnapshot(sync.snapshot([journey]));
    for (let step = 0; step < 3; step++) {
      journey = advanceJourney(journey, step, 300, 0);
      assert.equal(store.applyDelta(sync.next([journey]) as DeltaMessage), 'applied');
    }
    const stored = store.find(journey.id)!;
    assert.ok(stored.heldStages <= 2 * stored.size * 20, `held ${stored.heldStages} stages for ${stored.size} objects`);
    assert.deepEqual(laneModel(store.journeys()[0], true), laneModel(journey, true));
  });

  it('asks for a resync, once, on a gap in seq or a delta for another version, and recovers with the snapshot', () => {
    const sync = new TimelineSync();
    const store = new LaneStore();
    const snapshot = sync.snapshot([base]);
    store.applySnapshot(snapshot);
    const first = sync.next([advanceJourney(base, 0, 3)]) as DeltaMessage;
    const second = sync.next([advanceJourney(advanceJourney(base, 0, 3), 1, 3)]) as DeltaMessage;
    // `first` was lost (a hidden panel): `second` leaves a gap.
    assert.equal(store.applyDelta(second), 'resync');
    assert.equal(store.lastSeq, snapshot.seq);
    assert.equal(store.applyDelta({ ...second, seq: second.seq + 1 }), 'awaitingSnapshot');
    sync.reset();
    const resent = sync.snapshot([advanceJourney(advanceJourney(base, 0, 3), 1, 3)]);
    store.applySnapshot(resent);
    assert.equal(store.lastSeq, resent.seq);
    assert.equal(store.journeys()[0].version, base.version + 2);

    const other = new LaneStore();
    other.applySnapshot(snapshot);
    assert.equal(other.applyDelta({ ...first, baseVersion: first.baseVersion - 1 }), 'resync', 'a delta for another version');
    const third = new LaneStore();
    third.applySnapshot(snapshot);
    assert.equal(third.applyDelta(first), 'applied');
  });

  it('sends a journey above partialAbovePods simplified, whole once asked', () => {
    const sync = new TimelineSync();
    const partial = sync.snapshot([base], { partialAbovePods: 100 });
    const folded = partial.lanes[0].folded;
    assert.ok(folded && folded.length === 1);
    const sent = partial.lanes[0].lanes.objectFlags.length;
    assert.equal(sent - 2 + folded[0].podCount, 300, 'every pod is sent or folded');
    const store = new LaneStore();
    store.applySnapshot(partial);
    const shown = store.journeys()[0];
    const list = buildLanes(shown.tree, shown.appliedAt, shown.lastChangeAt, { showAllPods: false, folded });
    const whole = buildLanes(base.tree, base.appliedAt, base.lastChangeAt, { showAllPods: false, simplifyAbovePods: 100 });
    const shownLanes = (lanes: typeof list.lanes): string[] => lanes.map((l) => (l.type === 'object' ? `${l.key} ${l.note ?? ''}` : l.key));
    assert.ok(whole.lanes.some((l) => l.type === 'object' && l.note === 'slowest'));
    assert.deepEqual(shownLanes(list.lanes), shownLanes(whole.lanes), 'the simplified list is the one the webview would make of the whole journey, slowest marks included');
    assert.equal(list.totalPods, 300);
    assert.deepEqual(phaseRows(shown, folded), phaseRows(base), 'the phase table counts the folded pods too');
    assert.notDeepEqual(phaseRows(shown), phaseRows(base));
    // A simplified journey has no deltas: its updates are snapshots until the user asks for all pods.
    assert.equal(sync.next([advanceJourney(base, 0, 1)], { partialAbovePods: 100 }).type, 'snapshot');
    const all = new TimelineSync().snapshot([base], { partialAbovePods: 100, wholeJourneys: new Set([base.id]) });
    assert.equal(all.lanes[0].folded, undefined);
    assert.equal(all.lanes[0].lanes.objectFlags.length, 302);
  });

  describe('guards', () => {
    const sync = new TimelineSync();
    const snapshot: SnapshotMessage = sync.snapshot([base]);
    const delta = sync.next([advanceJourney(base, 0, 2)]) as DeltaMessage;

    it('accept the snapshots and deltas the host makes', () => {
      assert.equal(isHostToWebviewMessage(snapshot), true);
      assert.equal(isHostToWebviewMessage(delta), true);
    });

    it('reject malformed deltas', () => {
      const changed = delta.changed;
      const outOfRange = changed.stageStrings.slice();
      outOfRange[0] = changed.strings.length;
      const noKind = changed.stageStrings.slice();
      noKind[1] = -1;
      const shortTimes = changed.time.slice(1);
      const badKind = encodeLanes([{ object: { ...base.tree!, ref: { ...base.tree!.ref, kind: 'Secret' as 'Pod' } }, detailed: false }]);
      const malformed: [string, unknown][] = [
        ['no seq', { ...delta, seq: undefined }],
        ['negative seq', { ...delta, seq: -2 }],
        ['fractional seq', { ...delta, seq: 1.5 }],
        ['no base version', { ...delta, baseVersion: '3' }],
        ['header of another journey', { ...delta, journey: { ...delta.journey, id: 'other' } }],
        ['header with a tree', { ...delta, journey: { ...delta.journey, tree: base.tree } }],
        ['removed keys not strings', { ...delta, removed: [1] }],
        ['no columns', { ...delta, changed: undefined }],
        ['string index out of range', { ...delta, changed: { ...changed, stageStrings: outOfRange } }],
        ['stage without a kind', { ...delta, changed: { ...changed, stageStrings: noKind } }],
        ['columns of different lengths', { ...delta, changed: { ...changed, time: shortTimes } }],
        ['plain arrays instead of typed ones', { ...delta, changed: { ...changed, time: Array.from(changed.time) } }],
        ['offsets not ascending', { ...delta, changed: { ...changed, stageStart: Int32Array.from([0, 5, 2, changed.time.length].slice(0, changed.stageStart.length)) } }],
        ['children not strings', { ...delta, changed: { ...changed, extras: changed.extras.map((e) => (e ? { ...e, children: [3] } : e)) } }],
        ['an object of a kind a journey cannot hold', { ...delta, changed: badKind }],
        ['evidence of another length', { ...delta, changed: { ...changed, evidence: [null] } }],
      ];
      for (const [what, message] of malformed) assert.equal(isHostToWebviewMessage(message), false, what);
    });
  });
});
