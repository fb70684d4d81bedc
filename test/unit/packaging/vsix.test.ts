/**
 * The VSIX as README's `npm run package` builds it on a fresh clone: it packages without
 * questions, ships the minified bundles and media only, and stays within its size budget.
 * Packaging runs "vscode:prepublish", so dist/ holds the production build afterwards.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the VSIX may weigh (bytes, compressed): the download and install cost of the extension.
 * Raised from 700 kB when the simulator grew to every built-in kind people apply (admission,
 * storage, Services, protobuf decoding, CRDs), and to 800 kB when the extension gained the twin target
 * (the simulator child's twin entry), journey files and the predicted/observed comparison: still a
 * small download, and the test keeps it from drifting.
 */
const VSIX_BUDGET_BYTES = 800 * 1000;

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

describe('the VSIX', function () {
  let folder: string;
  let vsix: string;
  let shipped: string[];

  before(function () {
    folder = mkdtempSync(join(tmpdir(), 'kube-journey-vsix-'));
    vsix = join(folder, 'kube-journey.vsix');
    run('npm', ['run', 'package', '--', '--out', vsix]);
    // `vsce ls` lists what `vsce package` packs (the same file collection and .vscodeignore).
    shipped = run('node_modules/.bin/vsce', ['ls', '--no-dependencies'])
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('ships the extension, cluster and simulator bundles, the webviews (timeline, compare) and the manifest', () => {
    for (const file of ['package.json', 'README.md', 'dist/extension.js', 'dist/cluster.js', 'dist/simulator-server.js', 'dist/kubernetes-schema.json', 'media/timeline.js', 'media/timeline.css', 'media/compare.js', 'media/compare.css']) {
      assert.ok(shipped.includes(file), `${file} is not in the VSIX: ${shipped.join(', ')}`);
    }
  });

  it('ships no source map, source, test or dependency folder', () => {
    const unwanted = shipped.filter((file) => /\.map$/.test(file) || /^(src|test|scripts|bench|node_modules|\.tools)\//.test(file));
    assert.deepEqual(unwanted, []);
  });

  it('ships minified bundles without source-map comments', () => {
    for (const file of shipped.filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(text, /sourceMappingURL/, file);
      // esbuild's development output has a line per statement (tens of bytes); minified, a line holds hundreds of statements.
      const lines = text.split('\n').length;
      assert.ok(lines < text.length / 200, `${file}: ${lines} lines for ${text.length} bytes, not minified`);
    }
  });

  it(`weighs at most ${VSIX_BUDGET_BYTES / 1000} kB`, () => {
    const bytes = statSync(vsix).size;
    assert.ok(bytes <= VSIX_BUDGET_BYTES, `the VSIX weighs ${bytes} bytes, over the budget of ${VSIX_BUDGET_BYTES}`);
  });
});
