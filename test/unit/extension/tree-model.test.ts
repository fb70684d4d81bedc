import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseStream } from '../../../src/core/journey/stream';
import type { ObjectJourney } from '../../../src/core/journey/types';
import { CONTEXT_VALUES, JourneyTreeModel, podDescription, type JourneyTreeNode, type ObjectNode } from '../../../src/extension/headless/journey-tree-model';
import { TraceSession, type AppliedManifest } from '../../../src/extension/headless/trace-session';

/** A session fed with a golden stream, as the watch would feed it, with the manifest recorded as Apply and Trace records it. */
function sessionFromGolden(name: string, extraEntries: AppliedManifest['entries'] = []): { session: TraceSession; journeyId: string; feedRest: () => void } {
  const session = new TraceSession();
  const records = parseStream(readFileSync(`test/golden/${name}/stream.ndjson`, 'utf8'));
  let journeyId = '';
  let fed = 0;
  const feedUntil = (stop: number): void => {
    for (; fed < stop; fed++) {
      const record = records[fed];
      if ('begin' in record) {
        journeyId = session.begin(record.begin, record.receivedAt);
        session.recordManifest({
          key: `file:///work/${name}.yaml`,
          label: `${name}.yaml`,
          target: 'Simulator',
          appliedAt: record.receivedAt,
          entries: [{ documentIndex: 0, display: `${record.begin.kind.toLowerCase()}/${record.begin.name}`, kind: record.begin.kind, name: record.begin.name, namespace: 'default', line: 1, action: 'created', journeyId }, ...extraEntries],
        });
      } else if ('event' in record) session.ingest(record.event, record.receivedAt);
      else session.ingestInternal(record.internal);
    }
  };
  feedUntil(records.length);
  return { session, journeyId, feedRest: () => feedUntil(records.length) };
}

function labels(model: JourneyTreeModel, nodes: JourneyTreeNode[]): string[] {
  return nodes.map((n) => model.item(n)?.label ?? '?');
}

