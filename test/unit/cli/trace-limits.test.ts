import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { spawn } from 'node:child_process';
import { runTrace, type TraceOptions } from '../../../src/cli/trace';
import { HeapExhaustedError, type HeapNumbers } from '../../../src/server/heap-guard';
import { tracedPodBudget } from '../../../src/cli/trace-budget';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function deployment(replicas: number): string {
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.25\n`;
}

async function trace(file: string, extra: Partial<TraceOptions> = {}): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runTrace({ file, nodes: 3, seed: 1, timeoutMs: 120_000, json: false, evidence: false, width: 200, out, err, ...extra });
  return { code, out: out.text, err: err.text };
}

/** Runs the CLI from the sources, as a user would. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

describe('kube-journey trace past its limits', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kube-journey-limits-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('ends at once with exit 1 and the budget named when the pod budget refuses pods', async () => {
    const file = join(dir, 'billion.yaml');
    writeFileSync(file, deployment(1_000_000_000));
    // More pods than 3 nodes take (110 each): the budget is named, not the pods waiting for a node.
    const { code, err } = await trace(file, { maxPods: 400 });
    assert.equal(code, 1);
    assert.match(err, /^kube-journey: deployment\/web did not finish within the simulator's pod budget of 400 pods: /m);
    assert.match(err, /\nkube-journey: stopped at the pod budget: pods "web-\w+-" is forbidden: the simulator's pod budget of 400 pods is used up \(raise it with kube-journey trace --max-pods\)\n$/);
  });

  it('stops with the heap guard before the heap runs out, naming the pods traced so far', async () => {
    const file = join(dir, 'many.yaml');
    writeFileSync(file, deployment(300));
    // A heap that stays at 90 % of a 1 GB limit.
    const heapStatistics = (): HeapNumbers => ({ used_heap_size: 0.9e9, heap_size_limit: 1e9 });
    await assert.rejects(trace(file, { heapStatistics }), (error: unknown) => error instanceof HeapExhaustedError && /^out of memory: the heap reached 0\.9 GB of its 1\.0 GB limit while tracing [\d,]+ pods; simulate fewer pods \(kube-journey trace --max-pods\)/.test(error.message));
  });

  it('sizes its default pod budget to the heap limit and the nodes', () => {
    // (70 % of the limit − 300 MiB − 32 KiB × nodes) / 16 KiB, in thousands: 150,000 pods on 5,000 nodes fit Node's default 4 GiB.
    assert.equal(tracedPodBudget(3, 4 * 1024 ** 3), 164_000);
    assert.equal(tracedPodBudget(5000, 4 * 1024 ** 3), 154_000);
    assert.equal(tracedPodBudget(5000, 8 * 1024 ** 3), 337_000);
    assert.equal(tracedPodBudget(3, 256 * 1024 ** 2), 1000);
  });

  it('prints an alias bomb as one line at its place, without a stack, and exits 1', async function () {
    this.timeout(60_000);
    const file = join(dir, 'bomb.yaml');
    const levels = Array.from({ length: 6 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(',')}]`);
    writeFileSync(file, ['l0: &l0 lol', ...levels].join('\n'));
    const { code, stderr } = await cli(['trace', '-f', file]);
    assert.equal(code, 1);
    assert.equal(stderr, `${file}:4:14: Excessive alias count indicates a resource exhaustion attack: aliases here expand to more than 100 copies of an anchored node\nkube-journey: nothing was applied; fix the manifest and try again.\n`);
  });

  it('refuses a --max-pods that is not a positive whole number as a usage error (exit 2)', async function () {
    this.timeout(60_000);
    const { code, stderr } = await cli(['trace', '-f', 'examples/nginx-deployment.yaml', '--max-pods', '0']);
    assert.equal(code, 2);
    assert.match(stderr, /^kube-journey: --max-pods must be a positive number, got "0"/);
  });
});
