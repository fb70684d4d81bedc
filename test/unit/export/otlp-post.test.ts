/**
 * Sending traces to an OTLP/HTTP receiver this test starts on 127.0.0.1: what it receives on
 * success, and one clear line for each way the endpoint can refuse (an error status with its
 * message, a refused connection, no answer in time, rejected spans).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { otlpRequestBodies } from '../../../src/core/export/otlp-traces';
import { OtlpPostError, postOtlpTraces, tracesUrl } from '../../../src/cli/otlp-post';
import { CRASH_LOOP, NGINX, tracedInput } from './traced-input';

interface Received {
  method: string;
  path: string;
  contentType: string;
  body: string;
}

/** A receiver answering each request with `answer`; resolves once it listens. */
async function receiver(answer: (request: Received, response: ServerResponse) => void): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry = { method: request.method ?? '', path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body };
      received.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function postFailure(url: string, timeoutMs?: number): Promise<string> {
  try {
    await postOtlpTraces(url, otlpRequestBodies(tracedInput(NGINX)), timeoutMs);
  } catch (error) {
    assert.ok(error instanceof OtlpPostError, String(error));
    assert.doesNotMatch(error.message, /\n/);
    return error.message;
  }
  return assert.fail('the post succeeded');
}

describe('OTLP/HTTP post', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await close(server);
  });

  it('posts every span as JSON to /v1/traces, in several requests when they are many', async () => {
    const { server, url, received } = await receiver((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"partialSuccess":{}}');
    });
    servers.push(server);
    const input = tracedInput(NGINX, CRASH_LOOP);
    const summary = await postOtlpTraces(url, otlpRequestBodies(input, 20_000));
    assert.ok(received.length > 1 && summary.requests === received.length, `${received.length} requests`);
    let spans = 0;
    for (const request of received) {
      assert.equal(request.method, 'POST');
      assert.equal(request.path, '/v1/traces');
      assert.equal(request.contentType, 'application/json');
      const body = JSON.parse(request.body) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
      spans += body.resourceSpans.reduce((sum, resource) => sum + resource.scopeSpans[0].spans.length, 0);
    }
    assert.equal(spans, summary.spans);
    assert.equal(spans, [...otlpRequestBodies(input)].reduce((sum, body) => sum + body.spans, 0));
  });

  it('a 500 with a message: its status and first line, in one line', async () => {
    const { server, url } = await receiver((_request, response) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end('\nexporter queue is full\nsecond line\n');
    });
    servers.push(server);
    assert.equal(await postFailure(url), `the OTLP endpoint ${url}/v1/traces answered 500 Internal Server Error: exporter queue is full`);
  });

  it('a partial success with rejected spans is reported, not passed over', async () => {
    const { server, url } = await receiver((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"partialSuccess":{"rejectedSpans":"2","errorMessage":"spans too old"}}');
    });
    servers.push(server);
    assert.match(await postFailure(url), new RegExp(`^the OTLP endpoint ${url}/v1/traces rejected 2 of \\d+ spans: spans too old$`));
  });

  it('a refused connection', async () => {
    const { server, url } = await receiver(() => undefined);
    await close(server);
    assert.equal(await postFailure(url), `the OTLP endpoint ${url}/v1/traces refused the connection (is a collector listening there?)`);
  });

  it('no answer within the time limit', async () => {
    // Never answers: the post gives up at its (here short) limit.
    const { server, url } = await receiver(() => undefined);
    servers.push(server);
    assert.equal(await postFailure(url, 300), `the OTLP endpoint ${url}/v1/traces did not answer within 0.3 s`);
  });

  it('endpoint URLs: /v1/traces added once, only http and https, no credentials', () => {
    assert.equal(tracesUrl('http://127.0.0.1:4318').href, 'http://127.0.0.1:4318/v1/traces');
    assert.equal(tracesUrl('http://127.0.0.1:4318/').href, 'http://127.0.0.1:4318/v1/traces');
    assert.equal(tracesUrl('https://collector.example/otlp/v1/traces').href, 'https://collector.example/otlp/v1/traces');
    assert.throws(() => tracesUrl('ftp://127.0.0.1'), /must be an http:\/\/ or https:\/\/ URL, got "ftp:\/\/127\.0\.0\.1"/);
    assert.throws(() => tracesUrl('127.0.0.1:4318'), /must be an http:\/\/ or https:\/\/ URL/);
    assert.throws(() => tracesUrl('http://user:pw@127.0.0.1:4318'), /must not hold credentials/);
  });
});
