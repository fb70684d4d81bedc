import assert from 'node:assert/strict';
import type { ContainerStatus } from '../../../src/core/k8s';
import { makeHarness, type Harness, type PodObject } from './harness';

const MINUTE = 60_000;

function statusOf(entryObject: unknown): ContainerStatus {
  return (entryObject as PodObject).status!.containerStatuses![0];
}

function waitingReasons(h: Harness, pod: string): string[] {
  const reasons: string[] = [];
  for (const entry of h.statuses(pod)) {
    const state = statusOf(entry.object).state ?? {};
    const reason = state.waiting?.reason ?? (state.running ? 'Running' : state.terminated?.reason) ?? '?';
    if (reasons.at(-1) !== reason) reasons.push(reason);
  }
  return reasons;
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]);
}

describe('kubelet: image pull failures', () => {
  const notFound = 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found';
  let h: Harness;

  beforeEach(() => {
    h = makeHarness();
    h.createPod('bad', [{ name: 'nginx', image: 'nginx:doesnotexist' }]);
    h.runFor(15 * MINUTE);
  });

  it('reports ErrImagePull, then backs off with ImagePullBackOff', () => {
    assert.deepEqual(h.events('bad').slice(0, 5).map((e) => e.text), [
      'Normal Pulling Pulling image "nginx:doesnotexist"',
      `Warning Failed Failed to pull image "nginx:doesnotexist": ${notFound}`,
      'Warning Failed Error: ErrImagePull',
      'Normal BackOff Back-off pulling image "nginx:doesnotexist"',
      'Warning Failed Error: ImagePullBackOff',
    ]);
    assert.deepEqual(waitingReasons(h, 'bad').slice(0, 4), ['ContainerCreating', 'ErrImagePull', 'ImagePullBackOff', 'ErrImagePull']);
  });

  it('puts the error in the waiting state and keeps the pod Pending', () => {
    const statuses = h.statuses('bad');
    const errImagePull = statuses.map((e) => statusOf(e.object)).find((s) => s.state?.waiting?.reason === 'ErrImagePull');
    assert.deepEqual(errImagePull?.state, { waiting: { reason: 'ErrImagePull', message: notFound } });
    const backOff = statuses.map((e) => statusOf(e.object)).find((s) => s.state?.waiting?.reason === 'ImagePullBackOff');
    assert.deepEqual(backOff?.state, { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:doesnotexist"' } });
    for (const entry of statuses) assert.equal((entry.object as PodObject).status?.phase, 'Pending');
    assert.equal(h.pod('bad')?.status?.podIP, '10.244.0.2');
  });

  it('retries with a back-off that doubles from 10 s up to 5 min', () => {
    const pulls = h.events('bad').filter((e) => e.text.startsWith('Normal Pulling')).map((e) => e.time);
    const between = gaps(pulls);
    assert.ok(between.length >= 6, `only ${pulls.length} pulls`);
    const backoffs = [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000];
    between.forEach((gap, i) => {
      // A retry happens at the first worker resync (every 10–15 s) after the back-off ends.
      assert.ok(gap >= backoffs[i] && gap <= backoffs[i] + 16_000, `retry ${i + 1} after ${gap} ms`);
    });
  });

  it('fails the same way for a missing repository and an unresolvable registry', () => {
    const other = makeHarness();
    other.createPod('repo', [{ name: 'app', image: 'myorg/nonexistent-app:v1' }]);
    other.createPod('host', [{ name: 'app', image: 'registry.invalid/app:v1' }]);
    other.runFor(5000);
    assert.match(other.events('repo')[1].text, /^Warning Failed Failed to pull image "myorg\/nonexistent-app:v1": rpc error: code = Unknown desc = .*pull access denied/);
    assert.match(other.events('host')[1].text, /^Warning Failed Failed to pull image "registry.invalid\/app:v1": rpc error: code = Unknown desc = .*no such host$/);
  });

  it('refuses to pull under imagePullPolicy Never', () => {
    const other = makeHarness();
    other.createPod('never', [{ name: 'app', image: 'nginx:1.25', imagePullPolicy: 'Never' }]);
    other.createPod('never-present', [{ name: 'app', image: 'registry.k8s.io/pause:3.10', imagePullPolicy: 'Never' }]);
    other.runFor(5000);
    // Every sync tries again (the second one soon after, when PLEG reports the new sandbox).
    assert.deepEqual(other.events('never').slice(0, 2).map((e) => e.text), [
      'Warning ErrImageNeverPull Container image "nginx:1.25" is not present with pull policy of Never',
      'Warning Failed Error: ErrImageNeverPull',
    ]);
    assert.equal(statusOf(other.pod('never')).state?.waiting?.reason, 'ErrImageNeverPull');
    assert.equal(other.events('never-present')[0].text, 'Normal Pulled Container image "registry.k8s.io/pause:3.10" already present on machine');
  });

  it('reports an unparsable image name as InvalidImageName', () => {
    const other = makeHarness();
    other.createPod('upper', [{ name: 'app', image: 'Nginx:1.25' }]);
    other.runFor(5000);
    const message = 'Failed to apply default image tag "Nginx:1.25": couldn\'t parse image name "Nginx:1.25": invalid reference format: repository name (library/Nginx) must be lowercase';
    assert.deepEqual(other.events('upper').slice(0, 2).map((e) => e.text), [`Warning InspectFailed ${message}`, 'Warning Failed Error: InvalidImageName']);
    assert.deepEqual(statusOf(other.pod('upper')).state, { waiting: { reason: 'InvalidImageName', message } });
  });
});

describe('kubelet: containers that exit', () => {
  it('restarts a crashing container with CrashLoopBackOff, 10 s doubling', () => {
    const h = makeHarness();
    const pod = h.createPod('crash', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }]);
    const description = `crash_default(${pod.metadata?.uid})`;
    h.runFor(10 * MINUTE);
    const starts = h.events('crash').filter((e) => e.text === 'Normal Started Started container app').map((e) => e.time);
    const between = gaps(starts);
    assert.ok(between[0] < 2000, `first restart after ${between[0]} ms`);
    [10_000, 20_000, 40_000, 80_000].forEach((backoff, i) => {
      assert.ok(between[i + 1] >= backoff && between[i + 1] <= backoff + 17_000, `restart ${i + 2} after ${between[i + 1]} ms`);
    });
    assert.ok(h.events('crash').some((e) => e.text === `Warning BackOff Back-off restarting failed container app in pod ${description}`));
    const crashLoops = h.statuses('crash').map((e) => statusOf(e.object)).filter((s) => s.state?.waiting?.reason === 'CrashLoopBackOff');
    assert.deepEqual(crashLoops.slice(0, 3).map((s) => s.state?.waiting?.message), [
      `back-off 10s restarting failed container=app pod=${description}`,
      `back-off 20s restarting failed container=app pod=${description}`,
      `back-off 40s restarting failed container=app pod=${description}`,
    ]);
    assert.equal(crashLoops[0].lastState?.terminated?.exitCode, 1);
    assert.equal(crashLoops[0].lastState?.terminated?.reason, 'Error');
    assert.equal(crashLoops[0].restartCount, 1);
    const final = statusOf(h.pod('crash'));
    assert.equal(final.restartCount, starts.length - 1);
    for (const entry of h.statuses('crash').slice(1)) assert.equal((entry.object as PodObject).status?.phase, 'Running');
  });

  it('shows the exit as Error with its code before backing off', () => {
    const h = makeHarness();
    h.createPod('exit3', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo bye; sleep 3; exit 3'] }]);
    h.runFor(30_000);
    assert.deepEqual(waitingReasons(h, 'exit3').slice(0, 4), ['ContainerCreating', 'Running', 'Error', 'Running']);
    const error = h.statuses('exit3').map((e) => statusOf(e.object)).find((s) => s.state?.terminated)!;
    assert.equal(error.state?.terminated?.exitCode, 3);
    const terminated = error.state!.terminated!;
    assert.ok(Date.parse(terminated.finishedAt!) - Date.parse(terminated.startedAt!) >= 2000);
  });

  it('honours restartPolicy Never: the pod fails and its sandbox goes away', () => {
    const h = makeHarness();
    h.createPod('once', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'exit 2'] }], { restartPolicy: 'Never' });
    h.runFor(2 * MINUTE);
    const status = h.pod('once')!.status!;
    assert.equal(status.phase, 'Failed');
    assert.equal(h.events('once').filter((e) => e.text.startsWith('Normal Started')).length, 1);
    assert.deepEqual(status.containerStatuses![0].state?.terminated?.exitCode, 2);
    const conditions = Object.fromEntries((status.conditions ?? []).map((c) => [c.type, `${c.status}/${c.reason ?? ''}`]));
    assert.deepEqual(conditions, {
      PodReadyToStartContainers: 'False/',
      Initialized: 'True/',
      Ready: 'False/PodFailed',
      ContainersReady: 'False/PodFailed',
      PodScheduled: 'True/',
    });
  });

  it('honours restartPolicy OnFailure: a clean exit completes the pod', () => {
    const h = makeHarness();
    h.createPod('job', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo done'] }], { restartPolicy: 'OnFailure' });
    h.createPod('retry', [{ name: 'app', image: 'busybox:1.36', command: ['false'] }], { restartPolicy: 'OnFailure' });
    h.runFor(2 * MINUTE);
    const job = h.pod('job')!.status!;
    assert.equal(job.phase, 'Succeeded');
    assert.equal(job.containerStatuses![0].state?.terminated?.reason, 'Completed');
    assert.equal(job.conditions?.find((c) => c.type === 'Ready')?.reason, 'PodCompleted');
    assert.equal(job.conditions?.find((c) => c.type === 'Initialized')?.reason, 'PodCompleted');
    assert.equal(h.pod('retry')!.status!.phase, 'Running');
    assert.ok(h.pod('retry')!.status!.containerStatuses![0].restartCount >= 3);
  });
});

