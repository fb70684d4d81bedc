import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../../src/core/k8s';
import { parseStream, replay } from '../../../src/core/journey/stream';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey, ObjectJourney } from '../../../src/core/journey/types';
import { coreEvent, DEPLOYMENT, deploymentObject, iso, podObject, POD_REF, REPLICA_SET, replicaSetObject, schedulerEvent, T0 } from './objects';

const golden = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden');
const UNSCHEDULABLE = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..';

function replayGolden(name: string): Journey {
  const tracer = new JourneyTracer();
  const [id] = replay(parseStream(readFileSync(join(golden, name, 'stream.ndjson'), 'utf8')), tracer);
  return tracer.journey(id) as Journey;
}

function setup(): { tracer: JourneyTracer; journey: () => Journey; pod: () => ObjectJourney } {
  const tracer = new JourneyTracer();
  const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
  tracer.ingest({ type: 'ADDED', object: deploymentObject({}) }, T0 + 5);
  tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT }) }, T0 + 6);
  tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 30);
  const journey = (): Journey => tracer.journey(id) as Journey;
  return { tracer, journey, pod: () => journey().tree?.children[0]?.children[0] as ObjectJourney };
}

const unschedulablePod = (): KubeObject => podObject({ conditions: [{ type: 'PodScheduled', status: 'False', at: T0 + 40, reason: 'Unschedulable', message: UNSCHEDULABLE }] });

