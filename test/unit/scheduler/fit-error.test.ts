import assert from 'node:assert/strict';
import { fitErrorMessage, ReasonHistogram, truncateEventMessage } from '../../../src/sim/scheduler/fit-error';
import { SchedulingAlgorithm } from '../../../src/sim/scheduler/framework';
import type { NodeCache } from '../../../src/sim/scheduler/node-cache';
import { preemptionVerdict } from '../../../src/sim/scheduler/preemption';
import type { PodSchedulingInfo } from '../../../src/sim/scheduler/pod-info';
import { cacheWith, info } from './fixtures';

/** What the scheduler prints for a pod that fits nowhere in `cache`. */
function failureMessage(cache: NodeCache, pod: PodSchedulingInfo, style: 'doublePeriod' | 'singlePeriod' = 'doublePeriod'): string {
  const placement = new SchedulingAlgorithm(cache, () => 0.5).findPlacement(pod);
  assert.equal(placement.chosen, undefined);
  const reasons = new ReasonHistogram();
  for (const { failure } of placement.failures) reasons.add(failure.reasons);
  return fitErrorMessage(cache.nodeCount, reasons, preemptionVerdict(pod, cache.nodeCount, placement.failures, style).message, style);
}

describe('FitError message', () => {
  it('matches the real single-node example of 1.25–1.29, double period included', () => {
    const cache = cacheWith([{ name: 'n1', cpu: '1' }]);
    assert.equal(failureMessage(cache, info({ name: 'p', cpu: '2' })), '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..');
  });

  it('prints the 1.30+ single-period form', () => {
    const cache = cacheWith([{ name: 'a', cpu: '1' }, { name: 'b', cpu: '1' }, { name: 'c', cpu: '1' }]);
    assert.equal(
      failureMessage(cache, info({ name: 'p', cpu: '2' }), 'singlePeriod'),
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
  });

  it('counts and sorts mixed reasons; unresolvable nodes are "not helpful" for preemption', () => {
    const cache = cacheWith([
      { name: 'cp', taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
      { name: 'small-1', cpu: '1', memory: '1Gi' },
      { name: 'small-2', cpu: '1' },
      { name: 'cordoned', unschedulable: true },
    ]);
    assert.equal(
      failureMessage(cache, info({ name: 'p', cpu: '2', memory: '2Gi' })),
      '0/4 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable, 2 Insufficient cpu. ' +
        'preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling..',
    );
  });

  it('says preemption is not helpful anywhere when every node is unresolvable', () => {
    const cache = cacheWith([{ name: 'a', labels: { disk: 'hdd' } }, { name: 'b', labels: { disk: 'hdd' } }, { name: 'c', labels: { disk: 'hdd' } }]);
    assert.equal(
      failureMessage(cache, info({ name: 'p', nodeSelector: { disk: 'ssd' } })),
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
  });

  it('sorts counts as strings, as Go does ("10 …" before "2 …")', () => {
    const reasons = new ReasonHistogram();
    reasons.add(['Insufficient memory'], 2);
    reasons.add(['Insufficient cpu'], 10);
    assert.equal(fitErrorMessage(12, reasons, '', 'singlePeriod'), '0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory.');
  });

  it('reports preemptionPolicy=Never', () => {
    const cache = cacheWith([{ name: 'n1', cpu: '1' }]);
    assert.equal(failureMessage(cache, info({ name: 'p', cpu: '2', preemptionPolicy: 'Never' })), '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..');
  });

  it('dry-runs preemption: lower-priority pods that would not free enough leave the filter reasons', () => {
    const cache = cacheWith([{ name: 'n1', cpu: '2' }], [{ name: 'low', nodeName: 'n1', cpu: '1', priority: -10 }]);
    assert.equal(failureMessage(cache, info({ name: 'p', cpu: '3' })), '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu..');
    // The node is left exactly as it was.
    assert.equal(cache.node('n1')?.requestedMilliCPU, 1000);
    assert.equal(cache.node('n1')?.podCount, 1);
  });

  it('finds a preemption candidate when evicting lower-priority pods would make room', () => {
    const cache = cacheWith([{ name: 'n1', cpu: '2' }], [{ name: 'low', nodeName: 'n1', cpu: '2', priority: -10 }]);
    const pod = info({ name: 'p', cpu: '1' });
    const placement = new SchedulingAlgorithm(cache, () => 0.5).findPlacement(pod);
    assert.deepEqual(preemptionVerdict(pod, 1, placement.failures, 'doublePeriod'), { message: '', candidateNode: 'n1' });
  });

  it('truncates event messages to 1024 characters', () => {
    const long = 'x'.repeat(2000);
    const cut = truncateEventMessage(long);
    assert.equal(cut.length, 1024);
    assert.ok(cut.endsWith(' ...'));
    assert.equal(truncateEventMessage('short'), 'short');
  });
});
