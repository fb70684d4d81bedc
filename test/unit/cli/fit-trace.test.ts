/**
 * `trace` of pods the scheduler refuses (test/fixtures/fit-stuck.yaml): each gets "fits if:"
 * suggestions on its manifest line, and each suggestion, applied to the manifest as a Quick Fix
 * would apply it, makes a fresh trace of that object finish (exit 0).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../src/core/k8s';
import { applyFitEdits, type FitSuggestion } from '../../../src/core/journey/fit-suggestions';
import { parseManifest } from '../../../src/core/manifest';
import { traceCaptured as trace } from './capture';
import { parseRecords } from './records';

const FIXTURE = 'test/fixtures/fit-stuck.yaml';

describe('kube-journey trace: fit suggestions', function () {
  this.timeout(300_000);
  const suggestions: { pod: string; suggestion: FitSuggestion }[] = [];
  let text = '';
  let dir = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fit-trace-'));
    const json = await trace(FIXTURE, { json: true, timeoutMs: 30_000 });
    assert.equal(json.code, 1);
    const seen = new Set<string>();
    for (const object of parseRecords(json.out).objects) {
      for (const suggestion of object.stuck?.fits?.suggestions ?? []) {
        // Pods of one ReplicaSet share their suggestions: one re-trace each.
        const key = `${suggestion.target?.name ?? ''} ${suggestion.summary}`;
        if (seen.has(key)) continue;
        seen.add(key);
        suggestions.push({ pod: object.ref.name, suggestion });
      }
    }
    text = (await trace(FIXTURE, { timeoutMs: 30_000, width: 100 })).out;
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('suggests one change for each stuck pod of the fixture', () => {
    assert.deepEqual(
      suggestions.map(({ suggestion: s }) => `${s.target?.kind}/${s.target?.name} ${s.kind}: ${s.summary} on ${s.nodes}/${s.totalNodes}`).sort(),
      [
        'Deployment/arm-only nodeAffinity: node affinity kubernetes.io/arch In (arm64, amd64) on 3/3',
        'Deployment/host-port replicas: replicas: 3 instead of 4 on 3/3',
        'Deployment/hungry memory: requests.memory ≤ 14442Mi on 3/3',
        'Deployment/needs-claim claim: PersistentVolumeClaim data (1Gi, ReadWriteOnce; it does not exist) on 3/3',
        'Deployment/too-big cpu: requests.cpu ≤ 3920m on 3/3',
        'Deployment/two-problems cpu: requests.cpu ≤ 3920m and nodeSelector kubernetes.io/os: linux on 3/3',
        'Deployment/windows-only nodeSelector: nodeSelector kubernetes.io/os: linux on 3/3',
        'Pod/next-to-db podAffinity: without required podAffinity to app=db per kubernetes.io/hostname on 3/3',
      ],
    );
  });

  it('places each suggestion on the manifest line of its field', () => {
    const lines = readFileSync(FIXTURE, 'utf8').split('\n');
    const expected: Record<string, RegExp> = { cpu: /^\s+cpu: "\d+"$/, memory: /^\s+memory: 64Gi$/, nodeSelector: /^\s+nodeSelector:$/, nodeAffinity: /^\s+values: \[arm64\]$/, replicas: /^\s+replicas: 4$/, claim: /^\s+claimName: data$/, podAffinity: /^\s+- labelSelector:$/ };
    for (const { suggestion } of suggestions) {
      assert.ok(suggestion.line, `${suggestion.summary} has a line`);
      assert.match(lines[suggestion.line - 1], expected[suggestion.kind], suggestion.summary);
    }
  });

  it('prints "fits if:" under the stuck pod and when the rollout gives up', () => {
    assert.match(text, /\n {6}! FailedScheduling since \+0\.025s: 0\/3 nodes are available: 3 Insufficient cpu\.[^\n]*\n[^\n]*\n {8}fits if: requests\.cpu ≤ 3920m \(fits on 3 of 3 nodes\) · line 22\n {8}ProgressDeadlineExceeded at \+600\.000s \(progressDeadlineSeconds 600\)\n/);
    assert.match(text, /\n {4}fits if: without required podAffinity to app=db per kubernetes\.io\/hostname \(fits on 3 of 3\n {6}nodes\) · line 171\n/);
  });

  it('each suggested edit, applied to the manifest, lets the pod schedule: the re-trace exits 0', async () => {
    const manifest = parseManifest(readFileSync(FIXTURE, 'utf8'));
    for (const { pod, suggestion } of suggestions) {
      const target = suggestion.target!;
      const document = manifest.documents.find((d) => d.object?.kind === target.kind && d.object.metadata?.name === target.name);
      assert.ok(document?.object, `the document of ${target.kind}/${target.name}`);
      const edited = applyFitEdits<KubeObject>(document.object, suggestion.edits);
      const created = suggestion.edits.flatMap((edit) => (edit.op === 'create' ? [edit.object] : []));
      const file = join(dir, `${target.name}-${suggestion.kind}.yaml`);
      writeFileSync(file, [...created, edited].map((object) => stringify(object)).join('---\n'));
      const { code, err } = await trace(file, { timeoutMs: 120_000 });
      assert.equal(err, '', `${pod} after "${suggestion.summary}": ${err}`);
      assert.equal(code, 0, `${pod} after "${suggestion.summary}"`);
    }
  });
});
