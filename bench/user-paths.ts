/**
 * The benchmark of what users run, each run in fresh processes: `kube-journey trace` in full
 * detail (text, and `--json`), and the extension's Apply and Trace (bench/extension-path.ts, with
 * its simulator child). Reports wall time, CPU time and peak RSS of every process involved, the
 * exit code, and whether the output says what it should (every pod ready; JSON that parses).
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { build, type Plugin } from 'esbuild';
import type { ExtensionPathResult } from './extension-path';
import { deploymentsManifest } from './manifest';
import { measureProcess, USAGE_PROBE_BUNDLE, type MeasuredRun } from './measure-process';
import { median } from './median';
import { describeReadiness, jsonFormat, JsonLinesCheck, SummaryReadiness } from './output-checks';
import type { ProcessUsage } from './process-usage';

type UserPath = 'trace' | 'json' | 'extension';

export interface UserPathScenario {
  /** The `--only` name. */
  name: string;
  label: string;
  path: UserPath;
  deployments: number;
  replicas: number;
  nodes: number;
  /** `--max-pods` for the trace command, where its default budget is below the file's pods. */
  maxPods?: number;
  /** Part of `npm run bench` without `--only`. */
  inDefaultRun: boolean;
}

export const USER_PATH_SCENARIOS: UserPathScenario[] = [
  { name: 'trace10000', label: 'trace, 10,000 pods / 1,000 nodes', path: 'trace', deployments: 100, replicas: 100, nodes: 1000, inDefaultRun: true },
  { name: 'json10000', label: 'trace --json, 10,000 pods / 1,000 nodes', path: 'json', deployments: 100, replicas: 100, nodes: 1000, inDefaultRun: true },
  { name: 'extension10000', label: 'extension, 10,000 pods / 1,000 nodes', path: 'extension', deployments: 100, replicas: 100, nodes: 1000, inDefaultRun: false },
  { name: 'trace150000', label: 'trace, 150,000 pods / 5,000 nodes', path: 'trace', deployments: 50, replicas: 3000, nodes: 5000, inDefaultRun: false },
];

const EXTENSION_PATH_BUNDLE = 'dist/bench-extension-path.js';
/** No run may hang the benchmark: a run still going after this is killed and reported. */
const RUN_TIMEOUT_MS = 20 * 60_000;
const HOST_READY_TIMEOUT_S = 600;

/** As esbuild.mjs builds the extension: its import of src/cluster is a require of dist/cluster.js. */
const clusterBundleOutside: Plugin = {
  name: 'cluster-bundle-outside',
  setup(build) {
    build.onResolve({ filter: /\/cluster\/for-extension$/ }, () => ({ path: './cluster.js', external: true }));
  },
};

interface RunReport {
  run: MeasuredRun;
  /** What the run's output said, or why it failed. */
  verdict: string;
  ok: boolean;
  host?: ExtensionPathResult;
}

async function buildBundles(): Promise<void> {
  // What the VSIX ships (minified, dist/cluster.js apart), which the CLI runs too.
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
  const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' } as const;
  await build({ ...common, entryPoints: ['bench/usage-probe.ts'], outfile: USAGE_PROBE_BUNDLE });
  await build({ ...common, entryPoints: ['bench/extension-path.ts'], outfile: EXTENSION_PATH_BUNDLE, plugins: [clusterBundleOutside] });
}

async function eachLine(path: string, onLine: (line: string) => void): Promise<void> {
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) onLine(line);
}

function exitText(run: MeasuredRun): string {
  if (run.timedOut) return `killed after ${RUN_TIMEOUT_MS / 60_000} min`;
  return run.signal ? `signal ${run.signal}` : `exit ${run.exitCode}`;
}

/** Why a run failed: the line of its stderr that names an error (V8's out-of-memory is followed by a native stack), else the last one. */
function failureText(run: MeasuredRun): string {
  const lines = run.stderrTail.filter((line) => line.trim() !== '');
  const reason = lines.find((line) => /out of memory|Error\b/i.test(line)) ?? lines.at(-1);
  return reason ? `: ${reason.trim().slice(0, 240)}` : '';
}

async function runTrace(scenario: UserPathScenario, manifest: string, scratch: string): Promise<RunReport> {
  const pods = scenario.deployments * scenario.replicas;
  const output = join(scratch, 'trace-output');
  const args = ['bin/kube-journey.js', 'trace', '-f', manifest, '--nodes', String(scenario.nodes), ...(scenario.maxPods ? ['--max-pods', String(scenario.maxPods)] : []), ...(scenario.path === 'json' ? ['--json'] : [])];
  const run = await measureProcess({ command: process.execPath, args, stdout: output, timeoutMs: RUN_TIMEOUT_MS });
  try {
    const exited = exitText(run);
    if (scenario.path === 'trace') {
      const readiness = new SummaryReadiness();
      await eachLine(output, (line) => readiness.add(line));
      const result = readiness.result(pods);
      return { run, ok: run.exitCode === 0 && result.allReady, verdict: `${exited}${run.exitCode === 0 ? '' : failureText(run)} · ${describeReadiness(result, pods)}` };
    }
    const check = new JsonLinesCheck();
    await eachLine(output, (line) => check.add(line));
    const lines = check.result();
    // A document printed over many lines: parse it whole, if a string can hold it at all.
    const size = statSync(output).size;
    const wholeParses = lines.records === lines.lines || size === 0 || size > 256 * 2 ** 20 ? undefined : parsesWhole(output);
    const format = jsonFormat(lines, wholeParses);
    const detail =
      format === 'ndjson'
        ? `ndjson: ${lines.records} records, ${lines.summaryRecords ? `summary record ${lines.lastRecordIsSummary ? 'last' : 'not last'}${lines.summaryPods ? ` (${lines.summaryPods.ready}/${lines.summaryPods.desired} ready)` : ''}` : 'no summary record'}`
        : format === 'single JSON document'
          ? `single JSON document (${(size / 2 ** 20).toFixed(1)} MiB)`
          : `does not parse (${lines.lines} lines, ${(size / 2 ** 20).toFixed(1)} MiB${lines.firstFailure ? `; line ${lines.firstFailure.line}: ${lines.firstFailure.message.slice(0, 80)}` : ''})`;
    return { run, ok: run.exitCode === 0 && format !== 'not JSON', verdict: `${exited}${run.exitCode === 0 ? '' : failureText(run)} · ${detail}` };
  } finally {
    rmSync(output, { force: true });
  }
}

