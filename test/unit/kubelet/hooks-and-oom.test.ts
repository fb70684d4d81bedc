/** Lifecycle hooks, SIGTERM and the memory limit as the pod worker drives them. */
import assert from 'node:assert/strict';
import type { Container } from '../../../src/core/k8s';
import { makeHarness, type Harness, type PodObject } from './harness';

function terminated(h: Harness, pod: string, container = 0): { exitCode?: number; reason?: string } | undefined {
  const status = (h.statuses(pod).at(-1)?.object as PodObject | undefined)?.status;
  return status?.containerStatuses?.[container].state?.terminated;
}

function eventTexts(h: Harness, pod: string, since = 0): string[] {
  return h.events(pod).filter((e) => e.time >= since).map((e) => e.text);
}

/** Deletes the pod and runs until it is gone; returns when the deletion was asked and when the last status was written. */
function deleteAndWait(h: Harness, pod: string): { deletedAt: number; finalStatusAt: number } {
  h.runFor(30_000);
  const deletedAt = h.clock.now();
  h.store.delete('Pod', 'default', pod);
  h.runFor(120_000);
  assert.equal(h.pod(pod), undefined, 'the pod is deleted in the end');
  return { deletedAt, finalStatusAt: h.statuses(pod).at(-1)!.time };
}

const nginxWithPreStop = (preStop: NonNullable<Container['lifecycle']>['preStop']): Container => ({ name: 'web', image: 'nginx:1.25', lifecycle: { preStop } });

