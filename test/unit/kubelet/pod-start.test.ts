import assert from 'node:assert/strict';
import type { KubeObject, Node } from '../../../src/core/k8s';
import { makeHarness, type Harness, type PodObject, type TimelineEntry } from './harness';

const nginx = [{ name: 'nginx', image: 'nginx:1.25' }];

function texts(entries: TimelineEntry[]): string[] {
  return entries.map((e) => `${e.kind}: ${e.text}`);
}

function condition(pod: PodObject, type: string) {
  return pod.status?.conditions?.find((c) => c.type === type);
}

function conditionOrder(pod: PodObject): string[] {
  return (pod.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`);
}

describe('kubelet: starting a pod', () => {
  let h: Harness;
  let boundAt: number;

  beforeEach(() => {
    h = makeHarness();
    boundAt = h.clock.now();
    h.createPod('web-1', nginx);
    h.runFor(30_000);
  });

  it('writes status and events in the real order when the image must be pulled', () => {
    const pulled = /^event: Normal Pulled Successfully pulled image "nginx:1\.25" in [\d.]+m?s \([\d.]+m?s including waiting\)\. Image size: \d+ bytes\.$/;
    const timeline = texts(h.timeline.filter((e) => e.pod === 'web-1'));
    assert.equal(timeline.length, 6, timeline.join('\n'));
    assert.equal(timeline[0], 'status: Pending Ready=False nginx=waiting:ContainerCreating');
    assert.equal(timeline[1], 'event: Normal Pulling Pulling image "nginx:1.25"');
    assert.match(timeline[2], pulled);
    assert.equal(timeline[3], 'event: Normal Created Created container: nginx');
    assert.equal(timeline[4], 'event: Normal Started Started container nginx');
    assert.equal(timeline[5], 'status: Running Ready=True nginx=running+ready');
  });

  it('first reports the pod acknowledged: start time, host IP, no sandbox yet', () => {
    const first = h.statuses('web-1')[0].object as PodObject;
    const status = first.status!;
    assert.equal(status.phase, 'Pending');
    assert.equal(status.startTime, '2026-01-01T12:00:00Z');
    assert.equal(status.hostIP, '172.18.0.2');
    assert.deepEqual(status.hostIPs, [{ ip: '172.18.0.2' }]);
    assert.equal(status.podIP, undefined);
    assert.deepEqual(conditionOrder(first), ['PodReadyToStartContainers=False', 'Initialized=True', 'Ready=False', 'ContainersReady=False', 'PodScheduled=True']);
    for (const type of ['Ready', 'ContainersReady']) {
      assert.equal(condition(first, type)?.reason, 'ContainersNotReady');
      assert.equal(condition(first, type)?.message, 'containers with unready status: [nginx]');
    }
    assert.deepEqual(status.containerStatuses, [
      { name: 'nginx', state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false, restartCount: 0, image: 'nginx:1.25', imageID: '', started: false },
    ]);
  });

  it('then reports it running with its pod IP, the runtime image name and a container id', () => {
    const last = h.statuses('web-1').at(-1)!.object as PodObject;
    const status = last.status!;
    assert.equal(status.phase, 'Running');
    assert.equal(status.podIP, '10.244.0.2');
    assert.deepEqual(status.podIPs, [{ ip: '10.244.0.2' }]);
    assert.deepEqual(conditionOrder(last), ['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    const container = status.containerStatuses![0];
    assert.equal(container.image, 'docker.io/library/nginx:1.25');
    assert.match(container.imageID, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.match(container.containerID ?? '', /^containerd:\/\/[0-9a-f]{64}$/);
    assert.equal(container.started, true);
    assert.match(container.state?.running?.startedAt ?? '', /^2026-01-01T12:00:0\dZ$/);
    // Initialized never changed, so it keeps its first transition time.
    assert.equal(condition(last, 'Initialized')?.lastTransitionTime, '2026-01-01T12:00:00Z');
  });

  it('takes realistic time: about 0.5 s to Pulling, a few seconds to pull, Running right after Started', () => {
    const events = h.events('web-1');
    const pulling = events[0].time - boundAt;
    assert.ok(pulling > 300 && pulling < 800, `Pulling after ${pulling} ms`);
    const pull = events[1].time - events[0].time;
    assert.ok(pull > 1500 && pull < 6000, `pull took ${pull} ms`);
    const running = h.statuses('web-1').at(-1)!.time - events[3].time;
    assert.ok(running > 0 && running < 200, `Running ${running} ms after Started`);
  });

  it('finds the image already present for a second pod on the same node', () => {
    h.createPod('web-2', nginx);
    h.runFor(10_000);
    assert.deepEqual(texts(h.timeline.filter((e) => e.pod === 'web-2')), [
      'status: Pending Ready=False nginx=waiting:ContainerCreating',
      'event: Normal Pulled Container image "nginx:1.25" already present on machine',
      'event: Normal Created Created container: nginx',
      'event: Normal Started Started container nginx',
      'status: Running Ready=True nginx=running+ready',
    ]);
    assert.equal(h.pod('web-2')?.status?.podIP, '10.244.0.3');
  });

  it('pulls again under imagePullPolicy Always', () => {
    h.createPod('web-always', [{ name: 'nginx', image: 'nginx:1.25', imagePullPolicy: 'Always' }]);
    h.runFor(10_000);
    const events = h.events('web-always').map((e) => e.text);
    assert.equal(events[0], 'Normal Pulling Pulling image "nginx:1.25"');
    assert.match(events[1], /^Normal Pulled Successfully pulled image "nginx:1\.25" in \d+ms/);
  });

  it('records kubelet events with the node as host', () => {
    for (const event of h.events('web-1')) assert.deepEqual(event.source, { component: 'kubelet', host: 'node-1' });
  });

  it('lists pulled images in the node status at the next node status update', () => {
    const node = h.store.get<Node & KubeObject>('Node', undefined, 'node-1');
    const names = (node?.status?.images ?? []).flatMap((image) => image.names ?? []);
    assert.ok(names.includes('docker.io/library/nginx:1.25'), names.join(', '));
  });
});

describe('kubelet: concurrent pulls on one node', () => {
  it('serializes pulls: the second pod waits for the first and reports the wait', () => {
    const h = makeHarness();
    h.createPod('a', nginx);
    h.createPod('b', nginx);
    h.runFor(30_000);
    const pulledA = h.events('a').find((e) => e.text.includes('Pulled'))!;
    const pulledB = h.events('b').find((e) => e.text.includes('Pulled'))!;
    assert.ok(h.events('b').some((e) => e.text === 'Normal Pulling Pulling image "nginx:1.25"'));
    assert.ok(pulledB.time > pulledA.time);
    const match = /in (\d+)ms \(([\d.]+)s including waiting\)/.exec(pulledB.text);
    assert.ok(match, pulledB.text);
    assert.ok(Number(match[1]) < 1000 && Number(match[2]) > 1, pulledB.text);
    assert.notEqual(h.pod('a')?.status?.podIP, h.pod('b')?.status?.podIP);
  });

  it('gives pods on different nodes IPs from each node pod CIDR', () => {
    const h = makeHarness({ nodes: [{ name: 'node-1' }, { name: 'node-2' }] });
    h.createPod('a', nginx, {}, 'node-1');
    h.createPod('b', nginx, {}, 'node-2');
    h.runFor(30_000);
    assert.equal(h.pod('a')?.status?.podIP, '10.244.0.2');
    assert.equal(h.pod('b')?.status?.podIP, '10.244.1.2');
    assert.equal(h.pod('b')?.status?.hostIP, '172.18.0.3');
  });

  it('leaves pods on unknown nodes and unbound pods alone', () => {
    const h = makeHarness();
    h.store.create('Pod', { metadata: { name: 'unbound', namespace: 'default' }, spec: { containers: nginx } });
    h.createPod('elsewhere', nginx, {}, 'node-9');
    h.runFor(30_000);
    assert.deepEqual(h.timeline, []);
  });

  it('starts a pod when the scheduler binds it later', () => {
    const h = makeHarness();
    h.store.create('Pod', { metadata: { name: 'late', namespace: 'default' }, spec: { containers: nginx } });
    h.runFor(1000);
    h.store.mutate<PodObject>('Pod', 'default', 'late', (pod) => {
      pod.spec!.nodeName = 'node-1';
    });
    h.runFor(30_000);
    assert.equal(h.pod('late')?.status?.phase, 'Running');
  });
});

describe('kubelet: cost per pod', () => {
  it('starts a pod with two status writes and a handful of timers, and then goes quiet', () => {
    const nodes = Array.from({ length: 20 }, (_, i) => ({ name: `node-${i + 1}` }));
    const h = makeHarness({ nodes });
    const pods = 400;
    for (let i = 0; i < pods; i++) h.createPod(`p-${i}`, nginx, {}, `node-${(i % 20) + 1}`);
    let timers = 0;
    while (h.clock.step()) timers++;
    assert.equal(h.store.list<PodObject>('Pod').items.filter((p) => p.status?.phase === 'Running').length, pods);
    assert.equal(h.statuses().length, 2 * pods);
    // Per pod: first sync, sandbox, image check, (pull), create, start, status sync; plus one node status write per node.
    assert.ok(timers <= 7 * pods + nodes.length, `${timers} timers for ${pods} pods`);
    assert.equal(h.clock.pending(), 0);
  });
});
