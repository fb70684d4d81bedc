// Test-only extension: once VS Code has started, runs the bundled test/vscode/suite/ files with
// mocha inside this real extension host and writes the results to a file, which is what
// `--extensionTestsPath` does in desktop VS Code (code-server does not support that option).
import { writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import suites from 'kube-journey:suites';
import { productExtensionId, resultsFileName, resultsPathEnv, type ActivationMeasure, type RunResults, type TestResult } from './results';

export async function activate(): Promise<void> {
  const resultsPath = resolveResultsPath();
  const startedAt = new Date();
  const results: RunResults = {
    vscodeVersion: vscode.version,
    startedAt: startedAt.toISOString(),
    durationMs: 0,
    suiteFiles: suites.map((suite) => suite.file),
    passes: 0,
    failures: 0,
    pending: 0,
    tests: [],
    activation: await measureProductActivation(),
  };
  try {
    await runSuites(results);
  } catch (error) {
    results.fatal = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  }
  results.durationMs = Date.now() - startedAt.getTime();
  if (resultsPath) writeAtomically(resultsPath, JSON.stringify(results, null, 2));
}

export function deactivate(): void {}

function resolveResultsPath(): string | undefined {
  const fromEnv = process.env[resultsPathEnv];
  if (fromEnv) return fromEnv;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? join(folder.uri.fsPath, resultsFileName) : undefined;
}

async function measureProductActivation(): Promise<ActivationMeasure> {
  const extension = vscode.extensions.getExtension(productExtensionId);
  if (!extension) return { extensionId: productExtensionId, found: false, alreadyActive: false, activateMs: undefined };
  const alreadyActive = extension.isActive;
  const start = performance.now();
  try {
    const exports: unknown = await extension.activate();
    const activateMs = alreadyActive ? undefined : performance.now() - start;
    return { extensionId: productExtensionId, found: true, alreadyActive, activateMs, reported: reportedActivation(exports) };
  } catch (error) {
    return { extensionId: productExtensionId, found: true, alreadyActive, activateMs: undefined, error: String(error) };
  }
}

function reportedActivation(exports: unknown): Record<string, number> | undefined {
  if (typeof exports !== 'object' || exports === null || !('activation' in exports)) return undefined;
  const activation: unknown = exports.activation;
  if (typeof activation !== 'object' || activation === null) return undefined;
  const numbers = Object.entries(activation).filter((entry): entry is [string, number] => typeof entry[1] === 'number');
  return numbers.length > 0 ? Object.fromEntries(numbers) : undefined;
}

async function runSuites(results: RunResults): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  for (const suite of suites) {
    // What mocha.loadFiles() does per file, minus the require-by-path a bundle cannot do.
    mocha.suite.emit('pre-require', globalThis, suite.file, mocha);
    mocha.suite.emit('require', suite.load(), suite.file, mocha);
    mocha.suite.emit('post-require', globalThis, suite.file, mocha);
  }
  await new Promise<void>((resolveRun) => {
    const runner = mocha.run(() => resolveRun());
    runner.on('pass', (test) => results.tests.push(testResult(test, 'passed')));
    runner.on('pending', (test) => results.tests.push(testResult(test, 'pending')));
    runner.on('fail', (test, error: unknown) => results.tests.push(testResult(test, 'failed', error)));
  });
  results.passes = results.tests.filter((test) => test.state === 'passed').length;
  results.failures = results.tests.filter((test) => test.state === 'failed').length;
  results.pending = results.tests.filter((test) => test.state === 'pending').length;
}

function testResult(test: Mocha.Runnable, state: TestResult['state'], error?: unknown): TestResult {
  const result: TestResult = { fullTitle: test.fullTitle(), file: test.file, state, durationMs: test.duration };
  if (error !== undefined) {
    result.error = error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error), stack: undefined };
  }
  return result;
}

/** The reader polls for the file: it must never see it half written. */
function writeAtomically(path: string, text: string): void {
  const partial = `${path}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}
