/**
 * `kube-journey trace --save` then `kube-journey show`: show prints exactly what trace printed
 * (text or NDJSON, stdout and stderr) and exits with its code; a file it cannot read is one line and
 * exit 2.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runShow, type ShowOptions } from '../../../src/cli/show';
import type { TraceOptions } from '../../../src/cli/trace';
import { JOURNEY_FILE_VERSION } from '../../../src/core/journey-file/types';
import { Capture, traceCaptured as trace } from './capture';
import { parseRecords } from './records';
import { assertMatchesSchema } from '../journey-file/schema';

async function show(file: string, options: Partial<ShowOptions> = {}): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runShow({ file, json: false, evidence: false, width: 400, out, err, ...options });
  return { code, out: out.text, err: err.text };
}

describe('kube-journey trace --save, then show', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kj-show-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Traces `manifest` saving it, shows the file with the same options, and expects the same output and code. */
  async function assertShowsAsTraced(manifest: string, options: Partial<TraceOptions> = {}, expectedCode?: number): Promise<string> {
    const save = join(dir, `${manifest.replace(/\W+/g, '-')}-${options.json ? 'json' : 'text'}.journey.json`);
    const traced = await trace(manifest, { ...options, save });
    if (expectedCode !== undefined) assert.equal(traced.code, expectedCode, traced.err);
    assertMatchesSchema(JSON.parse(readFileSync(save, 'utf8')), save);
    const shown = await show(save, { json: options.json, evidence: options.evidence, width: options.width ?? 400 });
    assert.equal(shown.out, traced.out);
    assert.equal(shown.err, traced.err);
    assert.equal(shown.code, traced.code);
    return save;
  }

  it('nginx: the same text, exit 0', async () => {
    await assertShowsAsTraced('examples/nginx-deployment.yaml', {}, 0);
  });

  it('nginx: the same NDJSON with --json', async () => {
    await assertShowsAsTraced('examples/nginx-deployment.yaml', { json: true }, 0);
  });

  it('a pod stuck on its node selector: the same text and NDJSON, the same reason on stderr, exit 1', async () => {
    await assertShowsAsTraced('examples/node-selector.yaml', { timeoutMs: 30_000 }, 1);
    await assertShowsAsTraced('examples/node-selector.yaml', { timeoutMs: 30_000, json: true }, 1);
  });

  it('a StatefulSet, a Job and a crash loop: the same text and the same NDJSON', async () => {
    for (const json of [false, true]) {
      await assertShowsAsTraced('examples/statefulset.yaml', { json }, 0);
      await assertShowsAsTraced('test/fixtures/docs-examples/job/job.yaml', { json }, 0);
      await assertShowsAsTraced('examples/crash-loop.yaml', { json, timeoutMs: 60_000 }, 1);
    }
  });

  it('several journeys and stored-only objects: the same file summary and stored notes', async () => {
    await assertShowsAsTraced('examples/multi-document.yaml', {}, 0);
    await assertShowsAsTraced('test/fixtures/secrets/secret-and-pod.yaml', { json: true }, 0);
  });

  it('a lone claim: the same note about it', async () => {
    const manifest = join(dir, 'claim.yaml');
    writeFileSync(manifest, 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n');
    await assertShowsAsTraced(manifest, {}, 0);
  });

  it('a refused document and the pod budget: the same errors and closing line', async () => {
    await assertShowsAsTraced('test/fixtures/selector-mismatch.yaml', {}, 1);
    const manifest = join(dir, 'many.yaml');
    writeFileSync(manifest, readFileSync('examples/nginx-deployment.yaml', 'utf8').replace(/replicas: \d+/, 'replicas: 500'));
    const save = await assertShowsAsTraced(manifest, { maxPods: 100 }, 1);
    const shown = await show(save);
    assert.match(shown.err, /stopped at the pod budget/);
  });

  it('a trace saved as text shows as the NDJSON trace --json prints, with evidence as trace --evidence prints it, at another width', async () => {
    const save = join(dir, 'nginx-any.journey.json');
    await trace('examples/nginx-deployment.yaml', { save });
    const traceJson = await trace('examples/nginx-deployment.yaml', { json: true, evidence: true });
    // Node lists are numbered per process: this process traced before.
    const withoutListIds = (text: string): string => text.replace(/"list":\{"id":\d+,/g, '"list":{');
    assert.equal(withoutListIds((await show(save, { json: true, evidence: true })).out), withoutListIds(traceJson.out));
    const records = parseRecords(traceJson.out);
    assert.ok(records.objects.some((object) => object.stages.some((stage) => stage.evidence?.internals?.scheduling)), 'evidence is there');
    const traceEvidence = await trace('examples/nginx-deployment.yaml', { evidence: true, width: 90 });
    assert.equal((await show(save, { evidence: true, width: 90 })).out, traceEvidence.out);
  });

  it('writes atomically: no temporary file is left, and a .gz name is gzip that show reads', async () => {
    const sub = mkdtempSync(join(dir, 'atomic-'));
    const save = join(sub, 'nginx.journey.json.gz');
    const traced = await trace('examples/nginx-deployment.yaml', { save });
    assert.deepEqual(readdirSync(sub), ['nginx.journey.json.gz']);
    const bytes = readFileSync(save);
    assert.deepEqual([bytes[0], bytes[1]], [0x1f, 0x8b]);
    assert.equal((await show(save)).out, traced.out);
  });

  it('says in one line, before applying anything, when the file cannot be written, and exits 1', async () => {
    const missing = await trace('examples/nginx-deployment.yaml', { save: join(dir, 'no-such-folder', 'x.journey.json') });
    assert.equal(missing.code, 1);
    assert.equal(missing.out, '');
    assert.match(missing.err, /^kube-journey: cannot save the journeys to \S+no-such-folder\/x\.journey\.json: no folder \S+no-such-folder; nothing was applied\n$/);
    const folder = await trace('examples/nginx-deployment.yaml', { save: dir });
    assert.equal(folder.code, 1);
    assert.match(folder.err, /^kube-journey: cannot save the journeys to \S+: \S+ is a folder; nothing was applied\n$/);
  });

  describe('a file show cannot read: one line, exit 2', () => {
    let valid: string;
    before(async () => {
      valid = join(dir, 'valid.journey.json');
      await trace('examples/nginx-deployment.yaml', { save: valid });
    });

    const cases: { name: string; content: () => string | Buffer; expected: RegExp }[] = [
      { name: 'empty', content: () => '', expected: /: is empty, not a journey file$/ },
      { name: 'not JSON', content: () => '{"kind": "KubeJourneyFile",\n  "version": x}', expected: /: not JSON at line 2:14 \(Unexpected token 'x'\)$/ },
      { name: 'cut short', content: () => readFileSync(valid, 'utf8').slice(0, 5000), expected: /: is cut short: its JSON ends unfinished at line 1; it was not written completely, trace it again with --save$/ },
      { name: 'cut short gzip', content: () => gzipSync(readFileSync(valid)).subarray(0, 200), expected: /: is cut short: its gzip data ends unfinished/ },
      { name: 'not a journey file', content: () => '{"apiVersion": "v1", "kind": "Pod"}', expected: /: not a Kube Journey file: it has no "kind": "KubeJourneyFile" \(write one with kube-journey trace -f <manifest> --save <file>\.journey\.json\)$/ },
      { name: 'newer', content: () => JSON.stringify({ kind: 'KubeJourneyFile', version: JOURNEY_FILE_VERSION + 1 }), expected: new RegExp(`: written by a newer Kube Journey \\(file version ${JOURNEY_FILE_VERSION + 1}; this one reads versions 1 to ${JOURNEY_FILE_VERSION}\\): upgrade kube-journey to read it$`) },
      { name: 'version 0', content: () => JSON.stringify({ kind: 'KubeJourneyFile', version: 0 }), expected: /: version 0 is not a journey file version/ },
      { name: 'no version', content: () => JSON.stringify({ kind: 'KubeJourneyFile' }), expected: /: version: expected an integer, got nothing$/ },
      {
        name: 'a wrong field',
        content: () => readFileSync(valid, 'utf8').replace('"exitCode":0', '"exitCode":"zero"'),
        expected: new RegExp(`: meta\\.exitCode: expected an integer, got "zero" \\(file version ${JOURNEY_FILE_VERSION}\\)$`),
      },
      {
        name: 'a wrong column',
        content: () => {
          const document = JSON.parse(readFileSync(valid, 'utf8'));
          document.groups[0].columns[0] = { q: 1 };
          return JSON.stringify(document);
        },
        expected: /: groups\[0\]\.columns\[0\]: expected a column/,
      },
    ];
    for (const { name, content, expected } of cases) {
      it(name, async () => {
        const file = join(dir, `${name.replace(/\W+/g, '-')}.journey.json`);
        writeFileSync(file, content());
        const { code, out, err } = await show(file);
        assert.equal(code, 2);
        assert.equal(out, '');
        assert.match(err, /^kube-journey: [^\n]+\n$/);
        assert.ok(err.startsWith(`kube-journey: ${file}: `), err);
        assert.match(err.trimEnd(), expected);
      });
    }

    it('no such file', async () => {
      const { code, err } = await show(join(dir, 'missing.journey.json'));
      assert.equal(code, 2);
      assert.match(err, /^kube-journey: \S+missing\.journey\.json: cannot read it: no such file\n$/);
    });
  });

  it('the command line: show without a file is a usage error, exit 2; with one it prints it', async () => {
    const save = join(dir, 'cli.journey.json');
    await trace('examples/nginx-deployment.yaml', { save });
    const run = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
    };
    const missing = await run(['show']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^kube-journey: show needs a journey file: kube-journey show <file>\.journey\.json\n/);
    const narrow = await run(['show', save, '--width', '20']);
    assert.equal(narrow.code, 2);
    assert.match(narrow.stderr, /^kube-journey: --width must be a whole number of columns, at least 40, got "20"\n/);
    const shown = await run(['show', save, '--width', '100']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, (await trace('examples/nginx-deployment.yaml', { width: 100 })).out);
  });
});
