import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { findOutsidePaths } from './outside-paths';

const ROOT = path.resolve(__dirname, '../../..');
const CHECKED = /^(src|test|scripts|bench|\.ci)\/.*\.(ts|mjs|js|sh)$|^[^/]+\.(mjs|json)$|^\.ci\/run$/;

/** This file: its samples of what the check flags are offences on purpose. */
const SELF = path.relative(ROOT, __filename);

/** The files git tracks (what a fresh clone has), minus generated bundles. */
function trackedSources(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  return files.filter((file) => CHECKED.test(file) && !file.includes('/dist/') && file !== 'package-lock.json' && file !== SELF);
}

describe('the repository stands alone', () => {
  it('no source, test or script reads a path outside the repository', () => {
    const offenders: string[] = [];
    for (const file of trackedSources()) {
      const absolute = path.join(ROOT, file);
      for (const hit of findOutsidePaths(readFileSync(absolute, 'utf8'), absolute, ROOT)) {
        offenders.push(`${file}:${hit.line}: '${hit.text}' (${hit.why})`);
      }
    }
    assert.ok(trackedSources().length > 100, 'the check must see the repository');
    assert.deepEqual(offenders, []);
  });

  it('flags absolute machine paths, the reference folder and relative paths that leave the root', () => {
    const file = path.join(ROOT, 'test/unit/x.test.ts');
    // Assembled, so that this sample of what the check flags is not itself a path a scanner flags.
    const machinePath = ['', 'work', 'shared', 'reference', 'kubectl-captures', 'pods.json'].join('/');
    const source = [
      `readFileSync('${machinePath}')`,
      `const facts = 'see shared/reference/lifecycle-facts.md';`,
      `readFileSync(path.join(__dirname, '../../../../notes/a.txt'))`,
      `import { x } from '../../src/core/k8s';`,
      `readFileSync('/proc/self/status'); fetch('/api/v1/pods');`,
    ].join('\n');
    assert.deepEqual(
      findOutsidePaths(source, file, ROOT).map((hit) => [hit.line, hit.text]),
      [
        [1, 'shared/reference/kubectl-captures/pods.json'],
        [1, '/work/shared/reference/kubectl-captures/pods.json'],
        [2, 'shared/reference/lifecycle-facts.md'],
        [3, '../../../../notes/a.txt'],
      ],
    );
  });
});
