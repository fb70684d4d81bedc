import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR, DEFAULT_TIMEOUT_MS, loadExpectations, matches, traceCorpusFile, type CorpusExpectation, type SimulatedResult } from './corpus-runner';

function corpusFiles(): string[] {
  return readdirSync(CORPUS_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(CORPUS_DIR, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

function describeDifference(expected: CorpusExpectation, simulated: SimulatedResult): string {
  return [
    `${expected.file}: a kind cluster gives ${expected.outcome}${expected.reason ? ` (${expected.reason})` : ''}`,
    `the simulator gives ${simulated.outcome}${simulated.reason ? ` (${simulated.reason})` : ''}, ${simulated.restarts} restarts`,
    'fix the simulator, or mark the entry in test/corpus/expected.json with "knownDifference": "<why>"',
  ].join('\n');
}

describe('docs corpus: Kubernetes documentation examples behave as on a kind cluster', () => {
  const expectations = loadExpectations();

  it('has exactly one expectation per manifest in test/corpus/docs', () => {
    const listed = expectations.map((entry) => entry.file).sort();
    assert.deepEqual(listed, corpusFiles());
  });

  it('gives every expectation a kind, a why, and a reason when it does not complete', () => {
    for (const entry of expectations) {
      assert.ok(entry.kinds.length > 0, `${entry.file}: kinds is empty`);
      assert.ok(entry.why.trim() !== '', `${entry.file}: why is empty`);
      if (entry.outcome !== 'complete') assert.ok(entry.reason, `${entry.file}: a ${entry.outcome} outcome needs the kind cluster's reason`);
    }
  });

  it('tells a difference from a match (the comparison can fail)', () => {
    const stuck: CorpusExpectation = { file: 'x.yaml', kinds: ['Pod'], outcome: 'stuck', reason: 'CreateContainerConfigError: configmap "c" not found', reasonIncludes: 'CreateContainerConfigError', why: 'missing ConfigMap' };
    assert.equal(matches(stuck, { outcome: 'complete', reason: '', restarts: 0, exitCode: 0 }), false);
    assert.equal(matches(stuck, { outcome: 'stuck', reason: 'pod/x: FailedScheduling: 0/3 nodes are available', restarts: 0, exitCode: 1 }), false);
    assert.equal(matches(stuck, { outcome: 'stuck', reason: 'pod/x: CreateContainerConfigError: configmap "c" not found', restarts: 0, exitCode: 1 }), true);
    const looping: CorpusExpectation = { ...stuck, outcome: 'running-forever', reasonIncludes: 'Liveness' };
    assert.equal(matches(looping, { outcome: 'complete', reason: '', restarts: 0, exitCode: 0 }), false);
    assert.equal(matches(looping, { outcome: 'complete', reason: '', restarts: 2, exitCode: 0 }), true);
  });

  for (const expected of expectations.filter((entry) => entry.knownDifference === undefined)) {
    it(`${expected.file} → ${expected.outcome}`, async () => {
      const simulated = await traceCorpusFile(expected.file, DEFAULT_TIMEOUT_MS);
      assert.ok(matches(expected, simulated), describeDifference(expected, simulated));
    });
  }
});
