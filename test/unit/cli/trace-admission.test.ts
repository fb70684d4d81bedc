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

async function trace(file: string): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runTrace({ file, nodes: 3, seed: 1, timeoutMs: 30_000, json: false, evidence: false, width: 400, out, err });
  return { code, out: out.text, err: err.text };
}

describe('kube-journey trace: journeys admission stops', () => {
  it('leaves a Deployment past its namespace pod quota stuck with the quota refusal, and exits 1', async () => {
    const { code, out, err } = await trace('test/fixtures/quota-blocks-deployment.yaml');
    assert.equal(code, 1);
    assert.match(out, /^Deployment default\/pod-quota-demo {2}\[stuck\]/m);
    assert.match(out, /2\/3 ready/);
    assert.match(err, /deployment\/pod-quota-demo: FailedCreate: pods "pod-quota-demo-\w+-" is forbidden: exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2$/m);
  });

  it('leaves a Deployment whose pods name a missing ServiceAccount stuck with the admission refusal, and exits 1', async () => {
    const { code, err } = await trace('test/fixtures/missing-service-account.yaml');
    assert.equal(code, 1);
    assert.match(err, /deployment\/web: FailedCreate: pods "web-\w+-" is forbidden: error looking up service account default\/foo: serviceaccount "foo" not found$/m);
  });
});
