/**
 * The built-in simulator as a child process of the extension (dist/simulator-server.js):
 *   [--nodes N] [--zones Z] [--speed X] [--seed S] [--port P] [--max-pods N] [--kubeconfig FILE]
 *   [--twin-context CTX [--twin-kubeconfig FILE] [--twin-objects JSON]]
 * Prints one JSON line on stdout once the API answers — {"url", "token", "caPem", "kubeconfigPath",
 * "twin"?} — and exits when its stdin closes, so the simulator never outlives the extension host
 * that started it (even one that crashed). Errors go to stderr with exit code 1 (2 for bad
 * arguments); a twin that cannot be made prints {"failure"} instead of the ready line, exit code 3.
 *
 * With `--twin-context`, the simulator starts as a twin of that kubeconfig context: `makeTwin`
 * (given by the entry, src/cli/simulator-server.ts, which may read a cluster) copies it and the
 * simulator restores the copy and settles before it serves.
 */
import { parseArgs } from 'node:util';
import type { KubeObject } from '../core/k8s';
import { SERVER_FAILURE_EXIT_CODE, type ServerFailureLine, type ServerReadyLine, type TwinSummary } from '../protocol/simulator-server';
import { runSimulator, type RunningSimulator } from './simulator-process';
import { tuneHeapForSimulator } from './heap-tuning';
import { podCount } from './heap-guard';
import { DEFAULT_MAX_PODS } from '../common/simulator-defaults';

/** Where the extension's user raises the pod budget. */
const BUDGET_HINT = 'the setting kubeJourney.simulator.maxPods';

/** What the extension asks a twin to copy. */
export interface TwinRequest {
  context: string;
  /** The kubeconfig to read it from (default: KUBECONFIG, else ~/.kube/config). */
  kubeconfig?: string;
  /** Objects (apiVersion, kind, namespace, name) the first manifest applied would update. */
  manifestObjects: KubeObject[];
}

/** A copied cluster: the objects to restore, how long to settle them, and what to tell the extension. */
export interface TwinStart {
  restore: KubeObject[];
  settleMs: number;
  summary: TwinSummary;
}

/** Copies a cluster for a twin, or says in one line why it cannot. */
export type TwinMaker = (request: TwinRequest) => Promise<TwinStart | ServerFailureLine>;

function positive(value: string | undefined, name: string, fallback: number, integer: boolean, allowZero = false): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  const ok = Number.isFinite(n) && (allowZero ? n >= 0 : n > 0) && (!integer || Number.isInteger(n));
  if (!ok) throw new ArgumentError(`--${name} must be ${integer ? 'a whole number' : 'a number'} ${allowZero ? '≥ 0' : '> 0'}, got "${value}"`);
  return n;
}

class ArgumentError extends Error {}

/** `--twin-objects`: a JSON array of object identities (no data: a Secret's values never reach the command line). */
function objectIdentities(value: string | undefined): KubeObject[] {
  if (value === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ArgumentError('--twin-objects must be a JSON array of {apiVersion, kind, metadata: {name, namespace}}');
  }
  if (!Array.isArray(parsed)) throw new ArgumentError('--twin-objects must be a JSON array');
  return parsed.flatMap((item: unknown): KubeObject[] => {
    const o = item as Partial<KubeObject> | null;
    if (typeof o?.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string') return [];
    const namespace = typeof o.metadata.namespace === 'string' ? o.metadata.namespace : undefined;
    return [{ apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.metadata.name, ...(namespace ? { namespace } : {}) } }];
  });
}

async function serve(argv: string[], makeTwin: TwinMaker | undefined): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      nodes: { type: 'string' },
      zones: { type: 'string' },
      speed: { type: 'string' },
      seed: { type: 'string' },
      port: { type: 'string' },
      'max-pods': { type: 'string' },
      kubeconfig: { type: 'string' },
      'twin-context': { type: 'string' },
      'twin-kubeconfig': { type: 'string' },
      'twin-objects': { type: 'string' },
    },
    strict: true,
  });
  const twinContext = values['twin-context'];
  if (twinContext !== undefined && !makeTwin) throw new ArgumentError('--twin-context: this entry cannot read a cluster; run dist/simulator-server.js (src/cli/simulator-server.ts)');
  if (twinContext === undefined && (values['twin-kubeconfig'] !== undefined || values['twin-objects'] !== undefined)) throw new ArgumentError('--twin-kubeconfig and --twin-objects need --twin-context');
  const maxPods = positive(values['max-pods'], 'max-pods', DEFAULT_MAX_PODS, true);
  const options = {
    nodes: positive(values.nodes, 'nodes', 3, true),
    zones: values.zones === undefined ? undefined : positive(values.zones, 'zones', 0, true),
    speed: positive(values.speed, 'speed', 1, false),
    seed: positive(values.seed, 'seed', 1, true, true),
    port: positive(values.port, 'port', 0, true, true),
  };
  const objects = objectIdentities(values['twin-objects']);
  let simulatedPods = (): number => 0;
  // Before runSimulator, which tunes the heap too: the first call's message wins.
  tuneHeapForSimulator({ doing: () => `while simulating ${podCount(simulatedPods())}`, budgetHint: BUDGET_HINT });

  let twin: TwinStart | undefined;
  if (twinContext !== undefined) {
    const made = await makeTwin!({ context: twinContext, kubeconfig: values['twin-kubeconfig'], manifestObjects: objects });
    if ('failure' in made) {
      process.stdout.write(`${JSON.stringify(made satisfies ServerFailureLine)}\n`);
      process.exit(SERVER_FAILURE_EXIT_CODE);
    }
    twin = made;
  }
  const copiedPods = twin?.summary.copied.Pod ?? 0;
  const running: RunningSimulator = await runSimulator({
    ...options,
    // The copied pods count against the budget: the user's budget is for what they apply.
    maxPods: maxPods + copiedPods,
    maxPodsHint: BUDGET_HINT,
    kubeconfigPath: values.kubeconfig,
    ...(twin ? { restore: twin.restore, settleMs: twin.settleMs } : {}),
  });
  if (twin) twin.restore = [];
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
  const ready: ServerReadyLine = { url: running.api.url, token: running.token, caPem: running.caPem, kubeconfigPath: running.kubeconfigPath, ...(twin ? { twin: twin.summary } : {}) };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

/** Runs the child with these arguments; the process exits on errors with the codes above. */
export function runSimulatorChild(argv: string[], makeTwin?: TwinMaker): void {
  serve(argv, makeTwin).catch((error: unknown) => {
    const usage = error instanceof ArgumentError || (error instanceof Error && 'code' in error && String((error as { code: unknown }).code).startsWith('ERR_PARSE_ARGS'));
    process.stderr.write(`simulator-server: ${error instanceof Error ? (usage ? error.message : (error.stack ?? error.message)) : String(error)}\n`);
    process.exit(usage ? 2 : 1);
  });
}
