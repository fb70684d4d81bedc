/**
 * The journey of a graceful deletion, traced on the simulator with the docs' lifecycle-events
 * example (kubernetes/website content/en/examples/pods/lifecycle-events.yaml): postStart writes a
 * file, preStop quits nginx and waits for it. While the deletion runs the journey shows the
 * request and the kubelet's `Killing`, and the Journeys tree says `Terminating`; then `Deleted`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseManifest } from '../../../src/core/manifest';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey } from '../../../src/core/journey/types';
import { podDescription } from '../../../src/extension/headless/journey-tree-model';
import { Simulator } from '../../../src/sim/simulator';

const EXAMPLE = 'test/corpus/docs/pods/lifecycle-events.yaml';

describe('journey of a graceful deletion with lifecycle hooks', () => {
  it("the docs' lifecycle-events pod: runs after its postStart hook, then Terminating, Killing, and Deleted once nginx quit", () => {
    const simulator = new Simulator({ nodes: 3, seed: 1 });
    const tracer = new JourneyTracer();
    for (const kind of ['Pod', 'Event'] as const) {
      simulator.store.subscribe(kind, (change) => tracer.ingest({ type: change.type, object: change.object }, simulator.clock.now()));
    }
    simulator.internals.onStep((step) => tracer.ingestInternal(step));
    const pod = parseManifest(readFileSync(EXAMPLE, 'utf8')).documents[0].object!;
    const id = tracer.begin({ kind: 'Pod', namespace: 'default', name: 'lifecycle-demo' }, simulator.clock.now());
    simulator.apply(pod);
    simulator.runUntil(() => false, 30_000);
    assert.equal((tracer.journey(id) as Journey).tree?.status, 'complete');

    simulator.store.delete('Pod', 'default', 'lifecycle-demo');
    // The deletion request is stored at once; the kubelet has not stopped anything yet.
    simulator.runUntil(() => false, 1);
    const during = (tracer.journey(id) as Journey).tree!;
    assert.ok(during.stages.some((stage) => stage.kind === 'terminating'), during.stages.map((stage) => stage.kind).join(','));
    assert.match(podDescription(during), /· Terminating ·/);

    simulator.runUntil(() => false, 10_000);
    const after = (tracer.journey(id) as Journey).tree!;
    const killing = after.stages.find((stage) => stage.kind === 'killing');
    assert.ok(JSON.stringify(killing).includes('Stopping container lifecycle-demo-container'), JSON.stringify(killing));
    assert.ok(!after.stages.some((stage) => stage.reason === 'FailedPreStopHook'), 'the preStop hook succeeds');
    const deleted = after.stages.find((stage) => stage.kind === 'deleted');
    assert.ok(deleted, after.stages.map((stage) => stage.kind).join(','));
    assert.ok(deleted.time - during.stages.find((stage) => stage.kind === 'terminating')!.time < 3000, 'nginx quits at once: no grace period waited');
    assert.match(podDescription(after), /· Deleted/);
  });
});
