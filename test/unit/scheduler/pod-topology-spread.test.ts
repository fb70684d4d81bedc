/**
 * PodTopologySpread against upstream's table-driven cases (podtopologyspread/filtering_test.go
 * `TestPreFilterState`, `TestSingleConstraint`, `TestMultipleConstraints`; scoring_test.go
 * `TestPodTopologySpreadScore`), on the same four nodes: node-a and node-b in zone1, node-x and
 * node-y in zone2, each also labelled `node=<name>`.
 */
import assert from 'node:assert/strict';
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { SchedulingAlgorithm } from '../../../src/sim/scheduler/framework';
import { compileSelector } from '../../../src/sim/scheduler/label-selector';
import type { NodeCache } from '../../../src/sim/scheduler/node-cache';
import {
  ERR_REASON_CONSTRAINTS_NOT_MATCH,
  ERR_REASON_NODE_LABEL_NOT_MATCH,
  filterPodTopologySpread,
  normalizePodTopologySpread,
  preFilterPodTopologySpread,
  preScorePodTopologySpread,
  scorePodTopologySpread,
  scorePodTopologySpreadRows,
  addWeightedPodTopologySpread,
} from '../../../src/sim/scheduler/plugins/pod-topology-spread';
import { namespaces, podMatcher, type PodMatcher } from '../../../src/sim/scheduler/pod-matcher';
import { cacheWith, info, makeNode, nodeOf, type NodeSpec, type PodSpecInput } from './fixtures';

const FOUR_NODES: NodeSpec[] = [
  { name: 'node-a', labels: { zone: 'zone1', node: 'node-a' } },
  { name: 'node-b', labels: { zone: 'zone1', node: 'node-b' } },
  { name: 'node-x', labels: { zone: 'zone2', node: 'node-x' } },
  { name: 'node-y', labels: { zone: 'zone2', node: 'node-y' } },
];

const FOO_EXISTS = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };

function hard(maxSkew: number, topologyKey: string, extra: Partial<TopologySpreadConstraint> = {}): TopologySpreadConstraint {
  return { maxSkew, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: FOO_EXISTS, ...extra };
}

function soft(maxSkew: number, topologyKey: string): TopologySpreadConstraint {
  return { maxSkew, topologyKey, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: FOO_EXISTS };
}

/** Pods labelled foo on the nodes named, e.g. `{ 'node-a': 2, 'node-y': 1 }`. */
function fooPods(perNode: Record<string, number>, namespace = 'default'): PodSpecInput[] {
  const pods: PodSpecInput[] = [];
  for (const [nodeName, count] of Object.entries(perNode)) {
    for (let i = 1; i <= count; i++) pods.push({ name: `p-${nodeName.slice(5)}${i}-${namespace}`, nodeName, namespace, labels: { foo: '' } });
  }
  return pods;
}

function incoming(constraints: TopologySpreadConstraint[], labels: Record<string, string> = { foo: '' }) {
  return info({ name: 'p', labels, topologySpreadConstraints: constraints });
}

/** Each node's filter outcome: 'fits', or the failure's code. */
function verdicts(cache: NodeCache, constraints: TopologySpreadConstraint[]): Record<string, string> {
  const state = preFilterPodTopologySpread(incoming(constraints), cache);
  assert.ok(state, 'a DoNotSchedule constraint gives a PreFilter state');
  const out: Record<string, string> = {};
  for (const node of cache.nodes) out[node.name] = filterPodTopologySpread(state, node)?.code ?? 'fits';
  return out;
}

