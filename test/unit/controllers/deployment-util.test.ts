import assert from 'node:assert/strict';
import type { DeploymentObject, ReplicaSetObject } from '../../../src/sim/controllers/controller-types';
import {
  calculateStatus,
  deploymentComplete,
  deploymentTimedOut,
  equalIgnoreHash,
  findNewReplicaSet,
  getProportion,
  maxSurge,
  maxUnavailable,
  newCondition,
  newRSNewReplicas,
  resolveFenceposts,
  semanticEqual,
  setCondition,
  setNewReplicaSetAnnotations,
  valueFromIntOrPercent,
} from '../../../src/sim/controllers/deployment-util';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function deployment(replicas: number, rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string }, extra: Partial<NonNullable<DeploymentObject['spec']>> = {}): DeploymentObject {
  return {
    metadata: { name: 'web', namespace: 'default', generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', ...(rollingUpdate ? { rollingUpdate } : {}) },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
      ...extra,
    },
  };
}

function replicaSet(name: string, replicas: number, status: { replicas?: number; readyReplicas?: number; availableReplicas?: number } = {}, annotations: Record<string, string> = {}, created = T0): ReplicaSetObject {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: new Date(created).toISOString(), annotations },
    spec: { replicas, selector: { matchLabels: { app: 'web' } } },
    status: { replicas: status.replicas ?? 0, readyReplicas: status.readyReplicas, availableReplicas: status.availableReplicas },
  };
}

