/** The script model's output for `kubectl logs`: words, expansions, timing by sleeps, unreadable programs. */
import assert from 'node:assert/strict';
import type { Container } from '../../../src/core/k8s';
import { containerLogLines, shellWords } from '../../../src/sim/kubelet/container-logs';

const T0 = Date.parse('2026-01-01T12:00:00Z');
const env = new Map([['NAME', 'Kubernetes'], ['EMPTY', '']]);
const context = { podName: 'web-0', env, startedAt: T0 };
const sh = (script: string): Container => ({ name: 'c', image: 'busybox', command: ['sh', '-c', script] });

describe('container logs of the script model', () => {
  it('splits shell words with quotes, escapes and $VAR / ${VAR} expansion (none inside single quotes)', () => {
    assert.deepEqual(shellWords(`echo "Hello, $NAME!" '$NAME' \${NAME}x a\\ b "$MISSING"`, env), ['echo', 'Hello, Kubernetes!', '$NAME', 'Kubernetesx', 'a b', '']);
  });

  it('times each line by the sleeps before it, and stops at the clock', () => {
    const lines = containerLogLines(sh('echo one; sleep 5; echo two; sleep 10; echo three'), context, T0 + 6000);
    assert.deepEqual(lines, [{ time: T0, text: 'one' }, { time: T0 + 5000, text: 'two' }]);
  });

  it('prints date in the C locale, hostname as the pod name, printf formats and echo -n joining the next write', () => {
    const lines = containerLogLines(sh('sleep 65; date; hostname; printf "%s=%d\\n" x 7; echo -n "no newline "; echo then'), context, T0 + 100_000);
    assert.deepEqual(lines.map((l) => l.text), ['Thu Jan  1 12:01:05 UTC 2026', 'web-0', 'x=7', 'no newline then']);
  });

  it('reads a bare program as one statement, and stops at exit', () => {
    assert.deepEqual(containerLogLines({ name: 'c', image: 'busybox', command: ['echo', 'a b'] }, context, T0).map((l) => l.text), ['a b']);
    assert.deepEqual(containerLogLines(sh('echo before; exit 3; echo after'), context, T0).map((l) => l.text), ['before']);
  });

  it('writes one plain line for a program it cannot read', () => {
    const [line, ...rest] = containerLogLines({ name: 'web', image: 'nginx:1.25' }, context, T0 + 60_000);
    assert.equal(rest.length, 0);
    assert.equal(line.text, '[kube-journey simulator] container web runs a program the simulator cannot read (the entrypoint of image nginx:1.25): it has no output to show for it.');
  });
});
