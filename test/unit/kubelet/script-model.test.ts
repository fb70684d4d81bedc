/** The script model's rules added for issue 11: `for` loops over fixed lists, `cat` of a written file, SIGTERM traps, memory stressors. */
import assert from 'node:assert/strict';
import type { Container } from '../../../src/core/k8s';
import { assumedRunningReason, expandForLoops, memoryStress, plannedExit, sigtermResponse } from '../../../src/sim/kubelet/container-behaviour';
import { containerLogLines } from '../../../src/sim/kubelet/container-logs';
import { exceedsMemoryLimit } from '../../../src/sim/kubelet/memory-limit';

const T0 = Date.parse('2026-01-01T12:00:00Z');
const context = { podName: 'web-0', env: new Map<string, string>(), startedAt: T0 };
const sh = (script: string): Container => ({ name: 'c', image: 'busybox', command: ['sh', '-c', script] });
const stress = (bytes: string, limit?: string): Container => ({
  name: 'memory-demo-ctr',
  image: 'polinux/stress',
  command: ['stress'],
  args: ['--vm', '1', '--vm-bytes', bytes, '--vm-hang', '1'],
  ...(limit ? { resources: { limits: { memory: limit } } } : {}),
});

describe('script model', () => {
  describe('for loops over a fixed list', () => {
    it('unrolls the loop, substituting $i and ${i}', () => {
      assert.equal(expandForLoops('for i in 1 2; do echo "$i-${i}"; done'), ' echo "1-1"; ; echo "2-2"; ');
    });

    it('runs to completion after the sleeps of every iteration, with the echo output in the logs', () => {
      const container = sh('for i in 1 2 3; do echo "tick $i"; sleep 2; done; exit 4');
      assert.deepEqual(plannedExit(container), { exitCode: 4, runMs: 6000 });
      const lines = containerLogLines(container, context, T0 + 60_000);
      assert.deepEqual(lines, [
        { time: T0, text: 'tick 1' },
        { time: T0 + 2000, text: 'tick 2' },
        { time: T0 + 4000, text: 'tick 3' },
      ]);
    });

    it('keeps a loop over a computed list unread (runs until stopped)', () => {
      assert.equal(plannedExit(sh('for f in $(ls /data); do echo $f; done')), undefined);
    });

    it('still reads while true and tail -f as never-ending, without an assumption', () => {
      for (const script of ['while true; do sleep 1; done', 'tail -f /dev/null', 'tail -F /var/log/app.log']) {
        assert.equal(plannedExit(sh(script)), undefined, script);
        assert.equal(assumedRunningReason(sh(script)), undefined, script);
      }
    });
  });

  describe('loops that never end', () => {
    it('logs the body of `while true` every time its sleeps come round, after the statements before it', () => {
      const lines = containerLogLines(sh('echo start; while true; do echo hello; sleep 10; done'), context, T0 + 25_000);
      assert.deepEqual(lines, [
        { time: T0, text: 'start' },
        { time: T0, text: 'hello' },
        { time: T0 + 10_000, text: 'hello' },
        { time: T0 + 20_000, text: 'hello' },
      ]);
    });

    it('keeps the no-output line for a loop whose body it cannot follow or that never sleeps', () => {
      for (const script of ['while true; do echo "$(date)"; sleep 1; done', 'while true; do echo busy; done']) {
        const lines = containerLogLines(sh(script), context, T0 + 5000);
        assert.equal(lines.length, 1, script);
        assert.match(lines[0].text, /cannot read/, script);
      }
    });
  });

  describe('cat of a file the script wrote', () => {
    it('shows what echo and printf wrote (> replaces, >> appends)', () => {
      const lines = containerLogLines(sh('echo first > /tmp/f; echo second >> /tmp/f; printf "x=%d\\n" 3 > /tmp/g; cat /tmp/f; sleep 1; cat /tmp/g'), context, T0 + 5000);
      assert.deepEqual(lines, [
        { time: T0, text: 'first' },
        { time: T0, text: 'second' },
        { time: T0 + 1000, text: 'x=3' },
      ]);
    });
  });

  describe('SIGTERM', () => {
    it('a shell or sleep as PID 1 ignores it; an image entrypoint stops at once', () => {
      assert.equal(sigtermResponse(sh('sleep 3600')), undefined);
      assert.equal(sigtermResponse({ name: 'c', image: 'busybox', command: ['sleep', '3600'] }), undefined);
      assert.deepEqual(sigtermResponse({ name: 'c', image: 'nginx' }), { exitCode: 0, withinMs: 150 });
    });

    it('a trap that exits ends the script once the foreground sleep ends, or at once when it waits', () => {
      assert.deepEqual(sigtermResponse(sh(`trap 'exit 0' TERM; while true; do sleep 5; done`)), { exitCode: 0, withinMs: 5150 });
      assert.deepEqual(sigtermResponse(sh(`trap "echo bye; exit 3" SIGTERM INT; sleep 3600 & wait`)), { exitCode: 3, withinMs: 150 });
      assert.equal(sigtermResponse(sh(`trap 'echo ignored' TERM; while true; do sleep 1; done`)), undefined);
      assert.equal(sigtermResponse(sh(`trap 'exit 0' INT; while true; do sleep 1; done`)), undefined);
    });
  });

  describe('memory stress', () => {
    it("reads stress's --vm workers and --vm-bytes in binary units", () => {
      assert.deepEqual(memoryStress(stress('250M')), { bytes: 250 * 1024 * 1024, timed: false });
      assert.deepEqual(memoryStress({ name: 'c', image: 'polinux/stress', command: ['stress', '-m', '2', '--vm-bytes=1g', '--timeout', '10s'] }), { bytes: 2 * 1024 ** 3, timed: true });
      assert.equal(memoryStress({ name: 'c', image: 'polinux/stress', command: ['stress', '--cpu', '1'] }), undefined);
    });

    it('exceeds a 100Mi limit with 250M, not a 200Mi limit with 150M, nor without a limit', () => {
      assert.equal(exceedsMemoryLimit(stress('250M', '100Mi')), true);
      assert.equal(exceedsMemoryLimit(stress('150M', '200Mi')), false);
      assert.equal(exceedsMemoryLimit(stress('250M')), false);
    });

    it('reads an untimed stressor as running until stopped', () => {
      assert.equal(assumedRunningReason(stress('150M', '200Mi')), undefined);
    });
  });
});