describe('PodTopologySpread', () => {
  describe('PreFilter (TestPreFilterState)', () => {
    it('"normal case with one spreadConstraint": zone1 3, zone2 2, global minimum 2', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2, 'node-b': 1, 'node-y': 2 }));
      const state = preFilterPodTopologySpread(incoming([hard(1, 'zone')]), cache)!;
      const zone = state.domains[0];
      assert.deepEqual(Object.fromEntries(zone.values.map((value, i) => [value, state.matchNum[0][i]])), { zone1: 3, zone2: 2 });
      assert.equal(state.minMatchNum[0], 2);
    });

    it('"namespace mismatch doesn\'t count"', () => {
      const cache = cacheWith(FOUR_NODES, [...fooPods({ 'node-a': 1, 'node-b': 1, 'node-y': 1 }), ...fooPods({ 'node-a': 1 }, 'ns1'), ...fooPods({ 'node-y': 1 }, 'ns2')]);
      const state = preFilterPodTopologySpread(incoming([hard(1, 'zone')]), cache)!;
      assert.deepEqual([...state.matchNum[0]], [2, 1]);
      assert.equal(state.minMatchNum[0], 1);
    });

    it('"soft spreadConstraints should be bypassed" and a pod without constraints skips', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2 }));
      const state = preFilterPodTopologySpread(incoming([soft(1, 'zone'), hard(1, 'zone'), soft(1, 'node'), hard(1, 'node')]), cache)!;
      assert.equal(state.constraints.length, 2);
      assert.equal(preFilterPodTopologySpread(incoming([soft(1, 'zone')]), cache), undefined);
      assert.equal(preFilterPodTopologySpread(info({ name: 'plain' }), cache), undefined);
    });

    it('"normal case with null label selector" counts no pod', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2, 'node-y': 2 }));
      const state = preFilterPodTopologySpread(incoming([{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }]), cache)!;
      assert.deepEqual([...state.matchNum[0]], [0, 0]);
    });

    it('does not count terminating pods (countPodsMatchSelector, #87621)', () => {
      const cache = cacheWith(FOUR_NODES, [...fooPods({ 'node-a': 1 }), { name: 'leaving', nodeName: 'node-x', labels: { foo: '' }, terminating: true }]);
      const state = preFilterPodTopologySpread(incoming([hard(1, 'zone')]), cache)!;
      assert.deepEqual([...state.matchNum[0]], [1, 0]);
    });
  });

  describe('Filter (TestSingleConstraint)', () => {
    it('"no existing pods": all nodes fit', () => {
      assert.deepEqual(verdicts(cacheWith(FOUR_NODES), [hard(1, 'zone')]), { 'node-a': 'fits', 'node-b': 'fits', 'node-x': 'fits', 'node-y': 'fits' });
    });

    it('"existing pods in a different namespace do not count"', () => {
      const cache = cacheWith(FOUR_NODES, [...fooPods({ 'node-a': 1 }, 'ns1'), ...fooPods({ 'node-a': 1 }, 'ns2'), ...fooPods({ 'node-x': 1, 'node-y': 1 })]);
      assert.deepEqual(verdicts(cache, [hard(1, 'zone')]), { 'node-a': 'fits', 'node-b': 'fits', 'node-x': 'Unschedulable', 'node-y': 'Unschedulable' });
    });

    it('"pods spread across zones as 3/3, all nodes fit"', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2, 'node-b': 1, 'node-y': 3 }));
      assert.deepEqual(verdicts(cache, [hard(1, 'zone')]), { 'node-a': 'fits', 'node-b': 'fits', 'node-x': 'fits', 'node-y': 'fits' });
    });

    it('"pod cannot be scheduled as all nodes don\'t have label \'rack\'"', () => {
      const cache = cacheWith(FOUR_NODES);
      const state = preFilterPodTopologySpread(incoming([hard(1, 'rack')]), cache)!;
      for (const node of cache.nodes) assert.deepEqual(filterPodTopologySpread(state, node)?.reasons, [ERR_REASON_NODE_LABEL_NOT_MATCH]);
      assert.equal(filterPodTopologySpread(state, nodeOf(cache, 'node-a'))?.code, 'UnschedulableAndUnresolvable');
    });

    it('"pods spread across nodes as 2/1/0/3, only node-x fits"', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2, 'node-b': 1, 'node-y': 3 }));
      assert.deepEqual(verdicts(cache, [hard(1, 'node')]), { 'node-a': 'Unschedulable', 'node-b': 'Unschedulable', 'node-x': 'fits', 'node-y': 'Unschedulable' });
    });

    it('"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit"', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2, 'node-b': 1, 'node-y': 3 }));
      assert.deepEqual(verdicts(cache, [hard(2, 'node')]), { 'node-a': 'Unschedulable', 'node-b': 'fits', 'node-x': 'fits', 'node-y': 'Unschedulable' });
    });

    it('"incoming pod doesn\'t match itself": the skew counts no +1', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 1 }));
      const state = preFilterPodTopologySpread(info({ name: 'p', labels: { bar: '' }, topologySpreadConstraints: [hard(1, 'node')] }), cache)!;
      assert.equal(filterPodTopologySpread(state, nodeOf(cache, 'node-a')), null);
    });

    it('minDomains above the number of domains makes the global minimum 0', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 1, 'node-x': 1 }));
      assert.deepEqual(verdicts(cache, [hard(1, 'zone')]), { 'node-a': 'fits', 'node-b': 'fits', 'node-x': 'fits', 'node-y': 'fits' });
      assert.deepEqual(verdicts(cache, [hard(1, 'zone', { minDomains: 3 })]), { 'node-a': 'Unschedulable', 'node-b': 'Unschedulable', 'node-x': 'Unschedulable', 'node-y': 'Unschedulable' });
    });

    it('nodeAffinityPolicy Honor leaves nodes the pod cannot use out of the minimum; Ignore counts them', () => {
      // The pod may only go to zone1; zone2 has no matching pod, zone1 has one.
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 1 }));
      const pod = (policy: 'Honor' | 'Ignore') => info({ name: 'p', labels: { foo: '' }, nodeSelector: { zone: 'zone1' }, topologySpreadConstraints: [hard(1, 'zone', { nodeAffinityPolicy: policy })] });
      const honor = preFilterPodTopologySpread(pod('Honor'), cache)!;
      assert.equal(filterPodTopologySpread(honor, nodeOf(cache, 'node-b')), null);
      const ignore = preFilterPodTopologySpread(pod('Ignore'), cache)!;
      assert.deepEqual(filterPodTopologySpread(ignore, nodeOf(cache, 'node-b'))?.reasons, [ERR_REASON_CONSTRAINTS_NOT_MATCH]);
    });

    it('nodeTaintsPolicy Honor leaves tainted nodes out of the minimum', () => {
      const nodes: NodeSpec[] = [FOUR_NODES[0], FOUR_NODES[1], { ...FOUR_NODES[2], taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }, { ...FOUR_NODES[3], taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }];
      const cache = cacheWith(nodes, fooPods({ 'node-a': 1 }));
      const state = preFilterPodTopologySpread(incoming([hard(1, 'zone', { nodeTaintsPolicy: 'Honor' })]), cache)!;
      assert.equal(filterPodTopologySpread(state, nodeOf(cache, 'node-b')), null);
      assert.equal(state.minMatchNum[0], 1);
    });

    it('matchLabelKeys adds the pod\'s own label values to the selector', () => {
      const cache = cacheWith(FOUR_NODES, [
        { name: 'old-1', nodeName: 'node-a', labels: { foo: '', 'pod-template-hash': 'old' } },
        { name: 'old-2', nodeName: 'node-a', labels: { foo: '', 'pod-template-hash': 'old' } },
      ]);
      const constraint = hard(1, 'node', { matchLabelKeys: ['pod-template-hash'] });
      const state = preFilterPodTopologySpread(incoming([constraint], { foo: '', 'pod-template-hash': 'new' }), cache)!;
      assert.equal(filterPodTopologySpread(state, nodeOf(cache, 'node-a')), null, 'the other revision\'s pods do not count');
      const without = preFilterPodTopologySpread(incoming([hard(1, 'node')], { foo: '', 'pod-template-hash': 'new' }), cache)!;
      assert.equal(filterPodTopologySpread(without, nodeOf(cache, 'node-a'))?.code, 'Unschedulable');
    });
  });

  it('follows a node relabelled into another zone, and a pod removed from a node', () => {
    const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 1, 'node-x': 1 }));
    const before = preFilterPodTopologySpread(incoming([hard(1, 'zone')]), cache)!;
    assert.deepEqual([...before.matchNum[0]], [1, 1]);
    cache.updateNode(makeNode({ name: 'node-x', labels: { zone: 'zone1', node: 'node-x' } }));
    const relabelled = preFilterPodTopologySpread(incoming([hard(1, 'zone')]), cache)!;
    assert.deepEqual([...relabelled.matchNum[0]], [2, 0], 'node-x now counts in zone1');
    cache.removePod(nodeOf(cache, 'node-a').pods.keys().next().value!);
    const removed = preFilterPodTopologySpread(incoming([hard(1, 'zone')]), cache)!;
    assert.deepEqual([...removed.matchNum[0]], [1, 0]);
  });

  describe('Filter (TestMultipleConstraints)', () => {
    it('"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]": only node-x fits', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2, 'node-b': 1, 'node-y': 3 }));
      assert.deepEqual(verdicts(cache, [hard(1, 'zone'), hard(1, 'node')]), { 'node-a': 'Unschedulable', 'node-b': 'Unschedulable', 'node-x': 'fits', 'node-y': 'Unschedulable' });
    });
  });

  describe('Score (TestPodTopologySpreadScore)', () => {
    function scores(cache: NodeCache, pod: ReturnType<typeof info>, feasible: string[], defaultSelector?: ReturnType<typeof compileSelector>): Record<string, number> {
      const rows = Int32Array.from(feasible.map((name) => nodeOf(cache, name).index));
      const state = preScorePodTopologySpread(pod, cache, rows, rows.length, () => defaultSelector);
      assert.ok(state);
      const raw = Float64Array.from(rows, (row) => scorePodTopologySpread(state, row));
      const batch = new Float64Array(rows.length);
      scorePodTopologySpreadRows(state, rows, rows.length, batch);
      assert.deepEqual(batch, raw, 'the scheduler\'s batch scoring gives the per-node scores');
      normalizePodTopologySpread(raw, raw.length);
      const weighted = new Float64Array(rows.length).fill(1);
      addWeightedPodTopologySpread(state, rows, rows.length, 2, new Float64Array(rows.length), weighted);
      assert.deepEqual(weighted, raw.map((score) => 1 + 2 * score), 'the summary path adds the same normalised scores, weighted');
      return Object.fromEntries(feasible.map((name, i) => [name, raw[i]]));
    }

    it('"one constraint on node, all 4 nodes have the same number of matching pods": 100 each', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 1, 'node-b': 1, 'node-x': 1, 'node-y': 1 }));
      assert.deepEqual(scores(cache, incoming([soft(1, 'node')]), ['node-a', 'node-b', 'node-x', 'node-y']), { 'node-a': 100, 'node-b': 100, 'node-x': 100, 'node-y': 100 });
    });

    it('"one constraint on node, with 2/1/0/3 matching pods": fewer scores higher', () => {
      const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2, 'node-b': 1, 'node-y': 3 }));
      // Raw: count × ln(4 + 2) → a 3.58→4, b 1.79→2, x 0, y 5.38→5; normalised 100 × (5 + 0 − s) / 5.
      assert.deepEqual(scores(cache, incoming([soft(1, 'node')]), ['node-a', 'node-b', 'node-x', 'node-y']), { 'node-a': 20, 'node-b': 60, 'node-x': 100, 'node-y': 0 });
    });

    it('nodes lacking a key of the pod\'s own constraints are ignored (score 0)', () => {
      const nodes: NodeSpec[] = [...FOUR_NODES.slice(0, 3), { name: 'node-y', labels: { node: 'node-y' } }];
      const cache = cacheWith(nodes, fooPods({ 'node-a': 1 }));
      const result = scores(cache, incoming([soft(1, 'zone')]), ['node-a', 'node-b', 'node-x', 'node-y']);
      assert.equal(result['node-y'], 0);
      assert.equal(result['node-x'], 100);
    });

    it('system defaults apply to a pod selected by a controller, and nodes without a zone still spread by hostname', () => {
      const nodes: NodeSpec[] = [{ name: 'n1' }, { name: 'n2' }];
      const cache = cacheWith(nodes, [{ name: 'web-1', nodeName: 'n1', labels: { app: 'web' } }]);
      const pod = info({ name: 'web-2', labels: { app: 'web' } });
      const result = scores(cache, pod, ['n1', 'n2'], compileSelector({ matchLabels: { app: 'web' } }));
      assert.ok(result.n2 > result.n1, JSON.stringify(result));
      const rows = Int32Array.from([0, 1]);
      assert.equal(preScorePodTopologySpread(pod, cache, rows, 2, () => undefined), undefined, 'no Service or controller selects it: nothing to score');
    });
  });

  it('the scheduler spreads a Deployment-like group across nodes by the default constraints', () => {
    const cache = cacheWith([{ name: 'n1' }, { name: 'n2' }, { name: 'n3' }]);
    const algorithm = new SchedulingAlgorithm(cache, () => 0, 0, { namespaces: { labelsOf: () => ({}), all: () => [] }, defaultSpreadSelector: () => compileSelector({ matchLabels: { app: 'web' } }) });
    const placed: string[] = [];
    for (let i = 0; i < 6; i++) {
      const pod = info({ name: `web-${i}`, labels: { app: 'web' } });
      const chosen = algorithm.findPlacement(pod, false).chosen!;
      placed.push(chosen.name);
      cache.placePod(chosen.name, { uid: pod.uid, namespace: 'default', name: pod.name, priority: 0, resources: pod.resources, hostPorts: [], labels: pod.labels, terminating: false, affinityTerms: undefined }, true);
    }
    assert.deepEqual(placed.sort(), ['n1', 'n1', 'n2', 'n2', 'n3', 'n3']);
  });
});

