/**
 * The Journeys view for StatefulSets, DaemonSets, Jobs, CronJobs and ReplicationControllers:
 * each kind's children in the order that kind gives them, its own counts in the description and
 * tooltip, and context values the tree's actions know.
 */
import assert from 'node:assert/strict';
import type { Journey } from '../../../src/core/journey/types';
import { CONTEXT_VALUES, JourneyTreeModel, type JourneyTreeNode } from '../../../src/extension/headless/journey-tree-model';
import { TraceSession } from '../../../src/extension/headless/trace-session';
import { clockTime } from '../../../src/core/explain/workloads';
import { cronJobJourney, daemonSetJourney, failedJobJourney, jobJourney, replicationControllerJourney, statefulSetJourney, waitingCronJobJourney, workloadObject } from '../journey/kind-journeys';
import { podObject, T0, type Owner } from '../journey/objects';

/** A session holding one journey, recorded as Apply and Trace records it; returns the model and the root's node. */
function treeOf(build: (into: TraceSession) => Journey): { model: TraceSession; tree: JourneyTreeModel; root: JourneyTreeNode; journey: Journey } {
  const session = new TraceSession();
  const journey = build(session);
  session.recordManifest({
    key: 'file:///work/kinds.yaml',
    label: 'kinds.yaml',
    target: 'Simulator',
    appliedAt: T0,
    entries: [{ documentIndex: 0, display: `${journey.root.kind.toLowerCase()}/${journey.root.name}`, kind: journey.root.kind, name: journey.root.name, namespace: 'default', line: 1, action: 'created', journeyId: journey.id }],
  });
  const tree = new JourneyTreeModel(session);
  const [manifest] = tree.children();
  const [root] = tree.children(manifest);
  return { model: session, tree, root, journey };
}

function labels(tree: JourneyTreeModel, nodes: readonly JourneyTreeNode[]): string[] {
  return nodes.map((n) => tree.item(n)?.label ?? '?');
}

