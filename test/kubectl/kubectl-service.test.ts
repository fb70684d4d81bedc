/**
 * The real kubectl (the newest installed) against the simulator's HTTP API with a Deployment and
 * its Service: the ClusterIP and NodePort the API server allocated, the EndpointSlice and the
 * Endpoints the controllers wrote once the pods are Ready (what `kubectl describe service` shows
 * as Endpoints), the Services kind has from the start, and a taken node port refused with
 * upstream's message.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const HELLO = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: hello
spec:
  replicas: 2
  selector:
    matchLabels:
      app: hello
  template:
    metadata:
      labels:
        app: hello
    spec:
      containers:
      - name: web
        image: nginx
        ports:
        - name: http
          containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: hello
spec:
  type: NodePort
  selector:
    app: hello
  ports:
  - port: 80
    targetPort: http
`;

const newest = applyCapableVersionsUnderTest(installedKubectls()).at(-1);
// Like the conformance suite, this runs only where a kubectl that can apply is installed.
if (newest) {
  describe(`kubectl 1.${newest.minor} with a Service against the simulator`, function () {
    let simulator: RunningSimulator;
    let dir: string;
    let kubectl: Kubectl;
    const jsonpath = async (...args: string[]): Promise<string> => (await kubectl(...args)).stdout.trim();

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-svc-'));
      writeFileSync(join(dir, 'hello.yaml'), HELLO);
      simulator = await runSimulator({ nodes: 2, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(newest.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('finds kubernetes and kube-dns from the start, as on kind', async () => {
      assert.equal(await jsonpath('get', 'svc', 'kubernetes', '-o', 'jsonpath={.spec.clusterIP} {.spec.ports[0].port}'), '10.96.0.1 443');
      assert.equal(await jsonpath('get', 'endpointslice', 'kubernetes', '-o', 'jsonpath={.endpoints[0].addresses[0]}:{.ports[0].port}'), '172.18.0.1:6443');
      assert.equal(await jsonpath('-n', 'kube-system', 'get', 'svc', 'kube-dns', '-o', 'jsonpath={.spec.clusterIP}'), '10.96.0.10');
    });

    it('apply allocates a ClusterIP and a NodePort; once the pods are Ready the slice and Endpoints list them', async () => {
      const applied = await kubectl('apply', '-f', join(dir, 'hello.yaml'));
      assert.equal(applied.code, 0, applied.stderr);
      assert.match(applied.stdout, /service\/hello created/);
      const clusterIP = await jsonpath('get', 'svc', 'hello', '-o', 'jsonpath={.spec.clusterIP}');
      assert.match(clusterIP, /^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
      const nodePort = Number(await jsonpath('get', 'svc', 'hello', '-o', 'jsonpath={.spec.ports[0].nodePort}'));
      assert.ok(nodePort >= 30000 && nodePort <= 32767, String(nodePort));
      const rollout = await kubectl('rollout', 'status', 'deploy/hello', '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.stderr);

      const podIPs = (await jsonpath('get', 'pods', '-l', 'app=hello', '-o', 'jsonpath={.items[*].status.podIP}')).split(' ').sort();
      const sliceIPs = await until('both pods in the EndpointSlice', async () => {
        const ips = (await jsonpath('get', 'endpointslices', '-l', 'kubernetes.io/service-name=hello', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}')).split(' ').filter(Boolean).sort();
        return ips.length === 2 ? ips : undefined;
      });
      assert.deepEqual(sliceIPs, podIPs);
      assert.equal(await jsonpath('get', 'endpointslices', '-l', 'kubernetes.io/service-name=hello', '-o', 'jsonpath={.items[0].ports[0].port}'), '80');
      const slices = await kubectl('get', 'endpointslices');
      assert.match(slices.stdout, /^hello-[a-z0-9]{5}\s/m);

      const describe = (await kubectl('describe', 'svc', 'hello')).stdout;
      assert.match(describe, new RegExp(`^IP:\\s+${clusterIP.replaceAll('.', '\\.')}$`, 'm'));
      // The protocol shows once Services get their defaults (protocol TCP) from the API server's defaulting.
      assert.match(describe, new RegExp(`^NodePort:\\s+<unset>\\s+${nodePort}/(TCP)?$`, 'm'));
      // The slice lists endpoints in the order their pods turned ready.
      const endpoints = /^Endpoints:\s+(\S+)$/m.exec(describe)?.[1]?.split(',').sort();
      assert.deepEqual(endpoints, podIPs.map((ip) => `${ip}:80`).sort());
    });

    it('refuses a Service that asks for a node port already allocated, with upstream\'s message', async () => {
      const nodePort = await jsonpath('get', 'svc', 'hello', '-o', 'jsonpath={.spec.ports[0].nodePort}');
      writeFileSync(join(dir, 'copy.yaml'), `apiVersion: v1\nkind: Service\nmetadata:\n  name: copy\nspec:\n  type: NodePort\n  selector:\n    app: hello\n  ports:\n  - port: 80\n    nodePort: ${nodePort}\n`);
      const refused = await kubectl('apply', '-f', join(dir, 'copy.yaml'));
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, new RegExp(`spec\\.ports\\[0\\]\\.nodePort: Invalid value: ${nodePort}: provided port is already allocated`));
    });
  });
}