describe('kubelet: lifecycle hooks, SIGTERM and memory limits', () => {
  describe('preStop', () => {
    it('runs before SIGTERM: `sleep 5` delays the stop by 5 s within the grace period', () => {
      const h = makeHarness();
      h.createPod('web', [nginxWithPreStop({ exec: { command: ['sh', '-c', 'sleep 5'] } })]);
      const { deletedAt, finalStatusAt } = deleteAndWait(h, 'web');
      assert.ok(finalStatusAt - deletedAt >= 5000 && finalStatusAt - deletedAt < 7000, `stopped after ${finalStatusAt - deletedAt} ms`);
      assert.deepEqual([terminated(h, 'web')?.exitCode, terminated(h, 'web')?.reason], [0, 'Completed']);
      assert.deepEqual(eventTexts(h, 'web', deletedAt), ['Normal Killing Stopping container web']);
    });

    it('a failing hook gives FailedPreStopHook with the message upstream records, and the container still stops', () => {
      const h = makeHarness();
      h.createPod('web', [nginxWithPreStop({ exec: { command: ['sh', '-c', 'exit 3'] } })]);
      const { deletedAt } = deleteAndWait(h, 'web');
      assert.deepEqual(eventTexts(h, 'web', deletedAt), ['Normal Killing Stopping container web', 'Warning FailedPreStopHook PreStopHook failed']);
      assert.equal(terminated(h, 'web')?.exitCode, 0);
    });

    it('a hook that outlasts the grace period is cut off, and the container gets the 2 s minimum before SIGKILL', () => {
      const h = makeHarness();
      h.createPod('slow', [{ name: 'app', image: 'busybox', command: ['sleep', '3600'], lifecycle: { preStop: { exec: { command: ['sleep', '60'] } } } }], { terminationGracePeriodSeconds: 10 });
      const { deletedAt, finalStatusAt } = deleteAndWait(h, 'slow');
      assert.ok(finalStatusAt - deletedAt >= 12_000 && finalStatusAt - deletedAt < 13_500, `stopped after ${finalStatusAt - deletedAt} ms`);
      assert.deepEqual([terminated(h, 'slow')?.exitCode, terminated(h, 'slow')?.reason], [137, 'Error']);
      assert.deepEqual(eventTexts(h, 'slow', deletedAt), ['Normal Killing Stopping container app', 'Warning FailedPreStopHook PreStopHook failed']);
    });

    it('an HTTP hook to a port the image serves succeeds whatever the status; to another port it fails', () => {
      const served = makeHarness();
      served.createPod('web', [nginxWithPreStop({ httpGet: { path: '/shutdown', port: 80 } })]);
      const first = deleteAndWait(served, 'web');
      assert.deepEqual(eventTexts(served, 'web', first.deletedAt), ['Normal Killing Stopping container web']);
      const refused = makeHarness();
      refused.createPod('web', [nginxWithPreStop({ httpGet: { path: '/shutdown', port: 9090 } })]);
      const second = deleteAndWait(refused, 'web');
      assert.deepEqual(eventTexts(refused, 'web', second.deletedAt), ['Normal Killing Stopping container web', 'Warning FailedPreStopHook PreStopHook failed']);
    });

    it('a hook the model cannot read is assumed to succeed, and recorded as an assumption naming the hook', () => {
      const h = makeHarness();
      h.createPod('web', [nginxWithPreStop({ exec: { command: ['/app/drain', '--timeout=5s'] } })]);
      const { deletedAt, finalStatusAt } = deleteAndWait(h, 'web');
      assert.ok(finalStatusAt - deletedAt < 2000, `stopped after ${finalStatusAt - deletedAt} ms`);
      const assumed = h.internals.snapshot().steps.filter((step) => step.type === 'assumedRunning' && step.hook !== undefined);
      assert.deepEqual(
        assumed.map((step) => (step.type === 'assumedRunning' ? [step.container, step.hook, step.reason] : [])),
        [['web', 'preStop', 'the simulator cannot read lifecycle hook: /app/drain --timeout=5s']],
      );
    });

    it('runs before a liveness kill too: the probe-failed container stops only after its preStop sleep', () => {
      const h = makeHarness();
      h.createPod('probed', [
        { ...nginxWithPreStop({ exec: { command: ['sh', '-c', 'sleep 5'] } }), livenessProbe: { httpGet: { path: '/', port: 9999 }, periodSeconds: 3, failureThreshold: 1 } },
      ]);
      h.runFor(40_000);
      const killing = h.events('probed').find((e) => e.text.includes('failed liveness probe, will be restarted'))!;
      const firstExit = h.statuses('probed').find((s) => (s.object as PodObject).status?.containerStatuses?.[0].lastState?.terminated || (s.object as PodObject).status?.containerStatuses?.[0].state?.terminated)!;
      assert.ok(firstExit.time - killing.time >= 5000, `stopped ${firstExit.time - killing.time} ms after the kill`);
    });

    it("the docs' lifecycle-events example: postStart writes a file, preStop quits nginx and waits for it", () => {
      const h = makeHarness();
      h.createPod('lifecycle-demo', [
        {
          name: 'lifecycle-demo-container',
          image: 'nginx',
          lifecycle: {
            postStart: { exec: { command: ['/bin/sh', '-c', 'echo Hello from the postStart handler > /usr/share/message'] } },
            preStop: { exec: { command: ['/bin/sh', '-c', 'nginx -s quit; while killall -0 nginx; do sleep 1; done'] } },
          },
        },
      ]);
      h.runFor(30_000);
      const running = (h.pod('lifecycle-demo')!.status?.containerStatuses ?? [])[0];
      assert.ok(running.state?.running, 'runs once the postStart hook is done');
      const { deletedAt, finalStatusAt } = deleteAndWait(h, 'lifecycle-demo');
      assert.ok(finalStatusAt - deletedAt < 2000, `nginx quit within ${finalStatusAt - deletedAt} ms`);
      assert.deepEqual([terminated(h, 'lifecycle-demo')?.exitCode, terminated(h, 'lifecycle-demo')?.reason], [0, 'Completed']);
      assert.deepEqual(eventTexts(h, 'lifecycle-demo', deletedAt), ['Normal Killing Stopping container lifecycle-demo-container']);
    });
  });

  describe('postStart', () => {
    it('holds the container from showing Running until the hook is done', () => {
      const h = makeHarness();
      h.createPod('slow-start', [{ name: 'web', image: 'nginx:1.25', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'sleep 8'] } } } }]);
      h.runFor(60_000);
      const started = h.events('slow-start').find((e) => e.text.startsWith('Normal Started'))!;
      const firstRunning = h.statuses('slow-start').find((s) => (s.object as PodObject).status?.containerStatuses?.[0].state?.running)!;
      assert.ok(firstRunning.time - started.time >= 8000, `shown running ${firstRunning.time - started.time} ms after the start`);
    });

    it('a failing hook gives FailedPostStartHook, kills the container and fails its start with PostStartHookError', () => {
      const h = makeHarness();
      const pod = h.createPod('bad-hook', [{ name: 'web', image: 'nginx:1.25', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 1'] } } } }]);
      h.runFor(30_000);
      const texts = eventTexts(h, 'bad-hook');
      const uid = pod.metadata!.uid!;
      assert.ok(
        texts.includes(`Warning FailedPostStartHook Exec lifecycle hook ([sh -c exit 1]) for Container "web" in Pod "bad-hook_default(${uid})" failed - error: command 'sh -c exit 1' exited with 1: , message: ""`),
        texts.join('\n'),
      );
      assert.ok(texts.includes('Normal Killing FailedPostStartHook'), texts.join('\n'));
      const waiting = (h.statuses('bad-hook').map((s) => (s.object as PodObject).status?.containerStatuses?.[0].state?.waiting?.reason));
      assert.ok(waiting.includes('PostStartHookError'), waiting.join(','));
      h.runFor(120_000);
      const last = (h.pod('bad-hook')!.status?.containerStatuses ?? [])[0];
      assert.ok((last.restartCount ?? 0) >= 2, `restarted ${last.restartCount} times`);
    });
  });

  describe('SIGTERM reaching the script', () => {
    it('a trap that exits stops the container within its loop sleep, not at the end of the grace period', () => {
      const h = makeHarness();
      h.createPod('trap', [{ name: 'app', image: 'busybox', command: ['sh', '-c', `trap 'exit 0' TERM; while true; do sleep 1; done`] }]);
      const { deletedAt, finalStatusAt } = deleteAndWait(h, 'trap');
      assert.ok(finalStatusAt - deletedAt < 3000, `stopped after ${finalStatusAt - deletedAt} ms`);
      assert.deepEqual([terminated(h, 'trap')?.exitCode, terminated(h, 'trap')?.reason], [0, 'Completed']);
    });
  });

  describe('memory limit', () => {
    const memoryDemo = (bytes: string, limit: string): Container => ({
      name: 'memory-demo-2-ctr',
      image: 'polinux/stress',
      resources: { requests: { memory: '50Mi' }, limits: { memory: limit } },
      command: ['stress'],
      args: ['--vm', '1', '--vm-bytes', bytes, '--vm-hang', '1'],
    });

    it("the docs' memory-request-limit-2: 250M under a 100Mi limit is OOMKilled (137), restarts and backs off", () => {
      const h = makeHarness();
      h.createPod('memory-demo-2', [memoryDemo('250M', '100Mi')]);
      h.runFor(120_000);
      const reasons = h.statuses('memory-demo-2').map((s) => (s.object as PodObject).status?.containerStatuses?.[0]);
      const oom = reasons.find((c) => c?.state?.terminated?.reason === 'OOMKilled');
      assert.equal(oom?.state?.terminated?.exitCode, 137);
      const last = h.pod('memory-demo-2')!.status!.containerStatuses![0];
      assert.ok((last.restartCount ?? 0) >= 2, `restarted ${last.restartCount} times`);
      assert.equal(last.lastState?.terminated?.reason, 'OOMKilled');
      assert.equal(last.state?.waiting?.reason, 'CrashLoopBackOff');
    });

    it("the docs' memory-request-limit: 150M under a 200Mi limit keeps running", () => {
      const h = makeHarness();
      h.createPod('memory-demo', [memoryDemo('150M', '200Mi')]);
      h.runFor(120_000);
      const last = h.pod('memory-demo')!.status!.containerStatuses![0];
      assert.ok(last.state?.running, JSON.stringify(last.state));
      assert.equal(last.restartCount, 0);
    });
  });
});
