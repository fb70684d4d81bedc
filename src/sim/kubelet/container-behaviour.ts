/**
 * What a simulated container does once started, read from its command and args (the rules are
 * in docs/simulator-failures.md). A container runs until it is stopped unless its command is a
 * short sequence of one-shot shell statements, e.g. `sh -c "sleep 5; exit 1"`: then it exits
 * after the sleeps with the code of its last statement (or of `exit <n>`).
 */
import type { Container } from '../../core/k8s';

export interface ExitPlan {
  exitCode: number;
  /** How long the process runs before exiting, in ms. */
  runMs: number;
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'ksh']);
/** Statements that finish at once with status 0. */
const ONE_SHOT = new Set(['echo', 'printf', 'date', 'env', 'printenv', 'hostname', 'pwd', 'ls', 'cat', 'whoami', 'id', 'uname', 'touch', 'mkdir', 'cp', 'mv', 'rm']);
/**
 * Shell syntax this reader does not follow; a script using it is assumed to run forever. Output
 * redirected to a file (`> /tmp/x`, `>> /tmp/x`) is followed; any other redirection is not.
 */
const UNFOLLOWED = /\|\||[|&`<]|\$\(|\b(while|until|for|if|case|trap|wait|exec)\b|[0-9]>|>\s*(?:>\s*)?(?:$|[;&|])/;

export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** The repository of an image reference without registry, tag or digest: `docker.io/library/busybox:1.36` → `busybox`. */
export function repositoryName(image: string | undefined): string {
  const withoutDigest = (image ?? '').split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  const withoutTag = colon > lastSlash ? withoutDigest.slice(0, colon) : withoutDigest;
  return withoutTag.slice(withoutTag.lastIndexOf('/') + 1);
}

/**
 * Images with no ENTRYPOINT whose CMD is a shell or an interpreter: `args` replace the CMD and
 * are the whole argv, and with neither command nor args the CMD starts without a terminal and
 * ends at once (the classic busybox pod in CrashLoopBackOff).
 */
const SHELL_IMAGES = new Set(['busybox', 'alpine', 'ubuntu', 'debian', 'centos', 'fedora', 'rockylinux', 'almalinux', 'amazonlinux', 'bash', 'perl', 'python', 'ruby', 'golang']);

/**
 * Images whose own entrypoint serves until stopped: running them without command or args is
 * not an assumption. Anything else the simulator still keeps running, but says it assumed so.
 */
const SERVING_IMAGES = new Set([
  'nginx', 'nginx-slim', 'httpd', 'redis', 'memcached', 'mysql', 'mariadb', 'postgres', 'mongo', 'rabbitmq', 'pause', 'kubernetes-bootcamp', 'hello-app',
  'goproxy', 'traefik', 'haproxy', 'caddy', 'zookeeper', 'cassandra', 'elasticsearch', 'registry', 'coredns', 'etcd', 'echoserver', 'hpa-example', 'gb-frontend', 'gb-redis-follower',
]);

/** agnhost (the Kubernetes e2e test image) subcommands that serve until stopped. */
const AGNHOST_SERVERS = new Set(['liveness', 'netexec', 'serve-hostname', 'pause', 'test-webserver', 'porter', 'fake-gitserver']);

function isShellImage(container: Container): boolean {
  return SHELL_IMAGES.has(repositoryName(container.image));
}

/** The argv the container's process starts with, or undefined when the image entrypoint runs. */
export function argvOf(container: Container): string[] | undefined {
  const command = container.command ?? [];
  const args = container.args ?? [];
  if (command.length > 0) return [...command, ...args];
  if (args.length > 0 && (isShellImage(container) || execsItsArgs(container, args))) return [...args];
  return undefined;
}

/**
 * nginx's image entrypoint (docker-entrypoint.sh) runs `"$@"` when the args start with the nginx
 * binary, so `args: [nginx, -T]` is the command line itself.
 */
function execsItsArgs(container: Container, args: string[]): boolean {
  const image = repositoryName(container.image);
  return (image === 'nginx' || image === 'nginx-slim') && (args[0] === 'nginx' || args[0] === 'nginx-debug');
}

/** nginx options that print or test and exit at once instead of serving (`nginx -T` dumps the configuration). */
const NGINX_ONE_SHOT_FLAGS = /^-[tTvVh?]$/;

/** A shell image started with neither command nor args, and no terminal to keep its shell reading. */
function bareShellImage(container: Container): boolean {
  return !container.command?.length && !container.args?.length && isShellImage(container) && !container.stdin && !container.tty;
}

/** The script of `sh -c '<script>'` (any shell, flags like `-ec` included), if that is the command. */
function shellScript(argv: string[]): string | undefined {
  if (!SHELLS.has(basename(argv[0]))) return undefined;
  const flagIndex = argv.findIndex((arg, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(arg));
  if (flagIndex < 0) return undefined;
  return expandForLoops(argv[flagIndex + 1] ?? '');
}

/** `for NAME in WORDS; do BODY; done` over literal words, with no loop nested in the body. */
const FOR_LOOP = /\bfor\s+([A-Za-z_]\w*)\s+in\s+([^;\n]*?)\s*[;\n]\s*do\b((?:(?!\b(?:for|while|until|do)\b)[\s\S])*?)\bdone\b/g;

/**
 * A `for` loop over a fixed list, unrolled into its iterations: `for i in 1 2 3; do echo $i; done`
 * reads as `echo 1; echo 2; echo 3`. A list that is not literal words stays a loop (not followed).
 */
export function expandForLoops(script: string): string {
  if (!script.includes('for')) return script;
  return script.replace(FOR_LOOP, (loop: string, name: string, list: string, body: string) => {
    const items = list.trim().split(/\s+/).filter((item) => item.length > 0);
    if (items.some((item) => !/^[\w.,:@%+=/-]+$|^'[^']*'$|^"[^"$`]*"$/.test(item))) return loop;
    const variable = new RegExp(`\\$(?:\\{${name}\\}|${name}\\b)`, 'g');
    return items.map((item) => body.replace(variable, item.replace(/^['"]|['"]$/g, '').replace(/\$/g, '$$$$'))).join(';');
  });
}

/** `sleep`'s operand in ms (`5`, `2.5s`, `1m`, `1h`, `1d`); undefined when it is not a duration. */
export function sleepMs(arg: string | undefined): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg ?? '');
  if (!match) return undefined;
  const unit = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2]] ?? 1000;
  return Math.round(Number(match[1]) * unit);
}

