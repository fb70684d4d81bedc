import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { documentLenses, journeySummary } from '../../../src/core/explain/lens';
import { humanDuration } from '../../../src/core/explain/format';
import { parseManifest } from '../../../src/core/manifest';
import { goldenJourney } from './fixtures';

describe('CodeLenses', () => {
  it('offers Apply and Trace above each Kubernetes document, and nothing for other YAML', () => {
    const lenses = documentLenses(parseManifest(readFileSync('examples/multi-document.yaml', 'utf8')));
    assert.deepEqual(lenses.map((l) => [l.line, l.title, l.documentIndex]), [
      [2, 'Apply and Trace', 0],
      [7, 'Apply and Trace', 1],
      [15, 'Apply and Trace', 2],
    ]);
    assert.deepEqual(documentLenses(parseManifest('name: CI\non: push\njobs: {}\n')), []);
  });

  it('adds Open Timeline and the live summary once a document was traced', () => {
    const journey = goldenJourney('nginx-deployment');
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n';
    const lenses = documentLenses(parseManifest(text), (root) => (root.name === 'web' ? journey : undefined));
    assert.deepEqual(lenses.map((l) => l.action), ['apply', 'openTimeline', 'openTimeline']);
    assert.equal(lenses[1].journeyId, journey.id);
    assert.match(lenses[2].title, /^3\/3 ready · \d+\.\d s$/);
    assert.equal(lenses[2].title, `3/3 ready · ${humanDuration(journey.totalDurationMs!)}`);
  });

  it('keeps its lenses for a document with a YAML error further down', () => {
    const lenses = documentLenses(parseManifest('apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: [\n'));
    assert.deepEqual(lenses.map((l) => l.title), ['Apply and Trace']);
  });

  it('summarises stuck journeys with the reason', () => {
    assert.match(journeySummary(goldenJourney('unschedulable')), /^0\/1 ready · stuck: FailedScheduling$/);
    assert.match(journeySummary(goldenJourney('image-pull-backoff')), /^0\/1 ready · stuck: (ErrImagePull|ImagePullBackOff)$/);
  });

  it('formats durations the way the summary shows them', () => {
    assert.equal(humanDuration(850), '850 ms');
    assert.equal(humanDuration(4_140), '4.1 s');
    assert.equal(humanDuration(125_000), '2 min 05 s');
    assert.equal(humanDuration(3_720_000), '1 h 02 min');
  });
});