describe('deployment-util', () => {
  describe('ResolveFenceposts', () => {
    // The upstream table (deployment_util_test.go TestResolveFenceposts) plus the default 25%/25%.
    const table: { surge?: string | number; unavailable?: string | number; desired: number; expect: [number, number] | 'error' }[] = [
      { surge: '0%', unavailable: '0%', desired: 0, expect: [0, 1] },
      { surge: '39%', unavailable: '39%', desired: 10, expect: [4, 3] },
      { surge: 'oops', unavailable: '39%', desired: 10, expect: 'error' },
      { surge: '55%', unavailable: 'urg', desired: 10, expect: 'error' },
      { surge: '5', unavailable: 1, desired: 10, expect: 'error' },
      { surge: undefined, unavailable: '39%', desired: 10, expect: [0, 3] },
      { surge: '39%', unavailable: undefined, desired: 10, expect: [4, 0] },
      { surge: undefined, unavailable: undefined, desired: 10, expect: [0, 1] },
      { surge: '25%', unavailable: '25%', desired: 1, expect: [1, 0] },
      { surge: '25%', unavailable: '25%', desired: 3, expect: [1, 0] },
      { surge: '25%', unavailable: '25%', desired: 4, expect: [1, 1] },
      { surge: '25%', unavailable: '25%', desired: 10, expect: [3, 2] },
      { surge: 2, unavailable: 0, desired: 5, expect: [2, 0] },
      { surge: 0, unavailable: '10%', desired: 5, expect: [0, 1] },
    ];
    for (const row of table) {
      it(`maxSurge ${String(row.surge)}, maxUnavailable ${String(row.unavailable)}, ${row.desired} desired → ${String(row.expect)}`, () => {
        if (row.expect === 'error') {
          assert.throws(() => resolveFenceposts(row.surge, row.unavailable, row.desired));
          return;
        }
        const { surge, unavailable } = resolveFenceposts(row.surge, row.unavailable, row.desired);
        assert.deepEqual([surge, unavailable], row.expect);
      });
    }

    it('rounds percentages of surge up and of unavailability down', () => {
      assert.equal(valueFromIntOrPercent('25%', 3, true), 1);
      assert.equal(valueFromIntOrPercent('25%', 3, false), 0);
      assert.equal(valueFromIntOrPercent(7, 3, false), 7);
    });

    it('applies the API defaults (25%/25%) and caps maxUnavailable at the replicas', () => {
      const d = deployment(4);
      delete d.spec!.strategy;
      assert.equal(maxSurge(d), 1);
      assert.equal(maxUnavailable(d), 1);
      assert.equal(maxUnavailable(deployment(3, { maxSurge: 0, maxUnavailable: 5 })), 3);
      assert.equal(maxUnavailable(deployment(0, { maxSurge: 1, maxUnavailable: 1 })), 0);
      const recreate = deployment(3);
      recreate.spec!.strategy = { type: 'Recreate' };
      assert.equal(maxSurge(recreate), 0);
      assert.equal(maxUnavailable(recreate), 0);
    });
  });

  describe('NewRSNewReplicas', () => {
    it('scales the new ReplicaSet up as far as the surge allows, never beyond spec.replicas', () => {
      const d = deployment(10, { maxSurge: 3, maxUnavailable: 2 });
      const old = replicaSet('old', 10);
      const fresh = replicaSet('new', 0);
      assert.equal(newRSNewReplicas(d, [old, fresh], fresh), 3);
      const grown = replicaSet('new', 3);
      assert.equal(newRSNewReplicas(d, [old, grown], grown), 3, 'at replicas + surge: no more');
      const shrunk = replicaSet('old', 2);
      assert.equal(newRSNewReplicas(d, [shrunk, grown], grown), 10, 'capped by spec.replicas');
    });

    it('gives Recreate all replicas at once', () => {
      const d = deployment(5);
      d.spec!.strategy = { type: 'Recreate' };
      assert.equal(newRSNewReplicas(d, [replicaSet('new', 0)], replicaSet('new', 0)), 5);
    });
  });

  describe('annotations', () => {
    it('sets revision, desired-replicas and max-replicas on a new ReplicaSet and copies the deployment annotations but the skipped ones', () => {
      const d = deployment(3);
      d.metadata!.annotations = { team: 'a', 'kubectl.kubernetes.io/last-applied-configuration': '{}', 'deployment.kubernetes.io/revision': '7' };
      const annotations: Record<string, string> = {};
      assert.equal(setNewReplicaSetAnnotations(d, annotations, 2, false), true);
      assert.deepEqual(annotations, {
        team: 'a',
        'deployment.kubernetes.io/revision': '2',
        'deployment.kubernetes.io/desired-replicas': '3',
        'deployment.kubernetes.io/max-replicas': '4',
      });
    });

    it('keeps a revision-history when a ReplicaSet is reused by a rollback', () => {
      const d = deployment(3);
      const annotations: Record<string, string> = { 'deployment.kubernetes.io/revision': '1' };
      setNewReplicaSetAnnotations(d, annotations, 3, true);
      assert.equal(annotations['deployment.kubernetes.io/revision'], '3');
      assert.equal(annotations['deployment.kubernetes.io/revision-history'], '1');
      setNewReplicaSetAnnotations(d, annotations, 5, true);
      assert.equal(annotations['deployment.kubernetes.io/revision-history'], '1,3');
      assert.equal(annotations['deployment.kubernetes.io/desired-replicas'], undefined, 'replica annotations only on creation');
      assert.equal(setNewReplicaSetAnnotations(d, annotations, 4, true), false, 'a lower revision changes nothing');
    });
  });

  describe('templates', () => {
    it('compares templates ignoring pod-template-hash and empty maps, as EqualIgnoreHash with Semantic.DeepEqual', () => {
      const d = deployment(1);
      const withHash = structuredClone(d.spec!.template);
      withHash.metadata!.labels!['pod-template-hash'] = 'abc';
      withHash.metadata!.annotations = {};
      assert.equal(equalIgnoreHash(d.spec!.template, withHash), true);
      const changed = structuredClone(withHash);
      changed.spec!.containers[0].image = 'nginx:1.26';
      assert.equal(equalIgnoreHash(d.spec!.template, changed), false);
      assert.equal(semanticEqual({ a: [] }, {}), true);
      assert.equal(semanticEqual({ a: 0 }, {}), false);
    });

    it('picks the oldest ReplicaSet with the template as the new one', () => {
      const d = deployment(1);
      const older = { ...replicaSet('a', 1, {}, {}, T0), spec: { ...replicaSet('a', 1).spec!, template: structuredClone(d.spec!.template) } };
      const newer = { ...replicaSet('b', 1, {}, {}, T0 + 1000), spec: { ...replicaSet('b', 1).spec!, template: structuredClone(d.spec!.template) } };
      assert.equal(findNewReplicaSet(d, [newer, older])?.metadata?.name, 'a');
    });
  });

  describe('proportional scaling', () => {
    it('gives each ReplicaSet its share of the new size by its max-replicas annotation', () => {
      // 10 → 20 replicas with maxSurge 3: a ReplicaSet of 5 sized for 13 grows to round(5 * 23 / 13) = 9.
      const d = deployment(20, { maxSurge: 3, maxUnavailable: 2 });
      const rs = replicaSet('old', 5, {}, { 'deployment.kubernetes.io/max-replicas': '13' });
      assert.equal(getProportion(rs, d, 10, 0), 4);
      assert.equal(getProportion(rs, d, 10, 8), 2, 'never more than what is left to add');
      // 10 → 5 replicas: the same ReplicaSet shrinks to round(5 * 8 / 13) = 3.
      const smaller = deployment(5, { maxSurge: 3, maxUnavailable: 2 });
      assert.equal(getProportion(rs, smaller, -5, 0), -2);
      assert.equal(getProportion(rs, smaller, -5, -4), -1, 'never more than what is left to remove');
    });
  });

  describe('status', () => {
    it('counts replicas from the ReplicaSets and sets Available by maxUnavailable', () => {
      const d = deployment(4, { maxSurge: 1, maxUnavailable: 1 });
      const old = replicaSet('old', 1, { replicas: 1, readyReplicas: 1, availableReplicas: 1 });
      const fresh = replicaSet('new', 4, { replicas: 4, readyReplicas: 2, availableReplicas: 2 });
      const status = calculateStatus([old, fresh], fresh, d, T0);
      assert.deepEqual({ ...status, conditions: undefined }, {
        observedGeneration: 1,
        replicas: 5,
        updatedReplicas: 4,
        readyReplicas: 3,
        availableReplicas: 3,
        unavailableReplicas: 2,
        conditions: undefined,
        collisionCount: undefined,
      });
      assert.deepEqual(status.conditions, [
        { type: 'Available', status: 'True', lastUpdateTime: '2026-01-01T12:00:00Z', lastTransitionTime: '2026-01-01T12:00:00Z', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
      ]);
      const short = calculateStatus([replicaSet('new', 4, { replicas: 4, availableReplicas: 2 })], undefined, d, T0);
      assert.equal(short.conditions?.[0].reason, 'MinimumReplicasUnavailable');
      assert.equal(short.conditions?.[0].message, 'Deployment does not have minimum availability.');
      assert.equal(deploymentComplete(d, status), false);
    });

    it('keeps lastTransitionTime while the status stays and moves a re-set condition last', () => {
      const status = { conditions: [newCondition('Progressing', 'True', 'NewReplicaSetCreated', 'Created new replica set "web-1"', T0)] };
      setCondition(status, newCondition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', T0));
      setCondition(status, newCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-1" is progressing.', T0 + 5000));
      assert.deepEqual(status.conditions.map((c) => c.type), ['Available', 'Progressing']);
      assert.equal(status.conditions[1].lastTransitionTime, '2026-01-01T12:00:00Z');
      assert.equal(status.conditions[1].lastUpdateTime, '2026-01-01T12:00:05Z');
    });

    it('times out when the Progressing condition was last updated more than progressDeadlineSeconds ago', () => {
      const d = deployment(1, undefined, { progressDeadlineSeconds: 60 });
      const status = { conditions: [newCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-1" is progressing.', T0)] };
      assert.equal(deploymentTimedOut(d, status, T0 + 60_000), false);
      assert.equal(deploymentTimedOut(d, status, T0 + 60_001), true);
      const done = { conditions: [newCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-1" has successfully progressed.', T0)] };
      assert.equal(deploymentTimedOut(d, done, T0 + 3_600_000), false);
      const unlimited = deployment(1, undefined, { progressDeadlineSeconds: 2147483647 });
      assert.equal(deploymentTimedOut(unlimited, status, T0 + 3_600_000), false);
    });
  });
});
