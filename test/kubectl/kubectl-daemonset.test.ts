/**
 * The real kubectl (the newest installed) driving a DaemonSet on the simulator's HTTP API: the
 * docs' fluentd-elasticsearch DaemonSet through apply, rollout status, set image, rollout history
 * and rollout undo, which read the DaemonSet's status and its ControllerRevisions.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';

const run = promisify(execFile);
const KUBECTL_DIR = '/usr/lib/google-cloud-sdk/bin';

/** kubernetes/website content/en/examples/controllers/daemonset.yaml. */
const FLUENTD_ELASTICSEARCH = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd-elasticsearch
  namespace: kube-system
  labels:
    k8s-app: fluentd-logging
spec:
  selector:
    matchLabels:
      name: fluentd-elasticsearch
  template:
    metadata:
      labels:
        name: fluentd-elasticsearch
    spec:
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      - key: node-role.kubernetes.io/master
        operator: Exists
        effect: NoSchedule
      containers:
      - name: fluentd-elasticsearch
        image: quay.io/fluentd_elasticsearch/fluentd:v2.5.2
        resources:
          limits:
            memory: 200Mi
          requests:
            cpu: 100m
            memory: 200Mi
        volumeMounts:
        - name: varlog
          mountPath: /var/log
      terminationGracePeriodSeconds: 30
      volumes:
      - name: varlog
        hostPath:
          path: /var/log
`;

function newestKubectl(): string | undefined {
  if (!existsSync(KUBECTL_DIR)) return undefined;
  const minors = readdirSync(KUBECTL_DIR)
    .map((file) => /^kubectl\.1\.(\d+)$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) >= 29)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  return minors.length > 0 ? join(KUBECTL_DIR, `kubectl.1.${minors[minors.length - 1]}`) : undefined;
}

const binary = newestKubectl();
// Like the conformance suite, this runs only where a kubectl that can apply is installed.
if (binary) {
  describe('kubectl with a DaemonSet against the simulator', function () {
    let simulator: RunningSimulator;
    let dir: string;
    const kubectl = async (...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> => {
      try {
        const { stdout, stderr } = await run(binary, ['-n', 'kube-system', ...args], { env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir }, timeout: 90_000 });
        return { stdout, stderr, code: 0 };
      } catch (error) {
        const e = error as { stdout?: string; stderr?: string; code?: number };
        return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
      }
    };
    const images = async (): Promise<string[]> => (await kubectl('get', 'pods', '-o', 'jsonpath={range .items[*]}{.spec.containers[0].image}{"\\n"}{end}')).stdout.trim().split('\n').sort();

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-ds-'));
      writeFileSync(join(dir, 'daemonset.yaml'), FLUENTD_ELASTICSEARCH);
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
    });

    after(async () => {
      await simulator?.stop();
    });

    it('apply, then rollout status waits until a pod runs on every node', async () => {
      assert.equal((await kubectl('apply', '-f', join(dir, 'daemonset.yaml'))).stdout.trim(), 'daemonset.apps/fluentd-elasticsearch created');
      const rollout = await kubectl('rollout', 'status', 'ds/fluentd-elasticsearch', '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.stderr);
      assert.match(rollout.stdout, /daemon set "fluentd-elasticsearch" successfully rolled out/);
      const nodes = (await kubectl('get', 'pods', '-o', 'jsonpath={.items[*].spec.nodeName}')).stdout.trim().split(' ').sort();
      assert.deepEqual(nodes, ['node-1', 'node-2', 'node-3']);
    });

    it('set image rolls out the new image and records a second revision', async () => {
      assert.equal((await kubectl('set', 'image', 'ds/fluentd-elasticsearch', 'fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0')).stdout.trim(), 'daemonset.apps/fluentd-elasticsearch image updated');
      const rollout = await kubectl('rollout', 'status', 'ds/fluentd-elasticsearch', '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.stderr);
      assert.match(rollout.stdout, /daemon set "fluentd-elasticsearch" successfully rolled out/);
      assert.deepEqual(await images(), Array(3).fill('quay.io/fluentd_elasticsearch/fluentd:v2.6.0'));
      assert.match((await kubectl('rollout', 'history', 'ds/fluentd-elasticsearch')).stdout, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    });

    it('rollout undo goes back to the first template, renumbered as revision 3', async () => {
      assert.equal((await kubectl('rollout', 'undo', 'ds/fluentd-elasticsearch')).stdout.trim(), 'daemonset.apps/fluentd-elasticsearch rolled back');
      const rollout = await kubectl('rollout', 'status', 'ds/fluentd-elasticsearch', '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.stderr);
      assert.deepEqual(await images(), Array(3).fill('quay.io/fluentd_elasticsearch/fluentd:v2.5.2'));
      assert.match((await kubectl('rollout', 'history', 'ds/fluentd-elasticsearch')).stdout, /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
    });

    it('describe shows the controller events', async () => {
      const { stdout } = await kubectl('describe', 'ds', 'fluentd-elasticsearch');
      assert.match(stdout, /Normal\s+SuccessfulCreate\s+\S+\s+daemonset-controller\s+Created pod: fluentd-elasticsearch-\S+/);
      assert.match(stdout, /Normal\s+SuccessfulDelete\s+\S+\s+daemonset-controller\s+Deleted pod: fluentd-elasticsearch-\S+/);
    });
  });
}
