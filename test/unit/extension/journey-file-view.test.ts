/**
 * A saved journey opens in the timeline as the live panel showed it: Save Journey… (journeyFileOf)
 * → the file's text → decodeJourneyFile → journeyFileSnapshot gives the lanes TimelineSync sends
 * for the same journeys live. And a file that cannot be read says why in one line.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { formatJourneyFile } from '../../../src/core/journey-file/read';
import { JourneyFileError } from '../../../src/core/journey-file/errors';
import { decodeJourneyFile, journeyFileProblem, journeyFileSnapshot, journeyFileSource } from '../../../src/extension/headless/journey-file-view';
import { defaultJourneyFileName, journeyFileOf } from '../../../src/extension/headless/journey-file-save';
import type { JourneyLanes } from '../../../src/protocol/timeline-protocol';
import { TimelineSync } from '../../../src/protocol/timeline-sync';
import { traceJourneys, withoutUndefined } from '../journey-file/traced';

/** The lanes as drawn: the columns as they are, the extras as JSON keeps them (a key whose value is undefined is not written). */
function comparable(journeyLanes: JourneyLanes): unknown {
  const { extras, ...columns } = journeyLanes.lanes;
  return { ...journeyLanes, lanes: { ...columns, extras: withoutUndefined(extras) } };
}

const target = { type: 'simulator', nodes: 3, seed: 1 } as const;
const createdAt = new Date('2026-11-29T03:18:20.801Z');

describe('journey files in the timeline: save → open gives the live lanes', () => {
  for (const example of ['nginx-deployment', 'node-selector', 'web-service', 'crash-loop']) {
    it(`examples/${example}.yaml`, () => {
      const traced = traceJourneys(`examples/${example}.yaml`);
      assert.ok(traced.length > 0);
      for (const saved of traced) {
        const live = new TimelineSync().next([saved.journey], { focusJourneyId: saved.journey.id });
        assert.equal(live.type, 'snapshot');
        const file = journeyFileOf({ journey: saved.journey, phaseValues: saved.phaseValues, source: `examples/${example}.yaml`, target, createdAt });
        const opened = journeyFileSnapshot(decodeJourneyFile(Buffer.from(formatJourneyFile(file), 'utf8'), `${example}.journey.json`));
        if (live.type !== 'snapshot') return;
        assert.deepStrictEqual(opened.lanes.map(comparable), live.lanes.map(comparable), `lanes of ${saved.journey.id}`);
        assert.deepStrictEqual(opened.journeys, withoutUndefined(live.journeys), `header of ${saved.journey.id}`);
        assert.equal(opened.focusJourneyId, saved.journey.id);
        assert.equal(opened.source, 'saved 2026-11-29 03:18 UTC · built-in simulator, 3 nodes');
      }
    });
  }

  it('keeps the document result, the phase values and the exit code of the journey it saves', () => {
    const [saved] = traceJourneys('examples/nginx-deployment.yaml');
    const manifest = { key: 'file:///w/examples/nginx-deployment.yaml', label: 'nginx-deployment.yaml', target: 'kube-journey-simulator', appliedAt: saved.journey.appliedAt, entries: [{ documentIndex: 0, display: 'deployment.apps/nginx-deployment', kind: 'Deployment', name: 'nginx-deployment', line: 3, action: 'created' as const, journeyId: saved.journey.id }] };
    const file = journeyFileOf({ journey: saved.journey, phaseValues: saved.phaseValues, manifest, source: 'examples/nginx-deployment.yaml', target, createdAt });
    assert.deepEqual(file.results, [{ document: 0, line: 3, object: 'deployment.apps/nginx-deployment', action: 'created' }]);
    assert.deepEqual(file.journeys[0].phaseValues, saved.phaseValues);
    assert.equal(file.meta.exitCode, saved.journey.status === 'complete' ? 0 : 1);
    assert.equal(defaultJourneyFileName(saved.journey), 'nginx-deployment.journey.json');
  });

  it('saves a journey still going as unfinished (exit code 1, one line saying so)', () => {
    const [saved] = traceJourneys('examples/node-selector.yaml');
    assert.notEqual(saved.journey.status, 'complete', 'the nodeSelector pod cannot be scheduled');
    const file = journeyFileOf({ journey: saved.journey, source: 'examples/node-selector.yaml', target, createdAt });
    assert.equal(file.meta.exitCode, 1);
    assert.equal(file.unfinished.length, 1);
    assert.match(file.unfinished[0], new RegExp(`${saved.journey.root.name} was ${saved.journey.status} when it was saved`));
  });

  it('opens a gzip-compressed journey file too', () => {
    const [saved] = traceJourneys('examples/nginx-deployment.yaml');
    const text = formatJourneyFile(journeyFileOf({ journey: saved.journey, source: 'x.yaml', target, createdAt }));
    assert.deepStrictEqual(decodeJourneyFile(gzipSync(text), 'x.journey.json.gz'), decodeJourneyFile(Buffer.from(text), 'x.journey.json'));
  });

  it('names the file and the JSON line, or the field, of a file it cannot read', () => {
    const notJson = () => decodeJourneyFile(Buffer.from('{"kind":"KubeJourneyFile","version":2,\n  "meta": }\n'), 'bad.journey.json');
    assert.throws(notJson, (error: unknown) => error instanceof JourneyFileError && /^bad\.journey\.json: not JSON at line 2:/.test(error.message));
    const noGroups = () => decodeJourneyFile(Buffer.from('{"kind":"KubeJourneyFile","version":2,"meta":{}}'), 'empty.journey.json');
    assert.throws(noGroups, /^JourneyFileError: empty\.journey\.json: \S+: expected/);
    let problem = '';
    try {
      notJson();
    } catch (error) {
      problem = journeyFileProblem(error, 'bad.journey.json');
    }
    assert.doesNotMatch(problem, /\n|at .*\.ts/, 'one line, no stack');
    assert.equal(journeyFileProblem(new Error('boom'), 'x.journey.json'), 'x.journey.json: boom');
  });

  it('names a context target by its context only', () => {
    const [saved] = traceJourneys('examples/nginx-deployment.yaml');
    const file = journeyFileOf({ journey: saved.journey, source: 'x.yaml', target: { type: 'context', context: 'kind-kind' }, createdAt });
    assert.equal(journeyFileSource(file), 'saved 2026-11-29 03:18 UTC · context kind-kind');
  });
});
