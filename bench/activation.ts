/**
 * `npm run bench -- --only activation [--runs N]`: what opening a YAML file costs before Kube
 * Journey answers, i.e. requiring the production dist/extension.js plus activate(), measured in
 * N fresh Node processes against a fake `vscode` module (test/bundle-host). Prints the medians.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { median } from './median';

interface ActivationRun {
  requireMs: number;
  activateMs: number;
  cpuMs: number;
}

export function runActivationBench(runs: number): void {
  // The VSIX ships the production build: minified, client-node in dist/cluster.js.
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
  const bundle = resolve('dist/extension.js');
  const scratch = mkdtempSync(join(tmpdir(), 'kube-journey-activation-'));
  try {
    const child = join(scratch, 'activation-child.js');
    buildSync({ entryPoints: ['bench/activation-child.ts'], outfile: child, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
    const results: ActivationRun[] = [];
    for (let i = 0; i < runs; i++) {
      const output = execFileSync(process.execPath, [child, bundle, join(scratch, 'storage')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      results.push(JSON.parse(output.trim().split('\n').pop()!) as ActivationRun);
    }
    const totals = results.map((r) => r.requireMs + r.activateMs);
    process.stdout.write(`activation (dist/extension.js ${Math.round(statSync(bundle).size / 1024)} KiB, ${runs} fresh processes, medians)\n`);
    process.stdout.write(
      `  require ${median(results.map((r) => r.requireMs)).toFixed(1)} ms + activate() ${median(results.map((r) => r.activateMs)).toFixed(1)} ms; total ${median(totals).toFixed(1)} ms wall, ${median(results.map((r) => r.cpuMs)).toFixed(1)} ms CPU\n`,
    );
    process.stdout.write(`  all runs (total ms): ${totals.map((t) => t.toFixed(1)).join(', ')}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
