/**
 * The twin benchmark (`npm run bench -- --only twin5000`): a source cluster of 5,000 nodes and
 * 150,000 Running pods served over HTTPS in one process (bench/twin-source.ts), copied by a
 * fresh process per run as `kube-journey trace --twin` copies it (bench/twin-copy.ts). Reports
 * the median copy time (target ≤ 30 s) split into the lists and the seeding of the twin, its CPU
 * time and peak resident memory.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { median } from './median';

const SOURCE_BUNDLE = 'dist/bench-twin-source.js';
const COPY_BUNDLE = 'dist/bench-twin-copy.js';

export interface TwinScenario {
  name: string;
  label: string;
  nodes: number;
  pods: number;
}

export const TWIN_SCENARIOS: TwinScenario[] = [{ name: 'twin5000', label: 'twin 5,000/150,000', nodes: 5000, pods: 150_000 }];

interface CopyResult {
  nodes: number;
  pods: number;
  running: number;
  requests: number;
  copyMs: number;
  listsMs: number;
  seedMs: number;
  cpuMs: number;
  peakRssMiB: number;
}

export async function runTwinBench(scenarios: readonly TwinScenario[], runs: number): Promise<void> {
  for (const [entry, outfile] of [
    ['bench/twin-source.ts', SOURCE_BUNDLE],
    ['bench/twin-copy.ts', COPY_BUNDLE],
  ]) {
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'warning', external: ['vscode'] });
  }
  process.stdout.write(`\n${'twin'.padEnd(22)}${'copy s (median)'.padStart(16)}${'lists s'.padStart(9)}${'seed s'.padStart(8)}${'cpu s'.padStart(8)}${'peak RSS MiB'.padStart(14)}   all runs (copy s)\n`);
  for (const scenario of scenarios) {
    const dir = mkdtempSync(join(tmpdir(), 'kj-twin-bench-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const source = spawn(process.execPath, ['--max-old-space-size=8192', SOURCE_BUNDLE, String(scenario.nodes), String(scenario.pods), kubeconfig], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        source.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('ready\n')) resolve();
        });
        source.once('exit', (code) => reject(new Error(`the source cluster exited with ${code} before it was ready`)));
      });
      const results: CopyResult[] = [];
      for (let i = 0; i < runs; i++) {
        // With V8's default young generation, as `kube-journey trace` runs.
        const output = execFileSync(process.execPath, ['--max-old-space-size=8192', COPY_BUNDLE, kubeconfig], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
        const result = JSON.parse(output.trim().split('\n').pop()!) as CopyResult;
        if (result.pods !== scenario.pods || result.running !== scenario.pods) process.stderr.write(`warning: ${scenario.name} run ${i + 1} copied ${result.pods} pods, ${result.running} Running on the twin\n`);
        results.push(result);
      }
      const seconds = (pick: (r: CopyResult) => number): string => (median(results.map(pick)) / 1000).toFixed(1);
      process.stdout.write(
        `${scenario.label.padEnd(22)}${seconds((r) => r.copyMs).padStart(16)}${seconds((r) => r.listsMs).padStart(9)}${seconds((r) => r.seedMs).padStart(8)}${seconds((r) => r.cpuMs).padStart(8)}` +
          `${String(Math.round(median(results.map((r) => r.peakRssMiB)))).padStart(14)}   ${results.map((r) => (r.copyMs / 1000).toFixed(1)).join(', ')}\n`,
      );
    } finally {
      source.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