/** The words of a statement without its output redirection (`> /tmp/x`, `>>/tmp/x`). */
export function withoutRedirection(words: string[]): string[] {
  const at = words.findIndex((word) => word.startsWith('>'));
  return at < 0 ? words : words.slice(0, at);
}

/** Follow statements in order; undefined as soon as one may not terminate or is unknown. */
function followStatements(statements: string[][]): ExitPlan | undefined {
  let runMs = 0;
  let exitCode = 0;
  for (const written of statements) {
    const words = withoutRedirection(written);
    if (words.length === 0) continue;
    const program = basename(words[0]);
    if (program === 'exit') {
      const code = words[1] === undefined ? exitCode : Number(words[1]);
      if (!Number.isInteger(code)) return undefined;
      return { exitCode: ((code % 256) + 256) % 256, runMs };
    }
    if (program === 'true' || program === ':') exitCode = 0;
    else if (program === 'false') exitCode = 1;
    else if (program === 'sleep') {
      const ms = sleepMs(words[1]);
      if (ms === undefined) return undefined;
      runMs += ms;
      exitCode = 0;
    } else if (ONE_SHOT.has(program)) exitCode = 0;
    else if ((program === 'nginx' || program === 'nginx-debug') && words.slice(1).some((word) => NGINX_ONE_SHOT_FLAGS.test(word))) exitCode = 0;
    else return undefined;
  }
  return { exitCode, runMs };
}

