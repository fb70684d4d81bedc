/**
 * A simulator restored from another's objects (the twin's `restore` option): the objects keep
 * their uids and state, the kubelets adopt the Running pods without starting them again, the
 * scheduler counts them, and a rollout or a deletion of a copied pod goes through as on the
 * original.
 */
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../src/core/k8s';
import { cloneJson } from '../../../src/common/json';
import { Simulator } from '../../../src/sim/simulator';
import { nginxDeployment } from '../controllers/harness';

type PodObject = Pod & KubeObject;

const KINDS = ['Namespace', 'Node', 'StorageClass', 'Deployment', 'ReplicaSet', 'Pod'] as const;

/** Every object of the kinds a twin copies, as copies, in restore order. */
function copyOf(simulator: Simulator): KubeObject[] {
  return KINDS.flatMap((kind) => simulator.store.list(kind).items.map((object) => cloneJson(object)));
}

function running(simulator: Simulator, name: string): PodObject[] {
  return simulator.store.list<PodObject>('Pod').items.filter((pod) => pod.metadata?.labels?.app === name && pod.status?.phase === 'Running' && !pod.metadata.deletionTimestamp);
}

function startedEvents(simulator: Simulator): number {
  return simulator.store.list('Event').items.filter((event) => (event as { reason?: string }).reason === 'Started').length;
}

describe('Simulator restore (a twin)', () => {
  let original: Simulator;

  beforeEach(() => {
    original = new Simulator({ nodes: 3, seed: 5 });
    original.apply(nginxDeployment('web', 3));
    assert.equal(original.runUntil(() => running(original, 'web').length === 3 && running(original, 'web').every((pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')), 120_000), 'done');
  });

  it('keeps the objects with their uids and state, and the kubelets adopt the pods without starting them again', () => {
    const twin = new Simulator({ seed: 9, restore: copyOf(original), startTime: original.clock.now() });
    assert.deepEqual(twin.store.list('Node').items.map((node) => node.metadata?.name), ['node-1', 'node-2', 'node-3'], 'the original nodes and no others');
    const before = running(twin, 'web').map((pod) => `${pod.metadata?.uid} ${pod.metadata?.resourceVersion} ${pod.status?.podIP}`);
    assert.deepEqual(
      running(twin, 'web').map((pod) => pod.metadata?.uid),
      running(original, 'web').map((pod) => pod.metadata?.uid),
    );
    twin.runUntil(() => false, 30_000);
    assert.equal(startedEvents(twin), 0, 'no container was started again');
    assert.deepEqual(
      running(twin, 'web').map((pod) => `${pod.metadata?.uid} ${pod.metadata?.resourceVersion} ${pod.status?.podIP}`),
      before,
      'the pods were left as they were: no status write, same IPs',
    );
    assert.equal(twin.store.list('ReplicaSet').items.length, 1, 'no new ReplicaSet');
  });

  it('counts the copied pods when scheduling', () => {
    const twin = new Simulator({ seed: 9, restore: copyOf(original), startTime: original.clock.now() });
    // 3 cpu of each node's allocatable (3.92) are taken by copied pods that request them.
    const hog = nginxDeployment('hog', 3);
    hog.spec!.template.spec!.containers[0].resources = { requests: { cpu: '3' } };
    original.apply(hog);
    original.runUntil(() => running(original, 'hog').length === 3, 120_000);
    const busy = new Simulator({ seed: 9, restore: copyOf(original), startTime: original.clock.now() });
    const big: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '2' } } }] } };
    busy.apply(big);
    twin.apply(cloneJson(big));
    const bound = (simulator: Simulator): boolean => Boolean(simulator.store.get<PodObject>('Pod', 'default', 'big')?.spec?.nodeName);
    twin.runUntil(() => bound(twin), 10_000);
    busy.runUntil(() => false, 10_000);
    assert.ok(bound(twin), 'fits on a twin whose pods request nothing');
    assert.equal(bound(busy), false);
    const failed = busy.store.list('Event').items.find((event) => (event as { reason?: string }).reason === 'FailedScheduling') as { message?: string } | undefined;
    assert.match(failed?.message ?? '', /^0\/3 nodes are available: 3 Insufficient cpu\./);
  });

  it('rolls a changed Deployment over, stopping the adopted pods through their kubelets', () => {
    const twin = new Simulator({ seed: 9, restore: copyOf(original), startTime: original.clock.now() });
    const oldUids = new Set(running(twin, 'web').map((pod) => pod.metadata?.uid));
    twin.apply(nginxDeployment('web', 3, 'nginx:1.27'));
    const rolledOver = (): boolean => {
      const pods = twin.store.list<PodObject>('Pod').items;
      return pods.length === 3 && pods.every((pod) => pod.status?.phase === 'Running' && pod.spec?.containers[0].image === 'nginx:1.27');
    };
    assert.equal(twin.runUntil(rolledOver, 300_000), 'done');
    assert.ok(twin.store.list('Pod').items.every((pod) => !oldUids.has(pod.metadata?.uid)), 'every old pod is gone');
    assert.equal(twin.store.list('ReplicaSet').items.length, 2);
  });
});
