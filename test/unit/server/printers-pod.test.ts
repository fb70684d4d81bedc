import assert from 'node:assert/strict';
import type { ContainerStatus, Pod } from '../../../src/core/k8s';
import { printPod } from '../../../src/server/printers/pod';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

type PodParts = { spec?: Partial<Pod['spec']> & object; status?: Pod['status']; metadata?: Pod['metadata'] };

function pod(parts: PodParts = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'default', creationTimestamp: ago(65), ...parts.metadata },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...parts.spec },
    status: parts.status,
  };
}

const running = (name: string, ready = true): ContainerStatus => ({
  name,
  image: 'nginx',
  imageID: '',
  ready,
  restartCount: 0,
  started: true,
  state: { running: { startedAt: ago(60) } },
});

/** READY, STATUS, RESTARTS, AGE, IP, NODE, NOMINATED NODE, READINESS GATES. */
const columns = (p: Pod) => printPod(p, NOW).cells.slice(1);

describe('pod rows (printPod)', () => {
  it('prints a running, ready pod like the captured table row', () => {
    const p = pod({
      spec: { nodeName: 'sim-node-1' },
      status: { phase: 'Running', podIP: '10.244.0.206', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [running('app')] },
    });
    assert.deepEqual(printPod(p, NOW).cells, ['web-1', '1/1', 'Running', '0', '65s', '10.244.0.206', 'sim-node-1', '<none>', '<none>']);
    assert.equal(printPod(p, NOW).conditions, undefined);
  });

  it('prints a pending pod before scheduling with <none> for IP and node', () => {
    assert.deepEqual(columns(pod({ status: { phase: 'Pending' } })), ['0/1', 'Pending', '0', '65s', '<none>', '<none>', '<none>', '<none>']);
  });

  it('shows the waiting reason of a container (ContainerCreating)', () => {
    const p = pod({ status: { phase: 'Pending', containerStatuses: [{ name: 'app', image: 'nginx', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] } });
    assert.equal(columns(p)[1], 'ContainerCreating');
  });

  it('shows CrashLoopBackOff with restarts "3 (10s ago)"', () => {
    const p = pod({
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            image: 'nginx',
            imageID: '',
            ready: false,
            restartCount: 3,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: ago(12), finishedAt: ago(10) } },
          },
        ],
      },
    });
    assert.deepEqual(columns(p).slice(0, 3), ['0/1', 'CrashLoopBackOff', '3 (10s ago)']);
  });

  it('shows Terminating for a deleted pod that has not finished, Unknown for a lost node', () => {
    const deleting = { name: 'web-1', creationTimestamp: ago(65), deletionTimestamp: ago(-30) };
    const runningStatus = { phase: 'Running', containerStatuses: [running('app')] };
    assert.equal(columns(pod({ metadata: deleting, status: runningStatus }))[1], 'Terminating');
    assert.equal(columns(pod({ metadata: deleting, status: { ...runningStatus, reason: 'NodeLost' } }))[1], 'Unknown');
    const completed: ContainerStatus = { ...running('app', false), state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    assert.equal(columns(pod({ metadata: deleting, status: { phase: 'Succeeded', containerStatuses: [completed] } }))[1], 'Completed');
  });

  describe('init containers', () => {
    const spec = { initContainers: [{ name: 'init-a' }, { name: 'init-b' }] };
    const initStatus = (name: string, state: ContainerStatus['state'], extra: Partial<ContainerStatus> = {}): ContainerStatus => ({
      name,
      image: 'busybox',
      imageID: '',
      ready: false,
      restartCount: 0,
      state,
      ...extra,
    });
    const done = initStatus('init-a', { terminated: { exitCode: 0, reason: 'Completed' } });
    const initPod = (second: ContainerStatus) =>
      pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, second], containerStatuses: [{ name: 'app', image: 'nginx', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }] } });

    it('counts finished init containers: Init:1/2', () => {
      assert.equal(columns(initPod(initStatus('init-b', { running: { startedAt: ago(5) } })))[1], 'Init:1/2');
      assert.equal(columns(initPod(initStatus('init-b', { waiting: { reason: 'PodInitializing' } })))[1], 'Init:1/2');
    });

    it('shows Init:<reason> for a waiting or failed init container', () => {
      assert.equal(columns(initPod(initStatus('init-b', { waiting: { reason: 'ImagePullBackOff' } })))[1], 'Init:ImagePullBackOff');
      assert.equal(columns(initPod(initStatus('init-b', { terminated: { exitCode: 1, reason: 'Error' } })))[1], 'Init:Error');
      assert.equal(columns(initPod(initStatus('init-b', { terminated: { exitCode: 2 } })))[1], 'Init:ExitCode:2');
      assert.equal(columns(initPod(initStatus('init-b', { terminated: { exitCode: 137, signal: 9 } })))[1], 'Init:Signal:9');
    });

    it('counts init container restarts while initializing', () => {
      const failing = initStatus('init-b', { waiting: { reason: 'CrashLoopBackOff' } }, { restartCount: 2, lastState: { terminated: { exitCode: 1, finishedAt: ago(30) } } });
      assert.deepEqual(columns(initPod(failing)).slice(0, 3), ['0/1', 'Init:CrashLoopBackOff', '2 (30s ago)']);
    });
  });

  it('counts a started, ready sidecar (restartable init container) in READY and its restarts', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }] },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'Initialized', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
        initContainerStatuses: [{ ...running('proxy'), restartCount: 2, lastState: { terminated: { exitCode: 1, finishedAt: ago(300) } } }],
        containerStatuses: [running('app')],
      },
    });
    assert.deepEqual(columns(p).slice(0, 3), ['2/2', 'Running', '2 (5m ago)']);
  });

  it('turns Completed back into Running or NotReady while another container runs', () => {
    const finished: ContainerStatus = { ...running('job', false), state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    const spec = { containers: [{ name: 'job' }, { name: 'app' }] };
    const status = (ready: 'True' | 'False') => ({ phase: 'Running', conditions: [{ type: 'Ready', status: ready }], containerStatuses: [finished, running('app')] });
    assert.deepEqual(columns(pod({ spec, status: status('True') })).slice(0, 2), ['1/2', 'Running']);
    assert.deepEqual(columns(pod({ spec, status: status('False') })).slice(0, 2), ['1/2', 'NotReady']);
  });

  it('marks succeeded and failed pods with a Completed row condition', () => {
    const completed: ContainerStatus = { ...running('app', false), state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    const succeeded = printPod(pod({ status: { phase: 'Succeeded', containerStatuses: [completed] } }), NOW);
    assert.equal(succeeded.cells[2], 'Completed');
    assert.deepEqual(succeeded.conditions, [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    const evicted = printPod(pod({ status: { phase: 'Failed', reason: 'Evicted' } }), NOW);
    assert.equal(evicted.cells[2], 'Evicted');
    assert.deepEqual(evicted.conditions, [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }]);
  });

  it('prints ExitCode:N and Signal:N for a terminated container without a reason', () => {
    const exited = (terminated: NonNullable<ContainerStatus['state']>['terminated']) => pod({ status: { phase: 'Failed', containerStatuses: [{ ...running('app', false), state: { terminated } }] } });
    assert.equal(columns(exited({ exitCode: 3 }))[1], 'ExitCode:3');
    assert.equal(columns(exited({ exitCode: 137, signal: 9 }))[1], 'Signal:9');
  });

  it('shows SchedulingGated, readiness gates and a pod IP from podIPs', () => {
    const gated = pod({ status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] } });
    assert.equal(columns(gated)[1], 'SchedulingGated');
    const gates = pod({
      spec: { readinessGates: [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }] },
      status: { phase: 'Running', podIPs: [{ ip: 'fd00::1' }], nominatedNodeName: 'n2', conditions: [{ type: 'example.com/lb', status: 'True' }] },
    });
    assert.deepEqual(columns(gates).slice(4), ['fd00::1', '<none>', 'n2', '1/2']);
  });
});
