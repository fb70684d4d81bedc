/**
 * What a simulated container writes to stdout, for `kubectl logs`: the output of the one-shot
 * statements the script model follows (`echo`, `printf`, `date`, `env`, `hostname`…), timed by
 * the sleeps between them on the virtual clock. A program the model cannot read writes one plain
 * line saying the simulator has no output for it (docs/simulator-failures.md, "Logs").
 */
import type { Container } from '../../core/k8s';
import { endlessLoop, readableStatements, sleepMs as sleepDuration, withoutRedirection, type EndlessLoop } from './container-behaviour';

export interface LogLine {
  /** When the line was written, in ms of the virtual clock. */
  time: number;
  text: string;
}

/** What the container's output depends on besides its spec. */
export interface LogContext {
  podName: string;
  /** The container's environment as the kubelet gives it (literal values and resolved references). */
  env: ReadonlyMap<string, string>;
  /** When the process started, in ms of the virtual clock. */
  startedAt: number;
}

/** `date`'s default format in the C locale, as busybox and coreutils print it: `Thu Jan  1 12:00:05 UTC 2026`. */
function dateOutput(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** Shell words of a statement: quotes removed, `$VAR` and `${VAR}` expanded outside single quotes. */
export function shellWords(statement: string, env: ReadonlyMap<string, string>): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < statement.length; i++) {
    const ch = statement[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else current += ch;
      continue;
    }
    if (ch === '\\' && i + 1 < statement.length) {
      // Inside double quotes a backslash escapes only $ ` " and itself; elsewhere it stays.
      const next = statement[i + 1];
      if (quote === '"' && !'$`"\\'.includes(next)) current += ch;
      else current += statement[++i];
      inWord = true;
      continue;
    }
    if (ch === '"') {
      quote = quote === '"' ? undefined : '"';
      inWord = true;
      continue;
    }
    if (ch === "'" && !quote) {
      quote = "'";
      inWord = true;
      continue;
    }
    if (ch === '$') {
      const match = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(statement.slice(i));
      if (match) {
        current += env.get(match[1] ?? match[2]) ?? '';
        i += match[0].length - 1;
        inWord = true;
        continue;
      }
    }
    if (!quote && /\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      continue;
    }
    current += ch;
    inWord = true;
  }
  if (inWord) words.push(current);
  return words;
}

/** `printf FORMAT ARGS…`, reduced to `%s`, `%d`, `%%` and the escapes `\n` and `\t`. */
function printfOutput(args: string[]): string {
  let index = 1;
  const format = args[0] ?? '';
  const expanded = format.replace(/%([sd%])/g, (_, conversion: string) => (conversion === '%' ? '%' : (args[index++] ?? (conversion === 'd' ? '0' : ''))));
  return expanded.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}

function echoOutput(args: string[]): string {
  let rest = args;
  let newline = true;
  let escapes = false;
  while (rest[0] === '-n' || rest[0] === '-e') {
    if (rest[0] === '-n') newline = false;
    else escapes = true;
    rest = rest.slice(1);
  }
  const text = rest.join(' ');
  return (escapes ? text.replace(/\\n/g, '\n').replace(/\\t/g, '\t') : text) + (newline ? '\n' : '');
}

function sleepMs(arg: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg ?? '');
  if (!match) return 0;
  const unit = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2]] ?? 1000;
  return Math.round(Number(match[1]) * unit);
}

/** An endless loop's statements, its body repeated as often as `forMs` of its sleeps allow (and once more). */
function repeated(loop: EndlessLoop, forMs: number): string[] {
  const bodyMs = loop.body.reduce((sum, statement) => {
    const [program, operand] = statement.split(/\s+/);
    return sum + (program.slice(program.lastIndexOf('/') + 1) === 'sleep' ? (sleepDuration(operand) ?? 0) : 0);
  }, 0);
  const rounds = Math.min(Math.floor(Math.max(0, forMs) / bodyMs) + 1, MAX_LOOP_ROUNDS);
  const statements = [...loop.before];
  for (let round = 0; round < rounds; round++) statements.push(...loop.body);
  return statements;
}

/** The most rounds of an endless loop the logs replay (a day of a 1 s loop), so a log read stays bounded. */
const MAX_LOOP_ROUNDS = 86_400;

/** The line the logs show for a program the simulator cannot read. */
export function noOutputLine(container: Container): string {
  return `[kube-journey simulator] container ${container.name} runs a program the simulator cannot read (${describeProgram(container)}): it has no output to show for it.`;
}

function describeProgram(container: Container): string {
  const argv = [...(container.command ?? []), ...(container.args ?? [])];
  return argv.length > 0 ? argv.join(' ') : `the entrypoint of image ${container.image ?? ''}`;
}

/**
 * The lines the container wrote from its start up to `until` (ms of the virtual clock). Output
 * without a trailing newline joins the next write, as a terminal shows it.
 */
export function containerLogLines(container: Container, context: LogContext, until: number): LogLine[] {
  const loop = endlessLoop(container);
  const statements = readableStatements(container) ?? (loop && repeated(loop, until - context.startedAt));
  if (!statements) return [{ time: context.startedAt, text: noOutputLine(container) }];
  const lines: LogLine[] = [];
  let time = context.startedAt;
  let pending = '';
  const write = (output: string): void => {
    const parts = (pending + output).split('\n');
    pending = parts.pop() ?? '';
    for (const text of parts) lines.push({ time, text });
  };
  /** What the script wrote to files, so a later `cat` of one shows it. */
  const files = new Map<string, string>();
  for (const statement of statements) {
    if (time > until) break;
    const written = shellWords(statement, context.env);
    const words = withoutRedirection(written);
    if (words.length === 0) continue;
    const program = words[0].slice(words[0].lastIndexOf('/') + 1);
    const args = words.slice(1);
    if (program === 'exit') break;
    if (words.length < written.length) {
      // Output sent to a file is not the container's log, but the file keeps it.
      const target = written.slice(words.length).join('');
      const path = target.replace(/^>>?/, '');
      const output = program === 'echo' ? echoOutput(args) : program === 'printf' ? printfOutput(args) : program === 'cat' ? args.map((file) => files.get(file) ?? '').join('') : '';
      files.set(path, (target.startsWith('>>') ? (files.get(path) ?? '') : '') + output);
      continue;
    }
    if (program === 'sleep') time += sleepMs(args[0]);
    else if (program === 'cat') for (const file of args) write(files.get(file) ?? '');
    else if (program === 'echo') write(echoOutput(args));
    else if (program === 'printf') write(printfOutput(args));
    else if (program === 'date') write(`${dateOutput(time)}\n`);
    else if (program === 'hostname') write(`${context.podName}\n`);
    else if (program === 'whoami') write('root\n');
    else if (program === 'pwd') write('/\n');
    else if (program === 'uname') write(args.includes('-a') ? `Linux ${context.podName} 6.8.0 #1 SMP x86_64 GNU/Linux\n` : 'Linux\n');
    else if (program === 'env' || program === 'printenv') {
      if (args.length > 0) for (const name of args) write(context.env.has(name) ? `${context.env.get(name)}\n` : '');
      else for (const [name, value] of context.env) write(`${name}=${value}\n`);
    }
  }
  if (pending && time <= until) lines.push({ time, text: pending });
  return lines.filter((line) => line.time <= until);
}
