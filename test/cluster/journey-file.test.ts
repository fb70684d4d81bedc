/**
 * `trace --context … --save` against the simulator served over HTTPS: the file records the context
 * (never the server, the kubeconfig or its bearer token), show prints what trace printed, and no
 * Secret value reaches it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { runTraceCluster } from '../../src/cli/trace-cluster';
import { runShow } from '../../src/cli/show';
import { readJourneyFile } from '../../src/core/journey-file/node-io';
import { encodeUtf8Base64 } from '../../src/common/base64';
import { assertMatchesSchema } from '../unit/journey-file/schema';

const FIXTURE = 'test/fixtures/journey-files/secret-consumers.yaml';
const VALUES = ['KJ-CANARY-stringData-7f3a9c', 'KJ-CANARY-data-4b2e1d'];

async function capture(run: (out: PassThrough, err: PassThrough) => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let outText = '';
  let errText = '';
  out.on('data', (chunk: Buffer) => (outText += chunk.toString()));
  err.on('data', (chunk: Buffer) => (errText += chunk.toString()));
  const code = await run(out, err);
  return { code, out: outText, err: errText };
}

describe('trace --context --save', function () {
  this.timeout(60_000);
  let dir: string;
  let served: RunningSimulator;
  let kubeconfigPath: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kj-cluster-file-'));
    kubeconfigPath = join(dir, 'kubeconfig');
    served = await runSimulator({ nodes: 3, seed: 1, speed: 20, kubeconfigPath });
  });

  after(async () => {
    await served?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('saves the context, not its credentials; show prints what trace printed', async () => {
    const save = join(dir, 'cluster.journey.json');
    const traced = await capture((out, err) => runTraceCluster({ file: FIXTURE, kubeconfig: kubeconfigPath, timeoutMs: 30_000, settleMs: 200, json: false, evidence: true, out, err, save }));
    assert.equal(traced.code, 0, traced.err);
    const file = await readJourneyFile(save);
    assert.equal(file.meta.target.type, 'context');
    assert.equal(file.meta.exitCode, 0);
    assert.deepEqual(file.extra, { context: file.meta.target.type === 'context' ? file.meta.target.context : '', problems: [] });
    assert.equal(file.journeys[0].journey.tree?.status, 'complete');

    const text = readFileSync(save, 'utf8');
    assertMatchesSchema(JSON.parse(text), 'the cluster trace');
    const decoded = JSON.stringify(file);
    const kubeconfig = readFileSync(kubeconfigPath, 'utf8');
    assert.ok(kubeconfig.includes(served.token), 'the kubeconfig holds the bearer token the scan looks for');
    for (const leak of [served.token, served.api.url, ...VALUES, ...VALUES.map(encodeUtf8Base64), 'KJ-CANARY', 'certificate-authority']) {
      assert.ok(!text.includes(leak) && !decoded.includes(leak), `the file holds ${leak}`);
    }

    const shown = await capture((out, err) => runShow({ file: save, json: false, evidence: true, out, err }));
    assert.equal(shown.code, 0);
    assert.equal(shown.out, traced.out);
    assert.equal(shown.err, traced.err);
  });
});
