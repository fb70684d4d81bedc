/**
 * Golden diffs: each test/golden/diff-<name>/ holds two manifests, a.yaml and b.yaml (and a
 * base.yaml applied and settled first on both sides, untraced, for a change to an existing object).
 * Each is traced on a fresh simulator with the same seed, kept as a journey file would keep it
 * (written and read back), and diffed; the text must equal expected.txt (100 columns) and, where
 * there is one, expected-80.txt (80 columns).
 * `UPDATE_GOLDEN=1 npx mocha --no-config --node-option import=tsx test/unit/journey-diff/golden.test.ts` rewrites them.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffJourneys } from '../../../src/core/journey-diff/diff';
import { renderDiff } from '../../../src/core/journey-diff/render-text';
import type { JourneyDiff } from '../../../src/core/journey-diff/types';
import { sideOf } from '../../../src/cli/diff';
import { savedSide } from './trace-side';

const goldenRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

/** What each scenario's diff must conclude, whatever its text says. */
const VERDICTS: Record<string, { sameOutcome: boolean; same: boolean }> = {
  'diff-nginx-replicas': { sameOutcome: true, same: false },
  'diff-node-selector': { sameOutcome: false, same: false },
  'diff-rolling-update': { sameOutcome: true, same: false },
  'diff-identical': { sameOutcome: true, same: true },
};

function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i]) return `line ${i + 1}:\n  expected: ${JSON.stringify(e[i])}\n  actual:   ${JSON.stringify(a[i])}`;
  }
  return 'no difference';
}

function checkGolden(file: string, actual: string): void {
  if (update || !existsSync(file)) {
    writeFileSync(file, actual);
    if (!update) assert.fail(`${file}: no expectation yet; wrote one from the current output, review it and rerun`);
    return;
  }
  const expected = readFileSync(file, 'utf8');
  assert.ok(actual === expected, `${file} differs (UPDATE_GOLDEN=1 to accept)\n${firstDifference(actual, expected)}`);
}

function diffOf(dir: string): JourneyDiff {
  const read = (name: string): string | undefined => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : undefined);
  const base = read('base.yaml');
  const side = (name: 'a' | 'b') => {
    const manifest = read(`${name}.yaml`);
    if (manifest === undefined) throw new Error(`${dir} has no ${name}.yaml`);
    return sideOf(`${name}.journey.json`, savedSide({ manifest, base }));
  };
  return diffJourneys(side('a'), side('b'));
}

describe('journey diff golden texts', () => {
  const cases = readdirSync(goldenRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('diff-'))
    .map((entry) => entry.name)
    .sort();

  it('has the scenarios of issue 13', () => {
    assert.deepEqual(cases, Object.keys(VERDICTS).sort());
  });

  for (const name of cases) {
    it(`diffs ${name} as expected`, function () {
      this.timeout(120_000);
      const dir = join(goldenRoot, name);
      const diff = diffOf(dir);
      assert.deepEqual({ sameOutcome: diff.sameOutcome, same: diff.same }, VERDICTS[name]);
      checkGolden(join(dir, 'expected.txt'), renderDiff(diff, { width: 100 }));
      if (existsSync(join(dir, 'expected-80.txt')) || (update && name === 'diff-nginx-replicas')) {
        const narrow = renderDiff(diff, { width: 80 });
        for (const line of narrow.split('\n')) assert.ok(line.length <= 80, `wider than 80 columns: ${JSON.stringify(line)}`);
        checkGolden(join(dir, 'expected-80.txt'), narrow);
      }
    });
  }
});
