/**
 * A saved journey file holds no Secret data and no credentials: a pod that reads a Secret every
 * way a pod can (volume, projected volume with a service-account token, env, envFrom) is traced
 * and saved, with evidence; the file, plain and gzip, is scanned for the values (plain and base64)
 * and for anything shaped like a token.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { encodeUtf8Base64 } from '../../../src/common/base64';
import { readJourneyFile } from '../../../src/core/journey-file/node-io';
import { traceCaptured as trace } from '../cli/capture';

const FIXTURE = 'test/fixtures/journey-files/secret-consumers.yaml';
const VALUES = ['KJ-CANARY-stringData-7f3a9c', 'KJ-CANARY-data-4b2e1d'];
const LEAKS = [...VALUES, ...VALUES.map(encodeUtf8Base64), 'KJ-CANARY'];
/** A JWT (a service-account token) starts with the base64 of `{"`. */
const TOKEN_SHAPE = /eyJ[A-Za-z0-9_-]{10,}/;

describe('journey file: no Secret data, no credentials', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kj-secret-file-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the fixture carries the values, and its pod reads the Secret every way', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    assert.ok(text.includes(VALUES[0]) && text.includes(encodeUtf8Base64(VALUES[1])));
    for (const use of ['secretKeyRef', 'envFrom', 'secretName', 'serviceAccountToken']) assert.ok(text.includes(use), use);
  });

  for (const name of ['secrets.journey.json', 'secrets.journey.json.gz']) {
    it(`${name}: the trace is saved with the Secret and the pod, and no value of it`, async () => {
      const save = join(dir, name);
      const { code, err } = await trace(FIXTURE, { save, evidence: true });
      assert.equal(code, 0, err);
      const bytes = readFileSync(save);
      const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
      const file = await readJourneyFile(save);
      // What was saved is what the scan reads: the Secret's note and the pod's journey.
      assert.deepEqual(file.stored.map((entry) => `${entry.kind}/${entry.name} ${entry.facts}`), ['Secret/db-credentials 2 keys: password (27 bytes), username (21 bytes)']);
      assert.equal(file.journeys[0].journey.tree?.status, 'complete');
      const decoded = JSON.stringify(file);
      for (const leak of LEAKS) {
        assert.ok(!text.includes(leak), `the file holds ${leak}`);
        assert.ok(!decoded.includes(leak), `the decoded file holds ${leak}`);
      }
      assert.doesNotMatch(decoded, TOKEN_SHAPE);
    });
  }
});
