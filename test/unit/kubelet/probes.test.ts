/**
 * Liveness, readiness and startup probes through the simulated kubelet, on the docs' examples:
 * the exec probe that sees the script remove /tmp/healthy, agnhost's /healthz turning 500 after
 * 10 s, goproxy's TCP port, a probe on a port nothing serves, and a probe the simulator cannot
 * evaluate (assumed to succeed, and recorded as such).
 */
import assert from 'node:assert/strict';
import type { Container, KubeObject, Pod } from '../../../src/core/k8s';
import type { AssumedRunning } from '../../../src/core/internals';
import { Simulator } from '../../../src/sim/simulator';
import { probeOutcome } from '../../../src/sim/kubelet/probe-outcome';

type PodObject = Pod & KubeObject;

function pod(name: string, container: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [container] } };
}

function events(sim: Simulator, name: string): string[] {
  return sim.store
    .list<KubeObject>('Event', { namespace: 'default' })
    .items.filter((e) => (e.involvedObject as { name?: string }).name === name)
    .map((e) => `${String(e.reason)}: ${String(e.message)}`);
}

const EXEC_LIVENESS = {
  name: 'liveness',
  image: 'registry.k8s.io/busybox:1.27.2',
  args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
  livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
};

describe('probes in the simulated kubelet', () => {
  it('answers exec, HTTP and TCP probes from the behaviour model', () => {
    const exec = EXEC_LIVENESS as Container;
    const probe = EXEC_LIVENESS.livenessProbe;
    assert.deepEqual(probeOutcome(probe, exec, '10.244.1.5', 29_000), { ok: true });
    assert.deepEqual(probeOutcome(probe, exec, '10.244.1.5', 31_000), { ok: false, output: "cat: can't open '/tmp/healthy': No such file or directory\n" });
    const agnhost: Container = { name: 'l', image: 'registry.k8s.io/e2e-test-images/agnhost:2.40', args: ['liveness'] };
    const http = { httpGet: { path: '/healthz', port: 8080 } };
    assert.deepEqual(probeOutcome(http, agnhost, '10.244.1.5', 9_000), { ok: true });
    assert.deepEqual(probeOutcome(http, agnhost, '10.244.1.5', 11_000), { ok: false, output: 'HTTP probe failed with statuscode: 500' });
    const nginx: Container = { name: 'web', image: 'nginx:1.25', ports: [{ name: 'http', containerPort: 80 }] };
    assert.deepEqual(probeOutcome({ httpGet: { path: '/', port: 'http' } }, nginx, '10.244.1.5', 0), { ok: true });
    assert.deepEqual(probeOutcome({ httpGet: { path: '/healthz', port: 80 } }, nginx, '10.244.1.5', 0), { ok: false, output: 'HTTP probe failed with statuscode: 404' });
    assert.deepEqual(probeOutcome({ tcpSocket: { port: 8080 } }, nginx, '10.244.1.5', 0), { ok: false, output: 'dial tcp 10.244.1.5:8080: connect: connection refused' });
    assert.deepEqual(probeOutcome({ httpGet: { path: '/ready', port: 8080 } }, nginx, '10.244.1.5', 0), { ok: false, output: 'Get "http://10.244.1.5:8080/ready": dial tcp 10.244.1.5:8080: connect: connection refused' });
    const unknown = probeOutcome({ httpGet: { path: '/health', port: 3000 } }, { name: 'api', image: 'registry.example/api:1' }, '10.244.1.5', 0);
    assert.deepEqual(unknown, { ok: true, assumed: 'the simulator cannot evaluate HTTP probe on port 3000 of image registry.example/api:1' });
  });

  it('restarts the docs’ exec liveness container once /tmp/healthy is gone, with upstream’s events', () => {
    const sim = new Simulator({ seed: 2 });
    sim.store.create('Pod', pod('liveness-exec', { ...EXEC_LIVENESS }));
    const restarts = (): number => sim.store.get<PodObject>('Pod', 'default', 'liveness-exec')?.status?.containerStatuses?.[0]?.restartCount ?? 0;
    assert.equal(sim.runUntil(() => restarts() === 1, 180_000), 'done');
    const seen = events(sim, 'liveness-exec');
    assert.ok(seen.includes("Unhealthy: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n"), seen.join('\n'));
    assert.ok(seen.includes('Killing: Container liveness failed liveness probe, will be restarted'), seen.join('\n'));
    const last = sim.store.get<PodObject>('Pod', 'default', 'liveness-exec')?.status?.containerStatuses?.[0]?.lastState?.terminated;
    // sh as PID 1 ignores SIGTERM: killed when the 30 s grace period ends.
    assert.equal(last?.exitCode, 137);
  });

  it('keeps a container unready while its readiness probe fails, and gates liveness and readiness on the startup probe', () => {
    const sim = new Simulator({ seed: 2 });
    sim.store.create('Pod', pod('unready', { name: 'web', image: 'nginx:1.25', readinessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 5 } }));
    sim.store.create('Pod', pod('slow-start', { name: 'web', image: 'nginx:1.25', startupProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 20, periodSeconds: 10 }, readinessProbe: { httpGet: { path: '/', port: 80 } } }));
    const get = (name: string): PodObject => sim.store.get<PodObject>('Pod', 'default', name)!;
    let startedBeforeDelay = false;
    assert.equal(sim.runUntil(() => {
      const status = get('slow-start').status?.containerStatuses?.[0];
      const startedAt = status?.state?.running?.startedAt;
      if (status?.started && startedAt && sim.clock.now() - Date.parse(startedAt) < 19_000) startedBeforeDelay = true;
      return status?.ready === true;
    }, 120_000), 'done');
    assert.equal(startedBeforeDelay, false, 'started before the startup probe could pass');
    sim.runUntil(() => false, 30_000);
    assert.equal(get('unready').status?.containerStatuses?.[0]?.ready, false);
    assert.ok(events(sim, 'unready').includes('Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404'));
    assert.equal(get('unready').status?.containerStatuses?.[0]?.restartCount, 0, 'readiness failures never restart');
  });

  it('records a probe it cannot evaluate as an assumption', () => {
    const sim = new Simulator({ seed: 2 });
    sim.store.create('Pod', pod('api', { name: 'api', image: 'nginx:1.25', livenessProbe: { grpc: { port: 9000 } } }));
    sim.runUntil(() => false, 30_000);
    const steps = sim.internals.snapshot().steps.filter((s): s is AssumedRunning => s.type === 'assumedRunning');
    assert.deepEqual(steps.map((s) => [s.object.name, s.probe, s.reason]), [['api', 'liveness', 'the simulator cannot evaluate gRPC probes']]);
  });
});
