/** kube-journey trace of a file with CustomResourceDefinitions and custom resources. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { runTrace } from '../../../src/cli/trace';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function trace(file: string, json = false): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runTrace({ file, nodes: 1, seed: 1, timeoutMs: 30_000, json, evidence: false, width: 400, out, err });
  return { code, out: out.text, err: err.text };
}

describe('kube-journey trace: CustomResourceDefinitions and custom resources', () => {
  it('applies each CRD first, then stores its custom resources with a stored-only journey naming their operator', async () => {
    const { code, out, err } = await trace('test/fixtures/crd/crds-and-custom-resources.yaml');
    assert.equal(code, 1, 'one custom resource is invalid');
    assert.match(out, /^customresourcedefinition\.apiextensions\.k8s\.io\/crontabs\.stable\.example\.com created$/m);
    assert.match(out, /^crontab\.stable\.example\.com\/my-new-cron-object created$/m);
    assert.match(out, /^deployment\.apps\.example\.com\/same-kind-other-group created$/m);
    assert.match(out, /^CronTab default\/my-new-cron-object {2}\[complete\]\n {2}Stored\. A CronTab is a custom resource: in a real cluster an operator or controller for stable\.example\.com acts on it/m);
    assert.match(out, /none runs in the simulator, so nothing acts on it here\. A single `kubectl apply -f` of this file refuses it the first time/);
    assert.match(out, /^CustomResourceDefinition crontabs\.stable\.example\.com {2}\[complete\]\n {2}Stored and Established\./m);
    // A custom kind named like a built-in one is not a workload the tracer follows.
    assert.match(out, /^Deployment default\/same-kind-other-group {2}\[complete\]\n {2}Stored\. A Deployment is a custom resource: in a real cluster an operator or controller for apps\.example\.com/m);
    assert.match(err, /crds-and-custom-resources\.yaml:\d+: Error from server: error when applying crontab\.stable\.example\.com\/too-many: CronTab\.stable\.example\.com "too-many" is invalid: spec\.replicas: Invalid value: 20: spec\.replicas in body should be less than or equal to 10$/m);
  });

  it('refuses a custom resource whose CRD is neither in the file nor installed, as kubectl does', async () => {
    const { code, err } = await trace('test/fixtures/crd/my-crontab.yaml');
    assert.equal(code, 1);
    assert.equal(err, 'test/fixtures/crd/my-crontab.yaml:1: error when applying crontab/my-new-cron-object: resource mapping not found for name: "my-new-cron-object" namespace: "" from "my-crontab.yaml": no matches for kind "CronTab" in version "stable.example.com/v1"\nensure CRDs are installed first\n');
  });
});
