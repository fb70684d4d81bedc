/**
 * `kube-journey` command line:
 *   trace -f <file> [--nodes N] [--zones Z] [--speed X] [--seed S] [--max-pods N] [--timeout S] [--json] [--evidence]
 *   trace -f <file> --context NAME [--kubeconfig FILE] [--force-conflicts] [--timeout S] [--json] [--evidence]
 *   trace … --save FILE.journey.json
 *   show FILE.journey.json [--json] [--evidence] [--width N]
 *   diff A.journey.json B.journey.json [--json] [--width N]
 *   simulate [--port P] [--nodes N] [--zones Z] [--kubeconfig FILE] [--speed X] [--seed S] [--max-pods N]
 * Errors are one line on stderr (KUBE_JOURNEY_DEBUG=1 adds the stack); exit 1 for a failed
 * trace or an error, 2 for a bad command line.
 */
import { parseArgs } from 'node:util';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runTrace } from './trace';
import { runSimulator } from '../server/simulator-process';
import { tuneHeapForSimulator } from '../server/heap-tuning';
import { HeapExhaustedError, podCount } from '../server/heap-guard';
import { DEFAULT_MAX_PODS } from '../common/simulator-defaults';
import { tracedPodBudget } from './trace-budget';

const USAGE = `Usage:
  kube-journey trace -f <file> [--nodes N] [--zones Z] [--speed X] [--seed S] [--max-pods N] [--timeout SECONDS] [--json] [--evidence]
      Apply <file> to a fresh built-in simulator and print each object's journey.
      --nodes     worker nodes in the simulator (default 3)
      --zones     spread the nodes over Z zones of one region (topology.kubernetes.io/zone, …/region); default none, as kind
      --speed     pace the simulation: virtual seconds per wall second (default: as fast as possible)
      --seed      seed for names, uids and timing jitter (default 1)
      --max-pods  the most pods the simulator makes; more are refused as a quota would (default: what fits in this heap, ${tracedPodBudget(3)} with 3 nodes)
      --timeout   give up after this many simulated seconds (default 300)
      --json      print newline-delimited JSON: one record per applied object, journey object and a summary (docs/trace-json.md)
      --evidence  print each stage's evidence (field changes, events, internals)
      --save      also write the whole trace to a journey file (FILE.journey.json, gzip if it ends in .gz; docs/journey-file.md)

  kube-journey trace -f <file> --context NAME [--kubeconfig FILE] [--force-conflicts] [--timeout SECONDS] [--json] [--evidence] [--save FILE]
      Apply <file> to a cluster with server-side apply and print each object's journey.
      --context          the kubeconfig context (default: the current context, when --kubeconfig is given)
      --kubeconfig       the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)
      --force-conflicts  take over fields that other field managers own
      --timeout          give up after this many seconds (default 300)

  kube-journey show <file.journey.json> [--json] [--evidence] [--width N]
      Print a trace saved with --save exactly as trace printed it, and exit with its exit code.
      --json      print the NDJSON records instead of the text
      --evidence  print each stage's evidence
      --width     columns of the timeline (default: the terminal's, 100 when not a terminal)

  kube-journey diff <A.journey.json> <B.journey.json> [--json] [--width N]
      Compare two saved traces journey by journey: outcome, phase p50/p90/max (B − A), stages seen in
      one trace only, placement. Exit 0: same outcome; 1: outcomes differ; 2: a file cannot be read.
      --json      print one JSON document instead of the text (docs/diff.md)
      --width     columns of the text (default: the terminal's, 100 when not a terminal)

  kube-journey simulate [--port P] [--nodes N] [--zones Z] [--kubeconfig FILE] [--speed X] [--seed S] [--max-pods N]
      Run the simulator as a Kubernetes API server on 127.0.0.1 for kubectl.
      --zones     spread the nodes over Z zones of one region (default none, as kind)
      --max-pods  the most pods the simulator holds (default ${DEFAULT_MAX_PODS})

Errors are printed as one line; KUBE_JOURNEY_DEBUG=1 prints their stack too.
`;

