import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EtcdWrite, SchedulingCycle, WatchDelivery } from '../../../src/core/internals';
import type { KubeObject } from '../../../src/core/k8s';
import { parseStream, replay, type StreamRecord } from '../../../src/core/journey/stream';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey, ObjectJourney, Stage } from '../../../src/core/journey/types';
import { cycleVerdicts, verdictTableOf } from '../../../src/common/verdict-table';
import {
  coreEvent,
  DEPLOYMENT,
  deploymentObject,
  iso,
  podObject,
  POD_REF,
  replicaSetObject,
  schedulerEvent,
  T0,
} from './objects';

const golden = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden');

function stream(name: string): StreamRecord[] {
  return parseStream(readFileSync(join(golden, name, 'stream.ndjson'), 'utf8'));
}

function find(tree: ObjectJourney | undefined, name: string): ObjectJourney {
  if (!tree) throw new Error('no tree');
  if (tree.ref.name === name) return tree;
  for (const child of tree.children) {
    try {
      return find(child, name);
    } catch {
      // keep looking
    }
  }
  throw new Error(`${name} not in the tree`);
}

function kinds(o: ObjectJourney): string[] {
  return o.stages.map((s) => s.kind);
}

function stage(o: ObjectJourney, key: string): Stage {
  const found = o.stages.find((s) => s.key === key);
  if (!found) throw new Error(`no stage ${key} in ${o.ref.name}: ${o.stages.map((s) => s.key).join(', ')}`);
  return found;
}

/** A Deployment journey with its ReplicaSet already seen. */
function deploymentJourney(tracer = new JourneyTracer()): { tracer: JourneyTracer; id: string; journey: () => Journey } {
  const id = tracer.begin({ kind: 'Deployment', namespace: 'default', name: 'web' }, T0);
  tracer.ingest({ type: 'ADDED', object: deploymentObject({}) }, T0 + 10);
  tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT }) }, T0 + 20);
  return {
    tracer,
    id,
    journey: () => {
      const j = tracer.journey(id);
      if (!j) throw new Error('journey missing');
      return j;
    },
  };
}

const runningPod = (rvValue?: string): KubeObject =>
  podObject({
    nodeName: 'node-1',
    phase: 'Running',
    rv: rvValue,
    conditions: [
      { type: 'PodReadyToStartContainers', status: 'True', at: T0 + 500 },
      { type: 'Initialized', status: 'True', at: T0 + 100 },
      { type: 'Ready', status: 'True', at: T0 + 2_800 },
      { type: 'ContainersReady', status: 'True', at: T0 + 2_800 },
      { type: 'PodScheduled', status: 'True', at: T0 + 60 },
    ],
    containers: [{ running: { startedAt: iso(T0 + 2_700) }, ready: true }],
  });

/** What the text output shows of a pod's stages. */
const shownStages = (pod: ObjectJourney) => pod.stages.map(({ key, kind, time, timeSource, component, title, message, reason }) => ({ key, kind, time, timeSource, component, title, message, reason }));

/**
 * Two pods of the web Deployment, created and then changed to `later`, traced once with
 * `evidenceDetailPods: 1` and once with the default: each pod as both tracers show it.
 */
function twoPodsWithEvidenceDetailOne(later: (name: string, uid: string) => KubeObject, at: number): Record<'first' | 'second', { detailOne: ObjectJourney; everyPod: ObjectJourney }> {
  const detailOne = deploymentJourney(new JourneyTracer({ evidenceDetailPods: 1 }));
  const everyPod = deploymentJourney();
  for (const { tracer } of [detailOne, everyPod]) {
    for (const [i, name] of ['web-5d567cc74c-aaaaa', 'web-5d567cc74c-bbbbb'].entries()) {
      tracer.ingest({ type: 'ADDED', object: podObject({ name, uid: `p${i}` }) }, T0 + 30);
      tracer.ingest({ type: 'MODIFIED', object: later(name, `p${i}`) }, at);
    }
  }
  const pods = (j: Journey): ObjectJourney[] => j.tree?.children[0]?.children ?? [];
  const [firstDetailOne, secondDetailOne] = pods(detailOne.journey());
  const [firstEveryPod, secondEveryPod] = pods(everyPod.journey());
  return { first: { detailOne: firstDetailOne, everyPod: firstEveryPod }, second: { detailOne: secondDetailOne, everyPod: secondEveryPod } };
}