describe('kubelet: init containers', () => {
  it('runs init containers one by one before the regular containers', () => {
    const h = makeHarness();
    h.createPod('init', [{ name: 'nginx', image: 'nginx:1.25' }], {
      initContainers: [
        { name: 'wait', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2'] },
        { name: 'setup', image: 'busybox:1.36', command: ['sh', '-c', 'until nslookup db; do sleep 1; done'] },
      ],
    });
    h.runFor(MINUTE);
    const first = h.statuses('init')[0].object as PodObject;
    const initialized = first.status?.conditions?.find((c) => c.type === 'Initialized');
    assert.deepEqual([initialized?.status, initialized?.reason, initialized?.message], ['False', 'ContainersNotInitialized', 'containers with incomplete status: [wait setup]']);
    assert.equal(first.status?.initContainerStatuses?.[0].state?.waiting?.reason, 'PodInitializing');
    assert.equal(first.status?.containerStatuses?.[0].state?.waiting?.reason, 'PodInitializing');
    const started = h.events('init').filter((e) => e.text.startsWith('Normal Started')).map((e) => e.text);
    assert.deepEqual(started, ['Normal Started Started container wait', 'Normal Started Started container setup', 'Normal Started Started container nginx']);
    const final = h.pod('init')!.status!;
    assert.equal(final.phase, 'Running');
    assert.deepEqual(final.initContainerStatuses?.map((s) => [s.state?.terminated?.reason, s.ready]), [['Completed', true], ['Completed', true]]);
    assert.equal(final.conditions?.find((c) => c.type === 'Initialized')?.status, 'True');
  });

  it('names every unready container', () => {
    const h = makeHarness();
    h.createPod('two', [{ name: 'a', image: 'nginx:1.25' }, { name: 'b', image: 'nginx:doesnotexist' }]);
    h.runFor(20_000);
    const ready = h.pod('two')!.status!.conditions!.find((c) => c.type === 'Ready');
    assert.equal(ready?.message, 'containers with unready status: [b]');
    assert.equal(h.pod('two')!.status!.phase, 'Pending');
    const first = h.statuses('two')[0].object as PodObject;
    assert.equal(first.status?.conditions?.find((c) => c.type === 'ContainersReady')?.message, 'containers with unready status: [a b]');
  });
});
