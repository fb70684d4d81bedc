import assert from 'node:assert/strict';
import type { NodeSelectorTerm } from 'kubernetes-types/core/v1';
import { podSchedulingInfo } from '../../../src/sim/scheduler/pod-info';
import { preFilterNodeNames } from '../../../src/sim/scheduler/plugins/node-affinity';

function namesFor(terms: NodeSelectorTerm[] | undefined): string[] | undefined {
  const affinity = terms === undefined ? undefined : { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
  const names = preFilterNodeNames(podSchedulingInfo({ metadata: { name: 'p', uid: 'u' }, spec: { containers: [], affinity } }));
  return names === undefined ? undefined : [...names].sort();
}

const byName = (...values: string[]): NodeSelectorTerm => ({ matchFields: [{ key: 'metadata.name', operator: 'In', values }] });

describe('NodeAffinity PreFilter node set', () => {
  it("returns the node a DaemonSet pod's matchFields names", () => {
    assert.deepEqual(namesFor([byName('node-7')]), ['node-7']);
  });

  it('unions the terms and intersects the requirements of one term', () => {
    assert.deepEqual(namesFor([byName('a', 'b'), byName('c')]), ['a', 'b', 'c']);
    assert.deepEqual(namesFor([{ matchFields: [...byName('a', 'b').matchFields!, ...byName('b', 'c').matchFields!] }]), ['b']);
  });

  it('leaves every node a candidate when a term does not name nodes, or there is no required affinity', () => {
    assert.equal(namesFor([byName('a'), { matchExpressions: [{ key: 'zone', operator: 'In', values: ['x'] }] }]), undefined);
    assert.equal(namesFor([{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['a'] }] }]), undefined);
    assert.equal(namesFor(undefined), undefined);
  });
});
