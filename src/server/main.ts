/**
 * Entry of dist/simulator-server.js: the built-in simulator as a child process of the extension.
 *   node dist/simulator-server.js [--nodes N] [--zones Z] [--speed X] [--seed S] [--port P] [--max-pods N] [--kubeconfig FILE]
 * Prints one JSON line on stdout once the API answers — {"url", "token", "caPem", "kubeconfigPath"}
 * — and exits when its stdin closes, so the simulator never outlives the extension host that
 * started it (even one that crashed). Errors go to stderr with exit code 1 (2 for bad arguments).
 */
import { parseArgs } from 'node:util';
import type { ServerReadyLine } from '../protocol/simulator-server';
import { runSimulator, type RunningSimulator } from './simulator-process';
import { tuneHeapForSimulator } from './heap-tuning';
import { podCount } from './heap-guard';
import { DEFAULT_MAX_PODS } from '../common/simulator-defaults';

/** Where the extension's user raises the pod budget. */
const BUDGET_HINT = 'the setting kubeJourney.simulator.maxPods';

function positive(value: string | undefined, name: string, fallback: number, integer: boolean, allowZero = false): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  const ok = Number.isFinite(n) && (allowZero ? n >= 0 : n > 0) && (!integer || Number.isInteger(n));
  if (!ok) throw new ArgumentError(`--${name} must be ${integer ? 'a whole number' : 'a number'} ${allowZero ? '≥ 0' : '> 0'}, got "${value}"`);
  return n;
}

class ArgumentError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { nodes: { type: 'string' }, zones: { type: 'string' }, speed: { type: 'string' }, seed: { type: 'string' }, port: { type: 'string' }, 'max-pods': { type: 'string' }, kubeconfig: { type: 'string' } },
    strict: true,
  });
  let simulatedPods = (): number => 0;
  // Before runSimulator, which tunes the heap too: the first call's message wins.
  tuneHeapForSimulator({ doing: () => `while simulating ${podCount(simulatedPods())}`, budgetHint: BUDGET_HINT });
  const running: RunningSimulator = await runSimulator({
    nodes: positive(values.nodes, 'nodes', 3, true),
    zones: values.zones === undefined ? undefined : positive(values.zones, 'zones', 0, true),
    speed: positive(values.speed, 'speed', 1, false),
    seed: positive(values.seed, 'seed', 1, true, true),
    port: positive(values.port, 'port', 0, true, true),
    maxPods: positive(values['max-pods'], 'max-pods', DEFAULT_MAX_PODS, true),
    maxPodsHint: BUDGET_HINT,
    kubeconfigPath: values.kubeconfig,
  });
  simulatedPods = () => running.simulator.podBudget.used;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void running.stop().finally(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const ready: ServerReadyLine = { url: running.api.url, token: running.token, caPem: running.caPem, kubeconfigPath: running.kubeconfigPath };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage = error instanceof ArgumentError || (error instanceof Error && 'code' in error && String((error as { code: unknown }).code).startsWith('ERR_PARSE_ARGS'));
  process.stderr.write(`simulator-server: ${error instanceof Error ? (usage ? error.message : (error.stack ?? error.message)) : String(error)}\n`);
  process.exit(usage ? 2 : 1);
});
