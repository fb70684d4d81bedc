/**
 * What a container's `lifecycle.postStart` or `lifecycle.preStop` hook does, read from the spec as
 * the kubelet's handler runner (`pkg/kubelet/lifecycle/handlers.go`) would run it
 * (docs/simulator-failures.md, "Lifecycle hooks"):
 * - exec: the script model's statements (`sleep`, `exit`, `echo … > file`, …), plus the ways a
 *   hook stops the main process: `nginx -s quit|stop` in an nginx container, and a wait for it to
 *   be gone (`while killall -0 nginx; do sleep 1; done`); any other loop never ends;
 * - httpGet: reaches the ports known images serve (probe-outcome.ts); only a failed connection
 *   fails the hook, any HTTP status counts as done, as upstream's `runHTTPHandler`;
 * - sleep: runs that many seconds.
 * A command the model cannot read is assumed to succeed at once, and says so.
 */
import type { Container } from '../../core/k8s';
import { argvOf, basename, expandForLoops, sleepMs, withoutRedirection } from './container-behaviour';
import { shellWords } from './container-logs';
import { probeOutcome } from './probe-outcome';

export type LifecycleHandler = NonNullable<NonNullable<Container['lifecycle']>['preStop']>;

export interface HookOutcome {
  /** How long the hook runs, in ms; Infinity for one that never ends on its own. */
  runMs: number;
  /** The error `Run` returns (`command '…' exited with 1: `), undefined when the hook succeeds. */
  error?: string;
  /** The hook makes the container's main process exit cleanly (e.g. `nginx -s quit`). */
  stopsMainProcess: boolean;
  /** Why the outcome is assumed (a command the model cannot read). */
  assumed?: string;
}

const NO_ENV: ReadonlyMap<string, string> = new Map();
const HOOK_MS = 30;
/** Statements that finish at once with status 0 inside a hook. */
const ONE_SHOT = new Set(['echo', 'printf', 'date', 'env', 'printenv', 'hostname', 'pwd', 'ls', 'cat', 'whoami', 'id', 'uname', 'touch', 'mkdir', 'cp', 'mv', 'rm', 'true', ':']);
/** A loop that waits for a process to be gone: `while killall -0 nginx; do sleep 1; done`, `while pgrep nginx; …`. */
const WAIT_GONE = /\bwhile\s+(?:killall\s+-0|pgrep|pidof|kill\s+-0)\s+[^;\n]*?[;\n]\s*do\s+sleep\s+[^;\n]+[;\n]?\s*done\b/g;
const WAIT_GONE_STATEMENT = '__wait_main_gone';

/** Whether the container's main process is nginx (its image's entrypoint, or `nginx` itself). */
function runsNginx(container: Container): boolean {
  const argv = argvOf(container);
  if (argv) return basename(argv[0]) === 'nginx';
  return /(^|\/)nginx(-slim)?(:|@|$)/.test(container.image ?? '');
}

function execOutcome(command: readonly string[], container: Container): HookOutcome {
  const script = command.length >= 3 && /(^|\/)(ba|a|da)?sh$/.test(command[0]) && /^-[a-z]*c[a-z]*$/.test(command[1]) ? command[2] : undefined;
  const text = script === undefined ? undefined : expandForLoops(script).replace(WAIT_GONE, WAIT_GONE_STATEMENT);
  const statements = text === undefined ? [[...command]] : text.split(/\n|;|&&/).map((statement) => shellWords(statement.trim(), NO_ENV));
  const cannotRead = (): HookOutcome => ({ runMs: HOOK_MS, stopsMainProcess: false, assumed: `the simulator cannot read lifecycle hook: ${command.join(' ')}` });
  if (text !== undefined && /\b(while|until|for|if|case)\b|\|\||[|&`]|\$\(/.test(text.replace(/&&/g, ';'))) {
    // Any loop left is one the model cannot see the end of: the hook runs until it is cut off.
    return /\b(while|until)\b/.test(text) ? { runMs: Infinity, stopsMainProcess: false } : cannotRead();
  }
  let runMs = HOOK_MS;
  let status = 0;
  let stopsMainProcess = false;
  for (const written of statements) {
    const words = withoutRedirection(written);
    if (words.length === 0) continue;
    const program = basename(words[0]);
    if (program === 'exit') {
      status = words[1] === undefined ? status : Number(words[1]);
      if (!Number.isInteger(status)) return cannotRead();
      break;
    }
    if (program === 'sleep') {
      const ms = sleepMs(words[1]);
      if (ms === undefined) return cannotRead();
      runMs += ms;
      status = 0;
    } else if (program === 'false') status = 1;
    else if (ONE_SHOT.has(program)) status = 0;
    else if (program === 'nginx' && words[1] === '-s' && (words[2] === 'quit' || words[2] === 'stop') && runsNginx(container)) {
      stopsMainProcess = true;
      status = 0;
    } else if (program === WAIT_GONE_STATEMENT) {
      if (!stopsMainProcess) return { runMs: Infinity, stopsMainProcess };
    } else return cannotRead();
  }
  status = ((status % 256) + 256) % 256;
  const error = status === 0 ? undefined : `command '${command.join(' ')}' exited with ${status}: `;
  return { runMs, stopsMainProcess, error };
}

/** The hook's outcome when run `sinceStartMs` after the container started; `podIP` is the HTTP hook's default host. */
export function hookOutcome(handler: LifecycleHandler, container: Container, podIP: string, sinceStartMs: number): HookOutcome {
  if (handler.exec?.command) return execOutcome(handler.exec.command, container);
  if (handler.httpGet) {
    const outcome = probeOutcome({ httpGet: handler.httpGet }, container, podIP, sinceStartMs);
    if (outcome.ok) return { runMs: HOOK_MS, stopsMainProcess: false, assumed: outcome.assumed?.replace('HTTP probe', 'HTTP lifecycle hook') };
    // Any answer completes an HTTP hook; only a failed request fails it.
    const failedRequest = !/^HTTP probe failed with statuscode/.test(outcome.output);
    return { runMs: HOOK_MS, stopsMainProcess: false, error: failedRequest ? outcome.output : undefined };
  }
  if (handler.sleep) return { runMs: handler.sleep.seconds * 1000, stopsMainProcess: false };
  return { runMs: 0, stopsMainProcess: false, error: `invalid handler: ${JSON.stringify(handler)}` };
}

/** `handlerRunner.Run`'s message for a failed hook, which the `FailedPostStartHook` event carries. */
export function hookFailureMessage(handler: LifecycleHandler, containerName: string, podDescription: string, error: string): string {
  if (handler.exec?.command) return `Exec lifecycle hook ([${handler.exec.command.join(' ')}]) for Container "${containerName}" in Pod "${podDescription}" failed - error: ${error}, message: ""`;
  if (handler.httpGet) return `HTTP lifecycle hook (${handler.httpGet.path ?? ''}) for Container "${containerName}" in Pod "${podDescription}" failed - error: ${error}`;
  return `Cannot run handler: ${error}`;
}