describe('JourneyTracer', () => {
  describe('ordering and timing', () => {
    it('orders stages by the objects’ own timestamps when the pod and its events arrive late', () => {
      const { tracer, journey } = deploymentJourney();
      // The pod is first seen already Running, 5 s after it started; its events come later still.
      tracer.ingest({ type: 'ADDED', object: runningPod() }, T0 + 8_000);
      tracer.ingest({ type: 'ADDED', object: schedulerEvent({ about: POD_REF, reason: 'Scheduled', message: 'Successfully assigned default/web-5d567cc74c-ss4lb to node-1', at: T0 + 61 }) }, T0 + 9_000);
      tracer.ingest({ type: 'ADDED', object: coreEvent({ about: { kind: 'ReplicaSet', name: 'web-5d567cc74c', uid: 'rs-1' }, reason: 'SuccessfulCreate', message: 'Created pod: web-5d567cc74c-ss4lb', component: 'replicaset-controller', first: T0 + 40 }) }, T0 + 9_100);

      const pod = find(journey().tree, 'web-5d567cc74c-ss4lb');
      assert.deepEqual(kinds(pod), ['podCreated', 'scheduled', 'initialized', 'sandboxReady', 'containerStarted', 'running', 'containersReady', 'ready']);
      // Whole-second stamps stay whole seconds when nothing more precise falls inside their second…
      assert.equal(stage(pod, 'podCreated').time, Date.parse(iso(T0)));
      assert.equal(stage(pod, 'ready').time, Date.parse(iso(T0 + 2_800)));
      // …and the scheduler's microsecond eventTime sharpens the binding inside its second.
      assert.equal(stage(pod, 'scheduled').time, T0 + 61);
      assert.equal(stage(pod, 'scheduled').timeSource, 'object');
      assert.equal(stage(pod, 'podCreated').message, 'Created pod: web-5d567cc74c-ss4lb');
    });

    it('sharpens whole-second timestamps by the arrival time within the same second', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: podObject({ created: T0 + 30 }) }, T0 + 38);
      const pod = find(journey().tree, 'web-5d567cc74c-ss4lb');
      assert.equal(stage(pod, 'podCreated').time, T0 + 38);
      assert.equal(pod.createdAt, T0 + 38);
    });

    it("moves a pod's creation, and where its lane starts, to an etcd write that arrives after the pod", () => {
      const { tracer, journey } = deploymentJourney();
      const ref = { kind: 'Pod', namespace: 'default', name: 'web-5d567cc74c-ss4lb', uid: 'pod-1' };
      const write = (time: number, resourceVersion: string, verb: 'create' | 'update'): EtcdWrite => ({ type: 'etcdWrite', time, key: '/registry/pods/default/web-5d567cc74c-ss4lb', verb, resourceVersion, object: ref, actor: 'replicaset-controller' });
      // Any step first: the tracer keeps a pod's recent versions for later steps only once it has seen the internals stream.
      tracer.ingestInternal(write(T0 + 1, '1', 'update'));
      tracer.ingest({ type: 'ADDED', object: podObject({ created: T0 + 30, rv: '700' }) }, T0 + 38);
      assert.equal(find(journey().tree, 'web-5d567cc74c-ss4lb').createdAt, T0 + 38);
      tracer.ingestInternal(write(T0 + 31, '700', 'create'));
      const pod = find(journey().tree, 'web-5d567cc74c-ss4lb');
      assert.equal(stage(pod, 'podCreated').time, T0 + 31);
      assert.equal(pod.createdAt, T0 + 31);
    });

    it('never steps back to an older resourceVersion', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'MODIFIED', object: runningPod('5000') }, T0 + 3_000);
      tracer.ingest({ type: 'MODIFIED', object: podObject({ rv: '4999', phase: 'Pending' }) }, T0 + 3_100);
      const pod = find(journey().tree, 'web-5d567cc74c-ss4lb');
      assert.equal(pod.pod?.phase, 'Running');
      assert.equal(pod.status, 'complete');
    });
  });

  describe('linking', () => {
    it('keeps an event that arrives before its pod, and merges it with the state change', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: schedulerEvent({ about: POD_REF, reason: 'Scheduled', message: 'Successfully assigned default/web-5d567cc74c-ss4lb to node-1', at: T0 + 60 }) }, T0 + 61);
      assert.equal(tracer.stats().pending, 1);
      tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 62);
      assert.equal(tracer.stats().pending, 0);
      tracer.ingest({ type: 'MODIFIED', object: podObject({ nodeName: 'node-1', conditions: [{ type: 'PodScheduled', status: 'True', at: T0 + 60 }] }) }, T0 + 64);
      const pod = find(journey().tree, 'web-5d567cc74c-ss4lb');
      const scheduled = pod.stages.filter((s) => s.kind === 'scheduled');
      assert.equal(scheduled.length, 1);
      assert.equal(scheduled[0].evidence.event?.reason, 'Scheduled');
      assert.equal(scheduled[0].evidence.event?.action, 'Binding');
      assert.deepEqual(scheduled[0].evidence.fields, [{ path: 'spec.nodeName', to: 'node-1' }]);
      assert.equal(scheduled[0].time, T0 + 60);
      assert.equal(pod.pod?.node, 'node-1');
    });

    it('keeps a pod that arrives before its ReplicaSet', () => {
      const tracer = new JourneyTracer();
      const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
      tracer.ingest({ type: 'ADDED', object: deploymentObject({}) }, T0 + 10);
      tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 30);
      assert.equal(tracer.journey(id)?.tree?.children.length, 0);
      tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT }) }, T0 + 31);
      const rs = tracer.journey(id)?.tree?.children[0];
      assert.equal(rs?.ref.name, 'web-5d567cc74c');
      assert.deepEqual(rs?.children.map((p) => p.ref.name), ['web-5d567cc74c-ss4lb']);
      assert.equal(tracer.stats().pending, 0);
    });

    it('ignores objects and events of workloads it does not trace, without buffering them', () => {
      const { tracer } = deploymentJourney();
      const before = tracer.stats();
      for (let i = 0; i < 2_000; i++) {
        const name = `other-7f9c8d-${i}`;
        tracer.ingest({ type: 'ADDED', object: podObject({ name, uid: `o-${i}`, owner: { kind: 'ReplicaSet', name: 'other-7f9c8d', uid: 'rs-other' } }) }, T0 + i);
        tracer.ingest({ type: 'ADDED', object: coreEvent({ about: { kind: 'Pod', name, uid: `o-${i}` }, reason: 'Pulled', message: 'x', first: T0 }) }, T0 + i);
      }
      assert.deepEqual(tracer.stats(), before);
    });

    it('ignores events about another incarnation of a traced name', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 30);
      tracer.ingest({ type: 'ADDED', object: coreEvent({ about: { kind: 'Pod', name: POD_REF.name, uid: 'someone-else' }, reason: 'Killing', message: 'Stopping container nginx', first: T0 }) }, T0 + 40);
      const pod = find(journey().tree, POD_REF.name);
      assert.ok(!pod.stages.some((s) => s.kind === 'killing'));
    });

    it('picks up a root seen before begin (an ADDED that raced the apply)', () => {
      const tracer = new JourneyTracer();
      tracer.ingest({ type: 'ADDED', object: deploymentObject({ created: T0 + 5 }) }, T0 + 8);
      tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT, created: T0 + 15 }) }, T0 + 20);
      const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
      const j = tracer.journey(id);
      assert.equal(j?.tree?.ref.uid, 'dep-1');
      assert.equal(j?.tree?.children[0]?.ref.uid, 'rs-1');
      assert.deepEqual(kinds(j?.tree as ObjectJourney), ['submitted', 'stored', 'scaled']);
    });
  });

  describe('event shapes and wording', () => {
    it('accepts both ScalingReplicaSet forms and merges each with the ReplicaSet’s own spec.replicas', () => {
      for (const message of ['Scaled up replica set web-5d567cc74c to 3', 'Scaled up replica set web-5d567cc74c from 0 to 3']) {
        const tracer = new JourneyTracer();
        const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
        tracer.ingest({ type: 'ADDED', object: deploymentObject({ replicas: 3 }) }, T0 + 10);
        tracer.ingest({ type: 'ADDED', object: coreEvent({ about: { kind: 'Deployment', name: 'web', uid: 'dep-1' }, reason: 'ScalingReplicaSet', message, component: 'deployment-controller', first: T0 + 21 }) }, T0 + 22);
        tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT, replicas: 3 }) }, T0 + 23);
        const scaled = tracer.journey(id)?.tree?.stages.filter((s) => s.kind === 'scaled') ?? [];
        assert.equal(scaled.length, 1, message);
        assert.equal(scaled[0].message, message);
        assert.deepEqual(scaled[0].evidence.fields, [{ path: 'ReplicaSet web-5d567cc74c spec.replicas', from: '0', to: '3' }]);
        assert.equal(scaled[0].component, 'deployment-controller');
      }
    });

    it('reads both Created forms and every Pulled form', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 30);
      const about = POD_REF;
      const events = [
        coreEvent({ about, reason: 'Created', message: 'Created container nginx', first: T0 + 500, name: 'a' }),
        coreEvent({ about, reason: 'Pulled', message: 'Container image "nginx:1.25" already present on machine', fieldPath: 'spec.containers{nginx}', first: T0 + 400, name: 'b' }),
      ];
      for (const object of events) tracer.ingest({ type: 'ADDED', object }, T0 + 600);
      let pod = find(journey().tree, POD_REF.name);
      assert.equal(stage(pod, 'containerCreated:nginx#0').container, 'nginx');
      assert.equal(stage(pod, 'imagePresent:nginx').kind, 'imagePresent');

      const second = deploymentJourney();
      second.tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 30);
      const newer = [
        coreEvent({ about, reason: 'Created', message: 'Created container: nginx', first: T0 + 500, name: 'c' }),
        coreEvent({ about, reason: 'Pulled', message: 'Successfully pulled image "nginx:1.25" in 1.2s (1.2s including waiting). Image size: 72123456 bytes.', fieldPath: 'spec.containers{nginx}', first: T0 + 400, name: 'd' }),
        coreEvent({ about, reason: 'Pulling', message: 'Pulling image "nginx:1.25"', fieldPath: 'spec.containers{nginx}', first: T0 + 100, name: 'e' }),
      ];
      for (const object of newer) second.tracer.ingest({ type: 'ADDED', object }, T0 + 600);
      pod = find(second.journey().tree, POD_REF.name);
      assert.equal(stage(pod, 'containerCreated:nginx#0').container, 'nginx');
      assert.equal(stage(pod, 'pulled:nginx').title, 'Pulled image nginx:1.25');
      assert.equal(stage(pod, 'pulling:nginx').component, 'kubelet');
      assert.equal(stage(pod, 'pulled:nginx').component, 'container-runtime');
    });

    it('counts an aggregated event as repeats of one stage (core/v1 count and events.k8s.io series)', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 30);
      const backOff = (count: number, last: number): KubeObject =>
        coreEvent({ about: POD_REF, reason: 'BackOff', type: 'Warning', message: 'Back-off pulling image "nginx:1.255"', fieldPath: 'spec.containers{nginx}', first: T0 + 2_000, last, count, name: 'bo' });
      tracer.ingest({ type: 'ADDED', object: backOff(1, T0 + 2_000) }, T0 + 2_010);
      tracer.ingest({ type: 'MODIFIED', object: backOff(5, T0 + 61_000) }, T0 + 61_010);
      const failed = (count: number): KubeObject =>
        schedulerEvent({ about: POD_REF, reason: 'FailedScheduling', type: 'Warning', message: '0/3 nodes are available: 3 Insufficient cpu.', at: T0 + 40, series: count > 1 ? { count, last: T0 + 300_040 } : undefined, name: 'fs' });
      tracer.ingest({ type: 'ADDED', object: failed(1) }, T0 + 41);
      tracer.ingest({ type: 'MODIFIED', object: failed(3) }, T0 + 300_041);
      const pod = find(journey().tree, POD_REF.name);
      const b = stage(pod, 'waiting:nginx:ImagePullBackOff');
      assert.equal(b.count, 5);
      assert.equal(b.lastTime, Date.parse(iso(T0 + 61_000)));
      assert.equal(b.reason, 'BackOff');
      const f = stage(pod, 'failedScheduling');
      assert.equal(f.count, 3);
      assert.equal(f.time, T0 + 40);
      assert.equal(f.lastTime, T0 + 300_040);
    });

    it('shows each start of a crash-looping container as its own stage, at the occurrence’s lastTimestamp', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 30);
      const started = (count: number, last: number): KubeObject =>
        coreEvent({ about: POD_REF, reason: 'Started', message: 'Started container nginx', fieldPath: 'spec.containers{nginx}', first: T0 + 1_000, last, count, name: 'st' });
      tracer.ingest({ type: 'ADDED', object: started(1, T0 + 1_000) }, T0 + 1_010);
      tracer.ingest({ type: 'MODIFIED', object: started(2, T0 + 12_000) }, T0 + 12_010);
      tracer.ingest({ type: 'MODIFIED', object: started(3, T0 + 33_000) }, T0 + 33_010);
      const starts = find(journey().tree, POD_REF.name).stages.filter((s) => s.kind === 'containerStarted');
      assert.deepEqual(starts.map((s) => s.key), ['containerStarted:nginx#0', 'containerStarted:nginx#1', 'containerStarted:nginx#2']);
      assert.deepEqual(starts.map((s) => s.time), [T0 + 1_010, T0 + 12_010, T0 + 33_010]);
      assert.ok(starts.every((s) => s.count === undefined));
    });

    it('keeps what an event showed after the event expires', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: podObject({}) }, T0 + 30);
      const pulling = coreEvent({ about: POD_REF, reason: 'Pulling', message: 'Pulling image "nginx:1.25"', fieldPath: 'spec.containers{nginx}', first: T0 + 500 });
      tracer.ingest({ type: 'ADDED', object: pulling }, T0 + 510);
      tracer.ingest({ type: 'DELETED', object: pulling }, T0 + 3_600_510);
      assert.equal(stage(find(journey().tree, POD_REF.name), 'pulling:nginx').message, 'Pulling image "nginx:1.25"');
    });
  });

  describe('recorded streams', () => {
    it('derives the same journey from object state alone when every Event is gone', () => {
      const all = stream('nginx-deployment');
      const withEvents = new JourneyTracer();
      const [id] = replay(all, withEvents);
      const withoutEvents = new JourneyTracer();
      const [id2] = replay(
        all.filter((r) => !('event' in r) || r.event.object.kind !== 'Event'),
        withoutEvents,
      );
      const a = withEvents.journey(id) as Journey;
      const b = withoutEvents.journey(id2) as Journey;
      assert.equal(b.status, 'complete');
      assert.equal(b.done, true);
      assert.deepEqual(b.counts, a.counts);
      assert.equal(b.completedAt, a.completedAt);
      const eventOnly = new Set(['pulling', 'pulled', 'imagePresent', 'containerCreated']);
      const podKinds = (j: Journey): string[][] => (j.tree?.children[0]?.children ?? []).map((p) => kinds(p).filter((k) => !eventOnly.has(k)));
      assert.deepEqual(podKinds(b), podKinds(a));
      assert.deepEqual(kinds(b.tree as ObjectJourney), kinds(a.tree as ObjectJourney));
    });

    it('follows a rollout across the old and the new ReplicaSet', () => {
      const records = stream('rolling-update');
      const tracer = new JourneyTracer();
      const beginAt = records.findIndex((r) => 'begin' in r);
      const firstDeletion = records.findIndex((r, i) => i > beginAt && 'event' in r && r.event.type === 'DELETED');
      // Just after the old ReplicaSet reported its pod gone.
      const midway = records.findIndex((r, i) => i > firstDeletion && 'event' in r && r.event.object.kind === 'ReplicaSet' && (r.event.object.metadata as { name: string }).name === 'web-5d567cc74c');
      const [id] = replay(records.slice(0, midway + 1), tracer);
      let j = tracer.journey(id) as Journey;
      assert.equal(j.status, 'progressing');
      assert.equal(j.counts.oldLive, 1);
      assert.equal(j.counts.live, 1);
      assert.equal(j.counts.deleted, 1);
      replay(records.slice(midway + 1), tracer);
      j = tracer.journey(id) as Journey;
      assert.equal(j.status, 'complete');
      assert.equal(j.totalDurationMs, 4_671);
      assert.deepEqual(j.tree?.children.map((rs) => [rs.ref.name, rs.replicas?.revision, rs.preexisting ?? false]), [
        ['web-5d567cc74c', '1', true],
        ['web-7b8f9d6c5d', '2', false],
      ]);
      assert.deepEqual({ live: j.counts.live, ready: j.counts.ready, oldLive: j.counts.oldLive, deleted: j.counts.deleted }, { live: 2, ready: 2, oldLive: 0, deleted: 2 });
      // Pre-existing pods show only what happened to them during the journey.
      const old = find(j.tree, 'web-5d567cc74c-2kq8z');
      assert.equal(old.preexisting, true);
      assert.deepEqual(kinds(old), ['terminating', 'killing', 'containerTerminated', 'notReady', 'succeeded', 'deleted']);
      assert.equal(stage(old, 'terminating').component, 'replicaset-controller');
      assert.deepEqual(old.pod?.phases, {});
    });

    it('follows a deleted pod, its replacement, and the cascade when the Deployment is deleted', () => {
      const tracer = new JourneyTracer();
      const [id] = replay(stream('deletion-replacement'), tracer);
      const j = tracer.journey(id) as Journey;
      assert.equal(j.status, 'deleted');
      assert.equal(j.done, true);
      assert.equal(j.counts.deleted, 3);
      assert.equal(j.totalDurationMs, 838);
      const rs = j.tree?.children[0] as ObjectJourney;
      assert.deepEqual(rs.children.map((p) => p.ref.name), ['web-5d567cc74c-fw2rn', 'web-5d567cc74c-l8c4k', 'web-5d567cc74c-r5z8t']);
      assert.equal(stage(rs, 'deleted').component, 'garbage-collector');
      assert.equal(stage(find(j.tree, 'web-5d567cc74c-l8c4k'), 'terminating').component, 'garbage-collector');
      assert.equal(stage(find(j.tree, 'web-5d567cc74c-fw2rn'), 'terminating').component, 'kube-apiserver');
      assert.deepEqual(
        (j.tree as ObjectJourney).stages.filter((s) => s.kind === 'available' || s.kind === 'unavailable').map((s) => s.kind),
        ['available', 'unavailable', 'available'],
      );
    });
  });

  describe('re-apply', () => {
    it('freezes the older journey and carries the objects’ state into the new one', () => {
      const tracer = new JourneyTracer();
      const [first] = replay(stream('nginx-deployment'), tracer);
      const frozen = tracer.journey(first) as Journey;
      const second = tracer.begin({ kind: 'Deployment', name: 'web' }, frozen.lastChangeAt + 60_000);
      let j = tracer.journey(second) as Journey;
      assert.equal(j.status, 'complete');
      assert.equal(j.completedAt, undefined, 'nothing has happened yet in the new journey');
      assert.equal(j.counts.ready, 3);
      assert.deepEqual(kinds(j.tree as ObjectJourney), ['submitted']);
      const updated = deploymentObject({ rv: '999999', uid: frozen.root.uid, generation: 2, replicas: 3, image: 'nginx:1.26', status: { observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 3, readyReplicas: 3 } });
      tracer.ingest({ type: 'MODIFIED', object: updated }, frozen.lastChangeAt + 60_010);
      j = tracer.journey(second) as Journey;
      assert.equal(j.status, 'progressing');
      assert.equal(stage(j.tree as ObjectJourney, 'stored#2').title, 'Stored generation 2');
      assert.deepEqual(tracer.journey(first), frozen, 'the older journey does not change');
    });
  });

  describe('internals', () => {
    it("follows all the internals of a journey's first pods and its other objects, only the create of its other pods, and none of kinds it does not trace", () => {
      const { tracer } = deploymentJourney(new JourneyTracer({ internalsDetailPods: 1 }));
      const pod = (name: string, uid: string) => podObject({ name, uid });
      // Before the tracer has seen any pod, an unseen pod may be the journey's first.
      assert.equal(tracer.followedSteps('Pod', pod('web-5d567cc74c-aaaaa', 'p0')), 'all');
      for (const [i, name] of ['web-5d567cc74c-aaaaa', 'web-5d567cc74c-bbbbb'].entries()) tracer.ingest({ type: 'ADDED', object: pod(name, `p${i}`) }, T0 + 30);
      assert.equal(tracer.followedSteps('Pod', pod('web-5d567cc74c-aaaaa', 'p0')), 'all');
      assert.equal(tracer.followedSteps('Pod', pod('web-5d567cc74c-bbbbb', 'p1')), 'create');
      // Unseen, under a journey that has its detail pods already: it will be past them too.
      assert.equal(tracer.followedSteps('Pod', pod('web-5d567cc74c-ccccc', 'p2')), 'create');
      assert.equal(tracer.followedSteps('Pod', podObject({ name: 'elsewhere', uid: 'p3', owner: null })), 'all');
      assert.equal(tracer.followedSteps('ReplicaSet', replicaSetObject({ owner: DEPLOYMENT })), 'all');
      assert.equal(tracer.followedSteps('Event', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default', uid: 'e1' } }), 'none');
    });

    it('attaches etcd writes, watch deliveries and scheduling cycles to the stages they explain', () => {
      const tracer = new JourneyTracer({ schedulingDetailPods: 1 });
      const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
      const dep = deploymentObject({});
      const depRv = String((dep.metadata as { resourceVersion: string }).resourceVersion);
      const ref = { kind: 'Deployment', namespace: 'default', name: 'web', uid: 'dep-1' };
      const write: EtcdWrite = { type: 'etcdWrite', time: T0 + 6.5, key: '/registry/deployments/default/web', verb: 'create', resourceVersion: depRv, object: ref, actor: 'kubectl-client-side-apply' };
      tracer.ingestInternal(write);
      tracer.ingest({ type: 'ADDED', object: dep }, T0 + 9);
      const delivered: WatchDelivery = { type: 'watchDelivered', time: T0 + 7.2, component: 'deployment-controller', eventType: 'ADDED', resourceVersion: depRv, object: ref };
      tracer.ingestInternal(delivered);
      const stored = stage(tracer.journey(id)?.tree as ObjectJourney, 'stored#1');
      assert.deepEqual(stored.evidence.internals?.etcd, [write]);
      assert.deepEqual(stored.evidence.internals?.watch, [delivered]);
      assert.equal(stored.time, T0 + 6.5);
      assert.equal(stored.timeSource, 'internal');

      tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT }) }, T0 + 20);
      const cycle = (pod: { name: string; uid: string }): SchedulingCycle => ({
        type: 'schedulingCycle', time: T0 + 50, pod: { kind: 'Pod', namespace: 'default', ...pod }, attempt: 1, totalNodes: 3, evaluatedNodes: 3, feasibleNodes: 3, result: 'Scheduled', node: 'node-1',
        table: verdictTableOf([{ node: 'node-1', filters: [{ plugin: 'NodeResourcesFit', code: 'Success' }], total: 87 }]),
      });
      for (const [i, name] of ['web-5d567cc74c-aaaaa', 'web-5d567cc74c-bbbbb'].entries()) {
        tracer.ingest({ type: 'ADDED', object: podObject({ name, uid: `p${i}` }) }, T0 + 30);
        tracer.ingestInternal(cycle({ name, uid: `p${i}` }));
        tracer.ingest({ type: 'MODIFIED', object: podObject({ name, uid: `p${i}`, nodeName: 'node-1', conditions: [{ type: 'PodScheduled', status: 'True', at: T0 + 52 }] }) }, T0 + 53);
      }
      const rs = tracer.journey(id)?.tree?.children[0] as ObjectJourney;
      const [detailed, stripped] = rs.children.map((p) => stage(p, 'scheduled').evidence.internals?.scheduling);
      assert.equal(cycleVerdicts(detailed ?? {}).length, 1);
      assert.equal(cycleVerdicts(stripped ?? {}).length, 0);
      assert.equal(stripped?.node, 'node-1');
      // A simulator asks before it builds a placed pod's table: only the detail pods and pods not in a journey get one.
      assert.equal(tracer.keepsPlacedVerdicts({ uid: 'p0', namespace: 'default', name: 'web-5d567cc74c-aaaaa' }), true);
      assert.equal(tracer.keepsPlacedVerdicts({ uid: 'p1', namespace: 'default', name: 'web-5d567cc74c-bbbbb' }), false);
      assert.equal(tracer.keepsPlacedVerdicts({ uid: 'elsewhere', namespace: 'default', name: 'other' }), true);

      // Past the detail pods a cycle that placed nothing keeps its table: it says why the pod is Pending.
      const unplaced = 'web-5d567cc74c-ccccc';
      tracer.ingest({ type: 'ADDED', object: podObject({ name: unplaced, uid: 'p2' }) }, T0 + 60);
      const message = '0/3 nodes are available: 3 Insufficient cpu.';
      tracer.ingestInternal({ ...cycle({ name: unplaced, uid: 'p2' }), result: 'Unschedulable', node: undefined, feasibleNodes: 0, message });
      tracer.ingest({ type: 'MODIFIED', object: podObject({ name: unplaced, uid: 'p2', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, at: T0 + 52 }] }) }, T0 + 61);
      const pending = (tracer.journey(id)?.tree?.children[0] as ObjectJourney).children.find((p) => p.ref.name === unplaced) as ObjectJourney;
      const failed = pending.stages.find((s) => s.evidence.internals?.scheduling)?.evidence.internals?.scheduling;
      assert.equal(failed?.result, 'Unschedulable');
      assert.equal(cycleVerdicts(failed ?? {}).length, 1);
    });
  });

  describe('snapshots and notifications', () => {
    it('notifies listeners with increasing versions until they unsubscribe', () => {
      const tracer = new JourneyTracer();
      const seen: number[] = [];
      const stop = tracer.onDidChange((change) => seen.push(change.version));
      const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
      tracer.ingest({ type: 'ADDED', object: deploymentObject({}) }, T0 + 10);
      tracer.ingest({ type: 'ADDED', object: podObject({ name: 'unrelated', uid: 'x', owner: null }) }, T0 + 11);
      stop();
      tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT }) }, T0 + 20);
      assert.deepEqual(seen, [1, 2]);
      assert.equal(tracer.journey(id)?.version, 3);
    });

    it('hands out immutable, JSON-plain snapshots that share unchanged parts', () => {
      const { tracer, journey } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-5d567cc74c-aaaaa', uid: 'a' }) }, T0 + 30);
      tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-5d567cc74c-bbbbb', uid: 'b' }) }, T0 + 31);
      const before = journey();
      const frozenCopy = JSON.parse(JSON.stringify(before)) as Journey;
      assert.deepEqual(frozenCopy, before, 'a snapshot is plain data');
      tracer.ingest({ type: 'MODIFIED', object: podObject({ name: 'web-5d567cc74c-aaaaa', uid: 'a', nodeName: 'node-1' }) }, T0 + 60);
      const after = journey();
      assert.deepEqual(before, frozenCopy, 'the earlier snapshot did not change');
      const pods = (j: Journey): ObjectJourney[] => j.tree?.children[0]?.children ?? [];
      assert.notEqual(pods(after)[0], pods(before)[0]);
      assert.equal(pods(after)[1], pods(before)[1], 'the unchanged pod is shared');
      assert.equal(pods(after)[0].pod?.node, 'node-1');
    });

    it('folds complete pods past evidenceDetailPods: same stages, times and messages, evidence kept only for the scheduling attempt', () => {
      const readyPod = (name: string, uid: string): KubeObject => ({ ...runningPod(), metadata: { ...(runningPod().metadata as object), name, uid } });
      const { first, second } = twoPodsWithEvidenceDetailOne(readyPod, T0 + 3_000);
      assert.equal(second.detailOne.status, 'complete');
      assert.deepEqual(shownStages(second.detailOne), shownStages(second.everyPod), 'a folded pod shows the same stages');
      assert.deepEqual(first.detailOne, first.everyPod, 'the journey’s first pods keep everything');
      assert.ok(second.everyPod.stages.some((stage) => stage.evidence.conditions !== undefined), 'the unfolded pod has evidence to drop');
      assert.ok(second.detailOne.stages.every((stage) => stage.evidence.conditions === undefined && stage.evidence.fields === undefined && stage.evidence.event === undefined));
    });

    it('gathers no field changes or conditions for a pod past evidenceDetailPods while it starts, and shows the same stages', () => {
      const startingPod = (name: string, uid: string): KubeObject =>
        podObject({
          name,
          uid,
          nodeName: 'node-1',
          conditions: [
            { type: 'PodScheduled', status: 'True', at: T0 + 60 },
            { type: 'Initialized', status: 'True', at: T0 + 100 },
            { type: 'Ready', status: 'False', at: T0 + 100, reason: 'ContainersNotReady' },
          ],
          containers: [{ waiting: { reason: 'ContainerCreating' } }],
        });
      const { first, second } = twoPodsWithEvidenceDetailOne(startingPod, T0 + 200);
      assert.notEqual(second.detailOne.status, 'complete');
      assert.deepEqual(shownStages(second.detailOne), shownStages(second.everyPod), 'the pod shows the same stages');
      assert.deepEqual(first.detailOne, first.everyPod, 'the journey’s first pods gather everything');
      const gathered = (pod: ObjectJourney) => pod.stages.filter((stage) => stage.evidence.conditions !== undefined || stage.evidence.fields !== undefined).length;
      assert.ok(gathered(second.everyPod) > 0, 'a pod within the detail pods gathers conditions');
      assert.equal(gathered(second.detailOne), 0);
    });

    it('builds a released journey again, equal to the one it forgot', () => {
      const { tracer, journey, id } = deploymentJourney();
      tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-5d567cc74c-aaaaa', uid: 'a' }) }, T0 + 30);
      const first = journey();
      assert.equal(journey(), first, 'unchanged journeys are cached');
      tracer.releaseSnapshot(id);
      const rebuilt = journey();
      assert.notEqual(rebuilt, first);
      assert.notEqual(rebuilt.tree, first.tree, 'the objects’ snapshots were forgotten too');
      assert.deepEqual(rebuilt, first);
    });

    it('shows node readiness on pods and refreshes it when the node changes', () => {
      const { tracer, journey } = deploymentJourney();
      const node = (ready: string): KubeObject => ({ kind: 'Node', apiVersion: 'v1', metadata: { name: 'node-1', uid: 'n1' }, status: { conditions: [{ type: 'Ready', status: ready }] } });
      tracer.ingest({ type: 'ADDED', object: node('True') }, T0);
      tracer.ingest({ type: 'ADDED', object: runningPod() }, T0 + 3_000);
      assert.equal(find(journey().tree, POD_REF.name).pod?.nodeReady, true);
      tracer.ingest({ type: 'MODIFIED', object: node('False') }, T0 + 4_000);
      assert.equal(find(journey().tree, POD_REF.name).pod?.nodeReady, false);
    });

    it('begins several journeys for a multi-document apply, each with its own id', () => {
      const tracer = new JourneyTracer();
      const a = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
      const b = tracer.begin({ kind: 'Pod', name: 'debug' }, T0);
      assert.notEqual(a, b);
      assert.deepEqual(tracer.snapshot().map((j) => [j.id, j.status]), [
        [a, 'pending'],
        [b, 'pending'],
      ]);
      assert.equal(a, `Deployment/default/web@${T0}`);
      tracer.ingest({ type: 'ADDED', object: podObject({ name: 'debug', uid: 'dbg', owner: null, created: T0 }) }, T0 + 7);
      assert.equal(tracer.journey(b)?.status, 'pending');
      assert.deepEqual(kinds(tracer.journey(b)?.tree as ObjectJourney), ['submitted', 'stored']);
      assert.equal(stage(tracer.journey(b)?.tree as ObjectJourney, 'submitted').title, 'Applied by kubectl-client-side-apply');
    });
  });
});
