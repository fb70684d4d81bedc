/**
 * What a liveness, readiness or startup probe sees at a moment of a container's run, read from the
 * container behaviour model (docs/simulator-failures.md, "Probes"):
 * - exec probes see the files the script creates and removes (`touch /tmp/healthy; sleep 30;
 *   rm -f /tmp/healthy`), through `cat`, `test -e|-f` and `ls`;
 * - HTTP and TCP probes reach the ports the image serves (nginx on 80, the docs' `agnhost
 *   liveness` answering 200 for 10 s and then 500, goproxy on 8080, …); a port a known image does
 *   not serve refuses the connection.
 * Anything else cannot be evaluated: the probe is assumed to succeed, and says so.
 */
import type { Container, Probe } from '../../core/k8s';
import { readableStatements, repositoryName, withoutRedirection } from './container-behaviour';
import { shellWords } from './container-logs';

export type ProbeOutcome = { ok: true; assumed?: string } | { ok: false; output: string };

interface FileChange {
  /** ms after the container started. */
  at: number;
  path: string;
  exists: boolean;
}

function sleepMs(arg: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg ?? '');
  if (!match) return 0;
  const unit = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2]] ?? 1000;
  return Math.round(Number(match[1]) * unit);
}

const NO_ENV: ReadonlyMap<string, string> = new Map();

/** The files the script creates and removes, with when; undefined when the script cannot be read. */
export function fileChanges(container: Container): FileChange[] | undefined {
  const statements = readableStatements(container);
  if (!statements) return undefined;
  const changes: FileChange[] = [];
  let at = 0;
  for (const statement of statements) {
    const written = shellWords(statement, NO_ENV);
    const words = withoutRedirection(written);
    const redirect = written.slice(words.length).join('').replace(/^>>?/, '');
    if (redirect) changes.push({ at, path: redirect, exists: true });
    const program = (words[0] ?? '').slice((words[0] ?? '').lastIndexOf('/') + 1);
    const operands = words.slice(1).filter((word) => !word.startsWith('-'));
    if (program === 'sleep') at += sleepMs(words[1]);
    else if (program === 'touch' || program === 'mkdir') for (const path of operands) changes.push({ at, path, exists: true });
    else if (program === 'rm' || program === 'rmdir') for (const path of operands) changes.push({ at, path, exists: false });
    else if (program === 'exit') break;
  }
  return changes;
}

function fileExists(changes: readonly FileChange[], path: string, sinceStartMs: number): boolean {
  let exists = false;
  for (const change of changes) if (change.path === path && change.at <= sinceStartMs) exists = change.exists;
  return exists;
}

/** The moments (ms after start) where an exec probe's answer may change. */
export function fileChangeTimes(container: Container): number[] {
  return [...new Set((fileChanges(container) ?? []).map((change) => change.at))];
}

interface ServedPort {
  port: number;
  /** HTTP status for a path, `sinceStartMs` after the container started; absent for plain TCP servers. */
  http?: (path: string, sinceStartMs: number) => number;
}

const STATIC_SITE = (path: string): number => (path === '/' || path === '/index.html' ? 200 : 404);
const ALWAYS_OK = (): number => 200;

/** The ports the images the simulator knows serve, as their own entrypoints start them. */
function servedPorts(container: Container): ServedPort[] | undefined {
  const name = repositoryName(container.image);
  const args = container.args ?? [];
  switch (name) {
    case 'nginx':
    case 'nginx-slim':
    case 'httpd':
      return container.command?.length ? undefined : [{ port: 80, http: STATIC_SITE }];
    case 'agnhost':
      // The docs' liveness server: /healthz answers 200 for 10 s, then 500.
      if (args[0] === 'liveness') return [{ port: 8080, http: (path, since) => (path === '/healthz' ? (since < 10_000 ? 200 : 500) : 404) }];
      if (args[0] === 'netexec') return [{ port: Number(/--http-port[= ](\d+)/.exec(args.join(' '))?.[1] ?? 8080), http: ALWAYS_OK }];
      if (args[0] === 'serve-hostname') return [{ port: 9376, http: ALWAYS_OK }];
      return undefined;
    case 'goproxy':
      return [{ port: 8080 }];
    case 'kubernetes-bootcamp':
    case 'hello-app':
      return [{ port: 8080, http: ALWAYS_OK }];
    case 'redis':
      return [{ port: 6379 }];
    case 'memcached':
      return [{ port: 11211 }];
    case 'mysql':
    case 'mariadb':
      return [{ port: 3306 }];
    case 'postgres':
      return [{ port: 5432 }];
    default:
      return undefined;
  }
}

