import assert from 'node:assert/strict';
import { runFilters } from '../../../src/sim/scheduler/framework';
import { filterNodeAffinity } from '../../../src/sim/scheduler/plugins/node-affinity';
import { filterNodeName } from '../../../src/sim/scheduler/plugins/node-name';
import { filterNodePorts } from '../../../src/sim/scheduler/plugins/node-ports';
import { filterNodeResourcesFit } from '../../../src/sim/scheduler/plugins/node-resources-fit';
import { filterNodeUnschedulable } from '../../../src/sim/scheduler/plugins/node-unschedulable';
import { filterTaintToleration } from '../../../src/sim/scheduler/plugins/taint-toleration';
import type { NodeSelectorRequirement } from 'kubernetes-types/core/v1';
import { cacheWith, info, nodeOf } from './fixtures';

function oneNode(spec: Parameters<typeof cacheWith>[0][number], placed: Parameters<typeof cacheWith>[1] = []) {
  return nodeOf(cacheWith([spec], placed), spec.name);
}

describe('scheduler filters', () => {
  describe('NodeUnschedulable', () => {
    it('rejects a cordoned node as unresolvable', () => {
      const verdict = filterNodeUnschedulable(info({ name: 'p' }), oneNode({ name: 'n1', unschedulable: true }));
      assert.deepEqual(verdict, { plugin: 'NodeUnschedulable', code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'] });
    });

    it('admits a pod that tolerates node.kubernetes.io/unschedulable', () => {
      const pod = info({ name: 'p', tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] });
      assert.equal(filterNodeUnschedulable(pod, oneNode({ name: 'n1', unschedulable: true })), null);
      assert.equal(filterNodeUnschedulable(info({ name: 'q' }), oneNode({ name: 'n2' })), null);
    });
  });

  describe('NodeName', () => {
    it('rejects every node but the named one', () => {
      const pod = info({ name: 'p', nodeName: 'n2' });
      assert.deepEqual(filterNodeName(pod, oneNode({ name: 'n1' })), { plugin: 'NodeName', code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match the requested node name"] });
      assert.equal(filterNodeName(pod, oneNode({ name: 'n2' })), null);
    });
  });

  describe('TaintToleration', () => {
    const controlPlane = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };

    it('names the first untolerated NoSchedule taint with an empty value', () => {
      const verdict = filterTaintToleration(info({ name: 'p' }), oneNode({ name: 'cp', taints: [controlPlane] }));
      assert.deepEqual(verdict, { plugin: 'TaintToleration', code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'] });
    });

    it('rejects NoExecute, ignores PreferNoSchedule, honours tolerations', () => {
      const noExecute = oneNode({ name: 'a', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }] });
      assert.deepEqual(filterTaintToleration(info({ name: 'p' }), noExecute)?.reasons, ['node(s) had untolerated taint {dedicated: gpu}']);
      assert.equal(filterTaintToleration(info({ name: 'p' }), oneNode({ name: 'b', taints: [{ key: 'k', effect: 'PreferNoSchedule' }] })), null);
      const tolerant = info({ name: 'q', tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu' }] });
      assert.equal(filterTaintToleration(tolerant, noExecute), null);
      const wrongValue = info({ name: 'r', tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'cpu' }] });
      assert.notEqual(filterTaintToleration(wrongValue, noExecute), null);
      const everything = info({ name: 's', tolerations: [{ operator: 'Exists' }] });
      assert.equal(filterTaintToleration(everything, oneNode({ name: 'c', taints: [controlPlane] })), null);
    });
  });

  describe('NodeAffinity', () => {
    const reason = "node(s) didn't match Pod's node affinity/selector";
    const node = oneNode({ name: 'n1', labels: { disktype: 'ssd', zone: 'a', cores: '16' } });
    const withExpression = (expression: NodeSelectorRequirement) =>
      info({ name: 'p', affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expression] }] } } } });

    it('checks nodeSelector labels', () => {
      assert.equal(filterNodeAffinity(info({ name: 'p', nodeSelector: { disktype: 'ssd' } }), node), null);
      assert.deepEqual(filterNodeAffinity(info({ name: 'p', nodeSelector: { disktype: 'hdd' } }), node), { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: [reason] });
    });

    it('evaluates every operator', () => {
      const cases: [NodeSelectorRequirement, boolean][] = [
        [{ key: 'zone', operator: 'In', values: ['a', 'b'] }, true],
        [{ key: 'zone', operator: 'In', values: ['b'] }, false],
        [{ key: 'zone', operator: 'NotIn', values: ['b'] }, true],
        [{ key: 'missing', operator: 'NotIn', values: ['b'] }, true],
        [{ key: 'zone', operator: 'NotIn', values: ['a'] }, false],
        [{ key: 'zone', operator: 'Exists' }, true],
        [{ key: 'missing', operator: 'Exists' }, false],
        [{ key: 'missing', operator: 'DoesNotExist' }, true],
        [{ key: 'zone', operator: 'DoesNotExist' }, false],
        [{ key: 'cores', operator: 'Gt', values: ['8'] }, true],
        [{ key: 'cores', operator: 'Gt', values: ['16'] }, false],
        [{ key: 'cores', operator: 'Lt', values: ['32'] }, true],
        [{ key: 'zone', operator: 'Lt', values: ['32'] }, false],
      ];
      for (const [expression, fits] of cases) {
        assert.equal(filterNodeAffinity(withExpression(expression), node) === null, fits, JSON.stringify(expression));
      }
    });

    it('ORs terms, matches metadata.name fields, and an empty term matches nothing', () => {
      const byName = info({ name: 'p', affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }] } } } });
      assert.equal(filterNodeAffinity(byName, node), null);
      const empty = info({ name: 'q', affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{}] } } } });
      assert.notEqual(filterNodeAffinity(empty, node), null);
    });
  });

  describe('NodePorts', () => {
    const reason = "node(s) didn't have free ports for the requested pod ports";
    const node = () => oneNode({ name: 'n1' }, [{ name: 'holder', nodeName: 'n1', hostPort: { port: 8080, ip: '10.0.0.1' } }]);

    it('rejects a host port already held (0.0.0.0 conflicts with any IP) as resolvable', () => {
      assert.deepEqual(filterNodePorts(info({ name: 'p', hostPort: { port: 8080 } }), node()), { plugin: 'NodePorts', code: 'Unschedulable', reasons: [reason] });
      assert.notEqual(filterNodePorts(info({ name: 'p', hostPort: { port: 8080, ip: '10.0.0.1' } }), node()), null);
    });

    it('admits another IP, another protocol or another port', () => {
      assert.equal(filterNodePorts(info({ name: 'p', hostPort: { port: 8080, ip: '10.0.0.2' } }), node()), null);
      assert.equal(filterNodePorts(info({ name: 'p', hostPort: { port: 8080, protocol: 'UDP' } }), node()), null);
      assert.equal(filterNodePorts(info({ name: 'p', hostPort: { port: 8081 } }), node()), null);
    });
  });

  describe('NodeResourcesFit', () => {
    it('reports each shortfall in upstream order, as Unschedulable', () => {
      const node = oneNode({ name: 'n1', cpu: '1', memory: '1Gi', ephemeralStorage: '1Gi', extended: { 'nvidia.com/gpu': '1' } }, [{ name: 'busy', nodeName: 'n1', cpu: '800m', memory: '512Mi' }]);
      const pod = info({ name: 'p', cpu: '300m', memory: '600Mi', ephemeralStorage: '2Gi', extended: { 'nvidia.com/gpu': '2' } });
      assert.deepEqual(filterNodeResourcesFit(pod, node), {
        plugin: 'NodeResourcesFit',
        code: 'Unschedulable',
        reasons: ['Insufficient cpu', 'Insufficient memory', 'Insufficient ephemeral-storage', 'Insufficient nvidia.com/gpu'],
      });
    });

    it('fits exactly up to allocatable', () => {
      const node = oneNode({ name: 'n1', cpu: '1' }, [{ name: 'busy', nodeName: 'n1', cpu: '800m' }]);
      assert.equal(filterNodeResourcesFit(info({ name: 'p', cpu: '200m' }), node), null);
      assert.deepEqual(filterNodeResourcesFit(info({ name: 'p', cpu: '201m' }), node)?.reasons, ['Insufficient cpu']);
    });

    it('counts pods: "Too many pods", checked even for pods requesting nothing', () => {
      const node = oneNode({ name: 'n1', pods: '2' }, [{ name: 'a', nodeName: 'n1' }, { name: 'b', nodeName: 'n1' }]);
      assert.deepEqual(filterNodeResourcesFit(info({ name: 'p' }), node)?.reasons, ['Too many pods']);
      assert.deepEqual(filterNodeResourcesFit(info({ name: 'p', cpu: '8' }), node)?.reasons, ['Too many pods', 'Insufficient cpu']);
    });
  });

  it('runs filters in upstream order and stops at the first rejection', () => {
    const node = oneNode({ name: 'n1', unschedulable: true, taints: [{ key: 'x', effect: 'NoSchedule' }], cpu: '1' });
    assert.equal(runFilters(info({ name: 'p', cpu: '2' }), node)?.plugin, 'NodeUnschedulable');
    const tainted = oneNode({ name: 'n2', taints: [{ key: 'x', effect: 'NoSchedule' }], cpu: '1' });
    assert.equal(runFilters(info({ name: 'p', cpu: '2', nodeSelector: { a: 'b' } }), tainted)?.plugin, 'TaintToleration');
    assert.equal(runFilters(info({ name: 'p', cpu: '500m' }), oneNode({ name: 'n3', cpu: '1' })), null);
  });
});
