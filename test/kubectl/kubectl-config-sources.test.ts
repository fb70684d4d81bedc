/**
 * The real kubectl (the newest installed) against the simulator's HTTP API with pods that read
 * a ConfigMap and a Secret that do not exist yet: `get pods` shows CreateContainerConfigError and
 * ContainerCreating as on a kind cluster, `describe pod` the kubelet's Failed and FailedMount
 * events, and applying the ConfigMap and the Secret lets both pods start.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

/** kubernetes/website content/en/examples/pods/pod-single-configmap-env-variable.yaml, with a server image. */
const CONFIGMAP_ENV_POD = `apiVersion: v1
kind: Pod
metadata:
  name: dapi-test-pod
spec:
  containers:
    - name: test-container
      image: nginx:1.25
      env:
        - name: SPECIAL_LEVEL_KEY
          valueFrom:
            configMapKeyRef:
              name: special-config
              key: special.how
`;

/** kubernetes/website content/en/examples/pods/inject/secret-pod.yaml. */
const SECRET_VOLUME_POD = `apiVersion: v1
kind: Pod
metadata:
  name: secret-test-pod
spec:
  containers:
    - name: test-container
      image: nginx
      volumeMounts:
        - name: secret-volume
          mountPath: /etc/secret-volume
          readOnly: true
  volumes:
    - name: secret-volume
      secret:
        secretName: test-secret
`;

const OBJECTS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: special-config
data:
  special.how: very
---
apiVersion: v1
kind: Secret
metadata:
  name: test-secret
data:
  username: bXktYXBw
  password: Mzk1MjgkdmRnN0pi
`;

const newest = applyCapableVersionsUnderTest(installedKubectls()).at(-1);
// Like the conformance suite, this runs only where a kubectl that can apply is installed.
if (newest) {
  describe('kubectl with pods waiting for a ConfigMap and a Secret', function () {
    let simulator: RunningSimulator;
    let dir: string;
    let kubectl: Kubectl;
    const statusOf = async (pod: string): Promise<string | undefined> => {
      const { stdout } = await kubectl('get', 'pod', pod, '--no-headers');
      return stdout.trim().split(/\s+/)[2];
    };
    const statusBecomes = (pod: string, status: string, timeoutMs = 30_000): Promise<string> =>
      until(`${pod} ${status}`, async () => ((await statusOf(pod)) === status ? status : undefined), timeoutMs);

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-sources-'));
      writeFileSync(join(dir, 'pods.yaml'), `${CONFIGMAP_ENV_POD}---\n${SECRET_VOLUME_POD}`);
      writeFileSync(join(dir, 'objects.yaml'), OBJECTS);
      simulator = await runSimulator({ nodes: 2, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(newest.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('get pods shows CreateContainerConfigError and ContainerCreating', async () => {
      const applied = await kubectl('apply', '-f', join(dir, 'pods.yaml'));
      assert.equal(applied.code, 0, applied.stderr);
      await statusBecomes('dapi-test-pod', 'CreateContainerConfigError');
      await until('the FailedMount event', async () => ((await kubectl('describe', 'pod', 'secret-test-pod')).stdout.includes('FailedMount') ? true : undefined));
      assert.equal(await statusOf('secret-test-pod'), 'ContainerCreating');
    });

    it('describe pod shows the kubelet’s Failed and FailedMount events', async () => {
      const configPod = (await kubectl('describe', 'pod', 'dapi-test-pod')).stdout;
      assert.match(configPod, /Reason:\s+CreateContainerConfigError/);
      assert.match(configPod, /Warning\s+Failed\s+.*kubelet\s+Error: configmap "special-config" not found/);
      const secretPod = (await kubectl('describe', 'pod', 'secret-test-pod')).stdout;
      assert.match(secretPod, /Warning\s+FailedMount\s+.*kubelet\s+MountVolume\.SetUp failed for volume "secret-volume" : secret "test-secret" not found/);
      assert.match(secretPod, /Status:\s+Pending/);
    });

    it('both pods start once the ConfigMap and the Secret are applied', async () => {
      const applied = await kubectl('apply', '-f', join(dir, 'objects.yaml'));
      assert.equal(applied.code, 0, applied.stderr);
      // The kubelet retries a failed sync after 10–15 s, and a failed mount on its doubling back-off (500 ms, 1 s, 2 s…).
      await statusBecomes('dapi-test-pod', 'Running', 40_000);
      await statusBecomes('secret-test-pod', 'Running', 40_000);
    });
  });
}
