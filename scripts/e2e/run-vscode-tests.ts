// `npm run test:vscode`: runs test/vscode/suite/*.test.ts inside a real VS Code extension host
// (code-server), with the packaged product installed next to the test runner extension.
// Usage: run-vscode-tests.ts [suite files or folders…]   (default: test/vscode/suite)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunResults } from '../../test/vscode/runner-extension/src/results';
import { launchChromium, openWorkbench } from './browser';
import { startCodeServer, waitFor } from './code-server';
import { repoRoot } from './tools';
import { stackMapper } from './stack-map';
import { buildProductVsix, buildRunnerVsix, productExtensionExists, runnerSourceMap } from './vsix';
import { createExamplesWorkspace } from './workspace';

const screenshotsDir = join(repoRoot, 'test/e2e/screenshots');
const resultsTimeoutMs = Number(process.env.KUBE_JOURNEY_VSCODE_TEST_TIMEOUT_MS ?? 600_000);

async function main(): Promise<number> {
  const suiteFiles = findSuiteFiles(process.argv.slice(2).length > 0 ? process.argv.slice(2) : [join(repoRoot, 'test/vscode/suite')]);
  if (suiteFiles.length === 0) {
    console.error('[test:vscode] no *.test.ts suite files found');
    return 1;
  }
  const vsixes: string[] = [];
  if (productExtensionExists()) {
    const product = buildProductVsix();
    console.log(`[test:vscode] product VSIX ${product.file} (${kib(product.bytes)}) in ${seconds(product.ms)}`);
    vsixes.push(product.file);
  } else {
    console.warn('[test:vscode] src/extension/extension.ts does not exist yet: running without the product');
  }
  const runner = await buildRunnerVsix(suiteFiles);
  console.log(`[test:vscode] runner VSIX with ${suiteFiles.length} suite file(s) in ${seconds(runner.ms)}`);
  vsixes.push(runner.file);

  const workspace = createExamplesWorkspace();
  const resultsFile = join(workspace.folder, '..', `${workspace.folder.split('/').pop()}-results.json`);
  const server = await startCodeServer({ workspace: workspace.folder, vsixes, env: { KUBE_JOURNEY_TEST_RESULTS: resultsFile } });
  console.log(`[test:vscode] code-server ${server.url} listening in ${seconds(server.timings.listeningMs)} (extensions installed in ${seconds(server.timings.installExtensionsMs)})`);
  const browser = await launchChromium();
  try {
    const consoleLines: string[] = [];
    const { page, readyMs } = await openWorkbench(browser, server.url, { explorerEntry: 'examples', onConsole: (line) => consoleLines.push(line) });
    console.log(`[test:vscode] workbench ready in ${seconds(readyMs)}`);
    const results = await waitFor(() => {
      const activationFailure = consoleLines.find((line) => /Activating extension .*kube-journey-test-runner.* failed/i.test(line));
      if (activationFailure) throw new Error(`the runner extension did not start: ${activationFailure}`);
      return existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults) : undefined;
    }, {
      timeoutMs: resultsTimeoutMs,
      what: `the runner extension's results in ${resultsFile} (code-server log: ${server.logFile})`,
      intervalMs: 250,
    });
    mkdirSync(screenshotsDir, { recursive: true });
    await page.screenshot({ path: join(screenshotsDir, 'vscode-suites.png') });
    writeFileSync(join(screenshotsDir, 'vscode-suites.console.log'), consoleLines.join('\n'));
    return report(results);
  } catch (error) {
    console.error(`[test:vscode] ${error instanceof Error ? error.message : String(error)}`);
    console.error(readFileSync(server.logFile, 'utf8').split('\n').slice(-40).join('\n'));
    return 1;
  } finally {
    await browser.close();
    await server.stop();
    workspace.dispose();
    rmSync(resultsFile, { force: true });
  }
}

function report(results: RunResults): number {
  console.log(`\n[test:vscode] VS Code ${results.vscodeVersion}, ${results.suiteFiles.length} suite file(s), ${seconds(results.durationMs)}`);
  const activation = results.activation;
  if (!activation.found) console.log(`[test:vscode] ${activation.extensionId} is not installed`);
  else if (activation.error) console.log(`[test:vscode] ${activation.extensionId} failed to activate: ${activation.error}`);
  else if (activation.alreadyActive) console.log(`[test:vscode] ${activation.extensionId} was already active when the runner started`);
  else console.log(`[test:vscode] ${activation.extensionId} activated in ${activation.activateMs?.toFixed(0)} ms (extension.activate() seen from the runner)`);
  if (activation.reported) {
    console.log(`[test:vscode] ${activation.extensionId} reports ${Object.entries(activation.reported).map(([key, ms]) => `${key} ${ms.toFixed(1)} ms`).join(', ')}`);
  }
  const mapStack = stackMapper(runnerSourceMap);
  for (const test of results.tests) {
    const mark = test.state === 'passed' ? '  ✓' : test.state === 'pending' ? '  -' : '  ✗';
    console.log(`${mark} ${test.fullTitle}${test.durationMs !== undefined ? ` (${test.durationMs} ms)` : ''}`);
    if (test.error) console.log(`      ${mapStack(test.error.stack ?? test.error.message).split('\n').join('\n      ')}`);
  }
  if (results.fatal) console.log(`[test:vscode] runner failed: ${mapStack(results.fatal)}`);
  const summary = `${results.passes} passed, ${results.failures} failed`;
  console.log(`\n${summary}${results.pending > 0 ? `, ${results.pending} skipped` : ''}`);
  const ranNothing = results.passes + results.failures === 0;
  if (ranNothing) console.error('[test:vscode] no test ran');
  return results.failures > 0 || results.fatal !== undefined || ranNothing ? 1 : 0;
}

function findSuiteFiles(roots: string[]): string[] {
  const files: string[] = [];
  for (const root of roots.map((entry) => resolve(entry))) {
    if (!existsSync(root)) continue;
    if (statSync(root).isFile()) {
      files.push(root);
      continue;
    }
    for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (entry.endsWith('.test.ts')) files.push(join(root, entry));
    }
  }
  return files.sort();
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

main().then(
  (code) => { process.exitCode = code; },
  (error: unknown) => { console.error(error); process.exitCode = 1; },
);
