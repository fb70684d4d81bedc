import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connectTracer } from '../../../src/cli/trace';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey, TraceableKind } from '../../../src/core/journey/types';
import { planApply } from '../../../src/extension/headless/apply-plan';
import { dependencyDiagnostics } from '../../../src/extension/headless/dependency-diagnostics';
import { podTooltip } from '../../../src/extension/headless/journey-tree-model';
import { Simulator } from '../../../src/sim/simulator';
import { simulatedJourneys } from './fixtures';

/** The journeys of the plan's documents after `ms` of simulated time (every pod has had time to get stuck). */
function journeysAfter(plan: ReturnType<typeof planApply>, ms: number): (Journey | undefined)[] {
  const simulator = new Simulator({ nodes: 3, seed: 7 });
  const tracer = new JourneyTracer();
  connectTracer(simulator, tracer);
  const ids = plan.documents.map((document) => {
    const applied = simulator.apply(document.object!).object;
    return applied.kind === 'ConfigMap' ? undefined : tracer.begin({ kind: applied.kind as TraceableKind, namespace: 'default', name: applied.metadata?.name ?? '' }, simulator.clock.now());
  });
  simulator.runUntil(() => false, ms);
  return ids.map((id) => (id === undefined ? undefined : tracer.journey(id)));
}

/** 1-based line of the first line of `text` containing `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  assert.ok(index >= 0, `no line with ${needle}`);
  return index + 1;
}

describe('dependency diagnostics: a stuck pod’s missing object on the manifest line that names it', () => {
  it('puts the CreateContainerConfigError of a Deployment’s pods on the configMapKeyRef name', () => {
    const text = readFileSync('examples/missing-configmap.yaml', 'utf8');
    const plan = planApply(text);
    assert.deepEqual(dependencyDiagnostics(plan, journeysAfter(plan, 30_000)), [
      {
        line: lineOf(text, 'name: web-config'),
        message: '2 pods wait for ConfigMap "web-config": CreateContainerConfigError: configmap "web-config" not found',
        severity: 'warning',
        code: 'CreateContainerConfigError',
      },
    ]);
  });

  it('puts a FailedMount on the volume’s secretName, counting lines from a selection’s start', () => {
    const text = readFileSync('test/corpus/docs/pods/inject/secret-pod.yaml', 'utf8');
    const plan = planApply(text, { startLine: 10 });
    const [diagnostic, ...others] = dependencyDiagnostics(plan, journeysAfter(plan, 30_000));
    assert.equal(others.length, 0);
    assert.equal(diagnostic.line, lineOf(text, 'secretName: "test-secret"') + 10);
    assert.match(diagnostic.message, /^Pod secret-test-pod waits for Secret "test-secret": FailedMount: MountVolume\.SetUp failed for volume "secret-volume" : secret "test-secret" not found$/);
  });

  it('names the missing object in the stuck pod’s tooltip in the Journeys view', () => {
    const plan = planApply(readFileSync('test/corpus/docs/pods/inject/secret-pod.yaml', 'utf8'));
    const [journey] = journeysAfter(plan, 10_000);
    assert.ok(journey?.tree);
    assert.match(podTooltip(journey.tree), /Waits for Secret "test-secret", which does not exist yet\./);
  });

  it('says nothing once the object exists, nor for a journey stuck for another reason', () => {
    const together = planApply(readFileSync('examples/configmap-deployment.yaml', 'utf8'));
    const journeys = journeysAfter(together, 30_000);
    assert.equal(journeys[1]?.status, 'complete');
    assert.deepEqual(dependencyDiagnostics(together, journeys), []);
    const tooBig = readFileSync('examples/too-big.yaml', 'utf8');
    const unschedulable = simulatedJourneys(tooBig, 3, 30_000).journeys;
    assert.equal(unschedulable[0]?.stuck, true);
    assert.deepEqual(dependencyDiagnostics(planApply(tooBig), unschedulable), []);
  });
});
