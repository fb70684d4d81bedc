/**
 * `kube-journey export` from the command line: a saved trace becomes a Chrome trace or OTLP/JSON
 * on a file or stdout, or is sent to a receiver; a bad format, an unreadable file or an endpoint that
 * refuses are one line and a non-zero exit.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExport, type ExportOptions } from '../../../src/cli/export';
import { readJourneyFile, writeJourneyFile } from '../../../src/core/journey-file/node-io';
import { JOURNEY_FILE_KIND } from '../../../src/core/journey-file/types';
import { Capture, traceCaptured } from '../cli/capture';

async function exportCaptured(options: Partial<ExportOptions> & Pick<ExportOptions, 'file' | 'format'>): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runExport({ out, err, ...options });
  return { code, out: out.text, err: err.text };
}

function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('kube-journey export', () => {
  let dir: string;
  let saved: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kj-export-'));
    saved = join(dir, 'nginx.journey.json');
    const traced = await traceCaptured('examples/nginx-deployment.yaml', { save: saved });
    assert.equal(traced.code, 0, traced.err);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a Chrome trace to -o, and OTLP/JSON to stdout', async () => {
    const output = join(dir, 'nginx.trace.json');
    const chrome = await exportCaptured({ file: saved, format: 'chrome', output });
    assert.equal(chrome.code, 0, chrome.err);
    assert.equal(chrome.out, '');
    const trace = JSON.parse(readFileSync(output, 'utf8')) as { traceEvents: { name: string; args?: { name?: string } }[]; otherData: { source: string } };
    assert.equal(trace.otherData.source, 'examples/nginx-deployment.yaml');
    assert.ok(trace.traceEvents.some((event) => event.name === 'process_name' && event.args?.name === 'Deployment default/nginx-deployment'));
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), [], 'no temporary file left');
    const otlp = await exportCaptured({ file: saved, format: 'otlp' });
    assert.equal(otlp.code, 0, otlp.err);
    const request = JSON.parse(otlp.out) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
    assert.ok(request.resourceSpans[0].scopeSpans[0].spans.length >= 5);
  });

  it('sends to --otlp-endpoint and says how much it sent', async () => {
    let bodies = 0;
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        bodies++;
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const sent = await exportCaptured({ file: saved, format: 'otlp', endpoint });
      assert.equal(sent.code, 0, sent.err);
      assert.equal(sent.out, '', 'nothing on stdout without -o');
      assert.match(sent.err, new RegExp(`^kube-journey: sent \\d+ spans of 1 trace to ${endpoint} in 1 request\\n$`));
      assert.equal(bodies, 1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('an unreadable or wrong file: one line naming it, exit 2 (as show); an output that cannot be written: exit 1', async () => {
    const missing = await exportCaptured({ file: join(dir, 'nope.journey.json'), format: 'chrome' });
    assert.equal(missing.code, 2);
    assert.equal(missing.err, `kube-journey: ${join(dir, 'nope.journey.json')}: cannot read it: no such file\n`);
    const notJourney = join(dir, 'other.json');
    writeFileSync(notJourney, '{"kind":"Other"}');
    const wrong = await exportCaptured({ file: notJourney, format: 'otlp' });
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, new RegExp(`^kube-journey: ${notJourney.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a Kube Journey file: it has no "kind": "${JOURNEY_FILE_KIND}"`));
    assert.equal(wrong.out, '');
    const unwritable = await exportCaptured({ file: saved, format: 'chrome', output: join(dir, 'no-such-folder', 'x.json') });
    assert.equal(unwritable.code, 1);
    assert.match(unwritable.err, /: cannot write it: its folder does not exist\n$/);
  });

  it('the command line: a bad format, a missing file argument, an endpoint with chrome or not http: usage, exit 2', async () => {
    const badFormat = await runCli(['export', saved, '--format', 'jaeger']);
    assert.equal(badFormat.code, 2);
    assert.match(badFormat.stderr, /^kube-journey: --format must be chrome or otlp, got "jaeger"\n/);
    const noFormat = await runCli(['export', saved]);
    assert.equal(noFormat.code, 2);
    assert.match(noFormat.stderr, /^kube-journey: export needs --format chrome or --format otlp\n/);
    const noFile = await runCli(['export', '--format', 'chrome']);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /^kube-journey: export needs a journey file/);
    const chromeEndpoint = await runCli(['export', saved, '--format', 'chrome', '--otlp-endpoint', 'http://127.0.0.1:4318']);
    assert.equal(chromeEndpoint.code, 2);
    assert.match(chromeEndpoint.stderr, /^kube-journey: --otlp-endpoint sends OpenTelemetry traces: use it with --format otlp\n/);
    const notHttp = await runCli(['export', saved, '--format', 'otlp', '--otlp-endpoint', 'grpc://127.0.0.1:4317']);
    assert.equal(notHttp.code, 2);
    assert.match(notHttp.stderr, /^kube-journey: --otlp-endpoint must be an http:\/\/ or https:\/\/ URL, got "grpc:\/\/127\.0\.0\.1:4317"\n/);
  });

  it('the command line: a refused endpoint is one line, exit 1, and the Chrome trace goes to stdout', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const refused = await runCli(['export', saved, '--format', 'otlp', '--otlp-endpoint', `http://127.0.0.1:${port}`]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `kube-journey: the OTLP endpoint http://127.0.0.1:${port}/v1/traces refused the connection (is a collector listening there?)\n`);
    const chrome = await runCli(['export', saved, '--format', 'chrome']);
    assert.equal(chrome.code, 0, chrome.stderr);
    assert.ok((JSON.parse(chrome.stdout) as { traceEvents: unknown[] }).traceEvents.length > 10);
  });

  it('keeps a gzip journey file readable', async () => {
    const gz = join(dir, 'copy.journey.json.gz');
    await writeJourneyFile(gz, await readJourneyFile(saved));
    const result = await exportCaptured({ file: gz, format: 'otlp' });
    assert.equal(result.code, 0, result.err);
  });
});
