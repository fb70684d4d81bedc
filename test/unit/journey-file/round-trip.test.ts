/**
 * A journey file gives back the journeys it was written from: the same objects, deep-equal, for
 * journeys of every shape the examples make (a rollout, a pod that cannot be scheduled, a
 * StatefulSet, a CronJob's Jobs, a crash loop, a Service with endpoints).
 */
import assert from 'node:assert/strict';
import { formatJourneyFile, parseJourneyFile } from '../../../src/core/journey-file/read';
import type { JourneyFile, SavedJourney } from '../../../src/core/journey-file/types';
import type { Journey } from '../../../src/core/journey/types';
import { traceJourneys, withoutUndefined } from './traced';

function fileOf(journeys: SavedJourney[]): JourneyFile {
  return {
    meta: { toolVersion: '0.1.0', createdAt: '2026-01-01T00:00:00.000Z', source: 'x.yaml', target: { type: 'simulator', nodes: 3, seed: 1 }, exitCode: 0, outcome: 'done', limit: 'within 300s of simulated time' },
    results: [{ document: 0, line: 1, object: 'deployment.apps/x', action: 'created' }],
    warnings: [],
    claimNotes: [],
    journeys,
    stored: [],
    unfinished: [],
    closing: [],
  };
}

function assertRoundTrip(journeys: SavedJourney[]): void {
  const back = parseJourneyFile(formatJourneyFile(fileOf(journeys)), 'round-trip');
  assert.equal(back.journeys.length, journeys.length);
  journeys.forEach((saved, index) => {
    assert.deepStrictEqual(back.journeys[index].journey, withoutUndefined(saved.journey), `journey ${saved.journey.id}`);
    assert.deepStrictEqual(back.journeys[index].phaseValues, saved.phaseValues, `phase values of ${saved.journey.id}`);
  });
}

describe('journey file: round trip', () => {
  for (const example of ['nginx-deployment', 'node-selector', 'statefulset', 'cronjob', 'crash-loop', 'web-service', 'multi-document', 'statefulset-storage']) {
    it(`gives back the journeys of examples/${example}.yaml`, () => {
      const journeys = traceJourneys(`examples/${example}.yaml`);
      assert.ok(journeys.length > 0 && journeys.every((saved) => saved.journey.tree), 'the example traced something');
      assertRoundTrip(journeys);
    });
  }

  it('gives back a Job journey (test/fixtures/docs-examples/job)', () => {
    assertRoundTrip(traceJourneys('test/fixtures/docs-examples/job/job.yaml'));
  });

  it('keeps what plain JSON cannot: NaN and infinities, strings holding its own marks, names inside other strings', () => {
    const [saved] = traceJourneys('examples/nginx-deployment.yaml');
    const journey = structuredClone(saved.journey) as Journey & { counts: Record<string, number> };
    journey.counts.restarts = NaN;
    journey.counts.oldLive = Infinity;
    journey.counts.deleted = -Infinity;
    const pod = journey.tree!.children[0].children[0];
    pod.stages[0].title = `\uE000\uE001 marks ${pod.ref.name} \uE0F0 12 007 ${pod.ref.uid}`;
    pod.stages[0].message = `${pod.ref.name}.${'f'.repeat(16)}`;
    pod.ref.uid = 'NOT-A-UUID';
    pod.stages[1].message = 'line one\nline "two"\t\\';
    assertRoundTrip([{ journey, ...(saved.phaseValues ? { phaseValues: saved.phaseValues } : {}) }]);
  });

  it('shares the node list of every scheduling attempt once decoded, as the tracer does', () => {
    const [saved] = traceJourneys('examples/nginx-deployment.yaml', { nodes: 20 });
    const back = parseJourneyFile(formatJourneyFile(fileOf([saved])), 'round-trip');
    const lists = back.journeys[0].journey.tree!.children[0].children.flatMap((pod) => pod.stages.flatMap((stage) => {
      const nodes = stage.evidence.internals?.scheduling?.table?.nodes;
      return nodes && 'list' in nodes ? [nodes.list.names] : [];
    }));
    assert.ok(lists.length >= 3, `${lists.length} attempts with a node list`);
    assert.equal(lists[0].length, 20);
    assert.ok(lists.every((names) => names === lists[0]), 'one array for every attempt');
  });
});
