import assert from 'node:assert/strict';
import type { ContainerStatus } from '../../../src/core/k8s';
import { generatePodStatus, hostIPsOf, mergePodStatus, podPhase, type ContainerRecord, type PodRuntimeView } from '../../../src/sim/kubelet/pod-status';
import { makeHarness, type PodObject } from './harness';

function status(state: ContainerStatus['state'], lastExit?: number): ContainerStatus {
  return {
    name: 'c',
    image: 'x',
    imageID: '',
    ready: false,
    restartCount: 0,
    state,
    lastState: lastExit === undefined ? {} : { terminated: { exitCode: lastExit } },
  };
}

const running = status({ running: { startedAt: 'x' } });
const waiting = status({ waiting: { reason: 'ContainerCreating' } });
const crashLooping = status({ waiting: { reason: 'CrashLoopBackOff' } }, 1);
const exited = (code: number): ContainerStatus => status({ terminated: { exitCode: code } });

describe('kubelet pod status', () => {
  it('computes the phase as getPhase does', () => {
    const always = { containers: [], restartPolicy: 'Always' };
    const never = { containers: [], restartPolicy: 'Never' };
    const onFailure = { containers: [], restartPolicy: 'OnFailure' };
    assert.equal(podPhase(always, [], [waiting], false), 'Pending');
    assert.equal(podPhase(always, [], [running, waiting], false), 'Pending');
    assert.equal(podPhase(always, [], [running], false), 'Running');
    assert.equal(podPhase(always, [], [crashLooping], false), 'Running');
    assert.equal(podPhase(always, [], [exited(0)], false), 'Running');
    assert.equal(podPhase(always, [], [exited(0)], true), 'Succeeded');
    assert.equal(podPhase(always, [], [exited(137)], true), 'Failed');
    assert.equal(podPhase(never, [], [exited(1)], false), 'Failed');
    assert.equal(podPhase(never, [], [exited(0), exited(0)], false), 'Succeeded');
    assert.equal(podPhase(onFailure, [], [exited(1)], false), 'Running');
    assert.equal(podPhase(onFailure, [], [exited(0)], false), 'Succeeded');
    assert.equal(podPhase(always, [running], [waiting], false), 'Pending');
    assert.equal(podPhase(never, [exited(1)], [waiting], false), 'Failed');
  });

  it('lists readiness gates that are not satisfied', () => {
    const record: ContainerRecord = { spec: { name: 'app', image: 'nginx' }, init: false, ready: true, current: { id: 'containerd://1', attempt: 0, image: 'docker.io/library/nginx:latest', imageId: 'x', startedAt: 0 } };
    const view: PodRuntimeView = {
      spec: { containers: [record.spec], readinessGates: [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }] },
      hostIP: '172.18.0.2',
      hostIPs: hostIPsOf('172.18.0.2'),
      podIP: '10.244.0.2',
      sandboxReady: true,
      startTime: 0,
      initContainers: [],
      containers: [record],
      terminal: false,
    };
    const generated = generatePodStatus(view, [{ type: 'example.com/lb', status: 'False' }]);
    const ready = generated.conditions.find((c) => c.type === 'Ready');
    assert.deepEqual([ready?.status, ready?.reason, ready?.message], [
      'False',
      'ReadinessGatesNotReady',
      'the status of pod readiness gate "example.com/lb" is not "True", but False, corresponding condition of pod readiness gate "example.com/dns" does not exist.',
    ]);
    assert.equal(generated.conditions.find((c) => c.type === 'ContainersReady')?.status, 'True');
    const merged = mergePodStatus({ conditions: [{ type: 'example.com/lb', status: 'False' }], qosClass: 'BestEffort' }, generated, 0);
    assert.deepEqual(merged.conditions.map((c) => c.type), ['example.com/lb', 'PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
    assert.equal(merged.qosClass, 'BestEffort');
  });

  it('keeps the scheduler condition time and fields the kubelet does not own', () => {
    const h = makeHarness();
    h.store.create('Pod', {
      metadata: { name: 'kept', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      status: { phase: 'Pending', qosClass: 'BestEffort', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T11:59:59Z' }] },
    });
    h.runFor(30_000);
    const final = h.pod('kept')!.status!;
    assert.equal(final.phase, 'Running');
    assert.equal(final.qosClass, 'BestEffort');
    assert.equal(final.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime, '2026-01-01T11:59:59Z');
  });

  it('takes over pods already bound when the kubelets start', () => {
    const h = makeHarness();
    h.fleet.stop();
    h.createPod('early', [{ name: 'nginx', image: 'nginx:1.25' }]);
    h.runFor(10_000);
    assert.equal(h.pod('early')?.status, undefined);
    h.fleet.start();
    h.runFor(30_000);
    assert.equal((h.pod('early') as PodObject).status?.phase, 'Running');
  });
});
