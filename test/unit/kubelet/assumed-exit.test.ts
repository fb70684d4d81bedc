/**
 * Run-to-completion containers whose program the simulator cannot read: assumed to exit 0 after
 * about ASSUMED_RUN_MS, and the assumption is recorded for the tracer.
 */
import assert from 'node:assert/strict';
import type { Container, KubeObject } from '../../../src/core/k8s';
import { ASSUMED_RUN_MS, assumedExit } from '../../../src/sim/kubelet/container-behaviour';
import type { PodObject } from '../../../src/sim/controllers/controller-types';
import { Simulator } from '../../../src/sim/simulator';
import type { AssumedExit, AssumedRunning } from '../../../src/core/internals';
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
    const worker: Container = { name: 'main', image: 'registry.example/batch/worker:1' };
    assert.equal(assumedExit(worker)?.reason, 'no command: the entrypoint of image registry.example/batch/worker:1 is not readable by the simulator');
    assert.equal(assumedExit({ ...worker, args: ['--shard', '3'] })?.reason, 'the entrypoint of image registry.example/batch/worker:1 with args --shard 3 is not readable by the simulator');
  });

  it('gives a script of many lines as one line in its reason', () => {
    const script = '# fetch the page\nwget -O /work/index.html http://$(hostname)/\n\n  gzip /work/index.html\n';
    assert.equal(assumedExit(container(['sh', '-c', script]))?.reason, 'command not readable by the simulator: sh -c # fetch the page wget -O /work/index.html http://$(hostname)/ gzip /work/index.html');
    assert.equal(assumedExit({ name: 'main', image: 'registry.example/w:1', args: ['--from\n', 'a'] })?.reason, 'the entrypoint of image registry.example/w:1 with args --from a is not readable by the simulator');
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

  it('records that it assumed the run of a kept-running container it cannot read, once, and nothing for nginx', () => {
    const sim = new Simulator({ seed: 3 });
    sim.store.create('Pod', pod('server', 'Always', ['perl', '-e', 'print 1']));
    sim.store.create('Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } });
    sim.runUntil(() => false, 60_000);
    const runs = sim.internals.snapshot().steps.filter((step): step is AssumedRunning => step.type === 'assumedRunning');
    assert.deepEqual(runs.map((step) => [step.object.name, step.container, step.reason]), [['server', 'main', 'command not readable by the simulator: perl -e print 1']]);
    const etcdVersions = sim.internals.snapshot().steps.filter((step) => step.type === 'etcdWrite' && step.object.name === 'server').map((step) => (step.type === 'etcdWrite' ? step.resourceVersion : ''));
    assert.ok(etcdVersions.includes(runs[0].resourceVersion), 'names a version the pod was written at');
  });
});
