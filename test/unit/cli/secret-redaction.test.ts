/**
 * A Secret's values never leave the API: not in the trace text (with evidence), not in `--json`,
 * not in the internals stream, not in error messages. The fixture carries recognizable values in
 * both `stringData` and `data`; every output is scanned for them, plain and base64.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { parse as parseYaml } from 'yaml';
import { runTrace } from '../../../src/cli/trace';
import { parseRecords } from './records';
import { Simulator } from '../../../src/sim/simulator';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import { connectTracer } from '../../../src/cli/trace';
import { encodeUtf8Base64 } from '../../../src/common/base64';
import type { KubeObject } from '../../../src/core/k8s';
import type { InternalStep } from '../../../src/core/internals';
import { ApiError } from '../../../src/sim/store/types';

const FIXTURE = 'test/fixtures/secrets/secret-and-pod.yaml';
const PLAIN_VALUES = ['KJ-CANARY-stringData-7f3a9c', 'KJ-CANARY-data-4b2e1d'];
const LEAK_PATTERNS = [...PLAIN_VALUES, ...PLAIN_VALUES.map(encodeUtf8Base64), 'KJ-CANARY'];

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function assertNoSecret(text: string, where: string): void {
  for (const pattern of LEAK_PATTERNS) assert.ok(!text.includes(pattern), `${where} contains ${pattern}`);
}

async function trace(json: boolean): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runTrace({ file: FIXTURE, nodes: 3, seed: 1, timeoutMs: 120_000, json, evidence: true, width: 120, out, err });
  return { code, out: out.text, err: err.text };
}

describe('Secret values never leak', () => {
  it('the fixture does carry the values the scans look for', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    assert.ok(text.includes(PLAIN_VALUES[0]));
    assert.ok(text.includes(encodeUtf8Base64(PLAIN_VALUES[1])));
  });

  it('trace text with evidence names the Secret, its keys and sizes, and no value', async () => {
    const { code, out, err } = await trace(false);
    assert.equal(code, 0, err);
    assert.match(out, /^secret\/db-credentials created$/m);
    assert.match(out, /Secret default\/db-credentials {2}\[complete\] {2}2 keys: password \(27 bytes\), username \(21 bytes\)/);
    assertNoSecret(out + err, 'trace output');
  });

  it('--json output leaves the values out too', async () => {
    const { code, out } = await trace(true);
    assert.equal(code, 0);
    const parsed = parseRecords(out);
    assert.deepEqual(parsed.stored.map((s) => [s.kind, s.facts]), [['Secret', '2 keys: password (27 bytes), username (21 bytes)']]);
    assertNoSecret(out, 'JSON output');
  });

  it('the internals stream and the journeys of a simulator that stored it carry no value', () => {
    const simulator = new Simulator({ nodes: 1, seed: 1 });
    const tracer = new JourneyTracer();
    connectTracer(simulator, tracer);
    const steps: InternalStep[] = [];
    simulator.internals.onStep((step) => steps.push(step));
    const documents = readFileSync(FIXTURE, 'utf8').split(/^---$/m).map((doc) => parseYaml(doc) as KubeObject);
    const id = tracer.begin({ kind: 'Pod', namespace: 'default', name: 'app' }, simulator.clock.now());
    for (const document of documents) simulator.apply(document);
    simulator.runUntil(() => tracer.progress(id)?.done === true, 60_000);
    assert.ok(steps.some((step) => JSON.stringify(step).includes('/registry/secrets/default/db-credentials')), 'the Secret write is in the stream');
    assertNoSecret(JSON.stringify(steps), 'internals stream');
    assertNoSecret(JSON.stringify(tracer.journey(id)), 'journey');
    // The stored object itself holds the value, base64 in data, and no stringData.
    const stored = simulator.store.get('Secret', 'default', 'db-credentials') as KubeObject;
    assert.equal((stored.data as Record<string, string>).password, encodeUtf8Base64(PLAIN_VALUES[0]));
    assert.equal(stored.stringData, undefined);
  });

  it('refusals name keys and byte offsets, never values', () => {
    const simulator = new Simulator({ nodes: 1, seed: 1 });
    const refusal = (object: KubeObject): string => {
      try {
        simulator.apply(object);
      } catch (error) {
        if (error instanceof ApiError) return `${error.message} ${JSON.stringify(error.details ?? {})}`;
        throw error;
      }
      return assert.fail('expected a refusal');
    };
    const badKey = refusal({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'default' }, stringData: { 'bad key!': PLAIN_VALUES[0] } });
    assert.match(badKey, /data\[bad key!\]: Invalid value: "bad key!"/);
    const tls = refusal({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2', namespace: 'default' }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': PLAIN_VALUES[1] } });
    assert.match(tls, /data\[tls\.key\]: Required value/);
    assertNoSecret(badKey + tls, 'refusals');
  });
});
