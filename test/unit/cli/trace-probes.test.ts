/**
 * `trace` of pods whose liveness probe the simulator knows will fail later: it watches until the
 * kubelet has killed and restarted the container, instead of ending at the first Ready, and a
 * probe that keeps succeeding does not make it watch longer.
 */
import assert from 'node:assert/strict';
import type { Container } from '../../../src/core/k8s';
import { lastingFailureAfterStartMs } from '../../../src/cli/probe-horizon';
import { traceCaptured as trace } from './capture';

const execLiveness: Container = {
  name: 'liveness',
  image: 'registry.k8s.io/busybox:1.27.2',
  args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
  livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
};

describe('kube-journey trace: probes that fail later', () => {
  it('knows when a probe starts failing for good, and that a passing one never does', () => {
    assert.equal(lastingFailureAfterStartMs(execLiveness.livenessProbe!, execLiveness), 30_001);
    const nginx: Container = { name: 'web', image: 'nginx:1.25', livenessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 3 } };
    assert.equal(lastingFailureAfterStartMs(nginx.livenessProbe!, nginx), undefined);
    const missingPath: Container = { name: 'web', image: 'nginx:1.25', livenessProbe: { httpGet: { path: '/_status/healthz', port: 80 }, initialDelaySeconds: 30 } };
    assert.equal(lastingFailureAfterStartMs(missingPath.livenessProbe!, missingPath), 30_001);
  });

  it('follows the docs’ exec-liveness pod past its first Ready to the liveness kill and the restart', async () => {
    const { code, out } = await trace('test/corpus/docs/pods/probe/exec-liveness.yaml');
    assert.equal(code, 0);
    assert.match(out, /^Pod default\/liveness-exec {2}\[complete\] {2}on node-\d · Running · 1\/1 ready · [1-9]\d* restarts?$/m);
    assert.match(out, /Unhealthy: Liveness probe failed: cat: can't\s+open '\/tmp\/healthy': No such file or directory/);
    assert.match(out, /Container liveness failed liveness probe, will\s+be restarted/);
  });

  it('ends a pod whose liveness probe keeps passing as before, with no restart', async () => {
    const { code, out } = await trace('test/corpus/docs/pods/probe/pod-with-tcp-socket-healthcheck.yaml');
    assert.equal(code, 0);
    assert.match(out, /^Pod default\/pod-with-tcp-socket-healthcheck {2}\[complete\] {2}on node-\d · Running · 1\/1 ready$/m);
    assert.doesNotMatch(out, /Liveness probe failed/);
  });
});
