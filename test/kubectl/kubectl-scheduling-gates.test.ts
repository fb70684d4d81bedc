/**
 * The real kubectl (the newest installed that can apply) with the docs' gated pod
 * (kubernetes/website content/en/examples/pods/pod-with-scheduling-gates.yaml): `kubectl get pod`
 * shows SchedulingGated, adding a gate is refused with the API server's words, and removing the
 * gates lets the scheduler bind it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const newest = applyCapableVersionsUnderTest(installedKubectls()).at(-1);

// Like the conformance suite, this runs only where a kubectl that can apply is installed.
if (newest) {
  describe(`kubectl 1.${newest.minor} with a gated pod against the simulator`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;

    before(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-gates-'));
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(newest.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('shows SchedulingGated, refuses a new gate and schedules the pod once the gates are gone', async () => {
      const applied = await kubectl('apply', '-f', 'test/corpus/docs/pods/pod-with-scheduling-gates.yaml');
      assert.equal(applied.code, 0, applied.stderr);
      const listed = await kubectl('get', 'pod', 'test-pod');
      assert.match(listed.stdout, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\ntest-pod\s+0\/1\s+SchedulingGated\s+0\s+\S+\n$/);
      const message = await kubectl('get', 'pod', 'test-pod', '-o', 'jsonpath={.status.conditions[?(@.type=="PodScheduled")].message}');
      assert.equal(message.stdout, 'Scheduling is blocked due to non-empty scheduling gates');

      const added = await kubectl('patch', 'pod', 'test-pod', '--type=json', '-p', '[{"op":"add","path":"/spec/schedulingGates/-","value":{"name":"example.com/baz"}}]');
      assert.notEqual(added.code, 0);
      assert.match(added.stderr, /spec\.schedulingGates\[2\]\.name: Forbidden: only deletion is allowed, but found new scheduling gate 'example\.com\/baz'/);

      const removed = await kubectl('patch', 'pod', 'test-pod', '--type=json', '-p', '[{"op":"remove","path":"/spec/schedulingGates"}]');
      assert.equal(removed.code, 0, removed.stderr);
      const status = await until('the released pod to run', async () => {
        const { stdout } = await kubectl('get', 'pod', 'test-pod', '--no-headers');
        return /\sRunning\s/.test(stdout) ? stdout : undefined;
      });
      assert.match(status, /^test-pod\s+1\/1\s+Running\s+0\s/);
    });
  });
}
