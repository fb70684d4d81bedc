/**
 * ReplicationControllers through the whole simulated control plane: kube-apiserver's defaulting
 * and validation, the ReplicaSet controller serving them as upstream's replication manager does,
 * and the garbage collector.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Event, KubeObject, Pod, ReplicationController } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';
import { ApiError } from '../../../src/sim/store/types';

const DOCS = path.join(__dirname, '../../fixtures/docs-examples/replicationcontroller');
const docsExample = (file: string) => parseYaml(readFileSync(path.join(DOCS, file), 'utf8')) as KubeObject;

const MINUTE = 60_000;

function podsOf(simulator: Simulator, rc: KubeObject): Pod[] {
  return simulator.store.ownedBy<Pod & KubeObject>('Pod', rc.metadata?.uid ?? '').filter((pod) => !pod.metadata?.deletionTimestamp);
}

function readRC(simulator: Simulator, name: string): ReplicationController {
  return simulator.store.read<ReplicationController & KubeObject>('ReplicationController', 'default', name);
}

function eventsFor(simulator: Simulator, name: string): Event[] {
  return simulator.store.list<Event & KubeObject>('Event', { namespace: 'default' }).items.filter((event) => event.involvedObject.kind === 'ReplicationController' && event.involvedObject.name === name);
}

function createError(simulator: Simulator, object: KubeObject): ApiError {
  try {
    simulator.store.create('ReplicationController', object, { fieldManager: 'kubectl' });
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  return assert.fail('the create was accepted');
}

const rcWith = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name: 'bad', namespace: 'default' },
  spec: { template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } }, ...spec },
});

describe('ReplicationController', () => {
  it('runs the docs example: three pods owned by a v1 controller reference, events from replication-controller, ready counts', () => {
    const simulator = new Simulator({ seed: 7 });
    const rc = simulator.apply({ ...docsExample('replication.yaml'), metadata: { name: 'nginx', namespace: 'default' } }).object;
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.readyReplicas === 3, 5 * MINUTE);
    const pods = podsOf(simulator, rc);
    assert.equal(pods.length, 3);
    for (const pod of pods) {
      assert.match(pod.metadata?.name ?? '', /^nginx-[a-z0-9]{5}$/);
      assert.deepEqual(pod.metadata?.labels, { app: 'nginx' });
      assert.deepEqual(pod.metadata?.ownerReferences, [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'nginx', uid: rc.metadata?.uid, controller: true, blockOwnerDeletion: true }]);
    }
    const status = readRC(simulator, 'nginx').status;
    assert.equal(status?.replicas, 3);
    assert.equal(status?.availableReplicas, 3);
    assert.equal(status?.observedGeneration, 1);
    const created = eventsFor(simulator, 'nginx').filter((event) => event.reason === 'SuccessfulCreate');
    assert.equal(created.length, 3);
    for (const event of created) {
      assert.equal(event.source?.component, 'replication-controller');
      assert.match(event.message ?? '', /^Created pod: nginx-[a-z0-9]{5}$/);
    }
  });

  it('defaults the selector, the labels and the replicas from the template, as SetDefaults_ReplicationController does', () => {
    const simulator = new Simulator({ seed: 1 });
    const created = simulator.apply({ ...docsExample('replication-nginx-1.14.2.yaml'), metadata: { name: 'my-nginx', namespace: 'default' } }).object;
    assert.deepEqual((created.spec as { selector?: unknown }).selector, { app: 'nginx' });
    assert.deepEqual(created.metadata?.labels, { app: 'nginx' });
    const bare = simulator.store.create('ReplicationController', rcWith({}), { fieldManager: 'kubectl' });
    assert.equal((bare.spec as { replicas?: number }).replicas, 1);
    assert.equal((bare.spec as { template: { spec: { restartPolicy?: string } } }).template.spec.restartPolicy, 'Always');
  });

  it('scales down and up, deleting and creating pods with the ReplicaSet events', () => {
    const simulator = new Simulator({ seed: 2 });
    const rc = simulator.apply({ ...docsExample('replication.yaml'), metadata: { name: 'nginx', namespace: 'default' } }).object;
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.readyReplicas === 3, 5 * MINUTE);
    simulator.store.mutate<KubeObject>('ReplicationController', 'default', 'nginx', (copy) => {
      (copy.spec as { replicas: number }).replicas = 1;
    }, { fieldManager: 'kubectl' });
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.replicas === 1 && podsOf(simulator, rc).length === 1, 5 * MINUTE);
    assert.equal(podsOf(simulator, rc).length, 1);
    const deleted = eventsFor(simulator, 'nginx').filter((event) => event.reason === 'SuccessfulDelete');
    assert.equal(deleted.length, 2);
    assert.match(deleted[0].message ?? '', /^Deleted pod: nginx-[a-z0-9]{5}$/);
    simulator.store.mutate<KubeObject>('ReplicationController', 'default', 'nginx', (copy) => {
      (copy.spec as { replicas: number }).replicas = 4;
    }, { fieldManager: 'kubectl' });
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.readyReplicas === 4, 5 * MINUTE);
    assert.equal(podsOf(simulator, rc).length, 4);
  });

  it('cascades a background delete to its pods, and leaves them running on an orphan delete', () => {
    const simulator = new Simulator({ seed: 3 });
    const rc = simulator.apply({ ...docsExample('replication.yaml'), metadata: { name: 'nginx', namespace: 'default' } }).object;
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.readyReplicas === 3, 5 * MINUTE);
    simulator.store.delete('ReplicationController', 'default', 'nginx', { propagationPolicy: 'Background' });
    simulator.runUntil(() => simulator.store.list('Pod', { namespace: 'default' }).items.length === 0, 5 * MINUTE);
    assert.equal(simulator.store.list('Pod', { namespace: 'default' }).items.length, 0);

    const again = simulator.apply({ ...docsExample('replication.yaml'), metadata: { name: 'nginx', namespace: 'default' } }).object;
    assert.notEqual(again.metadata?.uid, rc.metadata?.uid);
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.readyReplicas === 3, 5 * MINUTE);
    simulator.store.delete('ReplicationController', 'default', 'nginx', { propagationPolicy: 'Orphan' });
    simulator.runUntil(() => simulator.store.get('ReplicationController', 'default', 'nginx') === undefined, 5 * MINUTE);
    const left = simulator.store.list<Pod & KubeObject>('Pod', { namespace: 'default' }).items;
    assert.equal(left.length, 3);
    for (const pod of left) assert.equal(pod.metadata?.ownerReferences, undefined);
  });

  it('adopts the pods an orphaning delete left behind when a controller with the same selector comes back', () => {
    const simulator = new Simulator({ seed: 4 });
    simulator.apply({ ...docsExample('replication.yaml'), metadata: { name: 'nginx', namespace: 'default' } });
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.readyReplicas === 3, 5 * MINUTE);
    simulator.store.delete('ReplicationController', 'default', 'nginx', { propagationPolicy: 'Orphan' });
    simulator.runUntil(() => simulator.store.get('ReplicationController', 'default', 'nginx') === undefined, 5 * MINUTE);
    const orphans = simulator.store.list<Pod & KubeObject>('Pod', { namespace: 'default' }).items.map((pod) => pod.metadata?.name).sort();

    const replacement = simulator.apply({ ...docsExample('replication.yaml'), metadata: { name: 'nginx', namespace: 'default' } }).object;
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.readyReplicas === 3, 5 * MINUTE);
    assert.deepEqual(podsOf(simulator, replacement).map((pod) => pod.metadata?.name).sort(), orphans);
    assert.equal(eventsFor(simulator, 'nginx').filter((event) => event.reason === 'SuccessfulCreate').length, 3, 'only the first controller created pods');
  });

  it('releases a pod whose labels stop matching and replaces it; a matching bare pod is adopted instead of a new one', () => {
    const simulator = new Simulator({ seed: 5 });
    const rc = simulator.apply({ ...docsExample('replication.yaml'), metadata: { name: 'nginx', namespace: 'default' } }).object;
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.readyReplicas === 3, 5 * MINUTE);
    const isolated = podsOf(simulator, rc)[0].metadata?.name ?? '';
    simulator.store.mutate<KubeObject>('Pod', 'default', isolated, (copy) => {
      copy.metadata!.labels = { app: 'debug' };
    }, { fieldManager: 'kubectl' });
    simulator.runUntil(() => podsOf(simulator, rc).length === 3 && !podsOf(simulator, rc).some((pod) => pod.metadata?.name === isolated), 5 * MINUTE);
    const released = simulator.store.read<Pod & KubeObject>('Pod', 'default', isolated);
    assert.equal(released.metadata?.ownerReferences, undefined);
    assert.equal(podsOf(simulator, rc).length, 3);

    simulator.store.mutate<KubeObject>('ReplicationController', 'default', 'nginx', (copy) => {
      (copy.spec as { replicas: number }).replicas = 4;
    }, { fieldManager: 'kubectl' });
    simulator.store.mutate<KubeObject>('Pod', 'default', isolated, (copy) => {
      copy.metadata!.labels = { app: 'nginx' };
    }, { fieldManager: 'kubectl' });
    simulator.runUntil(() => readRC(simulator, 'nginx').status?.replicas === 4, 5 * MINUTE);
    assert.ok(podsOf(simulator, rc).some((pod) => pod.metadata?.name === isolated), 'the relabeled pod is adopted back');
    assert.equal(simulator.store.list('Pod', { namespace: 'default' }).items.length, 4);
  });

  describe('validation (ValidateReplicationController)', () => {
    it('refuses a selector that does not match the template labels', () => {
      const error = createError(new Simulator(), rcWith({ selector: { app: 'web' } }));
      assert.equal(error.code, 422);
      assert.equal(error.message, 'ReplicationController "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`');
    });

    it('requires a template, from which the selector would default', () => {
      const error = createError(new Simulator(), { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'bad', namespace: 'default' }, spec: { replicas: 1 } });
      assert.equal(error.message, 'ReplicationController "bad" is invalid: [spec.selector: Required value, spec.template: Required value]');
    });

    it('accepts only restartPolicy Always and no activeDeadlineSeconds in the template', () => {
      const template = { metadata: { labels: { app: 'nginx' } }, spec: { restartPolicy: 'Never', activeDeadlineSeconds: 30, containers: [{ name: 'nginx', image: 'nginx' }] } };
      const error = createError(new Simulator(), rcWith({ template }));
      assert.deepEqual(
        error.details?.causes?.map((cause) => `${cause.field}: ${cause.message}`),
        ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"', 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported'],
      );
    });

    it('refuses negative replicas, and lets the selector change on update', () => {
      const simulator = new Simulator();
      assert.match(createError(simulator, rcWith({ replicas: -1 })).message, /spec\.replicas: Invalid value: -1: must be greater than or equal to 0/);
      simulator.store.create('ReplicationController', rcWith({}), { fieldManager: 'kubectl' });
      const updated = simulator.store.mutate<KubeObject>('ReplicationController', 'default', 'bad', (copy) => {
        const spec = copy.spec as { selector: Record<string, string>; template: { metadata: { labels: Record<string, string> } } };
        spec.selector = { app: 'nginx', tier: 'web' };
        spec.template.metadata.labels = { app: 'nginx', tier: 'web' };
      }, { fieldManager: 'kubectl' });
      assert.deepEqual((updated.spec as { selector: unknown }).selector, { app: 'nginx', tier: 'web' });
    });
  });
});
