import assert from 'node:assert/strict';
import type { InternalStep, SchedulingCycle } from '../../../src/core/internals';
import type { KubeObject, PodCondition } from '../../../src/core/k8s';
import { VirtualClock } from '../../../src/sim/clock';
import { defaultTimings, type InternalsLog, type SimContext } from '../../../src/sim/context';
import { StoreEventRecorder } from '../../../src/sim/store/events';
import { MemoryStore } from '../../../src/sim/store/store';
import { Scheduler, type SchedulerOptions } from '../../../src/sim/scheduler/scheduler';
import { makeNode, makePod, type NodeObject, type NodeSpec, type PodObject, type PodSpecInput } from './fixtures';
import { SCORED_ROWS_KEPT, cycleVerdicts } from '../../../src/common/verdict-table';

class RecordingInternals implements InternalsLog {
  readonly recordsWatchDeliveries = false;
  readonly cycles: SchedulingCycle[] = [];
  record(step: InternalStep): void {
    if (step.type === 'schedulingCycle') this.cycles.push(step);
  }
}

function setup(options: SchedulerOptions = {}) {
  const clock = new VirtualClock({ seed: 42 });
  const internals = new RecordingInternals();
  const store = new MemoryStore({ clock, internals });
  store.create('Namespace', { metadata: { name: 'default' } });
  const events = new StoreEventRecorder(store, clock, false);
  const ctx: SimContext = { store, clock, events, internals, timings: defaultTimings };
  const scheduler = new Scheduler(ctx, options);
  scheduler.start();
  return {
    clock,
    store,
    internals,
    scheduler,
    addNode: (spec: NodeSpec) => store.create('Node', makeNode(spec)),
    addPod: (input: PodSpecInput): PodObject => {
      const { uid: _assignedByTheStore, ...metadata } = makePod(input).metadata!;
      return store.create('Pod', { ...makePod(input), metadata });
    },
    pod: (name: string) => store.read<PodObject>('Pod', 'default', name),
    run: (ms: number) => clock.advanceTo(clock.now() + ms),
    events: (reason: string) => store.list<KubeObject>('Event').items.filter((e) => e.reason === reason),
  };
}

function podScheduled(pod: PodObject): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
}

