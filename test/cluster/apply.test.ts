import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../src/core/k8s';
import { lineOfField, parseManifest } from '../../src/core/manifest';
import { displayName, failureFromError, writeStamp } from '../../src/cluster/apply';
import { ClusterConnection } from '../../src/cluster/connection';
import { ClusterApiError } from '../../src/cluster/errors';
import { normalizeFieldPath } from '../../src/cluster/field-path';
import { ServerClock } from '../../src/cluster/server-clock';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';

const CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
`;

const TYPO = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: typo
spec:
  replicas: 1
  selector:
    matchLabels: {app: typo}
  template:
    metadata:
      labels: {app: typo}
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolicy: Sometimes
      - name: sidecar
        image: busybox
        portz: []
`;

function only(text: string): KubeObject {
  return parseManifest(text).documents[0].object!;
}

describe('cluster apply (server-side apply) against the served simulator', function () {
  this.timeout(30_000);
  let served: RunningSimulator;
  let connection: ClusterConnection;

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kj-apply-'));
    served = await runSimulator({ nodes: 1, seed: 1, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
    connection = ClusterConnection.open({ kubeconfig: join(dir, 'kubeconfig') });
  });

  after(async () => {
    await served?.stop();
  });

  it('reports created, then unchanged, then configured, and names objects as kubectl does', async () => {
    const [created] = await connection.apply([only(CONFIG_MAP)]);
    assert.equal(created.action, 'created');
    assert.equal(created.display, 'configmap/settings');
    assert.equal(created.namespace, 'default', 'the context namespace');
    assert.equal(created.applied?.metadata?.managedFields?.[0]?.manager, 'kube-journey');
    const [unchanged] = await connection.apply([only(CONFIG_MAP)]);
    assert.equal(unchanged.action, 'unchanged');
    const [configured] = await connection.apply([only(CONFIG_MAP.replace('fast', 'safe'))]);
    assert.equal(configured.action, 'configured');
    assert.equal((served.simulator.store.get('ConfigMap', 'default', 'settings')?.data as { mode?: string }).mode, 'safe');
    assert.equal(displayName('apps/v1', 'Deployment', 'web'), 'deployment.apps/web');
  });

  it('runs a server-side dry run without storing anything', async () => {
    const [dryCreated] = await connection.apply([only(CONFIG_MAP.replace('settings', 'draft'))], { dryRun: true });
    assert.equal(dryCreated.action, 'created');
    assert.equal(served.simulator.store.get('ConfigMap', 'default', 'draft'), undefined);
    const [dryConfigured] = await connection.apply([only(CONFIG_MAP.replace('fast', 'slow'))], { dryRun: true });
    assert.equal(dryConfigured.action, 'configured');
    assert.equal((served.simulator.store.get('ConfigMap', 'default', 'settings')?.data as { mode?: string }).mode, 'safe');
    const [dryUnchanged] = await connection.apply([only(CONFIG_MAP.replace('fast', 'safe'))], { dryRun: true });
    assert.equal(dryUnchanged.action, 'unchanged');
  });

  it("returns the server's error for a document, with field causes that land on the YAML line", async () => {
    const manifest = parseManifest(TYPO);
    const [result] = await connection.apply([manifest.documents[0].object!]);
    const failure = result.failure!;
    assert.equal(failure.fromServer, true);
    // Server-side apply checks the configuration with structured-merge-diff: a 500 without a
    // reason, in every fieldValidation mode (kubernetes/kubernetes#122480).
    assert.equal(failure.code, 500);
    assert.match(failure.message, /^failed to create typed patch object \(default\/\S+; apps\/v1, Kind=Deployment\): \.spec\.template\.spec\.containers\[name="[^"]+"\]\.portz: field not declared in schema$/);
    assert.deepEqual(failure.causes.map((c) => c.path), ['spec.template.spec.containers[1].portz']);
    assert.equal(lineOfField(manifest, manifest.documents[0], failure.causes[0].path!), 19);

    const invalid = parseManifest(TYPO.replace('      portz: []\n', ''));
    const [rejected] = await connection.apply([invalid.documents[0].object!]);
    assert.equal(rejected.failure?.code, 422);
    const cause = rejected.failure!.causes.find((c) => c.path?.endsWith('imagePullPolicy'));
    assert.ok(cause, JSON.stringify(rejected.failure));
    assert.equal(lineOfField(invalid, invalid.documents[0], cause.path!), 16);
  });

  it('says when the server has no such kind, without sending the object', async () => {
    const [result] = await connection.apply([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }], { source: 'widget.yaml' });
    assert.equal(result.failure?.fromServer, false);
    // kubectl's words (cli-runtime's resource builder around the RESTMapper's NoKindMatchError).
    assert.equal(
      result.failure?.message,
      'resource mapping not found for name: "w" namespace: "" from "widget.yaml": no matches for kind "Widget" in version "example.com/v1"\nensure CRDs are installed first',
    );
    assert.deepEqual(result.failure?.causes.map((c) => c.path), ['apiVersion']);
    assert.equal(result.display, 'widget.example.com/w');
  });

  it("stamps writes with the server's time, which bounds the server clock", async () => {
    const [result] = await connection.apply([only(CONFIG_MAP.replace('settings', 'stamped'))]);
    const stamp = writeStamp(result);
    assert.ok(stamp !== undefined && result.answeredAt !== undefined);
    const clock = new ServerClock();
    clock.observeWrite(stamp, result.requestedAt, result.answeredAt);
    const truth = served.simulator.clock.now() - Date.now();
    // The served simulator's clock lags the wall clock by its start-up time; the estimate is within a second of it.
    assert.ok(Math.abs(clock.offset() - truth) < 1100, `offset ${clock.offset()} vs ${truth}`);
  });
});