/** `sh -c` statements of a script, split where the reader splits them. */
function splitScript(script: string): string[] {
  return script
    .split(/\n|;|&&/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/** One argv as a shell statement, each word single-quoted where it needs it. */
function asStatement(argv: string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * The statements the container runs, when the model can follow them to their end (the same
 * condition as `plannedExit`): what `kubectl logs` replays. Undefined otherwise.
 */
export function readableStatements(container: Container): string[] | undefined {
  // A bare shell image runs nothing before it ends.
  if (bareShellImage(container)) return [];
  if (plannedExit(container) === undefined) return undefined;
  const argv = argvOf(container)!;
  const script = shellScript(argv);
  return script === undefined ? [asStatement(argv)] : splitScript(script);
}

/** A script that ends in a loop that never ends: the statements before it, and the loop's body. */
export interface EndlessLoop {
  before: string[];
  body: string[];
}

const ENDLESS_LOOP = /^([\s\S]*?)\bwhile\s+(?:true|:|\[\s+1\s+\])\s*[;\n]\s*do\b([\s\S]*?)\bdone\s*;?\s*$/;

/**
 * `…; while true; do BODY; done` (also `while :`), when every statement before the loop and in
 * its body is one the model follows and the body sleeps: what `kubectl logs` replays, repeating
 * the body (`while true; do echo hello; sleep 10; done` logs `hello` every 10 s). Undefined otherwise.
 */
export function endlessLoop(container: Container): EndlessLoop | undefined {
  const argv = argvOf(container);
  const script = argv && shellScript(argv);
  const match = script === undefined ? undefined : ENDLESS_LOOP.exec(script);
  if (!match) return undefined;
  const [before, body] = [match[1], match[2]];
  if (UNFOLLOWED.test(`${before};${body}`.replace(/&&/g, ';'))) return undefined;
  const words = (text: string): string[][] => splitScript(text).map((statement) => statement.split(/\s+/).filter((word) => word.length > 0).map((word) => word.replace(/^['"]|['"]$/g, '')));
  const beforePlan = followStatements(words(before));
  const bodyPlan = followStatements(words(body));
  if (!beforePlan || !bodyPlan || bodyPlan.runMs === 0 || words(body).some((statement) => statement[0] === 'exit')) return undefined;
  return { before: splitScript(before), body: splitScript(body) };
}

/** How the container's process ends on its own, or undefined when it runs until stopped. */
export function plannedExit(container: Container): ExitPlan | undefined {
  if (bareShellImage(container)) return { exitCode: 0, runMs: 0 };
  const argv = argvOf(container);
  if (!argv) return undefined;
  const script = shellScript(argv);
  if (script === undefined) return followStatements([argv]);
  if (UNFOLLOWED.test(script.replace(/&&/g, ';'))) return undefined;
  const statements = splitScript(script).map((statement) => statement.split(/\s+/).filter((word) => word.length > 0).map((word) => word.replace(/^['"]|['"]$/g, '')));
  return followStatements(statements);
}

/** What a container of a run-to-completion pod is assumed to do when its command cannot be read. */
export interface AssumedExitPlan extends ExitPlan {
  reason: string;
}

/**
 * How long a run-to-completion container whose program cannot be read is assumed to run (the
 * pod worker jitters it ±30 % with the seeded random source). A few seconds is what the docs'
 * examples take on a real node (`perl -Mbignum=bpi -wle 'print bpi(2000)'`: 3–8 s).
 */
export const ASSUMED_RUN_MS = 5000;

/** Programs read as running until stopped, whatever the restart policy: loops, `sleep infinity`, `tail -f` and `tail -F`. */
const NEVER_ENDING = /\b(while|until)\b|\bsleep\s+['"]?(infinity|inf)\b|\btail\s+(-[a-zA-Z]*[fF]|--follow)/;

/**
 * For a container of a pod with restartPolicy Never or OnFailure (a Job's) whose command
 * `plannedExit` cannot follow: the program is assumed to finish cleanly after `ASSUMED_RUN_MS`,
 * since such pods are meant to finish, unless the command reads as never-ending. Undefined when
 * the exit can be read (use `plannedExit`) or the command reads as never-ending.
 */
export function assumedExit(container: Container): AssumedExitPlan | undefined {
  if (plannedExit(container) !== undefined) return undefined;
  const argv = argvOf(container);
  if (argv && NEVER_ENDING.test(argv.join(' '))) return undefined;
  return { exitCode: 0, runMs: ASSUMED_RUN_MS, reason: unreadableReason(container, argv) };
}

/** Why the simulator cannot read what the container runs, in the words an assumption gives. */
export function unreadableCommandReason(container: Container): string {
  return unreadableReason(container, argvOf(container));
}

function unreadableReason(container: Container, argv: string[] | undefined): string {
  if (argv) return `command not readable by the simulator: ${oneLine(argv)}`;
  const args = container.args ?? [];
  const image = container.image ?? '';
  if (args.length > 0) return `the entrypoint of image ${image} with args ${oneLine(args)} is not readable by the simulator`;
  return `no command: the entrypoint of image ${image} is not readable by the simulator`;
}

/** A command as one line: a `sh -c` script of many lines (comments, blank lines) reads as one sentence wherever the reason is shown. */
function oneLine(words: string[]): string {
  return words.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * For a container the simulator keeps running without knowing that it would (restartPolicy
 * Always, or a never-ending reading it cannot confirm): why that is an assumption. Undefined when
 * the run is read from the spec: a planned exit, a loop or `sleep infinity`, or an image known
 * to serve until stopped started as its image says.
 */
export function assumedRunningReason(container: Container): string | undefined {
  if (plannedExit(container) !== undefined) return undefined;
  const argv = argvOf(container);
  if (argv) return NEVER_ENDING.test(argv.join(' ')) || servesInForeground(argv) || memoryStress(container)?.timed === false ? undefined : unreadableReason(container, argv);
  if (!container.args?.length && SERVING_IMAGES.has(repositoryName(container.image))) return undefined;
  if (repositoryName(container.image) === 'agnhost' && AGNHOST_SERVERS.has(container.args?.[0] ?? '')) return undefined;
  return unreadableReason(container, argv);
}

/** `stress`'s size suffixes (`atoll_b`): b, k, m, g, powers of 1024, either case; none is bytes. */
function stressBytes(text: string | undefined): number | undefined {
  const match = /^(\d+)([bkmgBKMG]?)$/.exec(text ?? '');
  if (!match) return undefined;
  const power = 'bkmg'.indexOf(match[2].toLowerCase());
  return Number(match[1]) * 1024 ** Math.max(0, power);
}

function optionValue(argv: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (names.includes(arg)) return argv[i + 1];
    const eq = arg.indexOf('=');
    if (eq > 0 && names.includes(arg.slice(0, eq))) return arg.slice(eq + 1);
  }
  return undefined;
}

/** A memory stressor run by the container: `stress --vm 1 --vm-bytes 250M` (the docs' memory example) or `stress-ng --vm …`. */
export interface MemoryStress {
  /** What the workers keep allocated together, in bytes. */
  bytes: number;
  /** `--timeout`/`-t` given: the program ends on its own (not read by the model). */
  timed: boolean;
}

/**
 * The memory a `stress` or `stress-ng` command allocates: `--vm N` workers (`-m N`) of
 * `--vm-bytes` each (256M when absent) for `stress`; `stress-ng`'s `--vm-bytes` is shared by its
 * workers. Undefined for any other program, or a stressor without `--vm`.
 */
export function memoryStress(container: Container): MemoryStress | undefined {
  const argv = argvOf(container);
  if (!argv) return undefined;
  const program = basename(argv[0]);
  if (program !== 'stress' && program !== 'stress-ng') return undefined;
  const workers = Number(optionValue(argv, ['--vm', '-m']) ?? NaN);
  if (!Number.isInteger(workers) || workers < 0) return undefined;
  const perWorker = stressBytes(optionValue(argv, ['--vm-bytes']) ?? '256M');
  if (perWorker === undefined) return undefined;
  const count = workers === 0 ? 1 : workers;
  return { bytes: program === 'stress' ? perWorker * count : perWorker, timed: optionValue(argv, ['--timeout', '-t']) !== undefined };
}

/** A server started in the foreground, as containers start them: `nginx -g 'daemon off;'`, `redis-server`, `httpd -DFOREGROUND`. */
function servesInForeground(argv: string[]): boolean {
  const program = basename(argv[0]);
  const rest = argv.slice(1).join(' ');
  if (program === 'nginx') return /daemon off/.test(rest);
  if (program === 'httpd' || program === 'apache2') return /-DFOREGROUND/.test(rest);
  return program === 'redis-server' || program === 'memcached' || program === 'pause';
}

/** How the container's main process answers SIGTERM: the exit code, and how long it takes at most. */
export interface SigtermResponse {
  exitCode: number;
  /** ms; the pod worker jitters it. */
  withinMs: number;
}

/** Time for a program that handles SIGTERM to shut down. */
export const GRACEFUL_STOP_MS = 150;
const PROMPT_STOP: SigtermResponse = Object.freeze({ exitCode: 0, withinMs: GRACEFUL_STOP_MS });
/** `trap '<handler>' TERM` (also `SIGTERM`, `15`, among other signals). */
const TERM_TRAP = /\btrap\s+(?:'([^']*)'|"([^"]*)"|(\S+))\s+((?:[A-Z0-9]+\s*)+)/;

/**
 * A shell script's SIGTERM trap: a handler that exits ends the script with its code, once the
 * foreground command ends (a shell runs traps between commands, so a `sleep 3600` in the
 * foreground holds it; `wait` does not). Undefined without such a trap.
 */
function trappedSigterm(script: string): SigtermResponse | undefined {
  const trap = TERM_TRAP.exec(script);
  if (!trap || !/\b(SIG)?TERM\b|\b15\b/.test(trap[4])) return undefined;
  const exit = /\bexit(?:\s+(\d+))?/.exec(trap[1] ?? trap[2] ?? trap[3] ?? '');
  if (!exit) return undefined;
  if (/\bwait\b/.test(script)) return { exitCode: Number(exit[1] ?? 0) % 256, withinMs: GRACEFUL_STOP_MS };
  if (/\bsleep\s+['"]?inf/.test(script)) return undefined;
  let longestSleep = 0;
  for (const match of script.matchAll(/\bsleep\s+(\S+)/g)) longestSleep = Math.max(longestSleep, sleepMs(match[1].replace(/[;'"]/g, '')) ?? 0);
  return { exitCode: Number(exit[1] ?? 0) % 256, withinMs: longestSleep + GRACEFUL_STOP_MS };
}

/**
 * How the container's main process answers SIGTERM, or undefined when it ignores it. A shell or
 * `sleep` running as PID 1 has no handler installed, so the kubelet kills it when the grace
 * period ends (exit code 137), unless the script traps TERM with a handler that exits; images'
 * own entrypoints (nginx, redis, …) and other programs shut down cleanly (exit code 0).
 */
export function sigtermResponse(container: Container): SigtermResponse | undefined {
  const argv = argvOf(container);
  if (!argv) return PROMPT_STOP;
  const program = basename(argv[0]);
  if (SHELLS.has(program)) {
    const script = shellScript(argv);
    return script === undefined ? undefined : trappedSigterm(script);
  }
  return program === 'sleep' || program === 'tail' ? undefined : PROMPT_STOP;
}

/** Whether the container's main process exits on SIGTERM before the grace period ends. */
export function exitsOnSigterm(container: Container): boolean {
  return sigtermResponse(container) !== undefined;
}
