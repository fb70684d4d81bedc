/**
 * `npm run bench [-- --runs N] [--only 1000x10000] [--trace]`: runs each scenario N times, each in
 * a fresh process, and prints the medians of pods/s (apply → all pods Running, wall clock), CPU
 * time (steadier than wall time on a shared machine) and peak resident memory, with the machine
 * it ran on.
 */
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';

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

const SCENARIOS: [number, number][] = [
  [3, 3],
  [1000, 10_000],
  [5000, 150_000],
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const { values } = parseArgs({ options: { runs: { type: 'string' }, only: { type: 'string' }, trace: { type: 'boolean' } } });
const runs = Number(values.runs ?? 3);
const scenarios = values.only ? SCENARIOS.filter(([n, p]) => `${n}x${p}` === values.only) : SCENARIOS;
if (scenarios.length === 0) {
  process.stderr.write(`unknown scenario ${values.only}; choose one of ${SCENARIOS.map(([n, p]) => `${n}x${p}`).join(', ')}\n`);
  process.exit(2);
}

process.stdout.write(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);
process.stdout.write(`runs per scenario: ${runs}${values.trace ? ', journey tracer attached' : ''}\n\n`);
process.stdout.write(`${'scenario'.padEnd(22)}${'pods/s (median)'.padStart(16)}${'wall s'.padStart(9)}${'cpu s'.padStart(8)}${'peak RSS MiB'.padStart(14)}${'simulated s'.padStart(13)}   all runs (pods/s)\n`);
for (const [nodes, pods] of scenarios) {
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const args = ['--max-old-space-size=4096', '--import', 'tsx', 'bench/scenario.ts', String(nodes), String(pods), ...(values.trace ? ['--trace'] : [])];
    const output = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
    const result = JSON.parse(output.trim().split('\n').pop()!) as RunResult;
    if (result.outcome !== 'done') process.stderr.write(`warning: ${nodes}x${pods} run ${i + 1} ended with ${result.outcome}\n`);
    results.push(result);
  }
  const label = `${nodes.toLocaleString('en')} nodes / ${pods.toLocaleString('en')} pods`;
  process.stdout.write(
    `${label.padEnd(22)}${String(Math.round(median(results.map((r) => r.podsPerSecond)))).padStart(16)}` +
      `${(median(results.map((r) => r.wallMs)) / 1000).toFixed(1).padStart(9)}${(median(results.map((r) => r.cpuMs)) / 1000).toFixed(1).padStart(8)}${String(Math.round(median(results.map((r) => r.peakRssMiB)))).padStart(14)}` +
      `${median(results.map((r) => r.virtualSeconds)).toFixed(1).padStart(13)}   ${results.map((r) => r.podsPerSecond).join(', ')}\n`,
  );
}
