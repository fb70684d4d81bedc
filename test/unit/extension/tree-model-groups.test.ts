/**
 * The Journeys view with hundreds or thousands of pods under one owner: state groups (stuck ones
 * first, with their reason), node groups and node ranges inside large states, runs of pods on one
 * node, never more than ROWS_PER_PARENT rows under a parent, and reveal of a pod inside groups.
 */
import assert from 'node:assert/strict';
import type { ObjectJourney } from '../../../src/core/journey/types';
import { CONTEXT_VALUES, JourneyTreeModel, type JourneyTreeNode, type ObjectNode } from '../../../src/extension/headless/journey-tree-model';
import { GROUP_ABOVE, ROWS_PER_PARENT, groupLayout } from '../../../src/extension/headless/pod-groups';
import { TraceSession } from '../../../src/extension/headless/trace-session';
import { REPLICA_SET, T0, iso, podObject, replicaSetObject, schedulerEvent } from '../journey/objects';

interface Mix {
  /** Ready pods, `perNode` on each of `nodes` nodes. */
  running: { nodes: number; perNode: number };
  /** Pods no node fits (FailedScheduling). */
  unschedulable?: number;
  /** Pods whose container keeps crashing, on node-1. */
  crashing?: number;
}

/** A session with one ReplicaSet journey holding the pods of `mix`, recorded as Apply and Trace records it. */
function replicaSetSession(mix: Mix): { session: TraceSession; model: JourneyTreeModel; replicaSet: ObjectNode } {
  const session = new TraceSession();
  const journeyId = session.begin({ kind: 'ReplicaSet', name: REPLICA_SET.name }, T0);
  const total = mix.running.nodes * mix.running.perNode + (mix.unschedulable ?? 0) + (mix.crashing ?? 0);
  session.ingest({ type: 'ADDED', object: replicaSetObject({ replicas: total }) }, T0 + 5);
  let n = 0;
  const at = T0 + 100;
  for (let node = 1; node <= mix.running.nodes; node++) {
    for (let i = 0; i < mix.running.perNode; i++, n++) {
      const pod = podObject({ name: `web-run-${n}`, uid: `u${n}`, created: at, nodeName: `node-${node}`, phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True', at }, { type: 'Ready', status: 'True', at: at + 2000 }], containers: [{ running: { startedAt: iso(at + 1000) }, ready: true }] });
      session.ingest({ type: 'ADDED', object: pod }, at + 3000);
    }
  }
  for (let i = 0; i < (mix.unschedulable ?? 0); i++, n++) {
    const name = `web-pending-${i}`;
    const message = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    session.ingest({ type: 'ADDED', object: podObject({ name, uid: `u${n}`, created: at, conditions: [{ type: 'PodScheduled', status: 'False', at, reason: 'Unschedulable', message }] }) }, at + 10);
    session.ingest({ type: 'ADDED', object: schedulerEvent({ about: { kind: 'Pod', name, uid: `u${n}` }, reason: 'FailedScheduling', type: 'Warning', message, at: at + 5 }) }, at + 20);
  }
  for (let i = 0; i < (mix.crashing ?? 0); i++, n++) {
    const crashed = { exitCode: 1, reason: 'Error', startedAt: iso(at + 1000), finishedAt: iso(at + 2000) };
    const pod = podObject({ name: `web-crash-${i}`, uid: `u${n}`, created: at, nodeName: 'node-1', phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True', at }], containers: [{ waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' }, lastTerminated: crashed, restartCount: 3 }] });
    session.ingest({ type: 'ADDED', object: pod }, at + 5000);
  }
  session.recordManifest({ key: 'file:///work/rs.yaml', label: 'rs.yaml', target: 'Simulator', appliedAt: T0, entries: [{ documentIndex: 0, display: 'replicaset.apps/web', kind: 'ReplicaSet', name: REPLICA_SET.name, namespace: 'default', line: 1, action: 'created', journeyId }] });
  const model = new JourneyTreeModel(session);
  const [manifest] = model.children();
  const [replicaSet] = model.children(manifest);
  assert.equal(replicaSet.type, 'object');
  return { session, model, replicaSet: replicaSet as ObjectNode };
}