describe('journey tree model: workload kinds beyond Deployments', () => {
  it('StatefulSet: pods in ordinal order (web-10 after web-9), the revision in the row, a statefulSet context value', () => {
    // Parallel: all pods created in the same second, so creation order cannot tell web-2 from web-10.
    const { tree, root } = treeOf((into) => statefulSetJourney(12, into, true));
    const item = tree.item(root)!;
    assert.match(item.description ?? '', /^StatefulSet · 12\/12 ready · revision web-7b9b · \d+(\.\d)? s$/);
    assert.equal(item.contextValue, CONTEXT_VALUES.statefulSet);
    assert.match(item.tooltip ?? '', /Revision `web-7b9b`/);
    assert.match(item.tooltip ?? '', /all pods ready in/);
    assert.deepEqual(labels(tree, tree.children(root)), Array.from({ length: 12 }, (_, i) => `web-${i}`));
  });

  it('DaemonSet: one row per node, the node leading the label, in node order; hundreds of nodes grouped in node ranges', () => {
    const few = treeOf((into) => daemonSetJourney(12, into));
    const rows = labels(few.tree, few.tree.children(few.root));
    assert.match(rows[0], /^node-1 · fluentd-\w+$/);
    assert.match(rows[9], /^node-10 · /, 'numeric node order');
    assert.equal(few.tree.item(few.tree.children(few.root)[0])?.description, 'Running · 1/1 ready · 0 restarts', 'the node is in the label, not repeated');

    const nodes = 210;
    const { tree, root } = treeOf((into) => daemonSetJourney(nodes, into));
    assert.match(tree.item(root)?.description ?? '', new RegExp(`^DaemonSet · ${nodes}/${nodes} ready on ${nodes} nodes · `));
    assert.equal(tree.item(root)?.contextValue, CONTEXT_VALUES.daemonSet);
    const [running] = tree.children(root);
    assert.equal(tree.item(running)?.label, `Running · ${nodes}`);
    const ranges = tree.children(running);
    assert.deepEqual(labels(tree, ranges.slice(0, 2)), ['node-1 – node-3 · 3 pods', 'node-4 – node-6 · 3 pods']);
    assert.equal(ranges.length, 70);
    assert.match(labels(tree, tree.children(ranges[0]))[0], /^node-1 · fluentd-\w+$/);
  });

  it('Job: its pods are its tries, with exit codes; the row counts successes and failures', () => {
    const { tree, root } = treeOf(jobJourney);
    const item = tree.item(root)!;
    assert.match(item.description ?? '', /^Job · 1\/1 succeeded · 1 failed · \d+(\.\d)? s$/);
    assert.equal(item.contextValue, CONTEXT_VALUES.job);
    assert.match(item.tooltip ?? '', /completions 1 · parallelism 1 · backoffLimit 4/);
    assert.match(item.tooltip ?? '', /1 succeeded · 1 failed \(1 retry of 4\) · 0 active/);
    assert.match(item.tooltip ?? '', /Job Complete in/);
    const pods = tree.children(root);
    assert.deepEqual(pods.map((p) => tree.item(p)?.description), ['try 1 · node-1 · Error (exit code 1)', 'try 2 · node-2 · Completed (exit code 0)']);
    assert.equal(tree.item(pods[0])?.icon.id, 'error');
  });

  it('Job: a failed Job names upstream’s reason', () => {
    const { tree, root } = treeOf(failedJobJourney);
    assert.equal(tree.item(root)?.description, 'Job · 0/1 succeeded · 1 failed · failed: BackoffLimitExceeded');
  });

  it('CronJob: schedule and last run in the row, its Jobs below it and their pods below them', () => {
    const { tree, root, journey } = treeOf(cronJobJourney);
    const item = tree.item(root)!;
    const lastRun = clockTime(journey.tree!.replicas!.cronJob!.lastScheduleTime!);
    assert.match(item.description ?? '', new RegExp(`^CronJob · schedule \\*/1 \\* \\* \\* \\* · last run ${lastRun} · last Job completed · `));
    assert.equal(item.contextValue, CONTEXT_VALUES.cronJob);
    assert.match(item.tooltip ?? '', /Schedule `\*\/1 \* \* \* \*` · concurrencyPolicy Allow/);
    const [job] = tree.children(root);
    assert.equal(tree.item(job)?.label, 'hello-29034242');
    assert.equal(tree.item(job)?.description, 'Job · 1/1 succeeded · completed');
    assert.equal(tree.item(job)?.contextValue, CONTEXT_VALUES.job);
    const [pod] = tree.children(job);
    assert.equal(tree.item(pod)?.description, 'try 1 · node-1 · Completed (exit code 0)');
  });

  it('CronJob: before its first run the row says the next Job is pending', () => {
    const { tree, root } = treeOf(waitingCronJobJourney);
    assert.equal(tree.item(root)?.description, 'CronJob · schedule */1 * * * * · next Job pending');
    assert.equal(tree.item(root)?.collapsible, 'none');
  });

  it('ReplicationController: reads like a ReplicaSet, with its own context value', () => {
    const { tree, root } = treeOf(replicationControllerJourney);
    assert.match(tree.item(root)?.description ?? '', /^ReplicationController · 1\/1 ready · \d+(\.\d)? s$/);
    assert.equal(tree.item(root)?.contextValue, CONTEXT_VALUES.replicationController);
    const [pod] = tree.children(root);
    assert.match(tree.item(pod)?.description ?? '', /^node-1 · Running · 1\/1 ready · 0 restarts$/);
  });

  it('reveals a pod under a CronJob’s Job', () => {
    const { tree, journey } = treeOf(cronJobJourney);
    const node = tree.nodeForObject(journey.id, { kind: 'Pod', namespace: 'default', name: 'hello-29034242-x7k2p' });
    assert.equal(node?.name, 'hello-29034242-x7k2p');
    assert.equal(tree.parentOf(node!)?.type === 'object' && (tree.parentOf(node!) as { kind: string }).kind, 'Job');
  });
});

