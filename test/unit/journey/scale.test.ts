/**
 * Scale: 10,000 pods in one journey by default; `KJ_SCALE=full` runs 150,000 pods in 15 journeys
 * (the SIG-Scalability 5,000-node / 150,000-pod anchor). The checks are about growth, not speed:
 * the cost per event for the last pods must stay close to the cost for the first ones.
 */
import assert from 'node:assert/strict';
import type { KubeObject, WatchEvent } from '../../../src/core/k8s';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey } from '../../../src/core/journey/types';
import { iso, T0 } from './objects';

const full = process.env.KJ_SCALE === 'full';
const JOURNEYS = full ? 15 : 1;
const PODS = 10_000;

let rv = 1;

/** The watch events one pod produces on its way to Ready: 4 object changes and 4 events. */
function podLife(dep: string, rsName: string, rsUid: string, i: number, start: number): [WatchEvent, number][] {
  const name = `${rsName}-${i.toString(36).padStart(5, '0')}`;
  const uid = `${dep}-pod-${i}`;
  const node = `node-${i % 5_000}`;
  const meta = (): Record<string, unknown> => ({ name, namespace: 'default', uid, resourceVersion: String(++rv), creationTimestamp: iso(start), ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rsName, uid: rsUid, controller: true }] });
  const spec = (bound: boolean): Record<string, unknown> => ({ containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }], ...(bound ? { nodeName: node } : {}) });
  const conditions = (ready: boolean): Record<string, unknown>[] => [
    { type: 'PodScheduled', status: 'True', lastTransitionTime: iso(start + 20) },
    { type: 'Initialized', status: 'True', lastTransitionTime: iso(start + 40) },
    { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: iso(start + (ready ? 900 : 40)) },
  ];
  const pod = (status: Record<string, unknown>, bound: boolean): KubeObject => ({ kind: 'Pod', apiVersion: 'v1', metadata: meta(), spec: spec(bound), status });
  const event = (reason: string, message: string, at: number, component: string, fieldPath?: string): KubeObject => ({
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: `${name}.${(++rv).toString(16)}`, namespace: 'default' },
    involvedObject: { kind: 'Pod', namespace: 'default', name, uid, ...(fieldPath ? { fieldPath } : {}) },
    reason,
    message,
    source: { component },
    firstTimestamp: iso(at),
    lastTimestamp: iso(at),
    count: 1,
    type: 'Normal',
  });
  return [
    [{ type: 'ADDED', object: pod({ phase: 'Pending' }, false) }, start],
    [{ type: 'MODIFIED', object: pod({ phase: 'Pending', conditions: conditions(false).slice(0, 1) }, true) }, start + 20],
    [{ type: 'ADDED', object: event('Scheduled', `Successfully assigned default/${name} to ${node}`, start + 20, 'default-scheduler') }, start + 21],
    [{ type: 'MODIFIED', object: pod({ phase: 'Pending', conditions: conditions(false), containerStatuses: [{ name: 'app', state: { waiting: { reason: 'ContainerCreating' } }, ready: false, restartCount: 0 }] }, true) }, start + 40],
    [{ type: 'ADDED', object: event('Pulled', 'Container image "registry.k8s.io/pause:3.9" already present on machine', start + 500, 'kubelet', 'spec.containers{app}') }, start + 501],
    [{ type: 'ADDED', object: event('Created', 'Created container: app', start + 600, 'kubelet', 'spec.containers{app}') }, start + 601],
    [{ type: 'ADDED', object: event('Started', 'Started container app', start + 800, 'kubelet', 'spec.containers{app}') }, start + 801],
    [{ type: 'MODIFIED', object: pod({ phase: 'Running', conditions: conditions(true), containerStatuses: [{ name: 'app', state: { running: { startedAt: iso(start + 800) } }, ready: true, restartCount: 0 }] }, true) }, start + 900],
  ];
}

function unrelatedEvent(i: number): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: `noise-${i}`, namespace: 'kube-system' },
    involvedObject: { kind: 'Pod', namespace: 'kube-system', name: `coredns-7db6d8ff4d-${i}`, uid: `noise-${i}` },
    reason: 'Pulled',
    message: 'x',
    source: { component: 'kubelet' },
    firstTimestamp: iso(T0),
    count: 1,
    type: 'Normal',
  };
}

describe('journey tracer at scale', function () {
  this.timeout(full ? 1_800_000 : 300_000);

  it(`follows ${JOURNEYS * PODS} pods with a per-event cost that does not grow with the journey`, () => {
    const tracer = new JourneyTracer();
    const ids: string[] = [];
    const slices: number[][] = [];
    for (let j = 0; j < JOURNEYS; j++) {
      const dep = `app-${j}`;
      const start = T0 + j * 60_000;
      ids.push(tracer.begin({ kind: 'Deployment', name: dep }, start));
      const depUid = `${dep}-uid`;
      const rsName = `${dep}-6d4cf56db6`;
      const rsUid = `${dep}-rs`;
      tracer.ingest({ type: 'ADDED', object: { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: dep, namespace: 'default', uid: depUid, generation: 1, resourceVersion: String(++rv), creationTimestamp: iso(start) }, spec: { replicas: PODS, template: { spec: { containers: [{ name: 'app' }] } }, strategy: {} }, status: {} } }, start + 5);
      tracer.ingest({ type: 'ADDED', object: { kind: 'ReplicaSet', apiVersion: 'apps/v1', metadata: { name: rsName, namespace: 'default', uid: rsUid, generation: 1, resourceVersion: String(++rv), creationTimestamp: iso(start), annotations: { 'deployment.kubernetes.io/revision': '1' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: dep, uid: depUid, controller: true }] }, spec: { replicas: PODS, selector: {}, template: { spec: { containers: [{ name: 'app' }] } } }, status: {} } }, start + 6);
      const times: number[] = [];
      const batch = 1_000;
      for (let b = 0; b < PODS / batch; b++) {
        const lives: [WatchEvent, number][][] = [];
        for (let i = b * batch; i < (b + 1) * batch; i++) lives.push(podLife(dep, rsName, rsUid, i, start + 10 + i));
        const began = performance.now();
        for (const life of lives) for (const [event, at] of life) tracer.ingest(event, at);
        for (let n = 0; n < 200; n++) tracer.ingest({ type: 'ADDED', object: unrelatedEvent(n) }, start);
        times.push(performance.now() - began);
      }
      slices.push(times);
    }
    const stats = tracer.stats();
    assert.equal(stats.pending, 0, 'unrelated events are not kept');
    assert.equal(stats.objects, JOURNEYS * (PODS + 2));
    for (const id of ids) {
      const j = tracer.journey(id) as Journey;
      assert.equal(j.counts.ready, PODS);
      assert.equal(j.phaseStats.pod_startup?.count, PODS);
      assert.equal(j.tree?.children[0]?.children.length, PODS);
    }
    // Compare the cheapest of the first and last three batches: robust against GC pauses and a busy machine.
    const all = slices.flat();
    const early = Math.min(...all.slice(0, 3));
    const late = Math.min(...all.slice(-3));
    assert.ok(late < early * 4 + 20, `per-batch cost grew from ${early.toFixed(1)} ms to ${late.toFixed(1)} ms`);
  });
});
