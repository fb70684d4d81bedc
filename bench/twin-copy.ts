/**
 * One run of the twin benchmark, in its own process so CPU and peak memory are the twin's alone:
 * reads the cluster of `<kubeconfig>` as `kube-journey trace --twin` does (GET lists, paged) and
 * restores it into the simulator `trace` would make, settled for the apply. Prints one JSON line:
 * the copy time and its split (lists, seeding), CPU time and peak RSS.
 *   node dist/bench-twin-copy.js <kubeconfig>
 */
import { readFileSync } from 'node:fs';
import { ClusterConnection } from '../src/cluster/connection';
import { readClusterForTwin } from '../src/cluster/twin-read';
import { twinSimulator } from '../src/cli/twin';
import { tracedPodBudget } from '../src/cli/trace-budget';
import { tuneHeapForSimulator } from '../src/server/heap-tuning';

function peakRssMiB(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) / 1024 : process.memoryUsage().rss / 1024 / 1024;
}

async function main(): Promise<void> {
  tuneHeapForSimulator({ watch: false });
  const kubeconfig = process.argv[2];
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const connection = ClusterConnection.open({ kubeconfig, env: {} });
  const copy = await readClusterForTwin(connection);
  const listsMs = performance.now() - start;
  const nodes = copy.counts.Node ?? 0;
  const pods = copy.counts.Pod ?? 0;
  const seedStart = performance.now();
  // The options `trace` makes its simulator with (src/cli/trace.ts).
  const simulator = twinSimulator({ nodes, seed: 1, retainInternals: false, historyPerKind: 100, maxPods: pods + tracedPodBudget(nodes) }, copy.objects);
  const seedMs = performance.now() - seedStart;
  const cpu = process.cpuUsage(cpuStart);
  const running = simulator.store.list('Pod').items.filter((pod) => (pod.status as { phase?: string } | undefined)?.phase === 'Running').length;
  process.stdout.write(
    `${JSON.stringify({
      nodes,
      pods,
      running,
      requests: copy.requests,
      copyMs: Math.round(listsMs + seedMs),
      listsMs: Math.round(listsMs),
      seedMs: Math.round(seedMs),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      peakRssMiB: Math.round(peakRssMiB()),
    })}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