describe('Scheduler', () => {
  it('binds a pod schedulingLatency after it is queued, with condition and Scheduled event', () => {
    const t = setup();
    t.addNode({ name: 'node-1' });
    const created = t.clock.now();
    t.addPod({ name: 'web-abc12', cpu: '100m' });
    const writes: string[] = [];
    t.store.subscribe('Pod', (change) => {
      const pod = change.object as PodObject;
      writes.push(`${change.type} ${pod.spec?.nodeName ?? '-'} ${podScheduled(pod)?.status ?? '-'}`);
    });
    t.run(defaultTimings.schedulingLatency - 1);
    assert.equal(t.pod('web-abc12').spec?.nodeName, undefined);
    t.run(1);
    const pod = t.pod('web-abc12');
    assert.equal(pod.spec?.nodeName, 'node-1');
    const condition = podScheduled(pod);
    assert.equal(condition?.status, 'True');
    assert.equal(condition?.lastTransitionTime, new Date(Math.floor((created + defaultTimings.schedulingLatency) / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
    const [event] = t.events('Scheduled');
    assert.equal(event.message, 'Successfully assigned default/web-abc12 to node-1');
    assert.equal(event.type, 'Normal');
    assert.equal(event.action, 'Binding');
    assert.equal(event.reportingComponent, 'default-scheduler');
    // The binding is one write (the API server's pods/binding storage), outside field management.
    assert.deepEqual(writes, ['MODIFIED node-1 True']);
    const managers = (pod.metadata?.managedFields ?? []).map((m) => m.manager);
    assert.ok(!managers.includes('default-scheduler'), managers.join(', '));
    assert.equal(t.clock.pending(), 0, 'an idle scheduler leaves no timers');
  });

  it('places each pod on the least allocated node', () => {
    const t = setup();
    for (const name of ['a', 'b', 'c']) t.addNode({ name, cpu: '4', memory: '8Gi' });
    t.store.create('Pod', { ...makePod({ name: 'existing-a', cpu: '3', memory: '6Gi', nodeName: 'a' }), metadata: { name: 'existing-a', namespace: 'default' } });
    t.store.create('Pod', { ...makePod({ name: 'existing-b', cpu: '2', memory: '4Gi', nodeName: 'b' }), metadata: { name: 'existing-b', namespace: 'default' } });
    t.addPod({ name: 'new', cpu: '500m', memory: '1Gi' });
    t.run(100);
    assert.equal(t.pod('new').spec?.nodeName, 'c');
    const cycle = t.scheduler.lastCycle(t.pod('new').metadata!.uid!);
    assert.equal(cycle?.result, 'Scheduled');
    assert.equal(cycle?.node, 'c');
    const verdicts = cycleVerdicts(cycle ?? {});
    assert.equal(verdicts[0].node, 'c');
    assert.ok(verdicts.every((v, i, all) => i === 0 || (all[i - 1].total ?? 0) >= (v.total ?? 0)));
    const fit = verdicts[0].scores?.find((s) => s.plugin === 'NodeResourcesFit');
    assert.deepEqual(fit, { plugin: 'NodeResourcesFit', score: 87, weight: 1 });
  });

  it('reports an unschedulable pod, then schedules it once a node is added', () => {
    const t = setup();
    t.addNode({ name: 'small-1', cpu: '1' });
    t.addNode({ name: 'small-2', cpu: '1' });
    t.addNode({ name: 'small-3', cpu: '1' });
    t.addPod({ name: 'big', cpu: '2' });
    t.run(100);
    const message = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    const pending = t.pod('big');
    assert.equal(pending.spec?.nodeName, undefined);
    assert.deepEqual(
      { status: podScheduled(pending)?.status, reason: podScheduled(pending)?.reason, message: podScheduled(pending)?.message },
      { status: 'False', reason: 'Unschedulable', message },
    );
    const [failed] = t.events('FailedScheduling');
    assert.equal(failed.type, 'Warning');
    assert.equal(failed.message, message);
    assert.equal(failed.action, 'Scheduling');
    assert.equal(t.scheduler.unschedulableCount, 1);
    const cycle = t.scheduler.lastCycle(pending.metadata!.uid!);
    assert.equal(cycle?.result, 'Unschedulable');
    assert.equal(cycle?.message, message);
    assert.deepEqual(cycleVerdicts(cycle ?? {}).map((v) => v.filters.at(-1)), [1, 2, 3].map(() => ({ plugin: 'NodeResourcesFit', code: 'Unschedulable', reason: 'Insufficient cpu' })));

    t.addNode({ name: 'large', cpu: '8' });
    // The move waits out the 1 s backoff of the first attempt.
    t.run(500);
    assert.equal(t.pod('big').spec?.nodeName, undefined);
    t.run(1_000);
    const bound = t.pod('big');
    assert.equal(bound.spec?.nodeName, 'large');
    assert.equal(podScheduled(bound)?.status, 'True');
    assert.equal(t.scheduler.lastCycle(bound.metadata!.uid!)?.attempt, 2);
  });

  it('retries a parked pod after a deleted pod frees its node', () => {
    const t = setup();
    t.addNode({ name: 'only', cpu: '1' });
    t.addPod({ name: 'first', cpu: '800m' });
    t.run(100);
    t.addPod({ name: 'second', cpu: '800m' });
    t.run(100);
    assert.equal(t.pod('second').spec?.nodeName, undefined);
    t.store.delete('Pod', 'default', 'first', { gracePeriodSeconds: 0 });
    // Backoff after the first failure is 1 s.
    t.run(1_100);
    assert.equal(t.pod('second').spec?.nodeName, 'only');
  });

  it('retries an unschedulable pod after 5 minutes without any event, not before', () => {
    const t = setup();
    t.addNode({ name: 'n', cpu: '1' });
    t.addPod({ name: 'big', cpu: '2' });
    t.run(100);
    const uid = t.pod('big').metadata!.uid!;
    t.run(4 * 60_000);
    assert.equal(t.scheduler.lastCycle(uid)?.attempt, 1);
    t.run(90_000);
    assert.equal(t.scheduler.lastCycle(uid)?.attempt, 2);
    assert.equal(t.events('FailedScheduling')[0].series !== undefined, true);
  });

  it("builds a placed cycle's table only for the pods asked for, and always for a cycle that placed nothing", () => {
    const schedule = (options: SchedulerOptions) => {
      const t = setup(options);
      // More than 100 nodes: a walk then stops at 100 feasible ones, so where it starts matters.
      for (let i = 0; i < 120; i++) t.addNode({ name: `node-${i}`, cpu: '2', memory: '4Gi', labels: { tier: i % 3 === 0 ? 'fast' : 'slow' } });
      const spread = { app: 'spread' };
      for (let i = 0; i < 600; i++) {
        // Too big for the one node it names: NodeAffinity's PreFilter narrows the walk to that node.
        if (i === 11) t.addPod({ name: `named-${i}`, cpu: '3', affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-3'] }] }] } } } });
        else if (i % 4 === 0) t.addPod({ name: `fast-${i}`, cpu: '300m', nodeSelector: { tier: 'fast' } });
        else if (i % 4 === 1) t.addPod({ name: `spread-${i}`, cpu: '100m', labels: spread, topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: spread } }] });
        else t.addPod({ name: `plain-${i}`, cpu: `${100 + (i % 7) * 150}m` });
      }
      t.run(60_000);
      const nodes = t.store.list<PodObject>('Pod').items.map((pod) => `${pod.metadata!.name} ${pod.spec?.nodeName ?? '-'}`);
      return { nodes, cycles: t.internals.cycles };
    };
    const withTables = schedule({});
    const asked = schedule({ tableWhenPlaced: (pod) => pod.name.endsWith('0') });
    assert.deepEqual(asked.nodes, withTables.nodes, 'the same node for every pod, with or without its table');
    assert.ok(withTables.nodes.some((line) => line.endsWith(' -')), 'some pods fit nowhere');
    assert.equal(asked.cycles.length, withTables.cycles.length);
    for (const [i, cycle] of asked.cycles.entries()) {
      const wanted = cycle.result !== 'Scheduled' || cycle.pod.name.endsWith('0');
      assert.equal(cycle.table !== undefined, wanted, `${cycle.pod.name} attempt ${cycle.attempt}: ${cycle.result}`);
      const { table: _reference, ...counts } = withTables.cycles[i];
      const { table, ...askedCounts } = cycle;
      assert.deepEqual(askedCounts, counts);
      if (table) assert.deepEqual(cycleVerdicts(cycle), cycleVerdicts(withTables.cycles[i]));
    }
  });

  it('never over-allocates a node when scheduling many pods', () => {
    const t = setup({ verdicts: 'summary' });
    for (let i = 0; i < 20; i++) t.addNode({ name: `node-${i}`, cpu: '4', memory: '8Gi', pods: '30' });
    const random = t.clock.random;
    for (let i = 0; i < 700; i++) t.addPod({ name: `pod-${i}`, cpu: `${random.int(1, 8) * 100}m`, memory: `${random.int(1, 8) * 128}Mi` });
    t.run(60_000);
    const used = new Map<string, { cpu: number; memory: number; pods: number }>();
    let bound = 0;
    for (const pod of t.store.list<PodObject>('Pod').items) {
      const node = pod.spec?.nodeName;
      if (!node) continue;
      bound++;
      const requests = pod.spec!.containers[0].resources!.requests!;
      const entry = used.get(node) ?? { cpu: 0, memory: 0, pods: 0 };
      entry.cpu += Number.parseInt(requests.cpu, 10);
      entry.memory += Number.parseInt(requests.memory, 10);
      entry.pods++;
      used.set(node, entry);
    }
    // 80 cores for pods averaging 450m: the cluster fills up at about 175 pods.
    assert.ok(bound > 150, `only ${bound} pods bound`);
    assert.ok(bound < 700, 'the cluster should have filled up');
    for (const [node, entry] of used) {
      assert.ok(entry.cpu <= 4000, `${node} cpu ${entry.cpu}m`);
      assert.ok(entry.memory <= 8192, `${node} memory ${entry.memory}Mi`);
      assert.ok(entry.pods <= 30, `${node} pods ${entry.pods}`);
    }
    // Free room only shrinks, so a pod left pending must not fit anywhere now either.
    for (const pod of t.store.list<PodObject>('Pod').items) {
      if (pod.spec?.nodeName) continue;
      const requests = pod.spec!.containers[0].resources!.requests!;
      for (let i = 0; i < 20; i++) {
        const entry = used.get(`node-${i}`) ?? { cpu: 0, memory: 0, pods: 0 };
        const fits = entry.cpu + Number.parseInt(requests.cpu, 10) <= 4000 && entry.memory + Number.parseInt(requests.memory, 10) <= 8192 && entry.pods < 30;
        assert.ok(!fits, `${pod.metadata?.name} fits node-${i} but is pending`);
      }
    }
    assert.equal(t.scheduler.pendingCount, 700 - bound);
    assert.ok(t.internals.cycles.every((c) => c.table === undefined));
  });

  it('leaves pods for other schedulers and pods with a node alone, but counts the latter', () => {
    const t = setup();
    t.addNode({ name: 'n', cpu: '1' });
    t.addPod({ name: 'custom', schedulerName: 'my-scheduler' });
    t.addPod({ name: 'pinned', nodeName: 'n', cpu: '900m' });
    t.addPod({ name: 'mine', cpu: '200m' });
    t.run(100);
    assert.equal(t.pod('custom').spec?.nodeName, undefined);
    assert.equal(t.pod('custom').status?.conditions, undefined);
    assert.equal(t.pod('mine').spec?.nodeName, undefined);
    assert.match(podScheduled(t.pod('mine'))?.message ?? '', /^0\/1 nodes are available: 1 Insufficient cpu\./);
  });

  it('records every evaluated node with its filter verdicts', () => {
    const t = setup();
    t.addNode({ name: 'cordoned', unschedulable: true });
    t.addNode({ name: 'tainted', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
    t.addNode({ name: 'ok-1' });
    t.addNode({ name: 'ok-2' });
    t.addPod({ name: 'p', cpu: '100m' });
    t.run(100);
    const cycle = t.internals.cycles[0];
    assert.equal(cycle.totalNodes, 4);
    assert.equal(cycle.evaluatedNodes, 4);
    assert.equal(cycle.feasibleNodes, 2);
    const byNode = new Map(cycleVerdicts(cycle).map((v) => [v.node, v]));
    assert.deepEqual(byNode.get('cordoned')?.filters, [{ plugin: 'NodeUnschedulable', code: 'UnschedulableAndUnresolvable', reason: 'node(s) were unschedulable' }]);
    assert.deepEqual(byNode.get('tainted')?.filters.map((f) => f.code), ['Success', 'Success', 'UnschedulableAndUnresolvable']);
    assert.equal(byNode.get('tainted')?.filters[2].reason, 'node(s) had untolerated taint {dedicated: gpu}');
    const feasible = byNode.get('ok-1');
    assert.equal(feasible?.filters.length, 8);
    assert.deepEqual(feasible?.scores?.map((s) => [s.plugin, s.weight]), [
      ['TaintToleration', 3],
      ['NodeResourcesFit', 1],
      ['NodeResourcesBalancedAllocation', 1],
      ['ImageLocality', 1],
    ]);
    assert.equal(feasible?.total, feasible?.scores?.reduce((sum, s) => sum + s.score, 0));
  });

  it('keeps the scores of the best feasible nodes, the chosen one first, and every node’s verdict', () => {
    const t = setup();
    for (let i = 0; i < SCORED_ROWS_KEPT + 4; i++) t.addNode({ name: `n-${i}`, cpu: `${i + 1}` });
    t.addNode({ name: 'full', cpu: '100m' });
    t.addPod({ name: 'p', cpu: '500m' });
    t.run(100);
    const cycle = t.internals.cycles[0];
    const rows = cycleVerdicts(cycle);
    assert.equal(rows.length, cycle.evaluatedNodes);
    const scored = rows.filter((row) => row.total !== undefined);
    assert.equal(scored.length, SCORED_ROWS_KEPT);
    assert.equal(scored[0].node, cycle.node);
    assert.ok(scored.every((row, i) => i === 0 || (scored[i - 1].total ?? 0) >= (row.total ?? 0)));
    assert.deepEqual(rows.find((row) => row.node === 'full')?.filters.at(-1), { plugin: 'NodeResourcesFit', code: 'Unschedulable', reason: 'Insufficient cpu' });
  });

  it('takes higher-priority pods first (PrioritySort)', () => {
    const t = setup();
    t.addNode({ name: 'n', cpu: '1' });
    t.addPod({ name: 'low', cpu: '800m' });
    t.addPod({ name: 'high', cpu: '800m', priority: 1000 });
    t.run(100);
    assert.equal(t.pod('high').spec?.nodeName, 'n');
    assert.equal(t.pod('low').spec?.nodeName, undefined);
  });

  it('retries a parked pod when a node update removes the taint that kept it out', () => {
    const t = setup();
    t.addNode({ name: 'n', taints: [{ key: 'maintenance', effect: 'NoSchedule' }] });
    t.addPod({ name: 'p' });
    t.run(100);
    assert.equal(podScheduled(t.pod('p'))?.message, '0/1 nodes are available: 1 node(s) had untolerated taint {maintenance: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    // A heartbeat-style status update changes nothing the filters read: no retry.
    t.store.mutate<NodeObject>('Node', undefined, 'n', (node) => {
      (node as { status: NonNullable<NodeObject['status']> }).status = { ...node.status, conditions: [{ type: 'Ready', status: 'True' }] };
    }, { subresource: 'status' });
    t.run(10_000);
    assert.equal(t.scheduler.lastCycle(t.pod('p').metadata!.uid!)?.attempt, 1, 'no relevant event, no retry');
    t.store.mutate<NodeObject>('Node', undefined, 'n', (node) => {
      node.spec = {};
    });
    t.run(100);
    assert.equal(t.pod('p').spec?.nodeName, 'n');
  });

  it('keeps the cycles of the most recent pods only', () => {
    const t = setup({ verdictRetention: 2 });
    t.addNode({ name: 'a' });
    t.addNode({ name: 'b' });
    for (const name of ['p1', 'p2', 'p3']) t.addPod({ name });
    t.run(100);
    const cycle = (name: string) => t.scheduler.lastCycle(t.pod(name).metadata!.uid!);
    assert.equal(cycle('p1'), undefined, 'the oldest is forgotten');
    assert.equal(t.internals.cycles.length, 3, 'every attempt still reaches the internals stream');
    assert.equal(cycleVerdicts(cycle('p2') ?? {}).length, 2);
    assert.equal(cycleVerdicts(cycle('p3') ?? {}).length, 2);
    assert.equal(cycleVerdicts(t.internals.cycles[0]).length, 2, 'the recorded step itself is not changed');
  });

  it('schedules nothing after stop()', () => {
    const t = setup();
    t.addNode({ name: 'n' });
    t.scheduler.stop();
    t.addPod({ name: 'p' });
    t.run(1_000);
    assert.equal(t.pod('p').spec?.nodeName, undefined);
  });

  it('prints the 1.25–1.29 double period on request', () => {
    const t = setup({ fitErrorStyle: 'doublePeriod' });
    t.addNode({ name: 'n', cpu: '1' });
    t.addPod({ name: 'big', cpu: '2' });
    t.run(100);
    assert.equal(podScheduled(t.pod('big'))?.message, '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..');
  });

  it('says there are no nodes when the cluster has none', () => {
    const t = setup();
    t.addPod({ name: 'p' });
    t.run(100);
    assert.equal(podScheduled(t.pod('p'))?.message, 'no nodes available to schedule pods');
    assert.equal(t.events('FailedScheduling')[0].message, 'no nodes available to schedule pods');
  });
});

describe('Scheduler: SchedulingGates', () => {
  it('makes no attempt while the pod has gates, and schedules it once the last gate is removed', () => {
    const t = setup();
    t.addNode({ name: 'node-1' });
    t.addPod({ name: 'gated', schedulingGates: [{ name: 'example.com/foo' }, { name: 'example.com/bar' }] });
    t.run(60_000);
    assert.equal(t.internals.cycles.length, 0);
    assert.equal(t.events('FailedScheduling').length, 0);
    t.store.mutate<PodObject>('Pod', 'default', 'gated', (pod) => {
      pod.spec!.schedulingGates = [{ name: 'example.com/bar' }];
    });
    t.run(60_000);
    assert.equal(t.internals.cycles.length, 0, 'one gate left: still no attempt');
    t.store.mutate<PodObject>('Pod', 'default', 'gated', (pod) => {
      delete pod.spec!.schedulingGates;
    });
    t.run(1_000);
    assert.equal(t.pod('gated').spec?.nodeName, 'node-1');
  });
});

describe('Scheduler: InterPodAffinity and PodTopologySpread', () => {
  it('never places two pods of a required anti-affinity group in one zone, and reports the third as upstream does (its own terms are checked before the existing pods\' terms)', () => {
    const t = setup();
    for (const [name, zone] of [['a', 'z1'], ['b', 'z1'], ['c', 'z2']]) t.addNode({ name, labels: { 'topology.kubernetes.io/zone': zone } });
    const antiAffinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'topology.kubernetes.io/zone' }] } };
    for (const name of ['db-1', 'db-2', 'db-3']) t.addPod({ name, labels: { app: 'db' }, affinity: antiAffinity });
    t.run(5_000);
    const zones = ['db-1', 'db-2', 'db-3'].map((name) => t.pod(name).spec?.nodeName).filter((node) => node !== undefined).map((node) => (node === 'c' ? 'z2' : 'z1'));
    assert.deepEqual(zones.sort(), ['z1', 'z2']);
    const [failed] = t.events('FailedScheduling');
    assert.equal(failed.message, "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.");
  });

  it('keeps a pod whose spread constraint cannot be met Pending with the plugin\'s reason in the node table', () => {
    const t = setup();
    t.addNode({ name: 'a', labels: { zone: 'z1' } });
    t.addNode({ name: 'b' });
    t.addPod({ name: 'existing', nodeName: 'a', labels: { app: 'web' } });
    t.addPod({ name: 'web', labels: { app: 'web' }, topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, minDomains: 2 }] });
    t.run(5_000);
    assert.equal(t.pod('web').spec?.nodeName, undefined);
    const cycle = t.internals.cycles.find((c) => c.pod.name === 'web')!;
    const byNode = new Map(cycleVerdicts(cycle).map((v) => [v.node, v.filters.at(-1)]));
    assert.deepEqual(byNode.get('a'), { plugin: 'PodTopologySpread', code: 'Unschedulable', reason: "node(s) didn't match pod topology spread constraints" });
    assert.deepEqual(byNode.get('b'), { plugin: 'PodTopologySpread', code: 'UnschedulableAndUnresolvable', reason: "node(s) didn't match pod topology spread constraints (missing required label)" });
  });
});
