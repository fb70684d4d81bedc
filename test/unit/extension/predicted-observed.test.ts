/**
 * Apply for real's comparison: the twin's journeys (predicted) against the cluster's (observed) on
 * one axis, labelled as such, with a note for each divergence: outcome, stages and placement, a
 * phase that moved, journeys on one side only; and the twin target's names.
 */
import assert from 'node:assert/strict';
import type { Journey } from '../../../src/core/journey/types';
import { divergenceNotes, observedLabel, predictedLabel, predictedObservedModel } from '../../../src/extension/headless/predicted-observed';
import { isSimulated, isTarget, sameTarget, targetLabel, twinFailureMessage, twinTooltip } from '../../../src/extension/headless/target-model';
import { diffJourneys } from '../../../src/core/journey-diff/diff';
import { traceJourneys } from '../journey-file/traced';

const journeysOf = (file: string): Journey[] => traceJourneys(file).map((saved) => saved.journey);

describe('predicted against observed (Apply for real after a twin run)', () => {
  const fits = journeysOf('test/golden/diff-node-selector/a.yaml');
  const pinned = journeysOf('test/golden/diff-node-selector/b.yaml');

  it('labels the sides with the context and puts both on one axis from their own apply', () => {
    const model = predictedObservedModel('kind-prod', fits, fits);
    assert.equal(model.a.label, 'Predicted (twin of kind-prod)');
    assert.equal(model.b.label, 'Observed (kind-prod)');
    assert.equal(predictedLabel('x'), 'Predicted (twin of x)');
    assert.equal(observedLabel('x'), 'Observed (x)');
    assert.equal(model.a.lanes[0].startMs, 0);
    assert.equal(model.b.lanes[0].startMs, 0);
    assert.deepEqual(model.notes, ['No divergence: the cluster did what its twin predicted.']);
  });

  it('flags a pod predicted to run that the cluster could not schedule: outcome, stages, placement', () => {
    const model = predictedObservedModel('kind-prod', fits, pinned);
    const notes = model.notes.join('\n');
    assert.match(model.notes[0], /^Pod default\/web: predicted complete 1\/1 ready, observed stuck \(FailedScheduling\) 0\/1 ready$/);
    assert.match(notes, /^Pod default\/web: stages observed only \(Pod\): failedScheduling ×1$/m);
    assert.match(notes, /^Pod default\/web: stages predicted only \(Pod\): scheduled ×1, .*ready ×1$/m);
    assert.match(notes, /^Pod default\/web: placed differently: pods per node, predicted → observed: node-\d 1 → 0, not scheduled 0 → 1$/m);
    assert.doesNotMatch(notes, /still under way|No divergence/);
  });

  it('names journeys found on one side only', () => {
    const notes = predictedObservedModel('c', fits, []).notes;
    assert.deepEqual(notes, ['Pod default/web: predicted only (complete)']);
  });

  it('flags a phase whose p50 moved by a second and by half, not smaller moves', () => {
    const diff = diffJourneys({ label: 'a', journeys: fits.map((journey) => ({ journey })) }, { label: 'b', journeys: fits.map((journey) => ({ journey })) });
    const phase = diff.matched[0].phases.find((p) => p.phase === 'pod_startup')!;
    const a = phase.a!;
    const slower = (by: number) => ({ ...diff, matched: [{ ...diff.matched[0], phases: [{ ...phase, b: { ...a, p50: a.p50 + by }, delta: { p50: by, p90: 0, max: 0 } }] }] });
    assert.deepEqual(divergenceNotes(slower(a.p50 * 0.2), false), ['No divergence: the cluster did what its twin predicted.']);
    const flagged = divergenceNotes(slower(Math.max(1_000, a.p50)), false);
    assert.equal(flagged.length, 1);
    assert.match(flagged[0], /^pod_startup p50: predicted \S+, observed \S+ \(\+\S+\)$/);
  });

  it('says while the observed journey is still under way', () => {
    const underway = pinned.map((journey) => ({ ...journey, done: false, stuck: false, status: 'progressing' as const }));
    assert.equal(predictedObservedModel('c', fits, underway).notes.at(-1), 'The observed journey is still under way: this comparison follows it.');
  });
});

describe('twin targets', () => {
  it('names each target as the status bar and the tree show it', () => {
    assert.equal(targetLabel({ type: 'simulator' }), 'Simulator');
    assert.equal(targetLabel({ type: 'context', context: 'kind-prod' }), 'kind-prod');
    assert.equal(targetLabel({ type: 'twin', context: 'kind-prod' }), 'Twin of kind-prod');
  });

  it('treats the simulator and a twin as simulators (no confirmation, fit suggestions), a context not', () => {
    assert.equal(isSimulated({ type: 'simulator' }), true);
    assert.equal(isSimulated({ type: 'twin', context: 'c' }), true);
    assert.equal(isSimulated({ type: 'context', context: 'c' }), false);
    assert.equal(sameTarget({ type: 'twin', context: 'c' }, { type: 'context', context: 'c' }), false);
    assert.equal(sameTarget({ type: 'twin', context: 'c' }, { type: 'twin', context: 'c' }), true);
  });

  it('restores a saved twin target and refuses a broken one', () => {
    assert.equal(isTarget({ type: 'twin', context: 'c' }), true);
    assert.equal(isTarget({ type: 'twin' }), false);
    assert.equal(isTarget({ type: 'twin', context: '' }), false);
    assert.equal(isTarget({ type: 'clone', context: 'c' }), false);
  });

  it('says in the tooltip what the twin copied and what it could not', () => {
    const summary = { context: 'c', server: 'https://10.0.0.1:6443', header: ['twin of c: 3 nodes, 7 pods, 2 workloads, 4 namespaces (read in 0.2s with 12 GET requests)', 'Not copied: limitranges (forbidden): default requests and limits on the twin may differ'], copied: { Node: 3 }, readMs: 200 };
    const lines = twinTooltip('c', summary, 'https://127.0.0.1:4000');
    assert.match(lines[0], /the twin of context `c`.*GET requests only.*never written to/);
    assert.deepEqual(lines.slice(2), summary.header.map((line) => `- ${line}`));
    assert.deepEqual(twinTooltip('c', undefined, undefined).slice(1), ['Copied on the first Apply and Trace.']);
  });

  it('reports a twin that could not be made in one line naming the context', () => {
    assert.equal(twinFailureMessage('prod', 'cannot make a twin: context "prod" (https://x): the API server refused the credentials (401 Unauthorized)'), 'Cannot make a twin of prod: context "prod" (https://x): the API server refused the credentials (401 Unauthorized)');
    assert.equal(twinFailureMessage('nope', 'context was not found for specified context: nope'), 'Cannot make a twin of nope: context was not found for specified context: nope');
  });
});
