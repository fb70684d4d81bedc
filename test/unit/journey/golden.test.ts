/**
 * Golden timelines: every test/golden/<name>/stream.ndjson is replayed into a fresh tracer and
 * rendered (with evidence); the text must equal test/golden/<name>/expected.txt.
 * `UPDATE_GOLDEN=1 npx mocha test/unit/journey/golden.test.ts` rewrites the expectations.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderJourneys } from '../../../src/core/journey/render-text';
import { parseStream, replay } from '../../../src/core/journey/stream';
import { JourneyTracer } from '../../../src/core/journey/tracer';

const goldenRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

export function renderStream(text: string): string {
  const tracer = new JourneyTracer();
  const ids = replay(parseStream(text), tracer);
  const journeys = ids.map((id) => tracer.journey(id)).filter((j) => j !== undefined);
  return renderJourneys(journeys, { evidence: true });
}

function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i]) return `line ${i + 1}:\n  expected: ${JSON.stringify(e[i])}\n  actual:   ${JSON.stringify(a[i])}`;
  }
  return 'no difference';
}

describe('journey golden timelines', () => {
  const cases = readdirSync(goldenRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(goldenRoot, entry.name, 'stream.ndjson')))
    .map((entry) => entry.name)
    .sort();

  it('has the hand-built real-cluster streams', () => {
    for (const name of ['nginx-deployment', 'unschedulable', 'image-pull-backoff', 'crash-loop-backoff', 'rolling-update', 'deletion-replacement']) {
      assert.ok(cases.includes(name), `missing golden stream ${name}`);
    }
  });

  for (const name of cases) {
    it(`renders ${name} as expected`, () => {
      const dir = join(goldenRoot, name);
      const actual = renderStream(readFileSync(join(dir, 'stream.ndjson'), 'utf8'));
      const expectedFile = join(dir, 'expected.txt');
      if (update || !existsSync(expectedFile)) {
        writeFileSync(expectedFile, actual);
        if (!update) assert.fail(`${name}: no expected.txt yet; wrote one from the current output, review it and rerun`);
        return;
      }
      const expected = readFileSync(expectedFile, 'utf8');
      assert.ok(actual === expected, `${name} differs from expected.txt (UPDATE_GOLDEN=1 to accept)\n${firstDifference(actual, expected)}`);
    });
  }
});
