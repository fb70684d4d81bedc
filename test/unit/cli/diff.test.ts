/**
 * `kube-journey diff` end to end: traces saved with `trace --save`, then diffed; exit codes, the
 * `--json` document and the one-line errors for files that are not journey files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIFF_BAD_INPUT, DIFF_JSON_KIND, DIFF_OUTCOME_DIFFERS, DIFF_SAME_OUTCOME, runDiff } from '../../../src/cli/diff';
import { Capture, traceCaptured } from './capture';

async function diffCaptured(a: string, b: string, json = false): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runDiff({ a, b, json, width: 100, out, err });
  return { code, out: out.text, err: err.text };
}

describe('kube-journey diff', function () {
  this.timeout(120_000);
  let dir: string;
  const saved: Record<string, string> = {};

  /** Saves the trace of `manifest` as `<name>.journey.json`; returns the trace's exit code. */
  async function save(name: string, manifest: string): Promise<number> {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, manifest);
    saved[name] = join(dir, `${name}.journey.json`);
    return (await traceCaptured(file, { save: saved[name] })).code;
  }

  const deployment = (replicas: number, nodeSelector = ''): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:${nodeSelector}
      containers:
      - name: web
        image: nginx:1.25
`;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-journey-diff-'));
    assert.equal(await save('three', deployment(3)), 0);
    assert.equal(await save('six', deployment(6)), 0);
    assert.equal(await save('ssd', deployment(3, '\n      nodeSelector: {disktype: ssd}')), 1);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 for the same outcome, showing the ready counts, phases and placement that changed', async () => {
    const { code, out, err } = await diffCaptured(saved.three, saved.six);
    assert.equal(err, '');
    assert.equal(code, DIFF_SAME_OUTCOME);
    assert.match(out, /^Deployment default\/web {2}\[complete\]$/m);
    assert.match(out, /^ {2}ready {6}3\/3 → 6\/6$/m);
    assert.match(out, /^ {2}pod_startup +3→6 /m);
    assert.match(out, /^ {2}placement: pods per node \(A → B\)$/m);
    assert.match(out, /^same outcome/m);
  });

  it('exits 0 with "no differences" for a file and itself', async () => {
    const { code, out } = await diffCaptured(saved.three, saved.three);
    assert.equal(code, DIFF_SAME_OUTCOME);
    assert.match(out, /^no differences/m);
  });

  it('exits 1 when a journey ends stuck, naming the reason', async () => {
    const { code, out } = await diffCaptured(saved.three, saved.ssd);
    assert.equal(code, DIFF_OUTCOME_DIFFERS);
    assert.match(out, /^ {2}outcome {4}complete → stuck$/m);
    assert.match(out, /B stuck {2}FailedScheduling \(Pod default\/web-[^]*didn't match/);
    assert.match(out, /only in B {2}failedScheduling ×3/);
    assert.match(out, /^outcome differs: Deployment default\/web complete → stuck \(FailedScheduling\)$/m);
  });

  it('reads an older journey file version, and lists journeys of other roots as only in A or B (exit 1)', async () => {
    const v1 = 'test/fixtures/journey-files/nginx-deployment.v1.journey.json';
    const self = await diffCaptured(v1, v1);
    assert.equal(self.code, DIFF_SAME_OUTCOME);
    assert.match(self.out, /^Deployment default\/nginx-deployment {2}\[complete\] {2}no differences$/m);
    const other = await diffCaptured(v1, saved.three);
    assert.equal(other.code, DIFF_OUTCOME_DIFFERS);
    assert.match(other.out, /^only in A: Deployment default\/nginx-deployment \[complete\]\nonly in B: Deployment default\/web \[complete\]$/m);
    assert.match(other.out, /^outcome differs: 1 journey only in A; 1 journey only in B$/m);
  });

  it('prints one JSON document with --json', async () => {
    const { code, out } = await diffCaptured(saved.three, saved.ssd, true);
    assert.equal(code, DIFF_OUTCOME_DIFFERS);
    const document = JSON.parse(out) as { kind: string; version: number; exitCode: number; sameOutcome: boolean; matched: { root: { name: string }; outcome: { a: { status: string }; b: { status: string; stuck?: { reason: string } } } }[] };
    assert.equal(document.kind, DIFF_JSON_KIND);
    assert.equal(document.version, 1);
    assert.equal(document.exitCode, DIFF_OUTCOME_DIFFERS);
    assert.equal(document.sameOutcome, false);
    assert.deepEqual(
      document.matched.map((m) => [m.root.name, m.outcome.a.status, m.outcome.b.status, m.outcome.b.stuck?.reason]),
      [['web', 'complete', 'stuck', 'FailedScheduling']],
    );
  });

  it('gives its exit code to the process, and a bad command line exit 2 with the usage', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'diff', ...args], { encoding: 'utf8' });
    assert.equal(run(saved.three, saved.six).status, DIFF_SAME_OUTCOME);
    const stuck = run(saved.three, saved.ssd, '--width', '80');
    assert.equal(stuck.status, DIFF_OUTCOME_DIFFERS);
    for (const line of stuck.stdout.split('\n')) assert.ok(line.length <= 80, line);
    const one = run(saved.three);
    assert.equal(one.status, 2);
    assert.match(one.stderr, /^kube-journey: diff compares two journey files: kube-journey diff <A>\.journey\.json <B>\.journey\.json \(got 1\)\n\nUsage:/);
  });

  it('exits 2 with one line naming the file that is missing or not a journey file', async () => {
    const missing = await diffCaptured(saved.three, join(dir, 'nope.journey.json'));
    assert.equal(missing.code, DIFF_BAD_INPUT);
    assert.equal(missing.out, '');
    assert.match(missing.err, /^kube-journey: .*nope\.journey\.json: cannot read it: no such file\n$/);
    const manifest = await diffCaptured(join(dir, 'three.yaml'), saved.three);
    assert.equal(manifest.code, DIFF_BAD_INPUT);
    assert.equal(manifest.err.split('\n').length, 2, manifest.err);
    assert.match(manifest.err, /three\.yaml: not JSON at line 1:1/);
  });
});