function parsesWhole(path: string): boolean {
  try {
    JSON.parse(readFileSync(path, 'utf8'));
    return true;
  } catch {
    return false;
  }
}

async function runExtension(scenario: UserPathScenario, manifest: string): Promise<RunReport> {
  const pods = scenario.deployments * scenario.replicas;
  // --expose-gc: the host reads its heap as it was and again after a full collection.
  const run = await measureProcess({ command: process.execPath, args: ['--expose-gc', EXTENSION_PATH_BUNDLE, manifest, String(scenario.nodes), String(pods), String(HOST_READY_TIMEOUT_S)], stdout: 'capture', timeoutMs: RUN_TIMEOUT_MS });
  let host: ExtensionPathResult | undefined;
  try {
    host = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as ExtensionPathResult;
  } catch {
    host = undefined;
  }
  if (!host) return { run, ok: false, verdict: `${exitText(run)}${failureText(run)} · no result line` };
  const counted = `${host.ready}/${host.desired} ready over ${host.journeys} journeys`;
  const verdict = host.outcome === 'all ready' ? `all ready: ${counted}, apply → ready ${((host.applyToReadyMs ?? 0) / 1000).toFixed(1)} s, host heap used ${host.heapUsedMiB} MiB${host.heapLiveMiB === undefined ? '' : ` (${host.heapLiveMiB} MiB after a full GC)`}` : `${host.outcome}${host.error ? `: ${host.error}` : ''} (${counted})`;
  return { run, host, ok: host.outcome === 'all ready' && host.applyFailures === 0, verdict: `${exitText(run)} · ${verdict}${host.applyFailures ? ` · ${host.applyFailures} applies failed` : ''}` };
}

/** What a process is, for the table: the run's own process by its path, the others by script. */
function role(scenario: UserPathScenario, usage: ProcessUsage, rootPid: number | undefined): string {
  if (usage.pid === rootPid) return scenario.path === 'extension' ? 'extension host' : 'kube-journey trace';
  if (usage.argv.some((arg) => arg.endsWith('simulator-server.js'))) return 'simulator child';
  return basename(usage.argv[0] ?? `pid ${usage.pid}`);
}

function row(label: string, process: string, usages: ProcessUsage[]): string {
  const sampled = usages.filter((u) => u.source === 'sampled').length;
  const note = sampled ? `  (${sampled} of ${usages.length} sampled from /proc: ended without an exit record)` : '';
  return (
    `${label.padEnd(42)}${process.padEnd(20)}${(median(usages.map((u) => u.wallMs)) / 1000).toFixed(1).padStart(8)}${(median(usages.map((u) => u.cpuMs)) / 1000).toFixed(1).padStart(8)}` +
    `${String(Math.round(median(usages.map((u) => u.peakRssKiB)) / 1024)).padStart(14)}${note}\n`
  );
}

export async function runUserPathBench(scenarios: readonly UserPathScenario[], runs: number): Promise<boolean> {
  await buildBundles();
  process.stdout.write(`\nuser paths (each run in fresh processes; medians of ${runs} runs per process; full detail, default heap)\n`);
  process.stdout.write(`${'scenario'.padEnd(42)}${'process'.padEnd(20)}${'wall s'.padStart(8)}${'cpu s'.padStart(8)}${'peak RSS MiB'.padStart(14)}\n`);
  let allOk = true;
  for (const scenario of scenarios) {
    const scratch = mkdtempSync(join(tmpdir(), 'kube-journey-bench-paths-'));
    try {
      const manifest = join(scratch, `deployments-${scenario.deployments}x${scenario.replicas}.yaml`);
      writeFileSync(manifest, deploymentsManifest(scenario.deployments, scenario.replicas));
      const reports: RunReport[] = [];
      for (let i = 0; i < runs; i++) reports.push(scenario.path === 'extension' ? await runExtension(scenario, manifest) : await runTrace(scenario, manifest, scratch));
      const byRole = new Map<string, ProcessUsage[]>();
      for (const { run } of reports) {
        for (const usage of run.processes) {
          const name = role(scenario, usage, run.processes[0]?.pid);
          byRole.set(name, [...(byRole.get(name) ?? []), usage]);
        }
      }
      let label = scenario.label;
      for (const [name, usages] of byRole) {
        process.stdout.write(row(label, name, usages));
        label = '';
      }
      if (byRole.size === 0) process.stdout.write(`${label}  (no process measured)\n`);
      for (const [i, report] of reports.entries()) process.stdout.write(`  run ${i + 1}: ${report.ok ? 'ok' : 'FAILED'} · ${report.verdict}\n`);
      if (reports.some((r) => !r.ok)) allOk = false;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return allOk;
}
