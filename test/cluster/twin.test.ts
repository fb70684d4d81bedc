/**
 * `kube-journey trace --twin`: a served simulator stands for the real cluster, filled with the
 * real kubectl (a labelled and tainted node, a cordoned one, a Deployment using most CPU); the
 * twin reads it through a recording proxy, which shows that only GET requests reach it. The
 * twin's FailedScheduling names the nodes and reasons the cluster's own scheduler gives for the
 * same pod; a changed Deployment rolls over on the twin, from the apply on; kinds the proxy
 * forbids are left out with a note; a 401 is one line and exit 2; lists are read in pages.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runTwinTrace } from '../../src/cli/twin';
import { ClusterConnection } from '../../src/cluster/connection';
import { readClusterForTwin } from '../../src/cluster/twin-read';
import { startFaultProxy, type FaultProxy, type ServedSimulator } from './served-simulator';
import { startTwinSource, type TwinSource } from './twin-source';
import { installedKubectls, succeeds, until, type Kubectl } from '../kubectl/kubectl-harness';

const kubectlBinary = installedKubectls().at(-1);

interface Captured {
  code: number;
  out: string;
  err: string;
}

async function capture(run: (out: PassThrough, err: PassThrough) => Promise<number>): Promise<Captured> {
  const out = new PassThrough();
  const err = new PassThrough();
  let outText = '';
  let errText = '';
  out.on('data', (chunk: Buffer) => (outText += chunk.toString()));
  err.on('data', (chunk: Buffer) => (errText += chunk.toString()));
  const code = await run(out, err);
  return { code, out: outText, err: errText };
}

interface JsonRecord {
  type: string;
  appliedAt?: number;
  journey?: string;
  ref?: { kind: string; name: string };
  stuck?: { reason: string; message: string };
  stages?: { time: number; key: string; title: string }[];
  twin?: { copied: Record<string, number>; notCopied: { resource: string; reason: string }[] };
}

const records = (text: string): JsonRecord[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as JsonRecord);

const BIG_POD = `apiVersion: v1
kind: Pod
metadata:
  name: big
spec:
  containers:
  - name: app
    image: nginx:1.25
    resources:
      requests:
        cpu: "2"
`;

const web = (image: string, replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: ${image}
        resources:
          requests:
            cpu: 10m
`;

// Skipped only on a machine without kubectl: the source cluster is set up with the real client.
(kubectlBinary ? describe : describe.skip)('trace --twin: a twin of a served simulator, read through a recording proxy', function () {
  this.timeout(120_000);
  let cluster: TwinSource;
  let dir: string;
  let source: ServedSimulator;
  let proxy: FaultProxy;
  let kubectl: Kubectl;
  /** The kubeconfig pointing at the proxy: what the twin reads through. */
  let proxied: string;
  const file = (name: string, text: string): string => cluster.file(name, text);
  const twin = (manifest: string, json: boolean, kubeconfig = proxied, timeoutMs = 120_000): Promise<Captured> =>
    capture((out, err) => runTwinTrace({ file: manifest, kubeconfig, timeoutMs, json, evidence: false, width: 100, out, err }));

  before(async () => {
    cluster = await startTwinSource({ kubectlPath: kubectlBinary!.path, seed: 3, folderPrefix: 'kj-twin-' });
    ({ dir, source, proxy, kubectl, proxied } = cluster);
    await succeeds(kubectl, 'create', 'namespace', 'shop');
    await succeeds(kubectl, 'create', 'namespace', 'team-b');
    await succeeds(kubectl, 'apply', '-f', file('web.yaml', web('nginx:1.25', 4)));
    await succeeds(kubectl, 'rollout', 'status', '-n', 'shop', 'deployment/web', '--timeout=60s');
  });

  after(async () => {
    await cluster?.close();
  });

  afterEach(() => {
    const writes = proxy.requests.filter((request) => !request.startsWith('GET '));
    assert.deepEqual(writes, [], 'the twin sent only GET requests to the cluster');
  });

  it('says what it copied and gives the FailedScheduling message the cluster gives for the same pod', async () => {
    const seenBefore = proxy.requests.length;
    const result = await twin(file('big.yaml', BIG_POD), false, proxied, 20_000);
    assert.equal(result.code, 1, result.err);
    assert.match(result.out, /^twin of kube-journey-simulator: 4 nodes, \d+ pods, \d+ workloads, \d+ namespaces/m);
    // The scheduler's message, then the changes that would make the pod fit on the twin.
    const stuckLines = /FailedScheduling since \S+: ([^]*?)\n {2}\+/.exec(result.out)?.[1] ?? '';
    const [message, ...fits] = stuckLines.split(/\n\s*fits if: /);
    const twinMessage = message.replace(/\s+/g, ' ');
    assert.ok(twinMessage, result.out);
    assert.deepEqual(fits.map((fit) => fit.replace(/\s+/g, ' ').trim()), ['requests.cpu ≤ 900m (fits on 2 of 4 nodes) · line 11', 'toleration dedicated=db:NoSchedule (fits on 1 of 4 nodes) · line 5', 'kubectl uncordon node-2 (fits on 1 of 4 nodes)']);
    assert.ok(proxy.requests.slice(seenBefore).some((request) => request.startsWith('GET /api/v1/nodes')), 'the twin read the nodes through the proxy');

    // The same pod on the cluster itself.
    await succeeds(kubectl, 'apply', '-f', join(dir, 'big.yaml'));
    const sourceMessage = await until('the cluster to refuse the pod', async () => {
      const message = await succeeds(kubectl, 'get', 'events', '--field-selector', 'involvedObject.name=big,reason=FailedScheduling', '-o', 'jsonpath={.items[0].message}');
      return message || undefined;
    });
    await succeeds(kubectl, 'delete', 'pod', 'big', '--wait=false');
    assert.match(sourceMessage, /^0\/4 nodes are available: 1 node\(s\) had untolerated taint \{dedicated: db\}, 1 node\(s\) were unschedulable, 2 Insufficient cpu\./);
    assert.equal(twinMessage, sourceMessage);
  });

  it('rolls a changed Deployment over on the twin, from the apply on, leaving the cluster as it was', async () => {
    // Scaled down just before the copy: the twin must not show that as part of the journey.
    await succeeds(kubectl, 'scale', '-n', 'shop', 'deployment/web', '--replicas=3');
    const result = await twin(file('web-changed.yaml', web('nginx:1.27', 3)), true);
    assert.equal(result.code, 0, result.err);
    const all = records(result.out);
    const journey = all.find((record) => record.type === 'journey');
    assert.ok(journey?.appliedAt, result.out);
    const stages = all.filter((record) => record.type === 'object').flatMap((record) => (record.stages ?? []).map((stage) => ({ ...stage, object: record.ref?.name })));
    const early = stages.filter((stage) => stage.time < journey.appliedAt!);
    assert.deepEqual(early, [], 'no stage before the apply');
    const titles = stages.map((stage) => stage.title).join('\n');
    assert.match(titles, /Scaled up replica set web-\w+ from 0 to 1/);
    assert.match(titles, /Scaled down replica set web-\w+ from \d to 0/);
    assert.doesNotMatch(titles, /from 4 to 3/);
    const summary = all.find((record) => record.type === 'summary');
    assert.ok((summary?.twin?.copied.Pod ?? 0) >= 5, JSON.stringify(summary?.twin));

    const images = await succeeds(kubectl, 'get', 'deployment', '-n', 'shop', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}');
    assert.equal(images, 'nginx:1.25', 'the cluster still runs the old image');
  });

  it('leaves out what RBAC forbids or the server lacks, with what that may change', async () => {
    const limited = await startFaultProxy(source);
    try {
      limited.refuse(/\/resourcequotas$/, 403, 'Forbidden', 'resourcequotas is forbidden: User "viewer" cannot list resource "resourcequotas" in API group "" at the cluster scope');
      limited.refuse(/\/priorityclasses$/, 404, 'NotFound', 'the server could not find the requested resource');
      limited.refuse(/^\/api\/v1\/namespaces\/team-b\/pods$/, 403, 'Forbidden', 'pods is forbidden: User "viewer" cannot list resource "pods" in API group "" in the namespace "team-b"');
      const kubeconfig = join(dir, 'limited.kubeconfig');
      source.writeKubeconfig(kubeconfig, limited.url);
      const result = await twin(file('web-again.yaml', web('nginx:1.25', 3)), false, kubeconfig);
      assert.equal(result.code, 0, result.err);
      assert.match(result.out, /^Not copied: resourcequotas \(forbidden\): quota admission on the twin may differ$/m);
      assert.match(result.out, /^Not copied: priorityclasses \(not served\): /m);
      assert.match(result.out, /^Not copied: pods in namespace team-b \(forbidden\): the nodes look emptier on the twin than they are/m);
      assert.deepEqual(
        limited.requests.filter((request) => !request.startsWith('GET ')),
        [],
      );
    } finally {
      await limited.close();
    }
  });

  it('says in one line, exit 2, when the credentials are refused', async () => {
    const refusing = await startFaultProxy(source);
    try {
      refusing.refuse(/^\/api\/v1\/nodes$/, 401, 'Unauthorized', 'Unauthorized');
      const kubeconfig = join(dir, 'refused.kubeconfig');
      source.writeKubeconfig(kubeconfig, refusing.url);
      const result = await twin(join(dir, 'big.yaml'), false, kubeconfig);
      assert.equal(result.code, 2);
      assert.equal(result.out, '');
      assert.match(result.err, /^kube-journey: cannot make a twin: context "kube-journey-simulator" \(https:\/\/127\.0\.0\.1:\d+\): the API server refused the credentials \(401 Unauthorized\)/);
      assert.equal(result.err.trim().split('\n').length, 1, result.err);
    } finally {
      await refusing.close();
    }
  });

  it('copies a Secret the manifest updates with its keys and none of their values', async () => {
    await succeeds(kubectl, 'create', 'secret', 'generic', 'db-password', '--from-literal=password=hunter2');
    const manifest = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-password', namespace: 'default' }, stringData: { password: 'changed' } };
    const copy = await readClusterForTwin(ClusterConnection.open({ kubeconfig: proxied, env: {} }), { manifestObjects: [manifest] });
    const secrets = copy.objects.filter((object) => object.kind === 'Secret');
    assert.deepEqual(
      secrets.map((secret) => (secret as { data?: unknown }).data),
      [{ password: '' }],
    );
    assert.doesNotMatch(JSON.stringify(copy.objects), /aHVudGVyMg|hunter2/, 'the value is nowhere in the copy');
  });

  it("copies the ConfigMaps and Secrets the manifest's pods read (a Secret without its values), so a pod that runs in the cluster runs on the twin", async () => {
    await succeeds(kubectl, 'create', 'configmap', 'shop-config', '-n', 'shop', '--from-literal=mode=fast');
    await succeeds(kubectl, 'create', 'secret', 'generic', 'shop-token', '-n', 'shop', '--from-literal=token=s3cr3t-t0ken');
    const reader = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: reader
  namespace: shop
spec:
  selector:
    matchLabels: {app: reader}
  template:
    metadata:
      labels: {app: reader}
    spec:
      containers:
      - name: app
        image: nginx:1.25
        env:
        - name: MODE
          valueFrom:
            configMapKeyRef: {name: shop-config, key: mode}
        volumeMounts:
        - {name: token, mountPath: /var/run/token}
      volumes:
      - name: token
        secret:
          secretName: shop-token
          items:
          - {key: token, path: token}
`;
    const result = await twin(file('reader.yaml', reader), false);
    assert.equal(result.code, 0, result.out + result.err);
    assert.match(result.err + result.out, /twin of [^:]+: .*1 config map, 1 secret/);
    assert.match(result.out, /Deployment shop\/reader\s+\[complete\]/);
    assert.doesNotMatch(result.out + result.err, /s3cr3t|czNjcjN0/, 'the Secret value is nowhere in the output');
  });

  it('reads lists in pages and copies every bound pod', async () => {
    const seenBefore = proxy.requests.length;
    const connection = ClusterConnection.open({ kubeconfig: proxied, env: {} });
    const copy = await readClusterForTwin(connection, { pageSize: 2 });
    const pages = proxy.requests.slice(seenBefore).filter((request) => /\/pods\?.*continue=/.test(request));
    assert.ok(pages.length > 0, 'pods were read page by page');
    const bound = await succeeds(kubectl, 'get', 'pods', '-A', '--field-selector', 'spec.nodeName!=,status.phase=Running', '-o', 'name');
    assert.equal(copy.counts.Pod, bound.split('\n').filter(Boolean).length);
    assert.equal(copy.counts.Node, 4);
  });
});
