import assert from 'node:assert/strict';
import type { PodObject } from '../../../src/sim/controllers/controller-types';
import { podsToDelete, rankPodsForDeletion } from '../../../src/sim/controllers/pod-deletion-order';

const NOW = Date.UTC(2026, 0, 1, 13, 0, 0);
const iso = (msAgo: number): string => new Date(NOW - msAgo).toISOString().replace('.000Z', 'Z');

interface PodShape {
  node?: string;
  phase?: string;
  readyAgoMs?: number;
  createdAgoMs?: number;
  restarts?: number;
  cost?: string;
  uid?: string;
}

function pod(name: string, shape: PodShape = {}): PodObject {
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: shape.uid ?? name,
      creationTimestamp: iso(shape.createdAgoMs ?? 3_600_000),
      ...(shape.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': shape.cost } } : {}),
    },
    spec: { containers: [{ name: 'c' }], ...(shape.node ? { nodeName: shape.node } : {}) },
    status: {
      phase: shape.phase ?? 'Running',
      conditions: shape.readyAgoMs !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: iso(shape.readyAgoMs) }] : [{ type: 'Ready', status: 'False' }],
      containerStatuses: [{ name: 'c', image: 'x', imageID: '', ready: shape.readyAgoMs !== undefined, restartCount: shape.restarts ?? 0 }],
    },
  };
}

const names = (pods: PodObject[]): string[] => pods.map((p) => p.metadata?.name ?? '');

describe('scale-down order (ActivePodsWithRanks)', () => {
  it('deletes unassigned before assigned, Pending before Unknown before Running, not ready before ready', () => {
    const pods = [
      pod('running-ready', { node: 'n1', readyAgoMs: 600_000 }),
      pod('running-unready', { node: 'n1' }),
      pod('unknown', { node: 'n1', phase: 'Unknown' }),
      pod('pending', { node: 'n1', phase: 'Pending' }),
      pod('unassigned', { phase: 'Pending' }),
    ];
    assert.deepEqual(names(rankPodsForDeletion(pods, pods, NOW)), ['unassigned', 'pending', 'unknown', 'running-unready', 'running-ready']);
  });

  it('then lower pod-deletion-cost first, then pods on nodes crowded with related pods first', () => {
    const related = [pod('other-1', { node: 'busy', readyAgoMs: 600_000 }), pod('other-2', { node: 'busy', readyAgoMs: 600_000 })];
    const pods = [
      pod('quiet', { node: 'quiet', readyAgoMs: 600_000 }),
      pod('busy', { node: 'busy', readyAgoMs: 600_000 }),
      pod('expensive', { node: 'busy', readyAgoMs: 600_000, cost: '100' }),
      pod('cheap', { node: 'quiet', readyAgoMs: 600_000, cost: '-5' }),
    ];
    assert.deepEqual(names(rankPodsForDeletion(pods, [...pods, ...related], NOW)), ['cheap', 'busy', 'quiet', 'expensive']);
  });

  it('then ready for less time first (in log2 buckets), then more restarts, then newer first', () => {
    const pods = [
      pod('ready-long', { node: 'n', readyAgoMs: 3_600_000 }),
      pod('ready-recently', { node: 'n', readyAgoMs: 10_000 }),
      pod('restarted', { node: 'n', readyAgoMs: 3_600_000, restarts: 3 }),
    ];
    assert.deepEqual(names(rankPodsForDeletion(pods, [], NOW)), ['ready-recently', 'restarted', 'ready-long']);
    const byAge = [pod('old', { node: 'n', createdAgoMs: 3_600_000 }), pod('new', { node: 'n', createdAgoMs: 60_000 })];
    assert.deepEqual(names(rankPodsForDeletion(byAge, [], NOW)), ['new', 'old']);
  });

  it('treats ages in the same power-of-two bucket as equal and breaks the tie by uid', () => {
    // 1.1 s and 1.5 s ago: both between 2^30 and 2^31 ns.
    const pods = [pod('b', { node: 'n', createdAgoMs: 1100, uid: 'uid-b' }), pod('a', { node: 'n', createdAgoMs: 1500, uid: 'uid-a' })];
    assert.deepEqual(names(rankPodsForDeletion(pods, [], NOW)), ['a', 'b']);
  });

  it('takes the first `count` pods, and all of them without ranking when all go', () => {
    const pods = [pod('ready', { node: 'n', readyAgoMs: 600_000 }), pod('unready', { node: 'n' }), pod('unassigned')];
    assert.deepEqual(names(podsToDelete(pods, pods, 2, NOW)), ['unassigned', 'unready']);
    assert.deepEqual(names(podsToDelete(pods, pods, 3, NOW)), ['ready', 'unready', 'unassigned']);
  });
});
