/**
 * The real kubectl's view of init containers and sidecars on the simulator: `Init:0/1` while an
 * init container runs, then Running; a pod with a sidecar READY 2/2.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const PODS = `apiVersion: v1
kind: Pod
metadata:
  name: waits-first
spec:
  initContainers:
  - name: setup
    image: busybox:1.36
    command: ['sh', '-c', 'sleep 8']
  containers:
  - name: web
    image: nginx:1.25
---
apiVersion: v1
kind: Pod
metadata:
  name: with-sidecar
spec:
  initContainers:
  - name: logshipper
    image: alpine:3.20
    restartPolicy: Always
    command: ['sh', '-c', 'tail -F /opt/logs.txt']
  containers:
  - name: app
    image: alpine:3.20
    command: ['sh', '-c', 'while true; do echo logging >> /opt/logs.txt; sleep 1; done']
`;

const kubectls = applyCapableVersionsUnderTest(installedKubectls());
const newest = kubectls[kubectls.length - 1];

// Like the conformance suite, this runs only where a kubectl that can apply is installed.
if (newest) {
  describe(`kubectl ${newest.minor}: init containers and sidecars on the simulator`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;

    before(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-init-'));
      writeFileSync(join(dir, 'pods.yaml'), PODS);
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(newest.path, join(dir, 'kubeconfig'), dir);
      const applied = await kubectl('apply', '-f', join(dir, 'pods.yaml'));
      assert.equal(applied.code, 0, applied.stderr);
    });

    after(async () => {
      await simulator?.stop();
    });

    const row = async (name: string): Promise<string> => (await kubectl('get', 'pod', name, '--no-headers')).stdout;

    it('prints Init:0/1 while the init container runs, then Running 1/1', async () => {
      await until('waits-first in Init:0/1', async () => (/^waits-first\s+0\/1\s+Init:0\/1\s/.test(await row('waits-first')) ? true : undefined), 60_000);
      await until('waits-first Running', async () => (/^waits-first\s+1\/1\s+Running\s/.test(await row('waits-first')) ? true : undefined), 60_000);
    });

    it('counts the sidecar in READY: 2/2 Running', async () => {
      await until('with-sidecar 2/2 Running', async () => (/^with-sidecar\s+2\/2\s+Running\s+0\s/.test(await row('with-sidecar')) ? true : undefined), 60_000);
    });
  });
}
