/**
 * Runs one command in a fresh process and measures it and every process it starts: the probe
 * (bench/usage-probe.ts, bundled to dist/bench-usage-probe.js) is preloaded through NODE_OPTIONS,
 * and /proc is sampled meanwhile for processes that end without running their exit handler.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mergeUsage, parseCmdline, parseProbeRecord, parseStat, parseVmHwmKiB, type ProbeRecord, type ProcessUsage, type ProcSample } from './process-usage';

export const USAGE_PROBE_BUNDLE = 'dist/bench-usage-probe.js';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks (100 on every common kernel). */
const TICKS_PER_SECOND = 100;
const SAMPLE_EVERY_MS = 100;

export interface MeasureOptions {
  command: string;
  args: string[];
  /** Where stdout goes: a file path (`/dev/null` too), or `capture` to keep it (small outputs only). */
  stdout: string;
  /** Killed (SIGKILL, with every process it started) after this long. */
  timeoutMs: number;
}

export interface MeasuredRun {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** From spawn to exit, as the parent saw it. */
  wallMs: number;
  stdout: string;
  /** The last lines the process wrote to stderr. */
  stderrTail: string[];
  /** The process itself first, then those it started, in order of pid. */
  processes: ProcessUsage[];
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** The pid and every descendant still alive. */
function processTree(root: number): number[] {
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    out.push(pid);
    for (const task of readdirSafe(`/proc/${pid}/task`)) {
      const children = readProc(pid, `task/${task}/children`);
      if (children) queue.push(...children.trim().split(/\s+/).filter(Boolean).map(Number));
    }
  }
  return out;
}

function readdirSafe(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function sample(root: number, samples: Map<number, ProcSample>, now: number): void {
  for (const pid of processTree(root)) {
    const stat = readProc(pid, 'stat');
    const status = readProc(pid, 'status');
    const parsed = stat ? parseStat(stat) : undefined;
    const peak = status ? parseVmHwmKiB(status) : undefined;
    if (!parsed || peak === undefined) continue;
    const known = samples.get(pid);
    if (known) {
      known.lastSeenMs = now;
      known.peakRssKiB = Math.max(known.peakRssKiB, peak);
      known.cpuTicks = parsed.cpuTicks;
    } else {
      samples.set(pid, { pid, ppid: parsed.ppid, argv: parseCmdline(readProc(pid, 'cmdline') ?? ''), firstSeenMs: now, lastSeenMs: now, peakRssKiB: peak, cpuTicks: parsed.cpuTicks });
    }
  }
}

function readProbes(folder: string): ProbeRecord[] {
  return readdirSafe(folder)
    .map((name) => parseProbeRecord(readFileSync(join(folder, name), 'utf8')))
    .filter((record): record is ProbeRecord => record !== undefined);
}

export async function measureProcess(options: MeasureOptions): Promise<MeasuredRun> {
  const usageFolder = mkdtempSync(join(tmpdir(), 'kube-journey-bench-usage-'));
  const probe = resolve(USAGE_PROBE_BUNDLE);
  const env = { ...process.env, KUBE_JOURNEY_BENCH_USAGE_DIR: usageFolder, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${probe}`.trim() };
  const outFd = options.stdout === 'capture' ? undefined : openSync(options.stdout, 'w');
  const samples = new Map<number, ProcSample>();
  const start = performance.now();
  try {
    // detached: its own process group, so a timeout kills everything it started.
    const child = spawn(options.command, options.args, { env, stdio: ['ignore', outFd ?? 'pipe', 'pipe'], detached: true });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const stderrTail: string[] = [];
    let partial = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      stderrTail.push(...lines);
      stderrTail.splice(0, Math.max(0, stderrTail.length - 40));
    });
    let timedOut = false;
    const sampler = setInterval(() => sample(child.pid!, samples, performance.now()), SAMPLE_EVERY_MS);
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, options.timeoutMs);
    const [exitCode, signal] = await new Promise<[number | null, string | null]>((done, fail) => {
      child.once('error', fail);
      child.once('close', (code, sig) => done([code, sig]));
    });
    const wallMs = performance.now() - start;
    clearInterval(sampler);
    clearTimeout(timer);
    if (partial) stderrTail.push(partial);
    const processes = mergeUsage(samples.values(), readProbes(usageFolder), TICKS_PER_SECOND);
    const own = processes.filter((p) => p.pid === child.pid);
    return { exitCode, signal, timedOut, wallMs, stdout, stderrTail, processes: [...own, ...processes.filter((p) => p.pid !== child.pid)] };
  } finally {
    if (outFd !== undefined) closeSync(outFd);
    rmSync(usageFolder, { recursive: true, force: true });
  }
}
