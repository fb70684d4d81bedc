// Builds the VSIXes the real-VS-Code runs install: the product (as `vsce package` ships it) and
// the test-only runner extension that executes test/vscode/suite/ inside the extension host.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { artifactsDir, repoRoot } from './tools';

const vsceBin = join(repoRoot, 'node_modules/.bin/vsce');
const runnerDir = join(repoRoot, 'test/vscode/runner-extension');

export const runnerSourceMap = join(runnerDir, 'dist/runner.js.map');

export interface BuiltVsix { file: string; bytes: number; ms: number }

/** False before src/extension exists, or with KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1 (to check the harness alone). */
export function productExtensionExists(): boolean {
  if (process.env.KUBE_JOURNEY_E2E_WITHOUT_PRODUCT === '1') return false;
  return existsSync(join(repoRoot, 'src/extension/extension.ts'));
}

export function buildProductVsix(): BuiltVsix {
  const start = performance.now();
  run('npm', ['run', 'build'], repoRoot);
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; files?: unknown };
  const out = join(artifactsDir, `${manifest.name}-${manifest.version}.vsix`);
  const args = packageArgs(out);
  // Without an ignore list vsce would ship src/, test/ and .tools/ (hundreds of MB).
  if (!existsSync(join(repoRoot, '.vscodeignore')) && manifest.files === undefined) {
    console.warn('[e2e] no .vscodeignore nor package.json "files": packaging with scripts/e2e/fallback.vscodeignore');
    args.push('--ignoreFile', join(repoRoot, 'scripts/e2e/fallback.vscodeignore'));
  }
  run(vsceBin, args, repoRoot);
  return { file: out, bytes: statSync(out).size, ms: performance.now() - start };
}

/** Bundles the runner (mocha + the suites, vscode external) and packages it. */
export async function buildRunnerVsix(suiteFiles: string[]): Promise<BuiltVsix> {
  const start = performance.now();
  const { build } = await import('esbuild');
  const distDir = join(runnerDir, 'dist');
  rmSync(distDir, { recursive: true, force: true });
  await build({
    entryPoints: [join(runnerDir, 'src/extension.ts')],
    outfile: join(distDir, 'runner.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Not shipped: run-vscode-tests.ts maps failure stacks back to the suites' .ts lines with it.
    sourcemap: 'external',
    external: ['vscode'],
    logLevel: 'error',
    plugins: [suitesModule(suiteFiles)],
  });
  const stage = join(artifactsDir, 'runner-extension');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, 'dist'), { recursive: true });
  copyFileSync(join(runnerDir, 'package.json'), join(stage, 'package.json'));
  writeFileSync(join(stage, '.vscodeignore'), '');
  copyFileSync(join(distDir, 'runner.js'), join(stage, 'dist/runner.js'));
  const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as { name: string; version: string };
  const out = join(artifactsDir, `${manifest.name}-${manifest.version}.vsix`);
  run(vsceBin, packageArgs(out), stage);
  return { file: out, bytes: statSync(out).size, ms: performance.now() - start };
}

function packageArgs(out: string): string[] {
  mkdirSync(artifactsDir, { recursive: true });
  // The flags keep vsce from asking questions on a terminal-less CI (it would read EOF as "no").
  return ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--no-rewrite-relative-links', '--out', out];
}

/**
 * The virtual module `kube-journey:suites` exports one loader per suite file. Each loader
 * `require`s its suite lazily, so the suite's describe()/it() calls run after the runner has
 * installed mocha's globals for that file.
 */
function suitesModule(suiteFiles: string[]): import('esbuild').Plugin {
  return {
    name: 'kube-journey-suites',
    setup(build) {
      build.onResolve({ filter: /^kube-journey:suites$/ }, () => ({ path: 'suites', namespace: 'kube-journey-suites' }));
      build.onLoad({ filter: /.*/, namespace: 'kube-journey-suites' }, () => ({
        resolveDir: repoRoot,
        loader: 'js',
        contents: `module.exports = [\n${suiteFiles
          .map((file) => `  { file: ${JSON.stringify(relative(repoRoot, file))}, load: () => require(${JSON.stringify(file)}) },`)
          .join('\n')}\n];\n`,
      }));
    },
  };
}

/** Runs a build step quietly; its output is shown when it fails. */
function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}) in ${cwd}:\n${result.stdout}${result.stderr}`);
  }
  for (const line of `${result.stdout}${result.stderr}`.split('\n')) {
    if (/^\s*(WARNING|DONE)\b/.test(line)) console.log(`[e2e] ${line.trim()}`);
  }
}