describe('journey tree model', () => {
  it('builds applied manifest → Deployment → ReplicaSet → Pods', () => {
    const { session } = sessionFromGolden('nginx-deployment');
    const model = new JourneyTreeModel(session);
    const [manifest] = model.children();
    assert.equal(manifest.type, 'manifest');
    assert.deepEqual(labels(model, [manifest]), ['nginx-deployment.yaml']);
    const [deployment] = model.children(manifest);
    assert.equal(model.item(deployment)?.label, 'web');
    assert.match(model.item(deployment)?.description ?? '', /^Deployment · 3\/3 ready · \d+\.\d s$/);
    const [replicaSet] = model.children(deployment);
    assert.match(model.item(replicaSet)?.label ?? '', /^web-5d567cc74c$/);
    const pods = model.children(replicaSet);
    assert.equal(pods.length, 3);
    for (const pod of pods) {
      const item = model.item(pod)!;
      assert.match(item.description ?? '', /^node-\d · Running · 1\/1 ready · 0 restarts$/);
      assert.deepEqual(item.icon, { id: 'pass-filled', color: 'testing.iconPassed' });
      assert.equal(item.contextValue, CONTEXT_VALUES.pod);
    }
  });

  it('hands out one node instance per id, and knows each node\'s parent', () => {
    const { session } = sessionFromGolden('nginx-deployment');
    const model = new JourneyTreeModel(session);
    const [manifest] = model.children();
    const [deployment] = model.children(manifest);
    assert.equal(model.children(manifest)[0], deployment);
    const [replicaSet] = model.children(deployment);
    const [pod] = model.children(replicaSet);
    assert.equal(model.parentOf(pod), replicaSet);
    assert.equal(model.parentOf(replicaSet), deployment);
    assert.equal(model.parentOf(deployment), manifest);
    assert.equal(model.parentOf(manifest), undefined);
  });

  it('marks a pod the scheduler could not place, with its message in the tooltip', () => {
    const { session } = sessionFromGolden('unschedulable');
    const model = new JourneyTreeModel(session);
    const [deployment] = model.children(model.children()[0]);
    assert.deepEqual(model.item(deployment)?.icon, { id: 'warning', color: 'list.warningForeground' });
    const [pod] = model.children(model.children(deployment)[0]);
    const item = model.item(pod)!;
    assert.equal(item.contextValue, CONTEXT_VALUES.unscheduledPod);
    assert.match(item.description ?? '', /^not scheduled · Pending · 0\/1 ready/);
    assert.match(item.tooltip ?? '', /FailedScheduling\*\*.*default-scheduler/);
    assert.ok(item.tooltip?.includes('`0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..`'), item.tooltip);
  });

  it('shows a pod in CrashLoopBackOff by its container reason, with restarts', () => {
    const { session } = sessionFromGolden('crash-loop-backoff');
    const model = new JourneyTreeModel(session);
    const [deployment] = model.children(model.children()[0]);
    const pods = model.children(model.children(deployment)[0]);
    const descriptions = pods.map((p) => model.item(p)?.description ?? '');
    assert.ok(descriptions.some((d) => /CrashLoopBackOff · 0\/1 ready · [1-9]\d* restarts?/.test(d)), descriptions.join('\n'));
  });

  it('lists documents without a journey as applied entries, errors included', () => {
    const { session } = sessionFromGolden('nginx-deployment', [
      { documentIndex: 1, display: 'service/web', kind: 'Service', name: 'web', line: 24, action: 'unchanged' },
      { documentIndex: 2, display: 'configmap/bad', kind: 'ConfigMap', name: 'bad', line: 40, error: 'ConfigMap "bad" is invalid: data[x y]: Invalid value' },
    ]);
    const model = new JourneyTreeModel(session);
    const [manifest] = model.children();
    const [, service, bad] = model.children(manifest);
    assert.deepEqual([model.item(service)?.label, model.item(service)?.description], ['service/web', 'unchanged']);
    assert.deepEqual(model.item(bad)?.icon, { id: 'error', color: 'list.errorForeground' });
    assert.match(model.item(manifest)?.description ?? '', /Simulator · \d\d:\d\d:\d\d · 1 failed/);
  });

  it('changes the signature of exactly the nodes that changed', () => {
    const session = new TraceSession();
    const records = parseStream(readFileSync('test/golden/nginx-deployment/stream.ndjson', 'utf8'));
    const model = new JourneyTreeModel(session);
    let journeyId = '';
    const signatures = new Map<string, string>();
    let checked = 0;
    let ownChanges = 0;
    for (const record of records) {
      if ('begin' in record) {
        journeyId = session.begin(record.begin, record.receivedAt);
        session.recordManifest({ key: 'k', label: 'm.yaml', target: 'Simulator', appliedAt: record.receivedAt, entries: [{ documentIndex: 0, display: 'deployment.apps/web', kind: 'Deployment', name: 'web', line: 1, journeyId }] });
        continue;
      }
      if (!('event' in record)) continue;
      const walk = (node: JourneyTreeNode): JourneyTreeNode[] => [node, ...model.children(node).flatMap(walk)];
      const before = new Map([...signatures]);
      session.ingest(record.event, record.receivedAt);
      const nodes = model.children().flatMap(walk);
      for (const node of nodes) signatures.set(node.id, model.signature(node));
      const object = record.event.object;
      if (object.kind !== 'Pod' || !before.size) continue;
      const podNode = nodes.find((n): n is ObjectNode => n.type === 'object' && n.name === object.metadata?.name);
      const otherPods = nodes.filter((n): n is ObjectNode => n.type === 'object' && n.kind === 'Pod' && n !== podNode && before.has(n.id));
      // A pod's own update never changes its sibling pods.
      for (const other of otherPods) assert.equal(signatures.get(other.id), before.get(other.id), `${other.name} changed when ${object.metadata?.name} did`);
      checked++;
      if (podNode && before.has(podNode.id) && before.get(podNode.id) !== signatures.get(podNode.id)) ownChanges++;
    }
    assert.ok(checked > 5, `only ${checked} pod updates checked`);
    assert.ok(ownChanges >= 3, `the updated pod's own signature changed only ${ownChanges} times`);
  });

  it('describes a pod as node · status · ready containers · restarts', () => {
    const object: ObjectJourney = {
      ref: { kind: 'Pod', namespace: 'd', name: 'p' },
      status: 'stuck',
      stages: [],
      children: [],
      pod: { node: 'node-2', phase: 'Pending', readyContainers: 0, totalContainers: 2, restarts: 0, containers: [{ name: 'a', state: 'ImagePullBackOff', ready: false, restarts: 0 }, { name: 'b', state: 'Running', ready: true, restarts: 0 }], marks: {}, phases: {} },
    };
    assert.equal(podDescription(object), 'node-2 · ImagePullBackOff · 0/2 ready · 0 restarts');
  });

  it('shows Terminating for a pod whose deletion was requested, and Deleted once it is gone, as kubectl does', () => {
    const stage = (kind: 'terminating' | 'deleted', time: number): ObjectJourney['stages'][number] => ({ key: kind, kind, time, timeSource: 'observed', component: 'kubelet', title: kind, evidence: {} });
    const pod: ObjectJourney['pod'] = { node: 'node-1', phase: 'Running', readyContainers: 1, totalContainers: 1, restarts: 0, containers: [{ name: 'web', state: 'Running', ready: true, restarts: 0 }], marks: {}, phases: {} };
    const terminating: ObjectJourney = { ref: { kind: 'Pod', namespace: 'd', name: 'p' }, status: 'deleted', stages: [stage('terminating', 1)], children: [], pod };
    assert.equal(podDescription(terminating), 'node-1 · Terminating · 1/1 ready · 0 restarts');
    assert.equal(podDescription({ ...terminating, stages: [stage('terminating', 1), stage('deleted', 2)] }), 'node-1 · Deleted · 1/1 ready · 0 restarts');
  });

  it('finds the node of an object for revealing it', () => {
    const { session, journeyId } = sessionFromGolden('nginx-deployment');
    const model = new JourneyTreeModel(session);
    const tree = session.journey(journeyId)!.tree!;
    const pod = tree.children[0].children[1];
    const node = model.nodeForObject(journeyId, pod.ref);
    assert.equal(node?.name, pod.ref.name);
    assert.equal(model.parentOf(node!)?.type, 'object');
    assert.equal(model.parentOf(model.parentOf(model.parentOf(node!)!)!)?.type, 'manifest');
  });
});
