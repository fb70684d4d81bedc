/**
 * A saved 10,000-pod journey stays small: one Deployment of 10,000 replicas on 1,000 nodes, saved
 * with every pod's evidence (the scheduler's verdicts over 1,000 nodes included), is at most 5 MB;
 * as plain JSON it was about 200 MB. A size, not a timing. The file matches the JSON Schema and
 * reads back with every pod.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploymentsManifest } from '../../../bench/manifest';
import { readJourneyFile } from '../../../src/core/journey-file/node-io';
import { traceCaptured as trace } from '../cli/capture';
import { assertMatchesSchema } from './schema';

const MAX_BYTES = 5 * 1024 * 1024;

describe('journey file: size', function () {
  this.timeout(600_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kj-file-size-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a 10,000-pod Deployment on 1,000 nodes saves to at most 5 MB, valid, every pod back', async () => {
    const manifest = join(dir, 'big.yaml');
    writeFileSync(manifest, deploymentsManifest(1, 10_000));
    const save = join(dir, 'big.journey.json');
    const { code, err } = await trace(manifest, { nodes: 1000, save, maxPods: 20_000 });
    assert.equal(code, 0, err);
    const bytes = statSync(save).size;
    assert.ok(bytes <= MAX_BYTES, `${bytes} bytes`);
    assertMatchesSchema(JSON.parse(readFileSync(save, 'utf8')), 'the 10,000-pod file');
    const file = await readJourneyFile(save);
    const pods = file.journeys[0].journey.tree!.children.flatMap((replicaSet) => replicaSet.children);
    assert.equal(pods.length, 10_000);
    assert.equal(pods.filter((pod) => pod.status === 'complete').length, 10_000);
    // Every pod keeps its scheduler verdicts over the 1,000 nodes.
    const cycles = pods.map((pod) => pod.stages.find((stage) => stage.kind === 'scheduled')?.evidence.internals?.scheduling);
    assert.ok(cycles.every((cycle) => cycle?.totalNodes === 1000 && cycle.table), 'every pod has its verdict table');
    assert.equal(file.journeys[0].phaseValues?.pod_startup.length, 10_000);
  });
});
