import assert from 'node:assert/strict';
import { normalizeScores, numFeasibleNodesToFind, SchedulingAlgorithm, selectHost } from '../../../src/sim/scheduler/framework';
import { scoreBalancedAllocation } from '../../../src/sim/scheduler/plugins/balanced-allocation';
import { scoreImageLocality } from '../../../src/sim/scheduler/plugins/image-locality';
import { scoreNodeAffinity } from '../../../src/sim/scheduler/plugins/node-affinity';
import { scoreLeastAllocated } from '../../../src/sim/scheduler/plugins/node-resources-fit';
import { scoreTaintToleration } from '../../../src/sim/scheduler/plugins/taint-toleration';
import { SeededRandom } from '../../../src/sim/clock';
import type { NodeCache } from '../../../src/sim/scheduler/node-cache';
import { compileSelector } from '../../../src/sim/scheduler/label-selector';
import type { PodSchedulingInfo } from '../../../src/sim/scheduler/pod-info';
import { cacheWith, info, makeNode, nodeOf, type NodeSpec, type PodSpecInput } from './fixtures';

const MB = 1024 * 1024;

describe('scheduler scoring', () => {
  it('LeastAllocated: free share of cpu and memory, non-zero defaults for missing requests', () => {
    const cache = cacheWith([{ name: 'n1', cpu: '4', memory: '8Gi' }], [{ name: 'a', nodeName: 'n1', cpu: '1', memory: '2Gi' }]);
    // cpu (4000 − 1000 − 1000) × 100 / 4000 = 50; memory (8 − 2 − 2) / 8 = 50
    assert.equal(scoreLeastAllocated(info({ name: 'p', cpu: '1', memory: '2Gi' }), nodeOf(cache, 'n1')), 50);
    // No requests: 100m and 200Mi count. cpu (4000−1100)×100/4000 = 72; memory (8192−2048−200)×100/8192 = 72
    assert.equal(scoreLeastAllocated(info({ name: 'q' }), nodeOf(cache, 'n1')), 72);
  });

  it('BalancedAllocation: 100 when cpu and memory fractions match, less as they diverge', () => {
    const cache = cacheWith([{ name: 'n1', cpu: '4', memory: '8Gi' }]);
    assert.equal(scoreBalancedAllocation(info({ name: 'p', cpu: '2', memory: '4Gi' }), nodeOf(cache, 'n1')), 100);
    // fractions 0.5 and 0 → std 0.25 → 75
    assert.equal(scoreBalancedAllocation(info({ name: 'q', cpu: '2' }), nodeOf(cache, 'n1')), 75);
  });

  it('ImageLocality: image size scaled by spread, clamped to 23–1000 MB per container', () => {
    const image = { names: ['nginx:1.25'], sizeBytes: 500 * MB };
    const nodes: NodeSpec[] = [{ name: 'has', images: [image] }, { name: 'without' }];
    const cache = cacheWith(nodes);
    const pod = info({ name: 'p', image: 'nginx:1.25' });
    // 500 MB × (1 of 2 nodes) = 250 MB → 100 × (250 − 23) / (1000 − 23) = 23
    assert.equal(scoreImageLocality(pod, nodeOf(cache, 'has'), cache), 23);
    assert.equal(scoreImageLocality(pod, nodeOf(cache, 'without'), cache), 0);
    // An untagged image is looked up as :latest.
    const latest = cacheWith([{ name: 'n', images: [{ names: ['busybox:latest'], sizeBytes: 1000 * MB }] }]);
    assert.equal(scoreImageLocality(info({ name: 'b', image: 'busybox' }), nodeOf(latest, 'n'), latest), 100);
  });

  it('TaintToleration counts untolerated PreferNoSchedule taints; NodeAffinity sums matching weights', () => {
    const cache = cacheWith([{ name: 'n1', labels: { zone: 'a' }, taints: [{ key: 'a', effect: 'PreferNoSchedule' }, { key: 'b', effect: 'PreferNoSchedule' }] }]);
    const node = nodeOf(cache, 'n1');
    assert.equal(scoreTaintToleration(info({ name: 'p' }), node), 2);
    assert.equal(scoreTaintToleration(info({ name: 'p', tolerations: [{ key: 'a', operator: 'Exists' }] }), node), 1);
    const preferring = info({
      name: 'q',
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 30, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
            { weight: 50, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] } },
            { weight: 20, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } },
          ],
        },
      },
    });
    assert.equal(scoreNodeAffinity(preferring, node), 50);
  });

  it('normalizes as DefaultNormalizeScore, reversed for counts', () => {
    const counts = Float64Array.from([0, 1, 2]);
    normalizeScores(counts, 3, true);
    assert.deepEqual([...counts], [100, 50, 0]);
    const none = Float64Array.from([0, 0]);
    normalizeScores(none, 2, true);
    assert.deepEqual([...none], [100, 100]);
    const weights = Float64Array.from([30, 60, 0]);
    normalizeScores(weights, 3, false);
    assert.deepEqual([...weights], [50, 100, 0]);
  });

  it('selectHost picks the maximum and spreads ties with the seeded random', () => {
    const random = new SeededRandom(7);
    assert.equal(selectHost(Float64Array.from([1, 5, 3]), 3, () => random.next()), 1);
    const picks = new Set<number>();
    for (let i = 0; i < 50; i++) picks.add(selectHost(Float64Array.from([5, 1, 5, 5]), 4, () => random.next()));
    assert.deepEqual([...picks].sort(), [0, 2, 3]);
  });

  it('prefers the least allocated node', () => {
    const cache = cacheWith(
      [{ name: 'busy' }, { name: 'idle' }, { name: 'half' }],
      [
        { name: 'a', nodeName: 'busy', cpu: '3', memory: '6Gi' },
        { name: 'b', nodeName: 'half', cpu: '2', memory: '4Gi' },
      ],
    );
    const algorithm = new SchedulingAlgorithm(cache, () => 0.5);
    const placement = algorithm.findPlacement(info({ name: 'p', cpu: '500m', memory: '1Gi' }));
    assert.equal(placement.chosen?.name, 'idle');
    assert.equal(placement.feasible.length, 3);
    const fitRow = placement.scores?.plugins.find((p) => p.name === 'NodeResourcesFit');
    assert.ok(fitRow);
    assert.equal(fitRow.weight, 1);
  });
});

