import assert from 'node:assert/strict';
import { PackedColumn, packedCount, packedStage, packStages, unpackStages } from '../../../src/core/journey/packed-stages';
import { makeStage, newObjectRecord, newStageRecord, NO_EVIDENCE, packRecord, stageList, stageOf, type JourneyRecord, type StageRecord } from '../../../src/core/journey/records';
import type { Stage, StageEvidence } from '../../../src/core/journey/types';

/** A time on the clock's grid, as the simulator's clock makes them (1/4096 ms steps near 2026). */
const T0 = 1_767_268_800_000;

function record(stage: Omit<Stage, 'evidence'> & { evidence?: StageEvidence }, extra: Partial<StageRecord> = {}, seq = 0): StageRecord {
  const made = newStageRecord(makeStage({ ...stage, evidence: NO_EVIDENCE }, stage.evidence ?? NO_EVIDENCE), 3, seq, extra.observedAt ?? stage.time);
  return Object.assign(made, extra);
}

/** Every optional part a stage and its record can have, and the usual plain ones. */
function podStages(offset: number, node: string, t0 = T0, layout = ''): StageRecord[] {
  const scheduling = { internals: { scheduling: { node, attempt: 1 } } } as unknown as StageEvidence;
  return [
    record({ key: `podCreated${layout}`, kind: 'podCreated', time: t0 + offset, timeSource: 'object', component: 'replicaset-controller', title: 'Created' }, { objectTime: { ms: t0, precise: false }, floatBase: t0 }, 0),
    record(
      { key: 'scheduled', kind: 'scheduled', time: t0 + offset + 12.5, timeSource: 'event', component: 'default-scheduler', title: `Scheduled to ${node}`, message: `Successfully assigned default/p to ${node}`, reason: 'Scheduled', evidence: scheduling },
      { eventTime: { ms: t0 + offset + 12.5, precise: true }, messageFrom: 'event', internalTime: t0 + offset + 12.25 },
      1,
    ),
    record(
      { key: 'pulled:app', kind: 'pulled', time: t0 + offset + 40.000244140625, timeSource: 'internal', component: 'kubelet', title: 'Pulled', message: 'Container image "nginx:1.25" already present on machine', reason: 'Pulled', container: 'app', warning: true, count: 3, lastTime: t0 + offset + 90 },
      { messageFrom: 'secondary', eventSecondary: true, appliedTime: t0 + offset + 41 },
      2,
    ),
    record({ key: 'containerStarted:app#0', kind: 'containerStarted', time: t0 + offset + 50, timeSource: 'observed', component: 'kubelet', title: 'Started', container: 'app', assumed: 'assumed to keep running (no probe)' }, { eventSecondary: false, messageFrom: 'state' }, 3),
  ];
}

/** A record as packing keeps it: every property present (a folded record may lack the undefined ones). */
function complete(r: StageRecord): StageRecord {
  return newStageRecordLike(r);
}

function newStageRecordLike(r: StageRecord): StageRecord {
  const { stage, rank, seq, objectTime, eventTime, internalTime, appliedTime, observedAt, messageFrom, eventSecondary, floatBase } = r;
  return { stage, rank, seq, objectTime, eventTime, internalTime, appliedTime, observedAt, messageFrom, eventSecondary, floatBase };
}

describe('packed stages (a folded pod kept in a few arrays)', () => {
  it('gives back every stage as it was, property for property and in the same order', () => {
    const records = podStages(1000, 'node-7');
    const packed = packStages(records, new PackedColumn());
    assert.equal(packedCount(packed), records.length);
    records.forEach((r, i) => {
      const stage = packedStage(packed, i);
      assert.deepEqual(stage, r.stage);
      assert.equal(JSON.stringify(stage), JSON.stringify(r.stage), 'the same property order, as `--json` prints it');
    });
    assert.deepEqual(unpackStages(packed), records.map(complete));
  });

  it('keeps numbers in the shared column when they fit, and in the pod otherwise (times off the 1/4096 ms grid, far apart)', () => {
    const column = new PackedColumn();
    const onGrid = packStages(podStages(0, 'node-1'), column);
    assert.ok(onGrid.column && !onGrid.numbers);
    // Small times (a test clock starting at 0) are finer than 1/4096 ms.
    const offGrid = podStages(0.1, 'node-1', 1000);
    const far = podStages(0, 'node-1');
    far[3] = record({ ...far[3].stage, time: T0 + 10 * 24 * 3600_000 }, {}, 3);
    for (const records of [offGrid, far]) {
      const packed = packStages(records, column);
      assert.ok(packed.numbers && !packed.column);
      assert.deepEqual(unpackStages(packed), records.map(complete));
    }
    // The first pod's numbers are still read right after others were appended.
    assert.deepEqual(unpackStages(onGrid), podStages(0, 'node-1').map(complete));
  });

  it('shares what pods of one template have in common and keeps what differs', () => {
    const column = new PackedColumn();
    const first = packStages(podStages(0, 'node-1', T0, '-shared'), column);
    const second = packStages(podStages(5000, 'node-2', T0, '-shared'), column);
    assert.equal(second.layout, first.layout);
    assert.equal(first.texts, undefined, 'the first pod of a layout sets its texts');
    assert.deepEqual(second.texts, [1, 'Scheduled to node-2', 2, 'Successfully assigned default/p to node-2']);
    assert.equal(packedStage(second, 1).message, 'Successfully assigned default/p to node-2');
    assert.equal(packedStage(first, 1).message, 'Successfully assigned default/p to node-1');
  });

  it('reads a packed record without unpacking it, and unpacks it for a change', () => {
    const journey = { id: 'j' } as unknown as JourneyRecord;
    const pod = newObjectRecord({ kind: 'Pod', namespace: 'default', name: 'p', uid: 'u', key: 'Pod/default/p', journey, parent: undefined, children: [], preexisting: false });
    const records = podStages(0, 'node-3');
    pod.stages = records;
    packRecord(pod);
    assert.ok(pod.packed);
    assert.deepEqual(stageOf(pod, 'scheduled'), records[1].stage);
    assert.equal(stageOf(pod, 'missing'), undefined);
    assert.deepEqual(stageList(pod), records.map((r) => r.stage));
    assert.ok(pod.packed, 'reading did not unpack');
    assert.deepEqual(pod.stages, records.map(complete));
    assert.equal(pod.packed, undefined, 'reading `stages` unpacked it');
  });
});
