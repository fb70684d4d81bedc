/**
 * Run-to-completion containers whose program the simulator cannot read: assumed to exit 0 after
 * about ASSUMED_RUN_MS, and the assumption is recorded for the tracer.
 */
import assert from 'node:assert/strict';
import type { Container, KubeObject } from '../../../src/core/k8s';
import { ASSUMED_RUN_MS, assumedExit } from '../../../src/sim/kubelet/container-behaviour';
import type { PodObject } from '../../../src/sim/controllers/controller-types';
import { Simulator } from '../../../src/sim/simulator';
import type { AssumedExit } from '../../../src/core/internals';
import type { BoundedInternalsLog } from '../../../src/sim/internals-log';

const assumedExits = (log: BoundedInternalsLog): AssumedExit[] => log.snapshot().steps.filter((step): step is AssumedExit => step.type === 'assumedExit');

const container = (command?: string[]): Container => ({ name: 'main', image: 'perl:5.34.0', ...(command ? { command } : {}) });

function pod(name: string, restartPolicy: string, command: string[]): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { restartPolicy, containers: [{ name: 'main', image: 'perl:5.34.0', command }] } };
}

describe('assumed exits of run-to-completion containers', () => {
  it('assumes a clean exit for an unreadable command or the image entrypoint', () => {
    assert.deepEqual(assumedExit(container(['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'])), {
      exitCode: 0,
      runMs: ASSUMED_RUN_MS,
      reason: 'command not readable by the simulator: perl -Mbignum=bpi -wle print bpi(2000)',
    });
    assert.equal(assumedExit(container())?.reason, 'no command: the image entrypoint is not readable by the simulator');
  });

  it('assumes nothing where the exit can be read or the command reads as never-ending', () => {
    assert.equal(assumedExit(container(['sh', '-c', 'sleep 5; exit 3'])), undefined);
    assert.equal(assumedExit(container(['sh', '-c', 'while true; do sleep 1; done'])), undefined);
    assert.equal(assumedExit(container(['sleep', 'infinity'])), undefined);
    assert.equal(assumedExit(container(['tail', '-f', '/dev/null'])), undefined);
    // The docs' legacy sidecar: `tail -F` follows the file by name, forever too.
    assert.equal(assumedExit(container(['sh', '-c', 'tail -F /opt/logs.txt'])), undefined);
  });

  it('ends a restartPolicy Never pod as Succeeded and records the assumption with the reporting version', () => {
    const sim = new Simulator({ seed: 3 });
    sim.store.create('Pod', pod('calc', 'Never', ['perl', '-e', 'print 1']));
    const phase = (): string | undefined => sim.store.get<PodObject>('Pod', 'default', 'calc')?.status?.phase;
    assert.equal(sim.runUntil(() => phase() === 'Succeeded', 120_000), 'done');
    const [assumption] = assumedExits(sim.internals);
    assert.equal(assumption.object.name, 'calc');
    assert.equal(assumption.exitCode, 0);
    assert.ok(assumption.runMs >= ASSUMED_RUN_MS * 0.7 && assumption.runMs <= ASSUMED_RUN_MS * 1.3);
    const etcdVersions = sim.internals.snapshot().steps.filter((step) => step.type === 'etcdWrite' && step.object.name === 'calc').map((step) => (step.type === 'etcdWrite' ? step.resourceVersion : ''));
    assert.ok(etcdVersions.includes(assumption.resourceVersion), 'names a version the pod was written at');
  });

  it('leaves a restartPolicy Always pod with the same command running', () => {
    const sim = new Simulator({ seed: 3 });
    sim.store.create('Pod', pod('server', 'Always', ['perl', '-e', 'print 1']));
    sim.runUntil(() => false, 120_000);
    assert.equal(sim.store.get<PodObject>('Pod', 'default', 'server')?.status?.phase, 'Running');
    assert.equal(assumedExits(sim.internals).length, 0);
  });
});
