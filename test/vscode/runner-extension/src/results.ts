// The results file the runner extension writes and scripts/e2e/run-vscode-tests.ts reads.
export interface TestResult {
  fullTitle: string;
  file: string | undefined;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number | undefined;
  error?: { message: string; stack: string | undefined };
}

export interface ActivationMeasure {
  extensionId: string;
  found: boolean;
  /** True when something activated the extension before the runner asked. */
  alreadyActive: boolean;
  /** Time of `extension.activate()` as seen by the runner: loading the bundle plus activate(). */
  activateMs: number | undefined;
  /** What the extension reports itself in its exports' `activation` (bundle load, activate()), when it does. */
  reported?: Record<string, number>;
  error?: string;
}

export interface RunResults {
  vscodeVersion: string;
  startedAt: string;
  durationMs: number;
  suiteFiles: string[];
  passes: number;
  failures: number;
  pending: number;
  tests: TestResult[];
  activation: ActivationMeasure;
  /** Set when the runner itself failed (suite did not load, mocha threw). */
  fatal?: string;
}

export const resultsPathEnv = 'KUBE_JOURNEY_TEST_RESULTS';
export const resultsFileName = '.kube-journey-test-results.json';
export const productExtensionId = 'kube-journey.kube-journey';
