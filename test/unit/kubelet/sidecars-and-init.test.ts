/**
 * Init containers and sidecars (init containers with restartPolicy Always) through the simulator:
 * Initialized only after the last init container completes, sidecars started in order and kept
 * running, counted in READY, stopped after the containers, and a Job's pod with a sidecar finishing.
 */
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';
import { printPod } from '../../../src/server/printers/pod';

type PodObject = Pod & KubeObject;

function pod(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec };
}

const get = (sim: Simulator, name: string): PodObject => sim.store.get<PodObject>('Pod', 'default', name)!;
const conditionOf = (p: PodObject, type: string): string | undefined => p.status?.conditions?.find((c) => c.type === type)?.status;

describe('init containers and sidecars in the simulated kubelet', () => {
  it('is Initialized only once the last init container has completed', () => {
    const sim = new Simulator({ seed: 5 });
    sim.store.create('Pod', pod('init-demo', {
      initContainers: [
        { name: 'first', image: 'busybox:1.28', command: ['sh', '-c', 'sleep 2'] },
        { name: 'second', image: 'busybox:1.28', command: ['sh', '-c', 'sleep 4'] },
      ],
      containers: [{ name: 'web', image: 'nginx:1.25' }],
    }));
    let sawSecondRunningInitialized = false;
    const outcome = sim.runUntil(() => {
      const p = get(sim, 'init-demo');
      const second = p.status?.initContainerStatuses?.find((s) => s.name === 'second');
      if (second?.state?.running && conditionOf(p, 'Initialized') === 'True') sawSecondRunningInitialized = true;
      if (second?.state?.running) assert.equal(second.ready, false, 'a running init container is not ready');
      return p.status?.phase === 'Running';
    }, 60_000);
    assert.equal(outcome, 'done');
    assert.equal(sawSecondRunningInitialized, false, 'Initialized turned True while an init container still ran');
    assert.equal(conditionOf(get(sim, 'init-demo'), 'Initialized'), 'True');
  });

  it('keeps a sidecar running beside the container and counts it in READY (2/2)', () => {
    const sim = new Simulator({ seed: 5 });
    sim.store.create('Pod', pod('with-sidecar', {
      initContainers: [{ name: 'logshipper', image: 'alpine:3.20', restartPolicy: 'Always', command: ['sh', '-c', 'tail -F /opt/logs.txt'] }],
      containers: [{ name: 'app', image: 'alpine:3.20', command: ['sh', '-c', 'while true; do echo logging >> /opt/logs.txt; sleep 1; done'] }],
    }));
    assert.equal(sim.runUntil(() => conditionOf(get(sim, 'with-sidecar'), 'Ready') === 'True', 60_000), 'done');
    sim.runUntil(() => false, 30_000);
    const p = get(sim, 'with-sidecar');
    assert.ok(p.status?.initContainerStatuses?.[0]?.state?.running, 'the sidecar still runs');
    assert.equal(p.status?.initContainerStatuses?.[0]?.restartCount, 0);
    const row = printPod(p, sim.clock.now());
    assert.equal(row.cells[1], '2/2');
    assert.equal(row.cells[2], 'Running');
  });

  it("ends a Job-style pod when its container completes, stopping the sidecar, and stops a deleted pod's sidecar last", () => {
    const sim = new Simulator({ seed: 5 });
    // A fresh object per pod: the API server's admission adds the token volume mount to what it is given.
    const sidecar = (): object => ({ name: 'proxy', image: 'nginx:1.25', restartPolicy: 'Always' });
    sim.store.create('Pod', pod('batch', { restartPolicy: 'Never', initContainers: [sidecar()], containers: [{ name: 'work', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3'] }] }));
    sim.store.create('Pod', pod('server', { initContainers: [sidecar()], containers: [{ name: 'web', image: 'nginx:1.25' }] }));
    const sidecarStopped = (): boolean => get(sim, 'batch').status?.initContainerStatuses?.[0]?.state?.terminated !== undefined;
    assert.equal(sim.runUntil(() => get(sim, 'batch').status?.phase === 'Succeeded' && sidecarStopped() && conditionOf(get(sim, 'server'), 'Ready') === 'True', 60_000), 'done');
    assert.equal(get(sim, 'batch').status?.containerStatuses?.[0]?.state?.terminated?.reason, 'Completed');
    sim.store.delete('Pod', 'default', 'server');
    assert.equal(sim.runUntil(() => !sim.store.get('Pod', 'default', 'server'), 60_000), 'done');
    const killing = sim.store
      .list<KubeObject>('Event', { namespace: 'default' })
      .items.filter((e) => (e.involvedObject as { name?: string }).name === 'server' && e.reason === 'Killing')
      .sort((a, b) => String(a.firstTimestamp ?? a.eventTime).localeCompare(String(b.firstTimestamp ?? b.eventTime)))
      .map((e) => String(e.message));
    assert.deepEqual(killing, ['Stopping container web', 'Stopping container proxy']);
  });
});
