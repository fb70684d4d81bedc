/**
 * The real kubectl against the simulator's HTTP API: the commands every tutorial shows, checked
 * by what kubectl prints. Runs for the oldest and the newest kubectl installed that can apply
 * with OpenAPI v3 (1.29+; see README "kubectl versions"), plus kubectl 1.27, which reads only
 * OpenAPI v2.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const kubectls = installedKubectls();
const versionsUnderTest = applyCapableVersionsUnderTest(kubectls);

const BAD_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: bad
spec:
  selector:
    matchLabels: {app: a}
  template:
    metadata:
      labels: {app: b}
    spec:
      containers: [{name: c, image: nginx}]
`;

for (const version of versionsUnderTest) {
  describe(`kubectl 1.${version.minor} against the simulator`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-'));
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(version.path, join(dir, 'kubeconfig'), dir);
      writeFileSync(join(dir, 'bad.yaml'), BAD_DEPLOYMENT);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('apply -f creates the Deployment, rollout status waits for it', async () => {
      const applied = await kubectl('apply', '-f', 'examples/nginx-deployment.yaml');
      assert.equal(applied.stderr, '');
      assert.equal(applied.stdout.trim(), 'deployment.apps/nginx-deployment created');
      const rollout = await kubectl('rollout', 'status', 'deployment/nginx-deployment', '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.stderr);
      assert.match(rollout.stdout, /deployment "nginx-deployment" successfully rolled out/);
    });

    it('get deploy,rs,pods -o wide prints the columns a real cluster prints', async () => {
      const { stdout, code } = await kubectl('get', 'deploy,rs,pods', '-o', 'wide');
      assert.equal(code, 0);
      assert.match(stdout, /NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR/);
      assert.match(stdout, /deployment\.apps\/nginx-deployment\s+3\/3\s+3\s+3\s+\S+\s+nginx\s+nginx:1\.14\.2\s+app=nginx/);
      assert.match(stdout, /replicaset\.apps\/nginx-deployment-[a-z0-9]+\s+3\s+3\s+3\s+/);
      const podRows = stdout.split('\n').filter((line) => line.startsWith('pod/'));
      assert.equal(podRows.length, 3);
      for (const row of podRows) assert.match(row, /1\/1\s+Running\s+0\s+\S+\s+10\.244\.\d+\.\d+\s+node-\d\s+<none>\s+<none>/);
    });

    it('describe pod shows the owner, the conditions and the journey events', async () => {
      const pod = (await kubectl('get', 'pods', '-o', 'name')).stdout.split('\n')[0];
      const { stdout } = await kubectl('describe', pod);
      assert.match(stdout, /Controlled By:\s+ReplicaSet\/nginx-deployment-/);
      assert.match(stdout, /Status:\s+Running/);
      assert.match(stdout, /PodScheduled\s+True/);
      assert.match(stdout, /Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/nginx-deployment-\S+ to node-\d/);
      assert.match(stdout, /Normal\s+Pulling\s+\S+\s+kubelet\s+Pulling image "nginx:1\.14\.2"/);
      assert.match(stdout, /Normal\s+Started\s+\S+\s+kubelet\s+Started container nginx/);
    });

    it('describe deployment shows conditions, the new ReplicaSet and ScalingReplicaSet', async () => {
      const { stdout } = await kubectl('describe', 'deployment', 'nginx-deployment');
      assert.match(stdout, /Available\s+True\s+MinimumReplicasAvailable/);
      assert.match(stdout, /Progressing\s+True\s+NewReplicaSetAvailable/);
      assert.match(stdout, /NewReplicaSet:\s+nginx-deployment-\S+ \(3\/3 replicas created\)/);
      assert.match(stdout, /ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set nginx-deployment-\S+ from 0 to 3/);
    });

    it('apply again is unchanged', async () => {
      assert.equal((await kubectl('apply', '-f', 'examples/nginx-deployment.yaml')).stdout.trim(), 'deployment.apps/nginx-deployment unchanged');
    });

    it('scale, then set image rolls out a new ReplicaSet', async () => {
      assert.equal((await kubectl('scale', 'deployment/nginx-deployment', '--replicas=5')).stdout.trim(), 'deployment.apps/nginx-deployment scaled');
      assert.equal((await kubectl('set', 'image', 'deployment/nginx-deployment', 'nginx=nginx:1.16.1')).stdout.trim(), 'deployment.apps/nginx-deployment image updated');
      const rollout = await kubectl('rollout', 'status', 'deployment/nginx-deployment', '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.stderr);
      assert.match(rollout.stdout, /successfully rolled out/);
      const rs = (await kubectl('get', 'rs', '--no-headers')).stdout.trim().split('\n');
      assert.equal(rs.length, 2);
      assert.ok(rs.some((row) => /\s5\s+5\s+5\s/.test(row)), rs.join('\n'));
      assert.ok(rs.some((row) => /\s0\s+0\s+0\s/.test(row)), rs.join('\n'));
    });

    it('get events lists what the components reported', async () => {
      const { stdout } = await kubectl('get', 'events');
      assert.match(stdout, /LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE/);
      for (const reason of ['ScalingReplicaSet', 'SuccessfulCreate', 'Scheduled', 'Pulled', 'Started', 'SuccessfulDelete']) assert.match(stdout, new RegExp(`Normal\\s+${reason}\\s`));
    });

    it('get events -o wide names the container a kubelet event is about (SUBOBJECT), and none for the pod as a whole', async () => {
      const { stdout } = await kubectl('get', 'events', '-o', 'wide');
      assert.match(stdout, /LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+SUBOBJECT\s+SOURCE\s+MESSAGE/);
      assert.match(stdout, /Normal\s+Started\s+pod\/nginx-deployment-\S+\s+spec\.containers\{nginx\}\s+kubelet, node-\d\s+Started container nginx/);
      assert.match(stdout, /Normal\s+Scheduled\s+pod\/nginx-deployment-\S+\s+default-scheduler\b/);
    });

    it('get pods -w -o json streams the pods', async () => {
      const child = spawn(version.path, ['get', 'pods', '-w', '-o', 'json'], { env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir } });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        await until('five pods on the watch', async () => ((output.match(/"kind": "Pod"/g) ?? []).length >= 5 ? true : undefined));
      } finally {
        child.kill();
      }
      assert.match(output, /"nodeName": "node-\d"/);
    });

    it('apply --server-side creates and then updates', async () => {
      const first = await kubectl('apply', '--server-side', '-f', 'examples/multi-document.yaml');
      assert.equal(first.stdout.trim(), ['namespace/shop serverside-applied', 'configmap/frontend-config serverside-applied', 'deployment.apps/frontend serverside-applied'].join('\n'), first.stderr);
      const second = await kubectl('apply', '--server-side', '-f', 'examples/multi-document.yaml');
      assert.equal(second.code, 0, second.stderr);
      assert.match((await kubectl('get', 'deploy', 'frontend', '-n', 'shop', '-o', 'jsonpath={.metadata.managedFields[0].manager}')).stdout, /kubectl/);
    });

    it('an invalid manifest gets the apiserver 422 message', async () => {
      const { stderr, code } = await kubectl('apply', '-f', join(dir, 'bad.yaml'));
      assert.notEqual(code, 0);
      assert.match(stderr, /The Deployment "bad" is invalid: spec\.template\.metadata\.labels: Invalid value: map\[string\]string\{"app":"b"\}: `selector` does not match template `labels`/);
    });

    it('binds a pod through pods/binding as another scheduler would (create --raw)', async () => {
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'manual' }, spec: { schedulerName: 'my-scheduler', containers: [{ name: 'c', image: 'nginx' }] } };
      writeFileSync(join(dir, 'manual.json'), JSON.stringify(pod));
      writeFileSync(join(dir, 'binding.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'manual' }, target: { kind: 'Node', name: 'node-2' } }));
      assert.equal((await kubectl('create', '-f', join(dir, 'manual.json'))).code, 0);
      const bound = await kubectl('create', '--raw', '/api/v1/namespaces/default/pods/manual/binding', '-f', join(dir, 'binding.json'));
      assert.equal(bound.code, 0, bound.stderr);
      const state = await kubectl('get', 'pod', 'manual', '-o', 'jsonpath={.spec.nodeName} {.status.conditions[?(@.type=="PodScheduled")].status}');
      assert.equal(state.stdout, 'node-2 True');
      const again = await kubectl('create', '--raw', '/api/v1/namespaces/default/pods/manual/binding', '-f', join(dir, 'binding.json'));
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /pod manual is already assigned to node "node-2"/);
      assert.equal((await kubectl('delete', 'pod', 'manual', '--grace-period=0', '--force')).code, 0);
    });

    it('delete -f cascades to the ReplicaSets and pods', async () => {
      const { stdout } = await kubectl('delete', '-f', 'examples/nginx-deployment.yaml');
      assert.equal(stdout.trim(), 'deployment.apps "nginx-deployment" deleted');
      await until('the pods to be gone', async () => ((await kubectl('get', 'pods', '-o', 'name')).stdout.trim() === '' ? true : undefined));
      assert.equal((await kubectl('get', 'rs', '-o', 'name')).stdout.trim(), '');
    });
  });
}

const oldest = kubectls[0];
// Runs only where a kubectl older than 1.29 (without OpenAPI v3) is installed: newer ones are covered above.
if (oldest && oldest.minor < 29) {
  describe(`kubectl 1.${oldest.minor} (no OpenAPI v3 support) against the simulator`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    before(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-old-'));
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(oldest.path, join(dir, 'kubeconfig'), dir);
    });
    after(async () => simulator?.stop());

    it('applies with --validate=false, rolls out, gets, scales and deletes', async () => {
      assert.equal((await kubectl('apply', '--validate=false', '-f', 'examples/nginx-deployment.yaml')).stdout.trim(), 'deployment.apps/nginx-deployment created');
      assert.match((await kubectl('rollout', 'status', 'deployment/nginx-deployment', '--timeout=60s')).stdout, /successfully rolled out/);
      assert.match((await kubectl('get', 'pods')).stdout, /1\/1\s+Running/);
      assert.equal((await kubectl('scale', 'deployment/nginx-deployment', '--replicas=1')).stdout.trim(), 'deployment.apps/nginx-deployment scaled');
      assert.equal((await kubectl('delete', '-f', 'examples/nginx-deployment.yaml')).stdout.trim(), 'deployment.apps "nginx-deployment" deleted');
    });

    it('applies with its default validation and server-side, reading the OpenAPI v2 document', async () => {
      const applied = await kubectl('apply', '-f', 'examples/nginx-deployment.yaml');
      assert.equal(applied.stdout.trim(), 'deployment.apps/nginx-deployment created', applied.stderr);
      const serverSide = await kubectl('apply', '--server-side', '-f', 'examples/nginx-deployment.yaml');
      assert.equal(serverSide.stdout.trim(), 'deployment.apps/nginx-deployment serverside-applied', serverSide.stderr);
      assert.equal((await kubectl('delete', '-f', 'examples/nginx-deployment.yaml')).stdout.trim(), 'deployment.apps "nginx-deployment" deleted');
    });
  });
}
