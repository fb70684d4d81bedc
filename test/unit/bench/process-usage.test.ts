import assert from 'node:assert/strict';
import { mergeUsage, parseCmdline, parseProbeRecord, parseStat, parseVmHwmKiB, type ProbeRecord, type ProcSample } from '../../../bench/process-usage';

const STATUS = 'Name:\tnode\nVmPeak:\t 1234567 kB\nVmHWM:\t  2611208 kB\nVmRSS:\t  2500000 kB\n';

describe('bench process usage', () => {
  it('reads the peak resident set (VmHWM), not the current one or the virtual peak', () => {
    assert.equal(parseVmHwmKiB(STATUS), 2611208);
    assert.equal(parseVmHwmKiB('Name:\tnode\nVmRSS:\t 10 kB\n'), undefined);
  });

  it('counts stat fields after the last parenthesis, so a command name with spaces and parentheses does not shift them', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const stat = '4242 (node (x) y) S 4200 4242 4242 0 -1 4194304 100 0 0 0 1425 577 0 0 20 0 11 0';
    assert.deepEqual(parseStat(stat), { ppid: 4200, cpuTicks: 1425 + 577 });
    assert.equal(parseStat('garbage'), undefined);
  });

  it('drops the executable from a NUL-separated command line', () => {
    const cmdline = `${['/usr/bin/node', '/app/dist/simulator-server.js', '--nodes', '1000'].join('\u0000')}\u0000`;
    assert.deepEqual(parseCmdline(cmdline), ['/app/dist/simulator-server.js', '--nodes', '1000']);
  });

  it('accepts a complete probe record and refuses one missing a figure', () => {
    const record: ProbeRecord = { pid: 7, ppid: 1, argv: ['x.js'], exitCode: 0, uptimeMs: 1500, maxRssKiB: 2048, userCpuUs: 900_000, systemCpuUs: 100_000, heapUsedBytes: 10 };
    assert.deepEqual(parseProbeRecord(JSON.stringify(record)), record);
    const { maxRssKiB: _dropped, ...partial } = record;
    assert.equal(parseProbeRecord(JSON.stringify(partial)), undefined);
    assert.equal(parseProbeRecord('{"pid":'), undefined);
  });

  it('prefers a process exit record to /proc samples, and keeps samples of processes that left none', () => {
    const samples: ProcSample[] = [
      { pid: 20, ppid: 10, argv: ['sim.js'], firstSeenMs: 100, lastSeenMs: 4100, peakRssKiB: 3000, cpuTicks: 250 },
      { pid: 10, ppid: 1, argv: ['host.js'], firstSeenMs: 0, lastSeenMs: 5000, peakRssKiB: 1000, cpuTicks: 100 },
    ];
    const probe: ProbeRecord = { pid: 10, ppid: 1, argv: ['host.js'], exitCode: 0, uptimeMs: 5100, maxRssKiB: 1100, userCpuUs: 1_200_000, systemCpuUs: 300_000, heapUsedBytes: 42 };
    const usage = mergeUsage(samples, [probe], 100);
    assert.deepEqual(
      usage.map((u) => [u.pid, u.source, u.wallMs, u.cpuMs, u.peakRssKiB]),
      [
        [10, 'exit', 5100, 1500, 1100],
        [20, 'sampled', 4000, 2500, 3000],
      ],
    );
    assert.equal(usage[0].heapUsedBytes, 42);
  });
});