describe('PodTopologySpread: per-domain totals of the pod count index', () => {
  /** The totals summed from scratch over the current node rows. */
  function summed(cache: NodeCache, matcher: PodMatcher, key: string): number[] {
    const domains = cache.domains(key);
    const counts = cache.podCounts.counts(matcher);
    const sums = new Array<number>(domains.values.length).fill(0);
    domains.domainOf.forEach((domain, row) => {
      if (domain >= 0) sums[domain] += counts[row];
    });
    return sums;
  }

  it('stay equal to the sums over the nodes as pods come and go and nodes are added, relabelled and removed', () => {
    const cache = cacheWith(FOUR_NODES, fooPods({ 'node-a': 2, 'node-b': 1, 'node-y': 3 }));
    const matcher = podMatcher(namespaces('default'), compileSelector(FOO_EXISTS), true);
    const check = (when: string) => assert.deepEqual([...cache.podCounts.domainTotals(matcher, cache.domains('zone'))], summed(cache, matcher, 'zone'), when);
    check('first asked');
    const place = (name: string, nodeName: string) => cache.placePod(nodeName, { uid: name, namespace: 'default', name, priority: 0, resources: info({ name }).resources, hostPorts: [], labels: { foo: '' }, terminating: false, affinityTerms: undefined }, true);
    place('new-1', 'node-x');
    place('new-2', 'node-x');
    check('after two pods placed');
    cache.removePod('new-1');
    check('after a pod removed');
    cache.addNode(makeNode({ name: 'node-z', labels: { zone: 'zone3', node: 'node-z' } }));
    place('new-3', 'node-z');
    check('after a node added');
    cache.updateNode(makeNode({ name: 'node-b', labels: { zone: 'zone2', node: 'node-b' } }));
    check('after a node moved to another zone');
    cache.removeNode('node-a');
    check('after a node removed');
    place('new-4', 'node-y');
    check('after a pod placed on a moved row');
  });
});
