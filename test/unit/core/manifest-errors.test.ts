import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { MAX_ALIAS_COUNT, parseManifest, type ManifestProblem, type ParsedManifest } from '../../../src/core/manifest';
import { SeededRandom } from '../../../src/sim/clock';

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';

function problemsOf(manifest: ParsedManifest): ManifestProblem[] {
  return manifest.documents.flatMap((d) => d.problems);
}

/** The only problem of `text`, asserting there is exactly one document with problems. */
function onlyProblem(text: string): ManifestProblem {
  const problems = problemsOf(parseManifest(text));
  assert.ok(problems.length >= 1, `expected a problem for ${JSON.stringify(text.slice(0, 80))}`);
  return problems[0];
}

/** Nine anchors, each a list of nine aliases of the previous one: 9^9 strings once expanded. */
function billionLaughs(): string {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: lol', 'data:', '  a0: &a0 "lol"'];
  for (let level = 1; level <= 9; level++) lines.push(`  a${level}: &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('parseManifest on bad input', () => {
  it('refuses an alias bomb with a problem on the line where the expansion passes the limit', () => {
    const problem = onlyProblem(billionLaughs());
    assert.match(problem.message, /^Excessive alias count indicates a resource exhaustion attack/);
    assert.match(problem.message, new RegExp(`more than ${MAX_ALIAS_COUNT} copies`));
    // a1 expands to 9 strings (9 × 1 ≤ 100), a2 to 81 (≤ 100); the second alias of a2 on line 9 makes 162.
    assert.deepEqual([problem.line, problem.column], [9, 17]);
  });

  it('refuses one anchor aliased more times than the limit, on the alias that passes it', () => {
    const aliases = Array.from({ length: MAX_ALIAS_COUNT + 5 }, (_, i) => `  k${i}: *x`).join('\n');
    const problem = onlyProblem(`${CONFIG_MAP}data:\n  base: &x v\n${aliases}\n`);
    assert.match(problem.message, /Excessive alias count/);
    // Line 6 holds the anchor, line 7 the first alias: the 101st alias is on line 107.
    assert.equal(problem.line, 7 + MAX_ALIAS_COUNT);
  });

  it('accepts the few aliases real manifests use (shared labels)', () => {
    const manifest = parseManifest(`${CONFIG_MAP}  labels: &labels {app: web}\n  annotations: *labels\n`);
    assert.deepEqual(problemsOf(manifest), []);
    assert.deepEqual(manifest.documents[0].object?.metadata?.annotations, { app: 'web' });
  });

  it('places a duplicate key on the duplicate', () => {
    const problem = onlyProblem(`${CONFIG_MAP}data:\n  x: "1"\n  x: "2"\n`);
    assert.match(problem.message, /Map keys must be unique/);
    assert.equal(problem.line, 7);
  });

  it('places bad indentation on its line', () => {
    const problem = onlyProblem('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n   labels: {}\n');
    // The over-indented line continues the value of `name` on line 4: the problem spans both.
    assert.ok(problem.line === 4 || problem.line === 5, `line ${problem.line}`);
  });

  it('places a tab used for indentation on its line', () => {
    const problem = onlyProblem('apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n');
    assert.match(problem.message, /[Tt]ab/);
    assert.equal(problem.line, 4);
  });

  for (const [what, text, line] of [
    ['a double-quoted scalar', `${CONFIG_MAP}data:\n  x: "never closed\n`, 6],
    ['a single-quoted scalar', `${CONFIG_MAP}data:\n  x: 'never closed\n`, 6],
    ['a flow sequence', `${CONFIG_MAP}data:\n  x: [a, b\n`, 6],
    ['a flow mapping', `${CONFIG_MAP}data: {x: a\n`, 5],
  ] as const) {
    it(`places an unterminated ${what} on the line where it starts or ends`, () => {
      const problem = onlyProblem(text);
      assert.ok(problem.line >= line && problem.line <= text.split('\n').length, `line ${problem.line}: ${problem.message}`);
      assert.ok(problem.message.length > 0);
    });
  }

  it('refuses a mapping key that is a collection, on the key', () => {
    const problem = onlyProblem(`${CONFIG_MAP}data:\n  ok: x\n  ? [a, b]\n  : y\n`);
    assert.equal(problem.message, 'invalid map key: a key must be a string, not a sequence or a mapping');
    assert.deepEqual([problem.line, problem.column], [7, 5]);
  });

  it('places an unterminated quoted scalar on its opening quote, not at the end of the file', () => {
    // Each with its own escaped quote inside, which is not the opening one.
    for (const quoted of ['"it\\"s never closed', "'it''s never closed"]) {
      const problem = onlyProblem(`${CONFIG_MAP}data:\n  x: ${quoted}\n  y: z\n---\n${CONFIG_MAP}`);
      assert.deepEqual([problem.line, problem.column], [6, 6], problem.message);
      assert.match(problem.message, /the quoted scalar that starts here is never closed$/);
    }
  });

  it('says a scalar document is not a mapping', () => {
    const problem = onlyProblem(`${CONFIG_MAP}---\njust a string\n`);
    assert.equal(problem.message, 'a Kubernetes manifest document must be a mapping (apiVersion, kind, metadata, …)');
    assert.equal(problem.line, 6);
  });

  it('says a list document is not a mapping, on the line where the list starts', () => {
    const problem = onlyProblem(`# a list of objects is not a manifest\n- ${CONFIG_MAP.replace(/\n(?=.)/g, '\n  ')}`);
    assert.match(problem.message, /must be a mapping/);
    assert.equal(problem.line, 2);
  });

  it('reads a huge scalar without a problem', () => {
    const huge = 'x'.repeat(8 * 1024 * 1024);
    const manifest = parseManifest(`${CONFIG_MAP}data:\n  big: ${huge}\n  after: y\n`);
    assert.deepEqual(problemsOf(manifest), []);
    assert.equal((manifest.documents[0].object?.data as Record<string, string>).big.length, huge.length);
  });

  it('puts a problem in the third of several documents on its line in the file', () => {
    const third = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  x: [unclosed\n  y: z\n';
    const text = `${CONFIG_MAP}---\n${CONFIG_MAP.replace('a\n', 'b\n')}---\n${third}---\n${CONFIG_MAP.replace('a\n', 'd\n')}`;
    const manifest = parseManifest(text);
    assert.equal(manifest.documents.length, 4);
    assert.deepEqual(manifest.documents.map((d) => d.problems.length > 0), [false, false, true, false]);
    assert.deepEqual(manifest.documents.map((d) => d.startLine), [1, 6, 11, 19]);
    for (const problem of manifest.documents[2].problems) assert.ok(problem.line >= 16 && problem.line <= 18, `line ${problem.line}: ${problem.message}`);
    assert.equal(manifest.documents[3].object?.metadata?.name, 'd');
  });

  it('turns nesting too deep to read into a problem on line 1', () => {
    const depth = 200_000;
    const problems = problemsOf(parseManifest(`${'['.repeat(depth)}${']'.repeat(depth)}\n`));
    assert.ok(problems.length >= 1);
    assert.ok(problems.every((p) => p.line >= 1 && p.column >= 1 && p.message.length > 0));
  });
});