function labels(model: JourneyTreeModel, nodes: readonly JourneyTreeNode[]): string[] {
  return nodes.map((node) => model.item(node)?.label ?? '?');
}

/** Every node under `node`, depth first. */
function walk(model: JourneyTreeModel, node: JourneyTreeNode): JourneyTreeNode[] {
  return model.children(node).flatMap((child) => [child, ...walk(model, child)]);
}

describe('journey tree model: pods grouped by state and node', () => {
  it(`lists up to ${GROUP_ABOVE} pods under their owner, and groups one more`, () => {
    const listed = replicaSetSession({ running: { nodes: 5, perNode: GROUP_ABOVE / 5 } });
    const pods = listed.model.children(listed.replicaSet);
    assert.equal(pods.length, GROUP_ABOVE);
    assert.ok(pods.every((node) => node.type === 'object' && node.kind === 'Pod'));

    const grouped = replicaSetSession({ running: { nodes: 5, perNode: GROUP_ABOVE / 5 }, unschedulable: 1 });
    const groups = grouped.model.children(grouped.replicaSet);
    assert.deepEqual(labels(grouped.model, groups), ['Pending · 1', `Running · ${GROUP_ABOVE}`]);
    assert.ok(groups.every((node) => grouped.model.item(node)?.contextValue === CONTEXT_VALUES.podGroup));
  });

  it('puts stuck states first with their reason, then the rest; a large state splits by node', () => {
    const { model, replicaSet } = replicaSetSession({ running: { nodes: 30, perNode: 10 }, unschedulable: 40, crashing: 5 });
    const groups = model.children(replicaSet);
    assert.deepEqual(labels(model, groups), ['Pending · 40', 'CrashLoopBackOff · 5', 'Running · 300']);
    const [pending, crashing, running] = groups.map((group) => model.item(group)!);
    assert.equal(pending.description, 'stuck: FailedScheduling');
    assert.match(pending.tooltip ?? '', /\*\*FailedScheduling\*\*: `0\/3 nodes are available: 3 Insufficient cpu\./);
    assert.deepEqual(pending.icon, { id: 'warning', color: 'list.warningForeground' });
    assert.equal(pending.collapsible, 'expanded', 'a stuck state opens by itself');
    assert.match(crashing.description ?? '', /^(stuck|failed)(: \w+)? · on 1 node$/);
    assert.equal(running.description, 'on 30 nodes');
    assert.equal(running.collapsible, 'collapsed');

    const stuckPods = model.children(groups[0]);
    assert.equal(stuckPods.length, 40);
    assert.equal(model.item(stuckPods[0])?.contextValue, CONTEXT_VALUES.unscheduledPod, 'a pod row keeps its actions inside a group');
    assert.match(model.item(stuckPods[0])?.tooltip ?? '', /FailedScheduling/);

    const byNode = model.children(groups[2]);
    assert.equal(byNode.length, 30);
    assert.deepEqual(labels(model, byNode.slice(0, 3)), ['node-1 · 10 pods', 'node-2 · 10 pods', 'node-3 · 10 pods'], 'numeric node order');
    assert.equal(labels(model, byNode)[9], 'node-10 · 10 pods');
    const onNode = model.children(byNode[0]);
    assert.equal(onNode.length, 10);
    assert.match(model.item(onNode[0])?.description ?? '', /^node-1 · Running · 1\/1 ready · 0 restarts$/);
  });

  it('reveals a pod inside its groups, every node above it known', () => {
    const { model, replicaSet } = replicaSetSession({ running: { nodes: 30, perNode: 10 }, unschedulable: 40 });
    const journeyId = replicaSet.journeyId;
    const running = model.nodeForObject(journeyId, { kind: 'Pod', namespace: 'default', name: 'web-run-123' });
    assert.ok(running, 'the pod is found');
    const chain: string[] = [];
    for (let node: JourneyTreeNode | undefined = running; node; node = model.parentOf(node)) chain.unshift(model.item(node)?.label ?? '?');
    assert.deepEqual(chain, ['rs.yaml', REPLICA_SET.name, 'Running · 300', 'node-13 · 10 pods', 'web-run-123']);

    const stuck = model.nodeForObject(journeyId, { kind: 'Pod', namespace: 'default', name: 'web-pending-7' });
    assert.equal(model.item(model.parentOf(stuck!)!)?.label, 'Pending · 40');
    assert.equal(model.nodeForObject(journeyId, { kind: 'Pod', namespace: 'default', name: 'no-such-pod' }), undefined);
  });

  it('keeps a group row when the pods inside it change, and drops an emptied state', () => {
    const { session, model, replicaSet } = replicaSetSession({ running: { nodes: 30, perNode: 10 }, unschedulable: 2 });
    const [pending, running] = model.children(replicaSet);
    const before = model.signature(running);
    const at = T0 + 60_000;
    const bound = podObject({ name: 'web-pending-0', uid: 'u300', created: T0 + 100, nodeName: 'node-31', phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True', at }, { type: 'Ready', status: 'True', at: at + 2000 }], containers: [{ running: { startedAt: iso(at + 1000) }, ready: true }] });
    session.ingest({ type: 'MODIFIED', object: bound }, at + 3000);
    const after = model.children(replicaSet);
    assert.equal(after[1], running, 'same node object for the same group');
    assert.equal(after[0], pending);
    assert.deepEqual(labels(model, after), ['Pending · 1', 'Running · 301']);
    assert.notEqual(model.signature(running), before);
    assert.equal(model.children(running).length, 31);
  });

  it(`never puts more than ${ROWS_PER_PARENT} rows under one parent: node ranges for many nodes, runs of pods on one node`, () => {
    const pod = (i: number, node?: string): ObjectJourney => ({ ref: { kind: 'Pod', namespace: 'd', name: `p${i}` }, status: 'complete', stages: [], children: [], pod: node ? { node, phase: 'Running', readyContainers: 1, totalContainers: 1, restarts: 0, containers: [], marks: {}, phases: {} } : undefined });
    const spread = Array.from({ length: 10_000 }, (_, i) => pod(i, `node-${(i % 1000) + 1}`));
    const ranges = groupLayout(spread);
    assert.equal(ranges.length, 100);
    const first = ranges[0];
    assert.ok('group' in first);
    assert.equal(first.group.label, 'node-1 – node-10');
    assert.equal(first.group.pods.length, 100);
    assert.ok(ranges.every((row) => 'group' in row && row.group.kind === 'nodes'));
    const inRange = groupLayout(first.group.pods);
    assert.equal(inRange.length, 100, 'a range of 100 pods lists them');
    assert.ok(inRange.every((row) => 'pod' in row));

    const waiting = groupLayout(Array.from({ length: 25_000 }, (_, i) => pod(i)));
    assert.deepEqual(waiting.map((row) => ('group' in row ? row.group.label : '?')), ['pods 1–10,000', 'pods 10,001–20,000', 'pods 20,001–25,000']);
    const firstRun = waiting[0];
    assert.ok('group' in firstRun);
    assert.equal(groupLayout(firstRun.group.pods).length, 100);
    assert.equal(groupLayout(spread.slice(0, ROWS_PER_PARENT)).length, ROWS_PER_PARENT);
  });

  it('every parent of a 2,000-pod owner holds at most the row limit', () => {
    const { model, replicaSet } = replicaSetSession({ running: { nodes: 400, perNode: 5 } });
    const all = [replicaSet, ...walk(model, replicaSet)];
    for (const node of all) assert.ok(model.children(node).length <= ROWS_PER_PARENT, `${model.item(node)?.label} holds ${model.children(node).length} rows`);
    assert.equal(all.filter((node) => node.type === 'object' && node.kind === 'Pod').length, 2000);
  });
});