export class UsageError extends Error {}

function numberOption(value: string | undefined, name: string, fallback: number, check: (n: number) => boolean = (n) => n > 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} must be a positive number, got "${value}"`);
  return n;
}

function maxPodsOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return numberOption(value, 'max-pods', 0, (n) => Number.isInteger(n) && n > 0);
}

function zonesOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return numberOption(value, 'zones', 0, (n) => Number.isInteger(n) && n > 0);
}

/** `show --width` and `diff --width`: the columns; narrower than 40 leaves a stage's text no room. */
function widthOption(value: string | undefined): number {
  if (value === undefined) return terminalWidth();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 40) throw new UsageError(`--width must be a whole number of columns, at least 40, got "${value}"`);
  return n;
}

/** The timeline's width: the terminal's (80 to 160 columns), 100 when the output is not a terminal. */
function terminalWidth(): number {
  return process.stdout.isTTY ? Math.max(80, Math.min(process.stdout.columns ?? 100, 160)) : 100;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'trace') {
    const { values } = parseArgs({
      args: rest,
      options: {
        file: { type: 'string', short: 'f' },
        nodes: { type: 'string' },
        zones: { type: 'string' },
        speed: { type: 'string' },
        seed: { type: 'string' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        evidence: { type: 'boolean' },
        'max-pods': { type: 'string' },
        context: { type: 'string' },
        kubeconfig: { type: 'string' },
        'force-conflicts': { type: 'boolean' },
        save: { type: 'string' },
      },
      strict: true,
    });
    if (!values.file) throw new UsageError('trace needs a manifest: kube-journey trace -f <file>');
    if (values.save === '') throw new UsageError('--save needs a file name: --save <name>.journey.json');
    const width = terminalWidth();
    // What both targets share: how long to wait and how to print.
    const reporting = {
      timeoutMs: numberOption(values.timeout, 'timeout', 300) * 1000,
      json: !!values.json,
      evidence: !!values.evidence,
      width,
      out: process.stdout,
      err: process.stderr,
      save: values.save,
    };
    if (values.context !== undefined || values.kubeconfig !== undefined) {
      const simulatorOnly = (['nodes', 'zones', 'speed', 'seed', 'max-pods'] as const).filter((name) => values[name] !== undefined);
      if (simulatorOnly.length > 0) throw new UsageError(`--${simulatorOnly[0]} applies to the built-in simulator, not to --context/--kubeconfig`);
      // Loaded only for clusters: the simulator path does not need the Kubernetes client.
      const { runTraceCluster } = await import('./trace-cluster');
      return runTraceCluster({
        file: values.file,
        context: values.context,
        kubeconfig: values.kubeconfig,
        forceConflicts: !!values['force-conflicts'],
        ...reporting,
      });
    }
    if (values['force-conflicts']) throw new UsageError('--force-conflicts applies to --context/--kubeconfig');
    return runTrace({
      file: values.file,
      nodes: numberOption(values.nodes, 'nodes', 3, (n) => Number.isInteger(n) && n > 0),
      zones: zonesOption(values.zones),
      speed: values.speed === undefined ? undefined : numberOption(values.speed, 'speed', 1),
      seed: numberOption(values.seed, 'seed', 1, (n) => Number.isInteger(n) && n >= 0),
      maxPods: maxPodsOption(values['max-pods']),
      ...reporting,
    });
  }
  if (command === 'show') {
    const { values, positionals } = parseArgs({ args: rest, options: { json: { type: 'boolean' }, evidence: { type: 'boolean' }, width: { type: 'string' } }, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'show needs a journey file: kube-journey show <file>.journey.json' : `show reads one journey file, got ${positionals.length}`);
    const { runShow } = await import('./show');
    return runShow({
      file: positionals[0],
      json: !!values.json,
      evidence: !!values.evidence,
      width: widthOption(values.width),
      out: process.stdout,
      err: process.stderr,
    });
  }
  if (command === 'diff') {
    const { values, positionals } = parseArgs({ args: rest, options: { json: { type: 'boolean' }, width: { type: 'string' } }, allowPositionals: true, strict: true });
    if (positionals.length !== 2) throw new UsageError(`diff compares two journey files: kube-journey diff <A>.journey.json <B>.journey.json (got ${positionals.length})`);
    const { runDiff } = await import('./diff');
    return runDiff({
      a: positionals[0],
      b: positionals[1],
      json: !!values.json,
      width: widthOption(values.width),
      out: process.stdout,
      err: process.stderr,
    });
  }
  if (command === 'simulate') {
    const { values } = parseArgs({
      args: rest,
      options: { port: { type: 'string' }, nodes: { type: 'string' }, zones: { type: 'string' }, kubeconfig: { type: 'string' }, speed: { type: 'string' }, seed: { type: 'string' }, 'max-pods': { type: 'string' } },
      strict: true,
    });
    const budgetHint = 'kube-journey simulate --max-pods';
    let simulatedPods = (): number => 0;
    // Before runSimulator, which tunes the heap too: the first call's message wins.
    tuneHeapForSimulator({ doing: () => `while simulating ${podCount(simulatedPods())}`, budgetHint });
    const kubeconfigPath = values.kubeconfig ?? join(homedir(), '.kube-journey', 'simulator.kubeconfig');
    const nodes = numberOption(values.nodes, 'nodes', 3, (n) => Number.isInteger(n) && n > 0);
    const running = await runSimulator({
      port: numberOption(values.port, 'port', 0, (n) => Number.isInteger(n) && n >= 0 && n < 65536),
      nodes,
      zones: zonesOption(values.zones),
      speed: numberOption(values.speed, 'speed', 1),
      seed: numberOption(values.seed, 'seed', 1, (n) => Number.isInteger(n) && n >= 0),
      maxPods: maxPodsOption(values['max-pods']) ?? DEFAULT_MAX_PODS,
      maxPodsHint: budgetHint,
      kubeconfigPath,
    });
    simulatedPods = () => running.simulator.podBudget.used;
    process.stdout.write(
      `Kube Journey simulator: ${nodes} node${nodes === 1 ? '' : 's'}, Kubernetes API v1.32.4 on ${running.api.url}\n` +
        `Kubeconfig (with a bearer token for this run) written to ${kubeconfigPath}\n\n` +
        `Point kubectl at it:\n  export KUBECONFIG=${kubeconfigPath}\n  kubectl get nodes\n  kubectl apply -f examples/nginx-deployment.yaml\n\nPress Ctrl+C to stop.\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        void running.stop().then(resolve);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  }
  throw new UsageError(`unknown command "${command}"`);
}

// Output piped into a reader that stops early (`| head`): stop quietly, as other command-line tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

/** One line for any error: a stack is for developers (KUBE_JOURNEY_DEBUG=1), not for users. */
function errorLine(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
  if (error instanceof HeapExhaustedError) return message;
  const name = error instanceof Error && error.name !== 'Error' ? `${error.name}: ` : '';
  return `${name}${message}${process.env.KUBE_JOURNEY_DEBUG ? '' : ' (KUBE_JOURNEY_DEBUG=1 shows where)'}`;
}

function fail(error: unknown): void {
  process.stderr.write(`kube-journey: ${errorLine(error)}\n`);
  if (process.env.KUBE_JOURNEY_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
}

// Errors thrown outside main's promise (a timer of the served simulator, a stream): one line too.
process.on('uncaughtException', (error) => {
  fail(error);
  process.exit(1);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error instanceof Error && 'code' in error && String((error as { code: unknown }).code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`kube-journey: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    fail(error);
    process.exitCode = 1;
  },
);