describe('stuck detection', () => {
  it('reports an unschedulable pod from its PodScheduled condition alone, with the scheduler’s exact message', () => {
    const { tracer, journey, pod } = setup();
    tracer.ingest({ type: 'MODIFIED', object: unschedulablePod() }, T0 + 45);
    assert.equal(pod().status, 'stuck');
    assert.deepEqual(pod().stuck, {
      reason: 'FailedScheduling',
      message: UNSCHEDULABLE,
      since: T0 + 45,
      lastSeen: T0 + 45,
      count: 1,
      component: 'default-scheduler',
      container: undefined,
      object: { kind: 'Pod', namespace: 'default', name: POD_REF.name, uid: 'pod-1' },
    });
    const j = journey();
    assert.equal(j.status, 'stuck');
    assert.equal(j.stuck, true);
    assert.equal(j.done, false);
    assert.equal(j.tree?.stuck?.object.name, POD_REF.name, 'the Deployment says which pod holds it up');
    assert.equal(j.stuckCount, 1);
    assert.equal(j.counts.stuck, 1);
  });

  it('reports it from the FailedScheduling event before the condition arrives, and clears when the pod is bound', () => {
    const { tracer, journey, pod } = setup();
    tracer.ingest({ type: 'ADDED', object: schedulerEvent({ about: POD_REF, reason: 'FailedScheduling', type: 'Warning', message: UNSCHEDULABLE, at: T0 + 41 }) }, T0 + 42);
    assert.equal(pod().status, 'stuck');
    assert.equal(pod().stuck?.message, UNSCHEDULABLE);
    assert.equal(pod().stuck?.since, T0 + 41);
    tracer.ingest({ type: 'MODIFIED', object: unschedulablePod() }, T0 + 45);
    tracer.ingest({ type: 'MODIFIED', object: podObject({ nodeName: 'node-4', conditions: [{ type: 'PodScheduled', status: 'True', at: T0 + 20_000 }] }) }, T0 + 20_010);
    assert.equal(pod().status, 'progressing');
    assert.equal(pod().stuck, undefined);
    assert.equal(journey().stuck, false);
    assert.equal(journey().status, 'progressing');
  });

  it('dates an image pull problem from the first ErrImagePull and keeps the back-off message', () => {
    const j = replayGolden('image-pull-backoff');
    assert.equal(j.status, 'stuck');
    const s = j.tree?.stuck;
    assert.equal(s?.reason, 'ImagePullBackOff');
    assert.equal(s?.message, 'Back-off pulling image "nginx:1.255"');
    assert.equal(s?.container, 'nginx');
    assert.equal(s?.since, j.appliedAt + 1_611);
    assert.equal(s?.count, 2);
  });

  it('reports a crash loop with how the container last ended', () => {
    const j = replayGolden('crash-loop-backoff');
    const pod = j.tree?.children[0]?.children[0];
    assert.equal(pod?.status, 'stuck');
    assert.equal(pod?.stuck?.reason, 'CrashLoopBackOff');
    assert.match(pod?.stuck?.message ?? '', /^back-off 40s restarting failed container=app pod=crash-7c9d8f6b5-x2x4q_default\(/);
    assert.deepEqual(pod?.stuck?.lastTermination, { reason: 'Error', exitCode: 1, finishedAt: Date.parse(iso(j.appliedAt + 33_290)) });
    assert.equal(pod?.pod?.restarts, 3);
    assert.equal(j.counts.restarts, 3);
    assert.equal(j.status, 'stuck');
  });

  it('treats a failing readiness probe as stuck until the pod turns Ready', () => {
    const { tracer, pod } = setup();
    const runningNotReady = podObject({
      nodeName: 'node-1',
      phase: 'Running',
      conditions: [{ type: 'PodScheduled', status: 'True', at: T0 + 50 }, { type: 'Ready', status: 'False', at: T0 + 900, reason: 'ContainersNotReady' }],
      containers: [{ running: { startedAt: iso(T0 + 800) }, ready: false }],
    });
    tracer.ingest({ type: 'MODIFIED', object: runningNotReady }, T0 + 900);
    assert.equal(pod().status, 'progressing');
    const probe = 'Readiness probe failed: Get "http://10.244.1.5:8080/healthz": dial tcp 10.244.1.5:8080: connect: connection refused';
    tracer.ingest({ type: 'ADDED', object: coreEvent({ about: POD_REF, reason: 'Unhealthy', type: 'Warning', message: probe, fieldPath: 'spec.containers{nginx}', first: T0 + 5_000 }) }, T0 + 5_010);
    assert.equal(pod().status, 'stuck');
    assert.equal(pod().stuck?.reason, 'Unhealthy');
    assert.equal(pod().stuck?.message, probe);
    const ready = podObject({
      nodeName: 'node-1',
      phase: 'Running',
      conditions: [{ type: 'PodScheduled', status: 'True', at: T0 + 50 }, { type: 'Ready', status: 'True', at: T0 + 9_000 }],
      containers: [{ running: { startedAt: iso(T0 + 800) }, ready: true }],
    });
    tracer.ingest({ type: 'MODIFIED', object: ready }, T0 + 9_010);
    assert.equal(pod().status, 'complete');
  });

  it('marks a Deployment failed when its progress deadline is exceeded', () => {
    const tracer = new JourneyTracer();
    const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
    const message = 'ReplicaSet "web-5d567cc74c" has timed out progressing.';
    const status = {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      unavailableReplicas: 1,
      conditions: [
        { type: 'Available', status: 'False', lastUpdateTime: iso(T0 + 50), lastTransitionTime: iso(T0 + 50), reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
        { type: 'Progressing', status: 'False', lastUpdateTime: iso(T0 + 600_100), lastTransitionTime: iso(T0 + 600_100), reason: 'ProgressDeadlineExceeded', message },
      ],
    };
    tracer.ingest({ type: 'ADDED', object: deploymentObject({}) }, T0 + 5);
    tracer.ingest({ type: 'MODIFIED', object: deploymentObject({ status }) }, T0 + 600_120);
    const j = tracer.journey(id) as Journey;
    assert.equal(j.status, 'failed');
    assert.equal(j.done, true);
    assert.equal(j.stuckObjects[0]?.stuck.reason, 'ProgressDeadlineExceeded');
    assert.equal(j.stuckObjects[0]?.stuck.message, message);
    const failed = j.tree?.stages.find((s) => s.kind === 'failed');
    assert.equal(failed?.message, message);
    assert.equal(failed?.warning, true);
  });

  it('reports a ReplicaSet that cannot create pods (quota), and the Deployment with it', () => {
    const tracer = new JourneyTracer();
    const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
    tracer.ingest({ type: 'ADDED', object: deploymentObject({}) }, T0 + 5);
    const quota = 'pods "web-5d567cc74c-7xk2p" is forbidden: exceeded quota: compute, requested: cpu=500m, used: cpu=2, limited: cpu=2';
    const conditions = [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: iso(T0 + 40), reason: 'FailedCreate', message: quota }];
    tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT }) }, T0 + 20);
    tracer.ingest({ type: 'ADDED', object: coreEvent({ about: REPLICA_SET, reason: 'FailedCreate', type: 'Warning', message: `Error creating: ${quota}`, component: 'replicaset-controller', first: T0 + 39 }) }, T0 + 39);
    tracer.ingest({ type: 'MODIFIED', object: replicaSetObject({ owner: DEPLOYMENT, conditions, status: { replicas: 0, observedGeneration: 1 } }) }, T0 + 41);
    const j = tracer.journey(id) as Journey;
    const rs = j.tree?.children[0];
    assert.equal(rs?.status, 'stuck');
    assert.equal(rs?.stuck?.reason, 'FailedCreate');
    assert.equal(rs?.stuck?.message, quota);
    assert.equal(j.status, 'stuck');
    assert.equal(j.tree?.stuck?.reason, 'FailedCreate');
  });

  it('marks a bare Pod failed when its phase is Failed', () => {
    const tracer = new JourneyTracer();
    const id = tracer.begin({ kind: 'Pod', name: 'once' }, T0);
    tracer.ingest({ type: 'ADDED', object: podObject({ name: 'once', uid: 'once', owner: null }) }, T0 + 5);
    tracer.ingest({
      type: 'MODIFIED',
      object: podObject({ name: 'once', uid: 'once', owner: null, nodeName: 'node-1', phase: 'Failed', statusReason: 'Evicted', statusMessage: 'The node was low on resource: memory.' }),
    }, T0 + 9_000);
    const j = tracer.journey(id) as Journey;
    assert.equal(j.status, 'failed');
    assert.equal(j.done, true);
    assert.equal(j.tree?.stuck?.reason, 'Evicted');
    assert.equal(j.tree?.stuck?.message, 'The node was low on resource: memory.');
  });

  it('lists stuck objects worst first, up to the configured limit', () => {
    const tracer = new JourneyTracer({ stuckListLimit: 2 });
    const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
    tracer.ingest({ type: 'ADDED', object: deploymentObject({ replicas: 3 }) }, T0 + 5);
    tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT, replicas: 3 }) }, T0 + 6);
    for (const [i, at] of [300, 100, 200].entries()) {
      const name = `web-5d567cc74c-p${i}`;
      tracer.ingest({ type: 'ADDED', object: podObject({ name, uid: `p${i}`, conditions: [{ type: 'PodScheduled', status: 'False', at: T0 + at, reason: 'Unschedulable', message: UNSCHEDULABLE }] }) }, T0 + at);
    }
    const j = tracer.journey(id) as Journey;
    assert.equal(j.stuckCount, 3);
    assert.deepEqual(j.stuckObjects.map((e) => e.ref.name), ['web-5d567cc74c-p1', 'web-5d567cc74c-p2']);
    assert.equal(j.counts.stuck, 3);
  });
});

describe('journey progress without a snapshot', () => {
  const streams = ['nginx-deployment', 'unschedulable', 'crash-loop-backoff', 'image-pull-backoff', 'rolling-update', 'deletion-replacement', 'sim-too-big'];
  for (const name of streams) {
    it(`agrees with the snapshot's done and stuck after every record of ${name}`, () => {
      const tracer = new JourneyTracer();
      const ids: string[] = [];
      const seen = new Set<string>();
      for (const record of parseStream(readFileSync(join(golden, name, 'stream.ndjson'), 'utf8'))) {
        replay([record], tracer).forEach((id) => ids.push(id));
        for (const id of ids) {
          const journey = tracer.journey(id) as Journey;
          // No Service in these streams: settled is done.
          assert.deepEqual(tracer.progress(id), { done: journey.done, stuck: journey.stuck, settled: journey.done });
          seen.add(`${journey.done}/${journey.stuck}`);
        }
      }
      assert.ok(ids.length > 0 && seen.size > 1, `the stream moves its journey through more than one state (${[...seen].join(', ')})`);
    });
  }

  it('knows no journey it did not begin', () => {
    assert.equal(new JourneyTracer().progress('nope'), undefined);
  });
});