/** A probe's port: a number, or the name of one of the container's ports. */
function resolvePort(port: number | string | undefined, container: Container): number | undefined {
  if (typeof port === 'number') return port;
  if (port === undefined) return undefined;
  if (/^\d+$/.test(port)) return Number(port);
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function assumedOk(reason: string): ProbeOutcome {
  return { ok: true, assumed: reason };
}

function execOutcome(command: string[], container: Container, sinceStartMs: number): ProbeOutcome {
  const words = command.length >= 3 && /(^|\/)(ba)?sh$/.test(command[0]) && command[1] === '-c' ? shellWords(command[2], NO_ENV) : command;
  const program = (words[0] ?? '').slice((words[0] ?? '').lastIndexOf('/') + 1);
  const operands = words.slice(1).filter((word) => !word.startsWith('-'));
  const readsFile = program === 'cat' || program === 'ls' || program === 'test' || program === '[';
  const changes = readsFile && operands.length > 0 ? fileChanges(container) : undefined;
  if (!changes) return assumedOk(`the simulator cannot evaluate exec probe: ${command.join(' ')}`);
  const path = operands[operands.length - 1] === ']' ? operands[operands.length - 2] : operands[operands.length - 1];
  if (fileExists(changes, path, sinceStartMs)) return { ok: true };
  if (program === 'cat') return { ok: false, output: `cat: can't open '${path}': No such file or directory\n` };
  if (program === 'ls') return { ok: false, output: `ls: ${path}: No such file or directory\n` };
  return { ok: false, output: '' };
}

/**
 * The probe's answer `sinceStartMs` after the container started. `podIP` goes into the
 * connection errors as the prober writes them.
 */
export function probeOutcome(probe: Probe, container: Container, podIP: string, sinceStartMs: number): ProbeOutcome {
  if (probe.exec?.command) return execOutcome(probe.exec.command, container, sinceStartMs);
  const served = servedPorts(container);
  if (probe.httpGet) {
    const port = resolvePort(probe.httpGet.port, container);
    const path = probe.httpGet.path || '/';
    const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
    if (!served || port === undefined) return assumedOk(`the simulator cannot evaluate HTTP probe on port ${String(probe.httpGet.port)} of image ${container.image ?? ''}`);
    const target = served.find((p) => p.port === port);
    const host = probe.httpGet.host || podIP;
    if (!target) return { ok: false, output: `Get "${scheme}://${host}:${port}${path}": dial tcp ${host}:${port}: connect: connection refused` };
    if (!target.http) return { ok: false, output: `Get "${scheme}://${host}:${port}${path}": net/http: HTTP/1.x transport connection broken: malformed HTTP response` };
    const status = target.http(path, sinceStartMs);
    return status >= 200 && status < 400 ? { ok: true } : { ok: false, output: `HTTP probe failed with statuscode: ${status}` };
  }
  if (probe.tcpSocket) {
    const port = resolvePort(probe.tcpSocket.port, container);
    if (!served || port === undefined) return assumedOk(`the simulator cannot evaluate TCP probe on port ${String(probe.tcpSocket.port)} of image ${container.image ?? ''}`);
    const host = probe.tcpSocket.host || podIP;
    return served.some((p) => p.port === port) ? { ok: true } : { ok: false, output: `dial tcp ${host}:${port}: connect: connection refused` };
  }
  return assumedOk('the simulator cannot evaluate gRPC probes');
}

/** When the probe's answer may change (ms after start), so a prober can stop once nothing will. */
export function outcomeChangeTimes(probe: Probe, container: Container): number[] {
  if (probe.exec) return fileChangeTimes(container);
  if (repositoryName(container.image) === 'agnhost' && container.args?.[0] === 'liveness') return [10_000];
  return [];
}