describe('scheduler summary mode (no score table kept)', () => {
  /** 300 nodes of mixed sizes, some with the image, some tainted, pods already placed: room for ties and for clear winners. */
  function mixedCluster(preferNoScheduleTaints: boolean): NodeCache {
    const random = new SeededRandom(11);
    const nodes: NodeSpec[] = [];
    const placed: PodSpecInput[] = [];
    for (let i = 0; i < 300; i++) {
      const name = `node-${i}`;
      nodes.push({
        name,
        cpu: ['2', '4', '8'][i % 3],
        memory: ['4Gi', '8Gi', '16Gi'][i % 3],
        labels: { zone: `z${i % 4}` },
        ...(i % 5 === 0 ? { images: [{ names: ['nginx:1.25'], sizeBytes: (100 + i) * MB }] } : {}),
        ...(preferNoScheduleTaints && i % 7 === 0 ? { taints: [{ key: 'spot', effect: 'PreferNoSchedule' as const }] } : {}),
        ...(i % 11 === 0 ? { taints: [{ key: 'dedicated', effect: 'NoSchedule' as const }] } : {}),
        ...(i % 13 === 0 ? { unschedulable: true } : {}),
        ...(i % 17 === 0 ? { pods: '3' } : {}),
      });
      const busy = Math.floor(random.next() * 4);
      for (let k = 0; k < busy; k++) placed.push({ name: `placed-${i}-${k}`, nodeName: name, cpu: `${100 + Math.floor(random.next() * 900)}m`, memory: `${64 + Math.floor(random.next() * 900)}Mi` });
    }
    return cacheWith(nodes, placed);
  }

  const pods = [
    info({ name: 'plain' }),
    info({ name: 'requests', cpu: '250m', memory: '256Mi' }),
    info({ name: 'no-image-anywhere', image: 'busybox:1.36', cpu: '1' }),
    info({ name: 'tolerating', cpu: '300m', tolerations: [{ key: 'dedicated', operator: 'Exists' }] }),
    info({ name: 'greedy', cpu: '3', memory: '6Gi' }),
    info({
      name: 'preferring',
      cpu: '100m',
      affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 40, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] } }] } },
    }),
    // A controller's pod: the default spread constraints score it.
    info({ name: 'replica', cpu: '200m', labels: { app: 'web' } }),
    info({ name: 'soft-spread', cpu: '150m', labels: { app: 'api' }, topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'api' } } }] }),
    info({
      name: 'apart',
      cpu: '100m',
      labels: { app: 'db' },
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' } }] } },
    }),
  ];
  const lookups = { namespaces: { labelsOf: () => ({}), all: () => [] }, defaultSpreadSelector: (pod: PodSchedulingInfo) => (pod.labels.app === 'web' ? compileSelector({ matchLabels: { app: 'web' } }) : undefined) };

  for (const tainted of [false, true]) {
    it(`chooses the node the full scoring chooses, pod after pod${tainted ? ', with PreferNoSchedule taints' : ''}`, () => {
      const seeded = (): (() => number) => {
        const random = new SeededRandom(3);
        return () => random.next();
      };
      const fullCache = mixedCluster(tainted);
      const summaryCache = mixedCluster(tainted);
      const full = new SchedulingAlgorithm(fullCache, seeded(), 0, lookups);
      const summary = new SchedulingAlgorithm(summaryCache, seeded(), 0, lookups);
      let differentNodes = 0;
      let previous = '';
      for (let round = 0; round < 200; round++) {
        const pod = { ...pods[round % pods.length], uid: `round-${round}` };
        const withTable = full.findPlacement(pod, true);
        const without = summary.findPlacement(pod, false);
        // Place each pod, as the scheduler assumes it, so the cluster fills up and the choices move.
        const contribution = { uid: pod.uid, namespace: 'default', name: pod.name, priority: 0, resources: pod.resources, hostPorts: pod.hostPorts, labels: pod.labels, terminating: false, affinityTerms: pod.affinityTerms };
        if (withTable.chosen) fullCache.placePod(withTable.chosen.name, contribution, true);
        if (without.chosen) summaryCache.placePod(without.chosen.name, contribution, true);
        // Now and then an image lands on one more node: ImageLocality's spread changes for every node.
        if (round % 25 === 24) {
          const imageNode = makeNode({ name: `node-${round + 1}`, cpu: ['2', '4', '8'][(round + 1) % 3], memory: ['4Gi', '8Gi', '16Gi'][(round + 1) % 3], labels: { zone: `z${(round + 1) % 4}` }, images: [{ names: ['nginx:1.25'], sizeBytes: 300 * MB }] });
          for (const cache of [fullCache, summaryCache]) cache.updateNode(imageNode);
        }
        assert.equal(without.chosen?.name, withTable.chosen?.name, `round ${round}, pod ${pod.name}`);
        assert.equal(without.feasibleCount, withTable.feasible.length);
        assert.equal(without.evaluated, withTable.evaluated);
        assert.equal(without.scores, undefined);
        assert.deepEqual(without.feasible, []);
        if (withTable.chosen && withTable.chosen.name !== previous) differentNodes++;
        previous = withTable.chosen?.name ?? '';
      }
      assert.ok(differentNodes > 100, `the rounds exercise many different choices (${differentNodes})`);
    });
  }
});

