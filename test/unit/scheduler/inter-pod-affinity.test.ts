/**
 * InterPodAffinity against upstream's cases (interpodaffinity/filtering_test.go
 * `TestRequiredAffinitySingleNode`, `TestRequiredAffinityMultipleNodes`; scoring_test.go
 * `TestPreferredAffinity`), with the nodes labelled region/zone as upstream's tests label them.
 */
import assert from 'node:assert/strict';
import type { PodAffinityTerm } from 'kubernetes-types/core/v1';
import type { NodeCache } from '../../../src/sim/scheduler/node-cache';
import {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  filterInterPodAffinity,
  normalizeInterPodAffinity,
  preFilterInterPodAffinity,
  preScoreInterPodAffinity,
  scoreInterPodAffinity,
  type NamespaceLabels,
} from '../../../src/sim/scheduler/plugins/inter-pod-affinity';
import { cacheWith, info, nodeOf, type NodeSpec, type PodSpecInput } from './fixtures';

const NAMESPACES: NamespaceLabels = {
  labelsOf: (ns): Record<string, string> => (ns === 'team-a' ? { team: 'a' } : {}),
  all: () => [
    { name: 'default', labels: {} as Record<string, string> },
    { name: 'team-a', labels: { team: 'a' } },
  ],
};

function term(selector: Record<string, string>, topologyKey: string, extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm {
  return { labelSelector: { matchLabels: selector }, topologyKey, ...extra };
}

function filterOn(cache: NodeCache, pod: PodSpecInput, node: string): string | null {
  const state = preFilterInterPodAffinity(info(pod), cache, NAMESPACES);
  if (!state) return null;
  return filterInterPodAffinity(state, nodeOf(cache, node))?.reasons.join() ?? null;
}

const MACHINE1: NodeSpec[] = [{ name: 'machine1', labels: { region: 'r1', zone: 'z11' } }];
const THREE: NodeSpec[] = [
  { name: 'machine1', labels: { region: 'r1', zone: 'z11' } },
  { name: 'machine2', labels: { region: 'r1', zone: 'z12' } },
  { name: 'machine3', labels: { region: 'r2', zone: 'z21' } },
];

describe('InterPodAffinity', () => {
  describe('Filter (TestRequiredAffinitySingleNode)', () => {
    it('"A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods" (PreFilter skips)', () => {
      assert.equal(preFilterInterPodAffinity(info({ name: 'p' }), cacheWith(MACHINE1), NAMESPACES), undefined);
    });

    it('"satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod"', () => {
      const cache = cacheWith(MACHINE1, [{ name: 'existing', nodeName: 'machine1', labels: { service: 'securityscan' } }]);
      const pod: PodSpecInput = { name: 'p', affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ service: 'securityscan' }, 'region')] } } };
      assert.equal(filterOn(cache, pod, 'machine1'), null);
    });

    it('"Does not satisfy the PodAffinity with labelSelector because of diff Namespace"', () => {
      const cache = cacheWith(MACHINE1, [{ name: 'existing', nodeName: 'machine1', namespace: 'ns', labels: { service: 'securityscan' } }]);
      const pod: PodSpecInput = { name: 'p', affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ service: 'securityscan' }, 'region', { namespaces: ['DiffNameSpace'] })] } } };
      assert.equal(filterOn(cache, pod, 'machine1'), ERR_REASON_AFFINITY_RULES_NOT_MATCH);
    });

    it('namespaceSelector selects the namespaces by their labels', () => {
      const cache = cacheWith(MACHINE1, [{ name: 'existing', nodeName: 'machine1', namespace: 'team-a', labels: { service: 'securityscan' } }]);
      const selected: PodSpecInput = { name: 'p', affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ service: 'securityscan' }, 'region', { namespaceSelector: { matchLabels: { team: 'a' } } })] } } };
      assert.equal(filterOn(cache, selected, 'machine1'), null);
      const own: PodSpecInput = { name: 'p', affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ service: 'securityscan' }, 'region')] } } };
      assert.equal(filterOn(cache, own, 'machine1'), ERR_REASON_AFFINITY_RULES_NOT_MATCH, 'without it only the pod\'s own namespace counts');
    });

    it('"Does not satisfy the PodAntiAffinity with the existing pod"', () => {
      const cache = cacheWith(MACHINE1, [{ name: 'existing', nodeName: 'machine1', labels: { service: 'securityscan' } }]);
      const pod: PodSpecInput = { name: 'p', affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ service: 'securityscan' }, 'zone')] } } };
      assert.equal(filterOn(cache, pod, 'machine1'), ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
    });

    it('"satisfies the PodAntiAffinity with existing pod but doesn\'t satisfy PodAntiAffinity symmetry with incoming pod"', () => {
      const cache = cacheWith(MACHINE1, [
        { name: 'existing', nodeName: 'machine1', labels: { service: 'securityscan' }, affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ service: 'web' }, 'zone')] } } },
      ]);
      assert.equal(filterOn(cache, { name: 'p', labels: { service: 'web' } }, 'machine1'), ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
      assert.equal(filterOn(cache, { name: 'p', labels: { service: 'db' } }, 'machine1'), null);
    });

    it('"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn\'t satisfy PodAntiAffinity symmetry with the existing pod" (only within the topology)', () => {
      const cache = cacheWith(THREE, [
        { name: 'existing', nodeName: 'machine1', labels: { app: 'db' }, affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' }, 'region')] } } },
      ]);
      const web: PodSpecInput = { name: 'p', labels: { app: 'web' } };
      assert.equal(filterOn(cache, web, 'machine2'), ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH, 'same region r1');
      assert.equal(filterOn(cache, web, 'machine3'), null, 'region r2');
    });

    it('"A pod with affinity to itself can be the first of its group" and not once another group member exists elsewhere', () => {
      const self: PodSpecInput = { name: 'p', labels: { app: 'cache' }, affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'cache' }, 'zone')] } } };
      assert.equal(filterOn(cacheWith(THREE), self, 'machine2'), null);
      const withMember = cacheWith(THREE, [{ name: 'member', nodeName: 'machine1', labels: { app: 'cache' } }]);
      assert.equal(filterOn(withMember, self, 'machine1'), null);
      assert.equal(filterOn(withMember, self, 'machine2'), ERR_REASON_AFFINITY_RULES_NOT_MATCH);
      const other: PodSpecInput = { ...self, labels: { app: 'other' } };
      assert.equal(filterOn(cacheWith(THREE), other, 'machine2'), ERR_REASON_AFFINITY_RULES_NOT_MATCH, 'a pod not matching its own terms waits for a match');
    });

    it('a node without the topology key fails required affinity', () => {
      const cache = cacheWith([{ name: 'bare' }], [{ name: 'existing', nodeName: 'bare', labels: { service: 'securityscan' } }]);
      const pod: PodSpecInput = { name: 'p', affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ service: 'securityscan' }, 'region')] } } };
      assert.equal(filterOn(cache, pod, 'bare'), ERR_REASON_AFFINITY_RULES_NOT_MATCH);
    });

    it('matchLabelKeys narrows an anti-affinity term to the pod\'s own revision', () => {
      const cache = cacheWith(MACHINE1, [{ name: 'old', nodeName: 'machine1', labels: { app: 'web', 'pod-template-hash': 'old' } }]);
      const pod = (keys?: string[]): PodSpecInput => ({ name: 'p', labels: { app: 'web', 'pod-template-hash': 'new' }, affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' }, 'zone', keys ? { matchLabelKeys: keys } : {})] } } });
      assert.equal(filterOn(cache, pod(), 'machine1'), ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
      assert.equal(filterOn(cache, pod(['pod-template-hash']), 'machine1'), null);
    });
  });

  describe('Score (TestPreferredAffinity)', () => {
    function scores(cache: NodeCache, pod: PodSpecInput): Record<string, number> | undefined {
      const state = preScoreInterPodAffinity(info(pod), cache, NAMESPACES);
      if (!state) return undefined;
      const raw = Float64Array.from(cache.nodes, (node) => scoreInterPodAffinity(state, node.index));
      normalizeInterPodAffinity(raw, raw.length);
      return Object.fromEntries(cache.nodes.map((node, i) => [node.name, raw[i]]));
    }

    it('"all nodes are same priority as Affinity is nil" (PreScore skips)', () => {
      assert.equal(scores(cacheWith(THREE, [{ name: 'e', nodeName: 'machine1', labels: { security: 'S1' } }]), { name: 'p' }), undefined);
    });

    it('"Affinity: pod that matches topology key & pods in nodes will get high score comparing to others"', () => {
      const cache = cacheWith(THREE, [{ name: 'e', nodeName: 'machine1', labels: { security: 'S1' } }]);
      const pod: PodSpecInput = { name: 'p', affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, podAffinityTerm: term({ security: 'S1' }, 'region') }] } } };
      assert.deepEqual(scores(cache, pod), { machine1: 100, machine2: 100, machine3: 0 });
    });

    it('"Anti Affinity: pod that does not match existing pods in node will get high score"', () => {
      const cache = cacheWith(THREE, [
        { name: 'e1', nodeName: 'machine1', labels: { security: 'S1' } },
        { name: 'e2', nodeName: 'machine2', labels: { security: 'S2' } },
      ]);
      const pod: PodSpecInput = { name: 'p', affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, podAffinityTerm: term({ security: 'S1' }, 'region') }] } } };
      assert.deepEqual(scores(cache, pod), { machine1: 0, machine2: 0, machine3: 100 });
    });

    it('"Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry"', () => {
      const cache = cacheWith(THREE, [
        { name: 'e1', nodeName: 'machine1', affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, podAffinityTerm: term({ security: 'S1' }, 'zone') }] } } },
      ]);
      assert.deepEqual(scores(cache, { name: 'p', labels: { security: 'S1' } }), { machine1: 100, machine2: 0, machine3: 0 });
    });

    it('existing pods\' required affinity counts with hardPodAffinityWeight 1', () => {
      const cache = cacheWith(THREE, [
        { name: 'e1', nodeName: 'machine3', affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'p' }, 'region')] } } },
      ]);
      assert.deepEqual(scores(cache, { name: 'p', labels: { app: 'p' } }), { machine1: 0, machine2: 0, machine3: 100 });
    });
  });
});
