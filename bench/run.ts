/**
 * `npm run bench [-- --runs N] [--only NAME[,NAME…]] [--trace] [--services]`: runs each scenario N
 * times, each in a fresh process, and prints the medians of pods/s (apply → all pods Running, wall
 * clock), CPU time (steadier than wall time on a shared machine) and peak resident memory, with
 * the machine it ran on; then the paths users take (bench/user-paths.ts: `trace`, `trace --json`,
 * the extension's Apply and Trace); then the extension's activation cost (bench/activation.ts).
 * With `--only twin5000`: the copy of a 5,000-node, 150,000-pod cluster by `trace --twin` (bench/twin.ts).
 */
import { execFileSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { runActivationBench } from './activation';
import { median } from './median';
import { runUserPathBench, USER_PATH_SCENARIOS } from './user-paths';
import { runTwinBench, TWIN_SCENARIOS } from './twin';

interface RunResult {
  nodes: number;
  pods: number;
  outcome: string;
  wallMs: number;
  cpuMs: number;
  podsPerSecond: number;
  peakRssMiB: number;
  virtualSeconds: number;
}

interface Scenario {
  /** The `--only` name. */
  name: string;
  label: string;
  nodes: number;
  pods: number;
  /**
   * One DaemonSet (a pod per node) or one Job (`pods` completions, 500 in parallel) instead of
   * Deployments; or Deployments whose pods carry a hostname spread constraint and a preferred anti-affinity.
   */
  workload?: 'daemonset' | 'job' | 'spread';
}

function deployments(nodes: number, pods: number): Scenario {
  return { name: `${nodes}x${pods}`, label: `${nodes.toLocaleString('en')} nodes / ${pods.toLocaleString('en')} pods`, nodes, pods };
}

const SCENARIOS: Scenario[] = [
  deployments(3, 3),
  deployments(1000, 10_000),
  deployments(5000, 150_000),
  // The target: the 150,000 pods, each spread over nodes (DoNotSchedule) and preferring nodes without its siblings, within 1.5× the plain run.
  { name: 'spread150000', label: '150,000 pods, spread', nodes: 5000, pods: 150_000, workload: 'spread' },
  { name: 'spread1000x10000', label: '10,000 pods, spread', nodes: 1000, pods: 10_000, workload: 'spread' },
  // The target: a DaemonSet on 5,000 Ready nodes, all pods ready, in ≤ 10 s wall.
  { name: 'daemonset5000', label: 'DaemonSet, 5,000 nodes', nodes: 5000, pods: 5000, workload: 'daemonset' },
  // The target: a Job with 10,000 completions and parallelism 500 Complete in ≤ 20 s wall.
  { name: 'job10000', label: 'Job, 10,000 completions', nodes: 100, pods: 10_000, workload: 'job' },
];

/**
 * Each run executes bench/scenario.ts bundled as the CLI and the simulator server ship
 * (esbuild, one file): run through tsx instead, every call between modules pays an export getter,
 * which cost the 150,000-pod run about a sixth of its CPU and is nothing users run.
 */
const SCENARIO_BUNDLE = 'dist/bench-scenario.js';

const { values } = parseArgs({ options: { runs: { type: 'string' }, only: { type: 'string' }, trace: { type: 'boolean' }, services: { type: 'boolean' } } });
const runs = Number(values.runs ?? 3);
/** Activation takes tens of milliseconds: more runs for a steady median. */
const ACTIVATION_RUNS = 21;
const only = values.only?.split(',').map((name) => name.trim());
const activation = !only || only.includes('activation');
const scenarios = only ? SCENARIOS.filter((scenario) => only.includes(scenario.name)) : SCENARIOS;
/** `paths`: every user path, the long ones left out of the default run too. */
const userPaths = only ? USER_PATH_SCENARIOS.filter((scenario) => only.includes('paths') || only.includes(scenario.name)) : USER_PATH_SCENARIOS.filter((scenario) => scenario.inDefaultRun);
/** The twin's copy (bench/twin.ts): only when asked for, its source cluster takes a minute to build. */
const twins = only ? TWIN_SCENARIOS.filter((scenario) => only.includes(scenario.name)) : [];
const known = [...SCENARIOS.map((scenario) => scenario.name), ...USER_PATH_SCENARIOS.map((scenario) => scenario.name), ...TWIN_SCENARIOS.map((scenario) => scenario.name), 'paths', 'activation'];
const unknown = only?.filter((name) => !known.includes(name)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`unknown scenario ${unknown.join(', ')}; choose from ${known.join(', ')}\n`);
  process.exit(2);
}

if (scenarios.length > 0) buildSync({ entryPoints: ['bench/scenario.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: SCENARIO_BUNDLE, logLevel: 'warning' });
process.stdout.write(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);
if (scenarios.length > 0) process.stdout.write(`runs per scenario: ${runs}${values.trace ? ', journey tracer attached' : ''}${values.services ? ', one Service per Deployment' : ''}\n\n`);
if (scenarios.length > 0) process.stdout.write(`${'scenario'.padEnd(22)}${'pods/s (median)'.padStart(16)}${'wall s'.padStart(9)}${'cpu s'.padStart(8)}${'peak RSS MiB'.padStart(14)}${'simulated s'.padStart(13)}   all runs (pods/s)\n`);
for (const { name, label, nodes, pods, workload } of scenarios) {
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const args = ['--max-old-space-size=4096', SCENARIO_BUNDLE, String(nodes), String(pods), ...(values.trace ? ['--trace'] : []), ...(values.services && !workload ? ['--services'] : []), ...(workload ? [`--${workload}`] : [])];
    const output = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
    const result = JSON.parse(output.trim().split('\n').pop()!) as RunResult;
    if (result.outcome !== 'done') process.stderr.write(`warning: ${name} run ${i + 1} ended with ${result.outcome}\n`);
    results.push(result);
  }
  process.stdout.write(
    `${label.padEnd(22)}${String(Math.round(median(results.map((r) => r.podsPerSecond)))).padStart(16)}` +
      `${(median(results.map((r) => r.wallMs)) / 1000).toFixed(1).padStart(9)}${(median(results.map((r) => r.cpuMs)) / 1000).toFixed(1).padStart(8)}${String(Math.round(median(results.map((r) => r.peakRssMiB)))).padStart(14)}` +
      `${median(results.map((r) => r.virtualSeconds)).toFixed(1).padStart(13)}   ${results.map((r) => r.podsPerSecond).join(', ')}\n`,
  );
}
void (async () => {
  // A user path that fails (out of memory, output that does not parse) is reported, and the bench exits 1 at the end.
  if (userPaths.length > 0 && !(await runUserPathBench(userPaths, runs))) process.exitCode = 1;
  if (twins.length > 0) await runTwinBench(twins, runs);
  if (activation) {
    process.stdout.write('\n');
    runActivationBench(values.runs ? runs : ACTIVATION_RUNS);
  }
})();
