/**
 * `kube-journey trace` of manifests with storage: a StatefulSet's claims as stages of its pods, a
 * pod stuck on a claim (exit 1, the claim named with the scheduler's words), and claims applied on
 * their own (a note, never a failure).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runTrace } from '../../../src/cli/trace';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function trace(file: string, timeoutMs = 120_000): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runTrace({ file, nodes: 3, seed: 1, timeoutMs, json: false, evidence: false, width: 400, out, err });
  return { code, out: out.text, err: err.text };
}

/** The detail column of each stage line of one pod's section, in order. */
function podStages(out: string, pod: string): string[] {
  const section = out.split(/\n(?= {2}Pod )/).find((part) => part.startsWith(`  Pod default/${pod} `));
  assert.ok(section, `no section for pod ${pod} in:\n${out}`);
  return section
    .split('\n')
    .slice(1)
    .filter((line) => /^\s+\+\d/.test(line))
    .map((line) => line.trim().split(/\s{2,}/).slice(1).join('  '));
}

function writeManifest(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'kj-trace-storage-')), 'manifest.yaml');
  writeFileSync(file, text);
  return file;
}

describe('kube-journey trace: storage', () => {
  it("shows each StatefulSet pod's claim waiting, provisioned and Bound before the pod is scheduled", async () => {
    const { code, out, err } = await trace('examples/statefulset-storage.yaml');
    assert.equal(err, '');
    assert.equal(code, 0);
    for (const ordinal of [0, 1]) {
      const stages = podStages(out, `web-${ordinal}`);
      const claim = `PersistentVolumeClaim www-web-${ordinal}`;
      const order = [
        `waiting  persistentvolume-controller  ${claim}: waiting for first consumer to be created before binding`,
        `waiting  persistentvolume-controller  ${claim}: Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path'`,
        `event  rancher.io/local-path  Provisioning: ${claim}: External provisioner is provisioning volume for claim "default/www-web-${ordinal}"`,
        `event  rancher.io/local-path  ProvisioningSucceeded: ${claim}: Successfully provisioned volume pvc-`,
        `event  persistentvolume-controller  ${claim}: Bound to volume pvc-`,
        `scheduled  default-scheduler  Successfully assigned default/web-${ordinal} to node-`,
      ];
      const positions = order.map((prefix) => stages.findIndex((stage) => stage.startsWith(prefix)));
      assert.ok(positions.every((p) => p >= 0), `missing stages of web-${ordinal}:\n${stages.join('\n')}`);
      assert.deepEqual([...positions].sort((a, b) => a - b), positions, `stages of web-${ordinal} out of order:\n${stages.join('\n')}`);
    }
  });

  it('exits 1 naming the claim and the scheduler when a claim cannot bind', async () => {
    const { code, err } = await trace('test/corpus/docs/controllers/statefulset.yaml', 30_000);
    assert.equal(code, 1);
    assert.match(err, /pod\/web-0: FailedScheduling: 0\/3 nodes are available: pod has unbound immediate PersistentVolumeClaims\. .*\(PersistentVolumeClaim www-web-0: storageclass\.storage\.k8s\.io "my-storage-class" not found\)/);
  });

  it('says a lone claim of a WaitForFirstConsumer class is Pending as expected, and one with a volume is Bound, without failing', async () => {
    const lone = await trace(writeManifest('apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: expandable-pvc}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n'));
    assert.equal(lone.code, 0);
    assert.match(lone.out, /^persistentvolumeclaim\/expandable-pvc: Pending \(WaitForFirstConsumer: waiting for first consumer to be created before binding\): class standard binds WaitForFirstConsumer, so the claim waits for a pod that uses it; this is the expected state, on kind too$/m);
    const bound = await trace('test/corpus/docs/application/mysql/mysql-pv.yaml');
    assert.equal(bound.code, 0);
    assert.match(bound.out, /^persistentvolumeclaim\/mysql-pv-claim: Bound to volume mysql-pv-volume \(20Gi, class manual\)$/m);
  });

  it("keeps a lone claim's pending reason when a Deployment beside it takes longer than trace keeps Events (2 s)", async () => {
    const claim = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    // Ready only after a 30 s probe delay: the claim's only Event is long expired when the trace ends.
    const slow = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: slow}\nspec:\n  selector: {matchLabels: {app: slow}}\n  template:\n    metadata: {labels: {app: slow}}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n        readinessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 30}\n';
    const { code, out } = await trace(writeManifest(`${claim}---\n${slow}`));
    assert.equal(code, 0);
    assert.match(out, /^persistentvolumeclaim\/data: Pending \(WaitForFirstConsumer: waiting for first consumer to be created before binding\): class standard/m);
  });
});