describe('scheduler sampling (percentageOfNodesToScore)', () => {
  it('finds all nodes below 100, then 50% − n/125 with floors of 5% and 100 nodes', () => {
    assert.equal(numFeasibleNodesToFind(50), 50);
    assert.equal(numFeasibleNodesToFind(100), 100);
    assert.equal(numFeasibleNodesToFind(1_000), 420);
    assert.equal(numFeasibleNodesToFind(5_000), 500);
    assert.equal(numFeasibleNodesToFind(15_000), 750);
    assert.equal(numFeasibleNodesToFind(1_000, 100), 1_000);
    assert.equal(numFeasibleNodesToFind(1_000, 5), 100);
  });

  it('stops the walk after enough feasible nodes and resumes after the last node looked at', () => {
    const nodes: NodeSpec[] = [];
    for (let i = 0; i < 1_000; i++) nodes.push({ name: `node-${i}` });
    const algorithm = new SchedulingAlgorithm(cacheWith(nodes), () => 0.5);
    const first = algorithm.findPlacement(info({ name: 'p1' }));
    assert.equal(first.evaluated, 420);
    assert.equal(first.feasible[0].name, 'node-0');
    const second = algorithm.findPlacement(info({ name: 'p2' }));
    assert.equal(second.feasible[0].name, 'node-420');
    const third = algorithm.findPlacement(info({ name: 'p3' }));
    assert.equal(third.feasible[0].name, 'node-840');
    assert.equal(third.feasible[third.feasible.length - 1].name, 'node-259');
  });

  it('counts rejected nodes as evaluated', () => {
    const nodes: NodeSpec[] = [];
    for (let i = 0; i < 200; i++) nodes.push({ name: `node-${i}`, unschedulable: i % 2 === 0 });
    const placement = new SchedulingAlgorithm(cacheWith(nodes), () => 0.5).findPlacement(info({ name: 'p' }));
    assert.equal(placement.feasible.length, 100);
    assert.equal(placement.failures.length, 100);
    assert.equal(placement.evaluated, 200);
  });
});
