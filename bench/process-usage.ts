/**
 * What one process of a benchmark run cost: read from the record the preloaded probe
 * (bench/usage-probe.ts) wrote as the process exited, which is exact, or else from the last
 * /proc sample taken while it ran (a process killed or aborted by V8 runs no exit handler).
 */

/** Written by bench/usage-probe.ts as `<pid>.json` in the folder KUBE_JOURNEY_BENCH_USAGE_DIR names. */
export interface ProbeRecord {
  pid: number;
  ppid: number;
  /** process.argv without the executable. */
  argv: string[];
  exitCode: number;
  uptimeMs: number;
  /** process.resourceUsage().maxRSS (KiB). */
  maxRssKiB: number;
  userCpuUs: number;
  systemCpuUs: number;
  heapUsedBytes: number;
}

/** One process as /proc showed it at the last sample. */
export interface ProcSample {
  pid: number;
  ppid: number;
  argv: string[];
  firstSeenMs: number;
  lastSeenMs: number;
  peakRssKiB: number;
  cpuTicks: number;
}

export interface ProcessUsage {
  pid: number;
  ppid: number;
  argv: string[];
  wallMs: number;
  cpuMs: number;
  peakRssKiB: number;
  heapUsedBytes?: number;
  /** `exit`: from the probe's exit record; `sampled`: from /proc while it ran (it ended without one). */
  source: 'exit' | 'sampled';
}

/** VmHWM (peak resident set) of a /proc/<pid>/status text, in KiB. */
export function parseVmHwmKiB(status: string): number | undefined {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) : undefined;
}

/**
 * The parent pid and user + system CPU clock ticks of a /proc/<pid>/stat line. The command name
 * (field 2) is in parentheses and may hold spaces and parentheses itself: fields are counted
 * from the last `)`.
 */
export function parseStat(stat: string): { ppid: number; cpuTicks: number } | undefined {
  const end = stat.lastIndexOf(')');
  if (end < 0) return undefined;
  // Fields 3 onwards: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime.
  const fields = stat.slice(end + 2).trim().split(/\s+/);
  const ppid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (![ppid, utime, stime].every(Number.isInteger)) return undefined;
  return { ppid, cpuTicks: utime + stime };
}

/** /proc/<pid>/cmdline (NUL-separated) without the executable. */
export function parseCmdline(cmdline: string): string[] {
  return cmdline.split('\0').filter((part) => part.length > 0).slice(1);
}

export function parseProbeRecord(text: string): ProbeRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const numbers = ['pid', 'ppid', 'exitCode', 'uptimeMs', 'maxRssKiB', 'userCpuUs', 'systemCpuUs', 'heapUsedBytes'];
  if (!numbers.every((key) => typeof v[key] === 'number') || !Array.isArray(v.argv) || !v.argv.every((a) => typeof a === 'string')) return undefined;
  return value as ProbeRecord;
}

/** Every process seen, exit records first-hand and samples for those that left none; in order of pid. */
export function mergeUsage(samples: Iterable<ProcSample>, probes: readonly ProbeRecord[], ticksPerSecond: number): ProcessUsage[] {
  const byPid = new Map<number, ProcessUsage>();
  for (const s of samples) {
    byPid.set(s.pid, { pid: s.pid, ppid: s.ppid, argv: s.argv, wallMs: s.lastSeenMs - s.firstSeenMs, cpuMs: (s.cpuTicks / ticksPerSecond) * 1000, peakRssKiB: s.peakRssKiB, source: 'sampled' });
  }
  for (const p of probes) {
    byPid.set(p.pid, { pid: p.pid, ppid: p.ppid, argv: p.argv, wallMs: p.uptimeMs, cpuMs: (p.userCpuUs + p.systemCpuUs) / 1000, peakRssKiB: p.maxRssKiB, heapUsedBytes: p.heapUsedBytes, source: 'exit' });
  }
  return [...byPid.values()].sort((a, b) => a.pid - b.pid);
}
