/**
 * Files of older versions still read (the compatibility promise of docs/journey-file.md): the
 * fixture was written by version 1 (plain JSON) of `trace --save` for examples/nginx-deployment.yaml.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readJourneyFile } from '../../../src/core/journey-file/node-io';
import { formatJourneyFile, parseJourneyFile } from '../../../src/core/journey-file/read';
import { JOURNEY_FILE_VERSION } from '../../../src/core/journey-file/types';
import { READERS } from '../../../src/core/journey-file/migrate';
import { printJourneyFile } from '../../../src/cli/show';
import { Capture } from '../cli/capture';
import { assertMatchesSchema } from './schema';

const V1 = 'test/fixtures/journey-files/nginx-deployment.v1.journey.json';

async function printed(file: Awaited<ReturnType<typeof readJourneyFile>>): Promise<string> {
  const out = new Capture();
  const err = new Capture();
  await printJourneyFile(file, { json: false, evidence: true, width: 120, out, err });
  return out.text + err.text;
}

describe('journey file versions', () => {
  it('every version up to the current one has a reader', () => {
    for (let version = 1; version <= JOURNEY_FILE_VERSION; version++) assert.equal(typeof READERS[version], 'function', `version ${version}`);
  });

  it('reads a version-1 file: its meta, results and the nginx journey with every pod', async () => {
    assert.equal(JSON.parse(readFileSync(V1, 'utf8')).version, 1);
    assertMatchesSchema(JSON.parse(readFileSync(V1, 'utf8')), 'the version-1 fixture');
    const file = await readJourneyFile(V1);
    assert.equal(file.meta.source, 'examples/nginx-deployment.yaml');
    assert.deepEqual(file.meta.target, { type: 'simulator', nodes: 3, seed: 1 });
    assert.equal(file.meta.exitCode, 0);
    assert.deepEqual(file.results, [{ document: 0, line: 3, object: 'deployment.apps/nginx-deployment', action: 'created' }]);
    const [saved] = file.journeys;
    assert.equal(saved.journey.root.name, 'nginx-deployment');
    assert.equal(saved.journey.tree?.children[0].children.length, 3);
    assert.equal(saved.phaseValues?.pod_startup.length, 3);
    const text = await printed(file);
    assert.match(text, /3\/3 ready/);
    assert.equal((text.match(/Successfully assigned default\/nginx-deployment-\S+ to/g) ?? []).length, 3);
    assert.match(text, /scheduling attempt 1: 3\/3 evaluated nodes feasible of 3, picked node-\d/);
  });

  it('a version-1 file saved again in the current version gives the same journeys and prints the same', async () => {
    const old = await readJourneyFile(V1);
    const text = formatJourneyFile(old);
    assert.equal(JSON.parse(text).version, JOURNEY_FILE_VERSION);
    assertMatchesSchema(JSON.parse(text), 'the file saved again');
    const again = parseJourneyFile(text, 'again');
    assert.deepStrictEqual(again, old);
    assert.equal(await printed(again), await printed(old));
    assert.ok(text.length < readFileSync(V1, 'utf8').length / 1.5, `${text.length} bytes`);
  });
});
