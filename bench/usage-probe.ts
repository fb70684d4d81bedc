/**
 * Preloaded (`--require`) into every Node process a user-path benchmark starts, grandchildren
 * included since NODE_OPTIONS passes it down: as the process exits, writes its own resource usage
 * (peak RSS, CPU, uptime) to `<pid>.json` in the folder KUBE_JOURNEY_BENCH_USAGE_DIR names. CI
 * machines need not have /usr/bin/time, and only the process itself knows its exact figures.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProbeRecord } from './process-usage';

const folder = process.env.KUBE_JOURNEY_BENCH_USAGE_DIR;
if (folder) {
  process.on('exit', (exitCode) => {
    const usage = process.resourceUsage();
    const record: ProbeRecord = {
      pid: process.pid,
      ppid: process.ppid,
      argv: process.argv.slice(1),
      exitCode,
      uptimeMs: Math.round(process.uptime() * 1000),
      maxRssKiB: usage.maxRSS,
      userCpuUs: usage.userCPUTime,
      systemCpuUs: usage.systemCPUTime,
      heapUsedBytes: process.memoryUsage().heapUsed,
    };
    writeFileSync(join(folder, `${process.pid}.json`), JSON.stringify(record));
  });
}
