/**
 * The real kubectl (the newest installed that can apply) with the docs' memory example
 * (kubernetes/website content/en/examples/pods/resource/memory-request-limit-2.yaml: `stress`
 * allocating 250M under a 100Mi limit) and a graceful deletion: `kubectl get pods` shows
 * `OOMKilled` in STATUS, then the restarts, and `Terminating` while the grace period runs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const newest = applyCapableVersionsUnderTest(installedKubectls()).at(-1);

/** A shell as PID 1 ignores SIGTERM, so the pod stays Terminating for its whole grace period. */
const SLOW_TO_STOP = `apiVersion: v1
kind: Pod
metadata:
  name: slow-stop
spec:
  terminationGracePeriodSeconds: 600
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "sleep 3600"]
`;

// Like the conformance suite, this runs only where a kubectl that can apply is installed.
if (newest) {
  describe(`kubectl 1.${newest.minor}: OOMKilled and Terminating against the simulator`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-lifecycle-'));
      simulator = await runSimulator({ nodes: 3, speed: 5, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(newest.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it("shows the docs' memory example OOMKilled in STATUS, restarted, with lastState OOMKilled (137)", async () => {
      const namespace = await kubectl('create', 'namespace', 'mem-example');
      assert.equal(namespace.code, 0, namespace.stderr);
      const applied = await kubectl('apply', '-f', 'test/corpus/docs/pods/resource/memory-request-limit-2.yaml');
      assert.equal(applied.code, 0, applied.stderr);
      const oomKilled = await until('STATUS OOMKilled', async () => {
        const { stdout } = await kubectl('get', 'pods', '-n', 'mem-example', '--no-headers');
        return /^memory-demo-2\s+0\/1\s+OOMKilled\s/m.test(stdout) ? stdout : undefined;
      });
      assert.match(oomKilled, /^memory-demo-2\s+0\/1\s+OOMKilled\s+\d/);
      const restarted = await until('a restart after the OOM kill', async () => {
        const { stdout } = await kubectl('get', 'pod', 'memory-demo-2', '-n', 'mem-example', '-o', 'jsonpath={.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].lastState.terminated.reason} {.status.containerStatuses[0].lastState.terminated.exitCode}');
        return /^[1-9]\d* /.test(stdout) ? stdout : undefined;
      });
      assert.match(restarted, /^\d+ OOMKilled 137$/);
    });

    it('shows Terminating while a graceful deletion waits for a container that ignores SIGTERM', async () => {
      const file = join(dir, 'slow-stop.yaml');
      writeFileSync(file, SLOW_TO_STOP);
      const applied = await kubectl('apply', '-f', file);
      assert.equal(applied.code, 0, applied.stderr);
      await until('the pod to run', async () => {
        const { stdout } = await kubectl('get', 'pod', 'slow-stop', '--no-headers');
        return /\sRunning\s/.test(stdout) ? stdout : undefined;
      });
      const deleted = await kubectl('delete', 'pod', 'slow-stop', '--wait=false');
      assert.equal(deleted.code, 0, deleted.stderr);
      const listed = await kubectl('get', 'pod', 'slow-stop', '--no-headers');
      assert.match(listed.stdout, /^slow-stop\s+1\/1\s+Terminating\s+0\s/);
      const events = await until('the Killing event', async () => {
        const { stdout } = await kubectl('get', 'events', '--field-selector', 'involvedObject.name=slow-stop,reason=Killing', '-o', 'jsonpath={.items[*].message}');
        return stdout.trim() ? stdout : undefined;
      });
      assert.equal(events, 'Stopping container app');
    });
  });
}
