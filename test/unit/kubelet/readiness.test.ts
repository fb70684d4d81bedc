import assert from 'node:assert/strict';
import type { Container } from '../../../src/core/k8s';

type Probe = NonNullable<Container['readinessProbe']>;
import { makeHarness, type Harness, type PodObject } from './harness';

function readyTimes(h: Harness, pod: string): { running: number; ready: number } {
  const statuses = h.statuses(pod);
  const running = statuses.find((e) => (e.object as PodObject).status?.phase === 'Running')!;
  const ready = statuses.find((e) => (e.object as PodObject).status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True')!;
  return { running: running.time, ready: ready.time };
}

/** Creates the pod bound to node-1 and returns when the kubelet took it (probe ticks count from there). */
function probePod(h: Harness, name: string, probe: Probe): number {
  const takenAt = h.clock.now();
  h.createPod(name, [{ name: 'app', image: 'registry.k8s.io/pause:3.10', readinessProbe: probe }]);
  return takenAt;
}

describe('kubelet: readiness probes', () => {
  it('keeps the pod unready until the first probe after initialDelaySeconds', () => {
    const h = makeHarness();
    const takenAt = probePod(h, 'slow', { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 10 });
    h.runFor(60_000);
    const statuses = h.statuses('slow');
    const running = statuses.find((e) => (e.object as PodObject).status?.phase === 'Running')!.object as PodObject;
    assert.equal(running.status?.containerStatuses?.[0].ready, false);
    assert.equal(running.status?.containerStatuses?.[0].started, true);
    const containersReady = running.status?.conditions?.find((c) => c.type === 'ContainersReady');
    assert.deepEqual([containersReady?.status, containersReady?.reason, containersReady?.message], ['False', 'ContainersNotReady', 'containers with unready status: [app]']);
    const times = readyTimes(h, 'slow');
    const startedAt = h.events('slow').find((e) => e.text.startsWith('Normal Started'))!.time;
    assert.ok(times.ready - startedAt >= 5000, `ready ${times.ready - startedAt} ms after start`);
    // Probes tick every periodSeconds from when the kubelet took the pod.
    const sinceTaken = times.ready - takenAt;
    assert.ok(sinceTaken % 10_000 < 20, `ready ${sinceTaken} ms after the kubelet took the pod`);
    const final = h.pod('slow')!.status!;
    assert.equal(final.containerStatuses?.[0].ready, true);
    assert.equal(final.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
  });

  it('probes right away when there is no initial delay', () => {
    const h = makeHarness();
    probePod(h, 'fast', { tcpSocket: { port: 80 }, periodSeconds: 10 });
    h.runFor(30_000);
    const times = readyTimes(h, 'fast');
    assert.ok(times.ready - times.running < 100, `ready ${times.ready - times.running} ms after running`);
  });

  it('waits for successThreshold successes in a row', () => {
    const h = makeHarness();
    probePod(h, 'strict', { exec: { command: ['true'] }, periodSeconds: 5, successThreshold: 3 });
    h.runFor(60_000);
    const times = readyTimes(h, 'strict');
    assert.ok(times.ready - times.running >= 10_000 && times.ready - times.running < 10_200, `ready ${times.ready - times.running} ms after running`);
  });
});
