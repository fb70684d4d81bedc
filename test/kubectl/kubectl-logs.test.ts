/**
 * The real kubectl's `logs` against the simulator: the output of what the script model runs
 * (`echo`, `date`, `hostname`, `env`), timestamps from the virtual clock, the previous instance
 * of a restarted container, follow, the kubelet's errors, and one plain line for a program the
 * simulator cannot read.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const PODS = `apiVersion: v1
kind: Pod
metadata:
  name: envars
spec:
  restartPolicy: Never
  containers:
  - name: test
    image: busybox:1.28
    command: ["/bin/sh", "-c", "echo $GREETING $NAME; hostname; printenv NAME"]
    env:
    - name: GREETING
      value: "Warm greetings to"
    - name: NAME
      value: "Kubernetes"
---
apiVersion: v1
kind: Pod
metadata:
  name: app
spec:
  containers:
  - name: app
    image: busybox:1.28
    command: ['sh', '-c', 'echo "The app is running!" && sleep 3600']
  - name: side
    image: busybox:1.28
    command: ['sh', '-c', 'sleep 3600']
---
apiVersion: v1
kind: Pod
metadata:
  name: crasher
spec:
  containers:
  - name: crash
    image: busybox:1.28
    command: ['sh', '-c', 'echo about to fail; sleep 2; exit 1']
---
apiVersion: v1
kind: Pod
metadata:
  name: counter
spec:
  containers:
  - name: count
    image: busybox:1.28
    args: [/bin/sh, -c, 'i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done']
`;

const kubectls = applyCapableVersionsUnderTest(installedKubectls());
const newest = kubectls[kubectls.length - 1];

// Like the conformance suite, this runs only where a kubectl that can apply is installed.
if (newest) {
  describe(`kubectl ${newest.minor} logs against the simulator`, function () {
    let simulator: RunningSimulator;
    let dir: string;
    let kubectl: Kubectl;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-logs-'));
      writeFileSync(join(dir, 'pods.yaml'), PODS);
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(newest.path, join(dir, 'kubeconfig'), dir);
      const applied = await kubectl('apply', '-f', join(dir, 'pods.yaml'));
      assert.equal(applied.code, 0, applied.stderr);
    });

    after(async () => {
      await simulator?.stop();
    });

    it("prints what the container's script writes, its variables expanded", async () => {
      await until('envars to succeed', async () => ((await kubectl('get', 'pod', 'envars', '-o', 'jsonpath={.status.phase}')).stdout === 'Succeeded' ? true : undefined));
      const logs = await kubectl('logs', 'envars');
      assert.equal(logs.code, 0, logs.stderr);
      assert.equal(logs.stdout, 'Warm greetings to Kubernetes\nenvars\nKubernetes\n');
    });

    it('names the container to choose when a pod has several, and prints the chosen one with timestamps', async () => {
      await until('app to run', async () => ((await kubectl('get', 'pod', 'app', '-o', 'jsonpath={.status.containerStatuses[0].state.running.startedAt}')).stdout || undefined));
      const ambiguous = await kubectl('logs', 'app');
      // kubectl picks the first container itself and says so on stderr.
      assert.match(ambiguous.stderr, /Defaulted container "app" out of: app, side/);
      assert.equal(ambiguous.stdout, 'The app is running!\n');
      const logs = await kubectl('logs', 'app', '-c', 'app', '--timestamps');
      assert.equal(logs.code, 0, logs.stderr);
      const startedAt = (await kubectl('get', 'pod', 'app', '-o', 'jsonpath={.status.containerStatuses[?(@.name=="app")].state.running.startedAt}')).stdout;
      assert.equal(logs.stdout, `${startedAt.replace('Z', '.000000000Z')} The app is running!\n`);
      assert.equal((await kubectl('logs', 'app', '-c', 'side')).stdout, '');
    });

    it('prints the previous instance of a restarted container, and refuses --previous before any restart', async () => {
      await until('crasher to restart', async () => (Number((await kubectl('get', 'pod', 'crasher', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}')).stdout) > 0 ? true : undefined));
      const previous = await kubectl('logs', 'crasher', '--previous');
      assert.equal(previous.code, 0, previous.stderr);
      assert.equal(previous.stdout, 'about to fail\n');
      const none = await kubectl('logs', 'app', '-c', 'app', '--previous');
      assert.notEqual(none.code, 0);
      assert.match(none.stderr, /previous terminated container "app" in pod "app" not found/);
    });

    it('says in one line that it has no output for a program it cannot read', async () => {
      await until('counter to run', async () => ((await kubectl('get', 'pod', 'counter', '-o', 'jsonpath={.status.phase}')).stdout === 'Running' ? true : undefined));
      const logs = await kubectl('logs', 'counter');
      assert.equal(logs.code, 0, logs.stderr);
      assert.equal(logs.stdout.split('\n').filter(Boolean).length, 1);
      assert.match(logs.stdout, /^\[kube-journey simulator\] container count runs a program the simulator cannot read \(.*while true.*\): it has no output to show for it\.\n$/);
    });

    it('follows a running container until the client stops', async () => {
      const child = spawn(newest.path, ['logs', '-f', 'app', '-c', 'app'], { env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir } });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        await until('the followed line', async () => (output.includes('The app is running!') ? true : undefined));
        assert.equal(child.exitCode, null, 'kubectl logs -f keeps following a running container');
      } finally {
        child.kill();
      }
    });
  });
}
