/**
 * Journeys of pods the scheduler does not place, traced on the simulator: a pod that names its
 * node (existing or not) and a pod held by scheduling gates.
 */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey } from '../../../src/core/journey/types';
import { Simulator } from '../../../src/sim/simulator';

function pod(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nginx', namespace: 'default' }, spec: { ...spec, containers: [{ name: 'nginx', image: 'nginx' }] } };
}

/** Applies `object` to a fresh 3-node simulator and runs `virtualMs`, tracing the pod. */
function trace(object: KubeObject, virtualMs: number): Journey {
  const simulator = new Simulator({ nodes: 3, seed: 1 });
  const tracer = new JourneyTracer();
  for (const kind of ['Pod', 'Event'] as const) {
    simulator.store.subscribe(kind, (change) => tracer.ingest({ type: change.type, object: change.object }, simulator.clock.now()));
  }
  const id = tracer.begin({ kind: 'Pod', namespace: 'default', name: 'nginx' }, simulator.clock.now());
  simulator.apply(object);
  simulator.runUntil(() => false, virtualMs);
  return tracer.journey(id) as Journey;
}

const stageKinds = (journey: Journey): string[] => journey.tree!.stages.map((stage) => `${stage.kind} ${stage.component}`);

describe('journeys of pods the scheduler does not place', () => {
  it('a pod naming a node that exists runs with no scheduling stage', () => {
    const journey = trace(pod({ nodeName: 'node-2' }), 30_000);
    assert.equal(journey.tree?.status, 'complete');
    assert.ok(!stageKinds(journey).some((stage) => stage.startsWith('scheduled')), stageKinds(journey).join('\n'));
    const stored = journey.tree!.stages.find((stage) => stage.kind === 'stored');
    assert.match(stored?.title ?? '', /spec\.nodeName: no scheduler/);
  });

  it('a pod naming a node that does not exist waits, then the pod garbage collector fails and deletes it after the 40 s quarantine', () => {
    const waiting = trace(pod({ nodeName: 'foo-node' }), 39_000);
    assert.notEqual(waiting.tree?.status, 'complete');
    assert.ok(!stageKinds(waiting).some((stage) => stage.startsWith('scheduled')), 'no scheduler binds it');
    const collected = trace(pod({ nodeName: 'foo-node' }), 61_000);
    assert.equal(collected.tree?.status, 'failed');
    assert.equal(collected.tree?.stuck?.reason, 'DeletionByPodGC');
    assert.equal(collected.tree?.stuck?.message, 'PodGC: node no longer exists');
    assert.ok(stageKinds(collected).includes('failed pod-garbage-collector'), stageKinds(collected).join('\n'));
  });

  it('a gated pod is stuck with SchedulingGated, written by the API server, with no scheduler attempt', () => {
    const journey = trace(pod({ schedulingGates: [{ name: 'example.com/foo' }] }), 30_000);
    assert.equal(journey.tree?.status, 'stuck');
    assert.equal(journey.tree?.stuck?.reason, 'SchedulingGated');
    assert.equal(journey.tree?.stuck?.message, 'Scheduling is blocked due to non-empty scheduling gates');
    assert.deepEqual(stageKinds(journey).filter((stage) => stage.startsWith('failedScheduling')), ['failedScheduling kube-apiserver']);
  });
});