describe('cluster apply: conflicts and field paths', () => {
  const deployment = only(TYPO.replace('      portz: []\n', '').replace('Sometimes', 'Always'));

  it('reads server-side apply conflicts: who owns which field, placed on the manifest', () => {
    const error = new ClusterApiError(409, 'Conflict', 'Apply failed with 2 conflicts: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas', [
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' },
      { reason: 'FieldManagerConflict', message: 'conflict with "helm"', field: '.spec.template.spec.containers[name="sidecar"].image' },
    ]);
    const failure = failureFromError(error, deployment);
    assert.deepEqual(failure.conflicts, [
      { manager: 'kubectl-client-side-apply', field: '.spec.replicas', path: 'spec.replicas' },
      { manager: 'helm', field: '.spec.template.spec.containers[name="sidecar"].image', path: 'spec.template.spec.containers[1].image' },
    ]);
    assert.equal(failure.code, 409);
  });

  it('normalizes structured-merge-diff paths against the applied object', () => {
    const pod: KubeObject = { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80 }, { containerPort: 443, protocol: 'TCP' }] }, { name: 'b,"c"' }] }, metadata: { finalizers: ['x', 'y'] } };
    assert.equal(normalizeFieldPath('.spec.containers[name="a"].ports[containerPort=443,protocol="TCP"].containerPort', pod), 'spec.containers[0].ports[1].containerPort');
    assert.equal(normalizeFieldPath('.spec.containers[name="a"].ports[containerPort=80,protocol="TCP"]', pod), 'spec.containers[0].ports[0]');
    assert.equal(normalizeFieldPath('.spec.containers[name="b,\\"c\\""].image', pod), 'spec.containers[1].image');
    assert.equal(normalizeFieldPath('.metadata.finalizers[="y"]', pod), 'metadata.finalizers[1]');
    assert.equal(normalizeFieldPath('.spec.containers[name="missing"].image', pod), 'spec.containers');
    assert.equal(normalizeFieldPath('spec.containers[1].name', pod), 'spec.containers[1].name');
  });
});

describe('cluster ServerClock', () => {
  it('assumes synchronized clocks until shown otherwise', () => {
    const clock = new ServerClock(() => 50_000);
    assert.equal(clock.offset(), 0);
    clock.observeWrite(50_000, 49_990, 50_010);
    assert.equal(clock.offset(), 0);
  });

  it('follows a server behind or ahead, tightly with exact steps', () => {
    const behind = new ServerClock(() => 100_000);
    behind.observeWrite(98_000, 100_000, 100_020);
    assert.equal(behind.offset(), -1000, 'the write says the server is 1–2 s behind');
    behind.observeExact(98_300, 100_000);
    assert.equal(behind.offset(), -1700);
    const ahead = new ServerClock(() => 0);
    ahead.observeWrite(5000, 0, 30);
    assert.equal(ahead.offset(), 4970);
    assert.equal(ahead.toServer(10), 4980);
  });

  it('starts over when the clocks drift past what was known', () => {
    const clock = new ServerClock(() => 0);
    clock.observeWrite(0, 0, 10);
    clock.observeWrite(10_000, 0, 10);
    assert.equal(clock.offset(), 9990);
  });
});
