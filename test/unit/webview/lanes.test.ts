import assert from 'node:assert/strict';
import { buildLanes, countPods, findObject, objectKey, pathTo, type ObjectLane, type SummaryLane } from '../../../src/webview/model/lanes';
import { buildLargeJourney } from '../../webview/journey-fixtures';

// 40 pods on 4 nodes with room for 9 each: 4 unschedulable, node-2's 9 in ImagePullBackOff.
const journey = buildLargeJourney({ pods: 40, nodes: 4, podsPerNode: 9, brokenNode: 'node-2', detailPods: 2 });
const tree = journey.tree!;
const pods = tree.children[0].children;
const stuckKeys = new Set(pods.filter((p) => p.status === 'stuck').map((p) => objectKey(p.ref)));

describe('lane list', () => {
  it('has one lane per object in tree order, indented by depth', () => {
    const list = buildLanes(tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: false });
    assert.equal(list.lanes.length, 1 + 1 + 40);
    assert.equal(list.simplified, false);
    const objects = list.lanes as ObjectLane[];
    assert.deepEqual(objects.slice(0, 3).map((l) => [l.object.ref.kind, l.depth]), [['Deployment', 0], ['ReplicaSet', 1], ['Pod', 2]]);
    assert.deepEqual(objects.slice(2).map((l) => l.object.ref.name), pods.map((p) => p.ref.name));
    assert.equal(list.indexByKey.get(objectKey(pods[7].ref)), 9);
  });

  it('above the threshold keeps every stuck pod, the first and the slowest, and folds the rest into a summary', () => {
    assert.equal(stuckKeys.size, 13);
    const list = buildLanes(tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: false, simplifyAbovePods: 10, firstPods: 3, slowestPods: 2 });
    assert.equal(list.simplified, true);
    const podLanes = list.lanes.filter((l): l is ObjectLane => l.type === 'object' && l.object.ref.kind === 'Pod');
    const listed = new Set(podLanes.map((l) => l.key));
    for (const key of stuckKeys) assert.ok(listed.has(key), `stuck pod ${key} must stay visible`);
    assert.deepEqual(podLanes.slice(0, 13).map((l) => l.note), Array(13).fill('stuck'), 'stuck pods come first');
    assert.equal(podLanes.filter((l) => l.note === 'slowest').length, 2);
    assert.equal(podLanes.length, 13 + 3 + 2);
    const summary = list.lanes[list.lanes.length - 1] as SummaryLane;
    assert.equal(summary.type, 'summary');
    assert.equal(summary.podCount, 40 - 18);
    assert.equal(list.foldedPods, 22);
    assert.equal(summary.statusCounts.complete, 22);
    assert.equal(summary.times.ready.length, 22);
    assert.ok(summary.times.ready.every((v, i, a) => i === 0 || a[i - 1] <= v), 'summary times are sorted');
  });

  it('keeps the slowest pods by create → ready', () => {
    const list = buildLanes(tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: false, simplifyAbovePods: 10, firstPods: 0, slowestPods: 1 });
    const slowest = list.lanes.find((l): l is ObjectLane => l.type === 'object' && l.note === 'slowest');
    const readyTimes = pods.filter((p) => p.pod?.marks.ready !== undefined).map((p) => p.pod!.marks.ready! - p.pod!.marks.created!);
    assert.equal(slowest!.object.pod!.marks.ready! - slowest!.object.pod!.marks.created!, Math.max(...readyTimes));
  });

  it('keeps a pinned (selected) pod listed, and lists every pod when asked', () => {
    const healthy = pods.filter((p) => p.status === 'complete');
    const pinned = objectKey(healthy[healthy.length - 1].ref);
    const options = { showAllPods: false, simplifyAbovePods: 10, firstPods: 1, slowestPods: 0 };
    assert.equal(buildLanes(tree, journey.appliedAt, journey.lastChangeAt, options).indexByKey.has(pinned), false);
    assert.equal(buildLanes(tree, journey.appliedAt, journey.lastChangeAt, { ...options, pinnedKeys: new Set([pinned]) }).indexByKey.has(pinned), true);
    const all = buildLanes(tree, journey.appliedAt, journey.lastChangeAt, { ...options, showAllPods: true });
    assert.equal(all.simplified, false);
    assert.equal(all.lanes.length, 42);
  });

  it('knows the earliest and latest stage, also before the apply', () => {
    const list = buildLanes(tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: false });
    assert.equal(list.extent.firstMs, 0);
    assert.ok(list.extent.lastMs >= journey.lastChangeAt - journey.appliedAt - 1);
    const late = buildLanes(tree, journey.appliedAt + 377, journey.lastChangeAt, { showAllPods: false });
    assert.equal(late.extent.firstMs, -377, 'an apply recorded after the object was stored');
  });

  it('finds objects and their path by key', () => {
    assert.equal(countPods(tree), 40);
    assert.equal(findObject(tree, objectKey(pods[3].ref)), pods[3]);
    assert.deepEqual(pathTo(tree, objectKey(pods[3].ref)).map((o) => o.ref.kind), ['Deployment', 'ReplicaSet', 'Pod']);
    assert.equal(findObject(tree, 'Pod/default/nope'), undefined);
    assert.deepEqual(buildLanes(undefined, 0, 0, { showAllPods: false }).lanes, []);
  });
});
