import assert from 'node:assert/strict';
import type { DeploymentObject, PodObject, ReplicaSetObject } from '../../../src/sim/controllers/controller-types';
import { computePodTemplateHash } from '../../../src/sim/controllers/pod-template-hash';
import { nginxDeployment, QuotaStore, setImage, setup, type Harness } from './harness';

type Strategy = NonNullable<NonNullable<DeploymentObject['spec']>['strategy']>;

function rollingUpdate(maxSurge: number | string, maxUnavailable: number | string): Strategy {
  return { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } };
}

function scalingEvents(h: Harness): string[] {
  return h.recorded.filter((e) => e.reason === 'ScalingReplicaSet').map((e) => e.message);
}

function activePods(h: Harness, rs: ReplicaSetObject): PodObject[] {
  return h.pods(rs).filter((p) => !p.metadata?.deletionTimestamp);
}

describe('DeploymentController', () => {
  it('creates ReplicaSet <deployment>-<pod-template-hash> with the hash label, owner reference and annotations', () => {
    const h = setup({ readyAfterMs: 1000 });
    const d = h.store.create('Deployment', nginxDeployment('web', 3));
    h.run(10);
    const hash = computePodTemplateHash(d.spec!.template);
    const [rs] = h.replicaSets('web');
    assert.equal(rs.metadata!.name, `web-${hash}`);
    assert.deepEqual(rs.metadata!.labels, { app: 'web', 'pod-template-hash': hash });
    assert.deepEqual(rs.spec!.selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
    assert.deepEqual(rs.spec!.template!.metadata!.labels, { app: 'web', 'pod-template-hash': hash });
    assert.equal(rs.spec!.replicas, 3);
    assert.deepEqual(rs.metadata!.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(rs.metadata!.annotations, {
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
      'deployment.kubernetes.io/revision': '1',
    });
    assert.equal(h.deployment('web').metadata!.annotations!['deployment.kubernetes.io/revision'], '1');
    const scaled = h.recorded.find((e) => e.reason === 'ScalingReplicaSet')!;
    assert.deepEqual(scaled, { kind: 'Deployment', name: 'web', type: 'Normal', reason: 'ScalingReplicaSet', message: `Scaled up replica set web-${hash} from 0 to 3`, component: 'deployment-controller' });
    for (const pod of h.pods(rs)) assert.equal(pod.metadata!.labels!['pod-template-hash'], hash);
  });

  it('reports Progressing and Available while pods start, and the final status once all are Ready', () => {
    const h = setup({ readyAfterMs: 1500 });
    h.store.create('Deployment', nginxDeployment('web', 3));
    h.run(6);
    const rsName = h.replicaSets('web')[0].metadata!.name!;
    const conditions = (): string[][] => h.deployment('web').status!.conditions!.map((c) => [c.type!, c.status, c.reason!, c.message!]);
    assert.deepEqual(conditions(), [
      ['Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${rsName}"`],
      ['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'],
    ]);
    h.run(100);
    // The pods exist (updatedReplicas grew): progress, which moves Progressing last, as kubectl describe shows it.
    assert.deepEqual(conditions(), [
      ['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'],
      ['Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${rsName}" is progressing.`],
    ]);
    h.run(5000);
    assert.deepEqual(h.deployment('web').status, {
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: [
        { type: 'Available', status: 'True', lastUpdateTime: '2026-01-01T12:00:01Z', lastTransitionTime: '2026-01-01T12:00:01Z', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
        { type: 'Progressing', status: 'True', lastUpdateTime: '2026-01-01T12:00:01Z', lastTransitionTime: '2026-01-01T12:00:00Z', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rsName}" has successfully progressed.` },
      ],
    });
    const settled = h.store.currentResourceVersion();
    h.run(700_000);
    assert.equal(h.store.currentResourceVersion(), settled, 'settled: no further writes, even after the progress deadline');
    assert.equal(h.clock.pending(), 0, 'and nothing left scheduled');
  });

  describe('rolling update', () => {
    const cases: { replicas: number; strategy: Strategy; surge: number; unavailable: number; expect?: (oldRS: string, newRS: string) => string[] }[] = [
      {
        replicas: 3,
        strategy: rollingUpdate(1, 0),
        surge: 1,
        unavailable: 0,
        expect: (o, n) => [
          `Scaled up replica set ${n} from 0 to 1`,
          `Scaled down replica set ${o} from 3 to 2`,
          `Scaled up replica set ${n} from 1 to 2`,
          `Scaled down replica set ${o} from 2 to 1`,
          `Scaled up replica set ${n} from 2 to 3`,
          `Scaled down replica set ${o} from 1 to 0`,
        ],
      },
      {
        replicas: 2,
        strategy: rollingUpdate(0, 1),
        surge: 0,
        unavailable: 1,
        expect: (o, n) => [
          `Scaled down replica set ${o} from 2 to 1`,
          `Scaled up replica set ${n} from 0 to 1`,
          `Scaled down replica set ${o} from 1 to 0`,
          `Scaled up replica set ${n} from 1 to 2`,
        ],
      },
      {
        replicas: 4,
        strategy: rollingUpdate('25%', '25%'),
        surge: 1,
        unavailable: 1,
        expect: (o, n) => [
          // One more than desired and one fewer available: the first step does both.
          `Scaled up replica set ${n} from 0 to 1`,
          `Scaled down replica set ${o} from 4 to 3`,
          `Scaled up replica set ${n} from 1 to 2`,
          `Scaled down replica set ${o} from 3 to 1`,
          `Scaled up replica set ${n} from 2 to 4`,
          `Scaled down replica set ${o} from 1 to 0`,
        ],
      },
      { replicas: 10, strategy: rollingUpdate(3, 2), surge: 3, unavailable: 2 },
      { replicas: 7, strategy: rollingUpdate('0%', '40%'), surge: 0, unavailable: 2 },
      { replicas: 5, strategy: rollingUpdate('1%', '1%'), surge: 1, unavailable: 0 },
    ];

    for (const c of cases) {
      const label = `${c.replicas} replicas, maxSurge ${String(c.strategy.rollingUpdate!.maxSurge)}, maxUnavailable ${String(c.strategy.rollingUpdate!.maxUnavailable)}`;
      it(`${label}: stays within ${c.replicas + c.surge} pods and ${c.replicas - c.unavailable} available, and ends on the new ReplicaSet`, () => {
        const h = setup({ readyAfterMs: 1000 });
        h.store.create('Deployment', nginxDeployment('web', c.replicas, 'nginx:1.25', c.strategy));
        h.run(3000);
        const [oldRS] = h.replicaSets('web');
        const before = scalingEvents(h).length;

        let maxTotal = 0;
        let minReady = Infinity;
        const check = (): void => {
          const all = h.replicaSets('web');
          maxTotal = Math.max(maxTotal, all.reduce((sum, rs) => sum + (rs.spec?.replicas ?? 0), 0));
          const ready = all.flatMap((rs) => activePods(h, rs)).filter((p) => p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')).length;
          minReady = Math.min(minReady, ready);
        };
        h.store.subscribe('ReplicaSet', check);
        h.store.subscribe('Pod', check);

        setImage(h, 'web', 'nginx:1.26');
        h.run(60_000);

        const all = h.replicaSets('web');
        assert.equal(all.length, 2);
        const newRS = all[1];
        assert.notEqual(newRS.metadata!.name, oldRS.metadata!.name);
        assert.equal(all[0].spec!.replicas, 0);
        assert.equal(h.pods(all[0]).length, 0);
        assert.equal(newRS.spec!.replicas, c.replicas);
        assert.equal(activePods(h, newRS).length, c.replicas);
        assert.ok(maxTotal <= c.replicas + c.surge, `at most ${c.replicas + c.surge} replicas, saw ${maxTotal}`);
        assert.ok(minReady >= c.replicas - c.unavailable, `at least ${c.replicas - c.unavailable} ready, saw ${minReady}`);
        assert.equal(newRS.metadata!.annotations!['deployment.kubernetes.io/revision'], '2');
        assert.equal(h.deployment('web').metadata!.annotations!['deployment.kubernetes.io/revision'], '2');
        const status = h.deployment('web').status!;
        assert.equal(status.observedGeneration, 2);
        assert.equal(status.updatedReplicas, c.replicas);
        assert.equal(status.availableReplicas, c.replicas);
        assert.equal(status.conditions!.find((x) => x.type === 'Progressing')!.message, `ReplicaSet "${newRS.metadata!.name}" has successfully progressed.`);
        if (c.expect) assert.deepEqual(scalingEvents(h).slice(before), c.expect(oldRS.metadata!.name!, newRS.metadata!.name!));
      });
    }
  });

  it('Recreate: scales the old ReplicaSet to 0, waits until its pods are gone, then scales the new one up', () => {
    const h = setup({ readyAfterMs: 1000 });
    h.store.create('Deployment', nginxDeployment('web', 3, 'nginx:1.25', { type: 'Recreate' }));
    h.run(3000);
    const [oldRS] = h.replicaSets('web');
    // Bound pods are deleted gracefully: they stay until their kubelet (absent here) finishes.
    for (const pod of h.pods(oldRS)) {
      h.store.mutate<PodObject>('Pod', 'default', pod.metadata!.name!, (copy) => {
        copy.spec!.nodeName = 'node-1';
      });
    }
    setImage(h, 'web', 'nginx:1.26');
    h.run(5000);
    assert.equal(h.replicaSets('web').length, 1, 'no new ReplicaSet while old pods are terminating');
    assert.deepEqual(scalingEvents(h).slice(1), [`Scaled down replica set ${oldRS.metadata!.name} from 3 to 0`]);
    for (const pod of h.pods(oldRS)) h.store.delete('Pod', 'default', pod.metadata!.name!, { gracePeriodSeconds: 0 });
    h.run(5000);
    const [, newRS] = h.replicaSets('web');
    assert.deepEqual(scalingEvents(h).slice(2), [`Scaled up replica set ${newRS.metadata!.name} from 0 to 3`]);
    assert.equal(activePods(h, newRS).length, 3);
    assert.equal(h.deployment('web').status!.availableReplicas, 3);
  });

  it('marks the rollout ProgressDeadlineExceeded once progressDeadlineSeconds pass without progress', () => {
    const h = setup({ readyAfterMs: 1000, readyIf: (pod) => pod.spec?.containers[0].image !== 'nginx:broken' });
    const d = nginxDeployment('web', 2, 'nginx:1.25', rollingUpdate(1, 0));
    d.spec!.progressDeadlineSeconds = 30;
    h.store.create('Deployment', d);
    h.run(3000);
    setImage(h, 'web', 'nginx:broken');
    h.run(20_000);
    const newRS = h.replicaSets('web')[1].metadata!.name!;
    const progressing = (): { status: string; reason?: string; message?: string } => {
      const c = h.deployment('web').status!.conditions!.find((x) => x.type === 'Progressing')!;
      return { status: c.status, reason: c.reason, message: c.message };
    };
    assert.deepEqual(progressing(), { status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${newRS}" is progressing.` });
    h.run(15_000);
    assert.deepEqual(progressing(), { status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${newRS}" has timed out progressing.` });
    const available = h.deployment('web').status!.conditions!.find((x) => x.type === 'Available')!;
    assert.equal(available.reason, 'MinimumReplicasAvailable', 'the old pods still serve');
  });

  it('keeps revisionHistoryLimit old ReplicaSets and deletes older ones', () => {
    const h = setup({ readyAfterMs: 500 });
    const d = nginxDeployment('web', 1);
    d.spec!.revisionHistoryLimit = 1;
    h.store.create('Deployment', d);
    h.run(2000);
    for (const image of ['nginx:1.26', 'nginx:1.27', 'nginx:1.28']) {
      setImage(h, 'web', image);
      h.run(10_000);
    }
    const revisions = h.replicaSets('web').map((rs) => [rs.metadata!.annotations!['deployment.kubernetes.io/revision'], rs.spec!.template!.spec!.containers[0].image]);
    assert.deepEqual(revisions, [['3', 'nginx:1.27'], ['4', 'nginx:1.28']]);
  });

  it('rolls back to an old template by reusing its ReplicaSet with a new revision and a revision-history', () => {
    const h = setup({ readyAfterMs: 500 });
    h.store.create('Deployment', nginxDeployment('web', 2));
    h.run(2000);
    const first = h.replicaSets('web')[0].metadata!.name!;
    setImage(h, 'web', 'nginx:1.26');
    h.run(10_000);
    setImage(h, 'web', 'nginx:1.25');
    h.run(10_000);
    const rs = h.store.read<ReplicaSetObject>('ReplicaSet', 'default', first);
    assert.equal(rs.metadata!.annotations!['deployment.kubernetes.io/revision'], '3');
    assert.equal(rs.metadata!.annotations!['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(rs.spec!.replicas, 2);
    assert.equal(h.replicaSets('web').length, 2);
  });

  it('scales a settled Deployment through its only active ReplicaSet', () => {
    const h = setup({ readyAfterMs: 500 });
    h.store.create('Deployment', nginxDeployment('web', 3));
    h.run(2000);
    h.store.mutate<DeploymentObject>('Deployment', 'default', 'web', (copy) => {
      copy.spec!.replicas = 5;
    });
    h.run(2000);
    const rs = h.replicaSets('web')[0];
    assert.deepEqual(scalingEvents(h), [`Scaled up replica set ${rs.metadata!.name} from 0 to 3`, `Scaled up replica set ${rs.metadata!.name} from 3 to 5`]);
    assert.equal(rs.metadata!.annotations!['deployment.kubernetes.io/desired-replicas'], '5');
    assert.equal(rs.metadata!.annotations!['deployment.kubernetes.io/max-replicas'], '7');
    assert.equal(h.deployment('web').status!.availableReplicas, 5);
  });

  it('scales proportionally when replicas change in the middle of a rollout', () => {
    const h = setup({ readyAfterMs: 500, readyIf: (pod) => pod.spec?.containers[0].image !== 'nginx:broken' });
    h.store.create('Deployment', nginxDeployment('web', 10, 'nginx:1.25', rollingUpdate(3, 2)));
    h.run(2000);
    setImage(h, 'web', 'nginx:broken');
    h.run(5000);
    const [oldRS, newRS] = h.replicaSets('web');
    // New at 3 (surge), old down 2 (maxUnavailable), new up 2 more: 13 pods, 8 of them available.
    assert.deepEqual([oldRS.spec!.replicas, newRS.spec!.replicas], [8, 5]);
    const before = scalingEvents(h).length;
    h.store.mutate<DeploymentObject>('Deployment', 'default', 'web', (copy) => {
      copy.spec!.replicas = 20;
    });
    h.run(5000);
    // 23 allowed (20 + surge 3), 13 now: old gets round(8 * 23 / 13) - 8 = 6, new round(5 * 23 / 13) - 5 = 4.
    assert.deepEqual(scalingEvents(h).slice(before), [`Scaled up replica set ${oldRS.metadata!.name} from 8 to 14`, `Scaled up replica set ${newRS.metadata!.name} from 5 to 9`]);
  });

  it('warns about an empty selector instead of selecting every pod', () => {
    const h = setup();
    const d = nginxDeployment('web', 1);
    d.spec!.selector = {};
    h.store.create('Deployment', d);
    h.run(10);
    assert.equal(h.replicaSets('web').length, 0);
    // Every sync repeats the warning (the recorder aggregates repeats into one Event with a count).
    assert.deepEqual(new Set(h.recorded.map((e) => `${e.type} ${e.reason} ${e.message}`)), new Set(['Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required.']));
    assert.equal(h.deployment('web').status!.observedGeneration, 1);
  });

  it('marks a paused Deployment and does not roll it out until resumed', () => {
    const h = setup({ readyAfterMs: 500 });
    h.store.create('Deployment', nginxDeployment('web', 2));
    h.run(2000);
    h.store.mutate<DeploymentObject>('Deployment', 'default', 'web', (copy) => {
      copy.spec!.paused = true;
      copy.spec!.template.spec!.containers[0].image = 'nginx:1.26';
    });
    h.run(5000);
    assert.equal(h.replicaSets('web').length, 1);
    const progressing = (): string | undefined => h.deployment('web').status!.conditions!.find((c) => c.type === 'Progressing')!.reason;
    assert.equal(progressing(), 'DeploymentPaused');
    h.store.mutate<DeploymentObject>('Deployment', 'default', 'web', (copy) => {
      copy.spec!.paused = false;
    });
    h.run(10_000);
    assert.equal(h.replicaSets('web').length, 2);
    assert.equal(progressing(), 'NewReplicaSetAvailable');
  });

  it('surfaces the ReplicaSet\'s ReplicaFailure (pods over quota) as a Deployment condition, and clears it', () => {
    let store: QuotaStore | undefined;
    const h = setup({ readyAfterMs: 500, makeStore: (options) => (store = new QuotaStore(options)) });
    store!.limit = 2;
    h.store.create('Deployment', nginxDeployment('web', 3));
    h.run(2000);
    const failure = h.deployment('web').status!.conditions!.find((c) => c.type === 'ReplicaFailure')!;
    assert.equal(failure.status, 'True');
    assert.equal(failure.reason, 'FailedCreate');
    assert.match(failure.message!, /^pods "web-[a-z0-9]+-" is forbidden: exceeded quota: pods/);
    assert.equal(failure.lastUpdateTime, failure.lastTransitionTime);
    store!.limit = Infinity;
    h.run(60_000);
    const status = h.deployment('web').status!;
    assert.equal(status.conditions!.find((c) => c.type === 'ReplicaFailure'), undefined);
    assert.equal(status.availableReplicas, 3);
  });
});