describe('journey tree model: what the simulator assumed', () => {
  it('says in the root’s tooltip how many distinct outcomes were assumed, and for how many pods', () => {
    const { tree, root } = treeOf((into) => {
      const id = into.begin({ kind: 'ReplicationController', name: 'app' }, T0);
      const rc: Owner = { kind: 'ReplicationController', name: 'app', uid: 'rc-1' };
      const spec = { replicas: 3, selector: { app: 'app' }, template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image: 'acme/app:1.0' }] } } };
      into.ingest({ type: 'ADDED', object: workloadObject('ReplicationController', 'app', 'rc-1', spec, { replicas: 3 }) }, T0 + 5);
      for (let i = 0; i < 3; i++) {
        const pod = { kind: 'Pod', namespace: 'default', name: `app-${i}`, uid: `p${i}` };
        into.ingest({ type: 'ADDED', object: podObject({ name: pod.name, uid: pod.uid, owner: rc, nodeName: 'node-1', phase: 'Running', rv: `7${i}`, containers: [{ name: 'app', running: { startedAt: '2026-01-01T00:00:03Z' } }] }) }, T0 + 3100);
        into.ingestInternal({ type: 'assumedRunning', time: T0 + 3100, component: 'kubelet', object: pod, container: 'app', reason: 'no command', resourceVersion: `7${i}` });
      }
      return into.journey(id) as Journey;
    });
    assert.match(tree.item(root)?.tooltip ?? '', /Assuming 1 outcome the simulator cannot know, for 3 pods \(/);
    const [pod] = tree.children(root);
    assert.match(tree.item(pod)?.tooltip ?? '', /\$\(info\) app — assumed: keeps running \(no command\)/);
  });

  it('says in a pod’s tooltip what was assumed of it, naming the container (an init container is not among the listed ones), its command kept as text', () => {
    const { tree, root } = treeOf((into) => {
      const id = into.begin({ kind: 'Job', name: 'pi' }, T0);
      const job: Owner = { kind: 'Job', name: 'pi', uid: 'job-1' };
      const spec = { template: { spec: { restartPolicy: 'Never', initContainers: [{ name: 'install', image: 'busybox' }], containers: [{ name: 'pi', image: 'perl' }] } } };
      into.ingest({ type: 'ADDED', object: workloadObject('Job', 'pi', 'job-1', spec, { active: 1 }) }, T0 + 5);
      const pod = { kind: 'Pod', namespace: 'default', name: 'pi-abcde', uid: 'p1' };
      const finished = { exitCode: 0, reason: 'Completed', finishedAt: '2026-01-01T00:00:06Z' };
      into.ingest({ type: 'ADDED', object: podObject({ name: pod.name, uid: pod.uid, owner: job, nodeName: 'node-1', phase: 'Running', rv: '42', containers: [{ name: 'install', terminated: finished }, { name: 'pi', running: { startedAt: '2026-01-01T00:00:07Z' } }] }) }, T0 + 7000);
      into.ingestInternal({ type: 'assumedExit', time: T0 + 7000, component: 'kubelet', object: pod, container: 'install', exitCode: 0, runMs: 700, reason: 'command not readable by the simulator: sh -c wget http://$(hostname)/', resourceVersion: '42' });
      return into.journey(id) as Journey;
    });
    const [pod] = tree.children(root);
    const tooltip = tree.item(pod)?.tooltip ?? '';
    const assumed = tooltip.split('\n').filter((line) => line.startsWith('$(info)'));
    assert.deepEqual(assumed, ['$(info) install — assumed: exit 0 after 0.7s (command not readable by the simulator: sh -c wget http://\\$(hostname)/)']);
  });
});
