import assert from 'node:assert/strict';
import { Backoff } from '../../../src/sim/kubelet/backoff';
import { CONTAINER_STATUS_UNKNOWN_MESSAGE, hostIPsOf } from '../../../src/sim/kubelet/pod-status';
import { PodWorker, type NodeServices } from '../../../src/sim/kubelet/pod-worker';
import { ContainerRuntime } from '../../../src/sim/kubelet/runtime';
import { makeHarness, type Harness, type PodObject } from './harness';

function deletedBy(h: Harness, pod: string): string[] {
  return h.internals
    .snapshot()
    .steps.filter((s) => s.type === 'etcdWrite' && s.verb === 'delete' && s.object.name === pod)
    .map((s) => (s.type === 'etcdWrite' ? s.actor : ''));
}

describe('kubelet: graceful deletion', () => {
  it('stops the containers, reports them terminated, then deletes the pod', () => {
    const h = makeHarness();
    h.createPod('web', [{ name: 'nginx', image: 'nginx:1.25' }]);
    h.runFor(30_000);
    const before = h.timeline.length;
    const deleteAt = h.clock.now();
    const marked = h.store.delete('Pod', 'default', 'web');
    assert.ok(marked.metadata?.deletionTimestamp, 'the store marks a bound pod for graceful deletion');
    h.runFor(40_000);
    const after = h.timeline.slice(before).filter((e) => e.pod === 'web');
    assert.deepEqual(after.map((e) => `${e.kind}: ${e.text}`), [
      'event: Normal Killing Stopping container nginx',
      'status: Succeeded Ready=False nginx=terminated:Completed',
      'deleted: deleted',
    ]);
    const final = (after[1].object as PodObject).status!;
    assert.equal(final.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status, 'False');
    assert.equal(final.conditions?.find((c) => c.type === 'Ready')?.reason, 'PodCompleted');
    assert.ok(after[2].time - deleteAt < 2000, `deleted after ${after[2].time - deleteAt} ms`);
    assert.deepEqual(deletedBy(h, 'web'), ['kubelet']);
    assert.equal(h.pod('web'), undefined);
  });

  it('waits the grace period for a process that ignores SIGTERM, then kills it', () => {
    const h = makeHarness();
    h.createPod('sleeper', [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }], { terminationGracePeriodSeconds: 5 });
    h.runFor(30_000);
    const deleteAt = h.clock.now();
    h.store.delete('Pod', 'default', 'sleeper');
    h.runFor(30_000);
    const final = h.statuses('sleeper').at(-1)!;
    const terminated = (final.object as PodObject).status!.containerStatuses![0].state?.terminated;
    assert.deepEqual([terminated?.exitCode, terminated?.reason], [137, 'Error']);
    assert.equal((final.object as PodObject).status?.phase, 'Failed');
    assert.ok(final.time - deleteAt >= 5000 && final.time - deleteAt < 6000, `stopped after ${final.time - deleteAt} ms`);
    assert.equal(h.pod('sleeper'), undefined);
  });

  it('finishes a pod deleted while its image is still being pulled', () => {
    const h = makeHarness();
    h.createPod('early', [{ name: 'nginx', image: 'nginx:1.25' }]);
    h.runFor(1000);
    h.store.delete('Pod', 'default', 'early');
    h.runFor(10_000);
    const texts = h.events('early').map((e) => e.text);
    assert.deepEqual(texts, ['Normal Pulling Pulling image "nginx:1.25"']);
    const final = (h.statuses('early').at(-1)!.object as PodObject).status!;
    assert.deepEqual(final.containerStatuses![0].state, { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: CONTAINER_STATUS_UNKNOWN_MESSAGE } });
    assert.equal(h.pod('early'), undefined);
  });

  it('drops its work when the pod is deleted outright', () => {
    const h = makeHarness();
    h.createPod('gone', [{ name: 'nginx', image: 'nginx:1.25' }]);
    h.runFor(700);
    h.store.delete('Pod', 'default', 'gone', { gracePeriodSeconds: 0 });
    const deletedAt = h.clock.now();
    h.runFor(60_000);
    assert.deepEqual(h.timeline.filter((e) => e.pod === 'gone' && e.time > deletedAt), []);
    assert.equal(h.fleet.kubelet('node-1')?.podCount, 0);
  });

  it('drops a pod whose status write finds it gone, and never writes to a namesake', () => {
    const h = makeHarness({ nodes: [] });
    const stale = h.store.create<PodObject>('Pod', { metadata: { name: 'racy', namespace: 'default' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } });
    h.store.delete('Pod', 'default', 'racy');
    h.store.create('Pod', { metadata: { name: 'racy', namespace: 'default' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } });
    const forgotten: string[] = [];
    const services: NodeServices = {
      ctx: h.ctx,
      nodeName: 'node-1',
      hostIP: '172.18.0.2',
      hostIPs: hostIPsOf('172.18.0.2'),
      eventSource: { component: 'kubelet', host: 'node-1' },
      runtime: new ContainerRuntime(h.clock, h.ctx.timings, [], () => undefined),
      imageBackoff: new Backoff(),
      restartBackoff: new Backoff(),
      allocatePodIP: () => '10.244.0.2',
      releasePodIP: () => undefined,
      reservePodIP: () => undefined,
      forget: (uid) => forgotten.push(uid),
    };
    new PodWorker(services, stale);
    h.runFor(60_000);
    assert.deepEqual(forgotten, [stale.metadata?.uid]);
    assert.equal(h.pod('racy')?.status, undefined);
    assert.deepEqual(h.events(), []);
  });
});