const YAML_SIGNIFICANT = [':', '-', '[', ']', '{', '}', '"', "'", '\t', '&a ', '*a', '!!', '!x ', '|', '>', '#', '\n', ' ', '  ', '%', '@', '`', '?', ',', '---\n', '...\n', '<<: *a\n', '\\', '\u0000', '\uFEFF'];

function mutate(text: string, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const at = Math.floor(random() * (text.length + 1));
  const lines = text.split('\n');
  const line = Math.floor(random() * lines.length);
  switch (Math.floor(random() * 6)) {
    case 0:
      return text.slice(0, at) + pick(YAML_SIGNIFICANT) + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 4));
    case 2:
      return text.slice(0, at);
    case 3:
      lines.splice(line, 0, lines[line]);
      return lines.join('\n');
    case 4:
      lines[line] = ' '.repeat(Math.floor(random() * 5)) + lines[line].trimStart();
      return lines.join('\n');
    default:
      return text.slice(0, at) + text.slice(Math.floor(random() * text.length));
  }
}

describe('parseManifest on mutated manifests', () => {
  it('never throws, and every problem of 3,000 mutated manifests is on a line of the file', () => {
    // The simulator's seeded generator, so every run mutates the same way.
    const seeded = new SeededRandom(20261125);
    const random = (): number => seeded.next();
    const seeds = [...readdirSync('examples').map((name) => readFileSync(`examples/${name}`, 'utf8')), billionLaughs(), `${CONFIG_MAP}  labels: &a {app: web}\n  annotations: *a\n`];
    let withProblems = 0;
    for (let i = 0; i < 3000; i++) {
      let text = seeds[i % seeds.length];
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) text = mutate(text, random);
      let manifest: ParsedManifest;
      try {
        manifest = parseManifest(text);
      } catch (error) {
        assert.fail(`parseManifest threw ${String(error)} on mutation ${i}:\n${text}`);
      }
      const lastLine = text.split('\n').length;
      for (const document of manifest.documents) {
        assert.ok(document.object !== undefined || document.problems.length > 0, `mutation ${i}: a document with neither an object nor a problem`);
        for (const problem of document.problems) {
          assert.ok(Number.isInteger(problem.line) && problem.line >= 1 && problem.line <= lastLine, `mutation ${i}: line ${problem.line} outside 1..${lastLine}`);
          assert.ok(Number.isInteger(problem.column) && problem.column >= 1, `mutation ${i}: column ${problem.column}`);
          assert.ok(problem.message.trim().length > 0 && !problem.message.includes('\n'), `mutation ${i}: message ${JSON.stringify(problem.message)}`);
        }
      }
      if (problemsOf(manifest).length > 0) withProblems++;
    }
    // The mutations must actually break manifests, or the test proves nothing.
    assert.ok(withProblems > 1000, `only ${withProblems} of 3,000 mutated manifests had problems`);
  });
});
