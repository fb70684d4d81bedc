import assert from 'node:assert/strict';
import { Simulator } from '../../../src/sim/simulator';
import { ApiError } from '../../../src/sim/store/types';
import type { KubeObject } from '../../../src/core/k8s';

function deployment(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } } },
  };
}

function pod(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } };
}

describe('the simulator pod budget', () => {
  it('refuses a pod past the budget with 403 Forbidden naming the budget and how to raise it', () => {
    const simulator = new Simulator({ maxPods: 2, maxPodsHint: 'kube-journey --max-pods' });
    simulator.store.create('Pod', pod('a'));
    simulator.store.create('Pod', pod('b'));
    assert.throws(
      () => simulator.store.create('Pod', pod('c')),
      (error: unknown) =>
        error instanceof ApiError &&
        error.code === 403 &&
        error.reason === 'Forbidden' &&
        error.message === `pods "c" is forbidden: the simulator's pod budget of 2 pods is used up (raise it with kube-journey --max-pods)`,
    );
    assert.equal(simulator.store.list('Pod').items.length, 2);
  });

  it('frees budget when a pod is deleted, and leaves updates of existing pods alone', () => {
    const simulator = new Simulator({ maxPods: 1 });
    simulator.store.create('Pod', pod('a'));
    simulator.store.mutate('Pod', 'default', 'a', (copy) => {
      copy.metadata!.labels = { touched: 'yes' };
    });
    assert.throws(() => simulator.store.create('Pod', pod('b')), /pod budget of 1 pods/);
    simulator.store.delete('Pod', 'default', 'a', { gracePeriodSeconds: 0 });
    simulator.runUntil(() => simulator.store.get('Pod', 'default', 'a') === undefined, 60_000);
    assert.equal(simulator.podBudget.used, 0);
    simulator.store.create('Pod', pod('b'));
  });

  it('makes the ReplicaSet controller report FailedCreate with the generateName prefix, as for a quota, and stop at the budget', () => {
    const simulator = new Simulator({ maxPods: 5, maxPodsHint: 'kube-journey --max-pods' });
    simulator.apply(deployment('web', 8));
    simulator.runUntil(() => false, 120_000);
    assert.equal(simulator.store.list('Pod').items.length, 5);
    const [rs] = simulator.store.list('ReplicaSet').items;
    const prefix = `${rs.metadata?.name ?? ''}-`;
    const failed = simulator.store.list('Event').items.filter((e) => e.reason === 'FailedCreate');
    assert.ok(failed.length >= 1, 'a FailedCreate event');
    assert.equal(failed[0].message, `Error creating: pods "${prefix}" is forbidden: the simulator's pod budget of 5 pods is used up (raise it with kube-journey --max-pods)`);
    assert.equal(failed[0].type, 'Warning');
    const conditions = (rs.status as { conditions?: { type: string; reason: string; message: string }[] }).conditions ?? [];
    assert.deepEqual(
      conditions.map((c) => [c.type, c.reason]),
      [['ReplicaFailure', 'FailedCreate']],
    );
  });

  it('lets the 150,000-pod benchmark through by default', () => {
    assert.ok(new Simulator().podBudget.maxPods >= 150_000);
  });
});
