import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runTrace, type TraceOptions } from '../../../src/cli/trace';
import { Capture, runClosingOutputEarly, traceCaptured } from './capture';
import { parseRecords } from './records';

/** A reader that takes one chunk at a time, later: what lets a writer that ignores back-pressure pile up its output. */
class SlowReader extends Writable {
  text = '';
  mostBuffered = 0;
  constructor() {
    super({ highWaterMark: 1024 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.mostBuffered = Math.max(this.mostBuffered, this.writableLength);
    this.text += chunk.toString();
    setImmediate(done);
  }
}

/** A pipe whose reader went away after the first chunk, as `| head -1` leaves it. */
class ClosedAfterFirstChunk extends Writable {
  chunks = 0;
  override _write(_chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    this.chunks++;
    if (this.chunks === 1) done();
    else done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  }
}

function deployment(name: string, replicas: number, cpu = '10m'): string {
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels: {app: ${name}}\n  template:\n    metadata:\n      labels: {app: ${name}}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.25\n        resources: {requests: {cpu: ${cpu}}}\n`;
}

function trace(file: string, extra: Partial<TraceOptions> = {}): Promise<{ code: number; out: string; err: string }> {
  return traceCaptured(file, { timeoutMs: 60_000, width: 200, ...extra });
}

describe('kube-journey trace of a file of several Deployments', () => {
  let dir: string;
  let fiveDeployments: string;
  let someUnschedulable: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kube-journey-json-'));
    fiveDeployments = join(dir, 'five.yaml');
    writeFileSync(fiveDeployments, [0, 1, 2, 3, 4].map((i) => deployment(`app-${i}`, 3)).join('---\n'));
    someUnschedulable = join(dir, 'unschedulable.yaml');
    writeFileSync(someUnschedulable, [deployment('fits', 2), ...[0, 1, 2, 3].map((i) => deployment(`huge-${i}`, 1, '100'))].join('---\n'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--json writes one record per line: each result, each journey, each of its objects, then one summary', async () => {
    const { code, out, err } = await trace(fiveDeployments, { json: true });
    assert.equal(code, 0, err);
    const records = parseRecords(out);
    assert.deepEqual(records.results.map((r) => `${r.object} ${r.action}`), [0, 1, 2, 3, 4].map((i) => `deployment.apps/app-${i} created`));
    assert.deepEqual(records.journeys.map((j) => `${j.root.name} ${j.status}`), [0, 1, 2, 3, 4].map((i) => `app-${i} complete`));
    assert.ok(records.journeys.every((j) => !('tree' in j)), 'a journey record leaves its tree to the object records');
    const kinds = new Map<string, number>();
    for (const record of records.objects) kinds.set(record.ref.kind, (kinds.get(record.ref.kind) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(kinds), { Deployment: 5, ReplicaSet: 5, Pod: 15 });
    assert.equal(new Set(records.objects.map((r) => r.ref.uid)).size, records.objects.length, 'one record per object');
    // Parents come before their children, in the same journey.
    const seen = new Set<string>();
    for (const record of records.objects) {
      assert.ok(!('children' in record));
      if (record.parent) assert.ok(seen.has(`${record.journey} ${record.parent.uid}`), `${record.ref.name} after its parent`);
      else assert.equal(record.ref.kind, 'Deployment');
      seen.add(`${record.journey} ${record.ref.uid}`);
    }
    const pods = records.objects.filter((r) => r.ref.kind === 'Pod');
    assert.ok(pods.every((r) => r.pod?.node?.startsWith('node-') && r.pod.readyContainers === 1 && r.status === 'complete'));
    assert.ok(records.objects.every((r) => r.stages.length > 0 && r.stages.every((stage) => !('evidence' in stage))), 'evidence only with --evidence');
  });

  it("--json's summary record counts every journey's pods and phases", async () => {
    const { out } = await trace(fiveDeployments, { json: true });
    const { summary, journeys } = parseRecords(out);
    assert.equal(summary.outcome, 'done');
    assert.deepEqual(summary.journeys, { total: 5, done: 5, withStuckObjects: 0, complete: 5 });
    assert.equal(summary.counts.desired, 15);
    assert.equal(summary.counts.ready, 15);
    assert.equal(summary.phaseStats.create_to_ready?.count, 15);
    const slowest = Math.max(...journeys.map((j) => j.phaseStats.create_to_ready?.max ?? 0));
    assert.equal(summary.phaseStats.create_to_ready?.max, slowest);
    assert.equal(summary.stuckCount, 0);
  });

  it("the text summary counts every journey's pods, with a journey's own summary unchanged", async () => {
    const { code, out } = await trace(fiveDeployments);
    assert.equal(code, 0);
    assert.equal((out.match(/^ {2}pods {6}3\/3 ready · 3 running · 3 scheduled$/gm) ?? []).length, 5, "each journey's own summary");
    const file = out.slice(out.indexOf('Summary of 5 journeys'));
    assert.match(file, /^ {2}journeys {2}5\/5 done · 5 complete$/m);
    assert.match(file, /^ {2}pods {6}15\/15 ready · 15 running · 15 scheduled$/m);
    assert.ok(file.includes('\n  phase                     pods       p50       p90       p99       max\n'), file);
    assert.match(file, /^ {2}create_to_ready {13}15 /m);
  });

  it('lists the stuck objects of every journey first in the summary, and names the stuck journeys on one line', async () => {
    const { code, out, err } = await trace(someUnschedulable, { timeoutMs: 30_000 });
    assert.equal(code, 1);
    const file = out.slice(out.indexOf('Summary of 5 journeys'));
    const stuckAt = file.indexOf('  stuck     4 objects');
    assert.ok(stuckAt > 0 && stuckAt < file.indexOf('  pods '), file);
    assert.equal((file.match(/^ {4}Pod default\/huge-\d-\S+ \[stuck\]$/gm) ?? []).length, 4);
    assert.match(file, /^ {2}pods {6}2\/6 ready · 2 running · 2 scheduled · 4 stuck$/m);
    assert.equal(
      err.replace(/huge-0-\S+:/, 'huge-0-…:'),
      "kube-journey: 4 deployments did not finish within 30s of simulated time: deployment/huge-0, deployment/huge-1, deployment/huge-2 and 1 more; the first, deployment/huge-0: pod/huge-0-…: FailedScheduling: 0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n",
    );
  });

  it('waits for a slow reader instead of piling up the output', async () => {
    const out = new SlowReader();
    const err = new Capture();
    const code = await runTrace({ file: fiveDeployments, nodes: 3, seed: 1, timeoutMs: 60_000, json: true, evidence: true, out, err });
    assert.equal(code, 0, err.text);
    const { objects } = parseRecords(out.text);
    assert.equal(objects.length, 25);
    assert.ok(objects.every((r) => r.stages.every((stage) => stage.evidence !== undefined)), 'with --evidence, every stage has its evidence');
    // The writer gathers 64 KiB before a write: more than that waiting means it wrote on through a full buffer.
    assert.ok(out.text.length > 4 * 64 * 1024, `output of ${out.text.length} characters`);
    assert.ok(out.mostBuffered <= 2 * 64 * 1024, `${out.mostBuffered} characters waited in the stream`);
  });

  it('stops writing, without an error, once the reader went away', async () => {
    const out = new ClosedAfterFirstChunk();
    const err = new Capture();
    const code = await runTrace({ file: fiveDeployments, nodes: 3, seed: 1, timeoutMs: 60_000, json: true, evidence: true, out, err });
    assert.equal(code, 0);
    assert.equal(err.text, '');
    assert.equal(out.chunks, 2, 'nothing written after the write that failed');
  });

  it('exits 0 without an error when `--json` output is piped into a reader that stops early', async function () {
    this.timeout(60_000);
    const { code, stderr } = await runClosingOutputEarly(['trace', '-f', fiveDeployments, '--json', '--evidence']);
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});
