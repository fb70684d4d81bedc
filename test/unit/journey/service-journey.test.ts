import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { connectTracer } from '../../../src/cli/trace';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import { journeySummary } from '../../../src/core/explain/lens';
import type { Journey, ObjectJourney } from '../../../src/core/journey/types';
import { Simulator } from '../../../src/sim/simulator';

function deployment(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ name: 'http', containerPort: 80 }] }] } } },
  };
}

function service(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { ports: [{ port: 80, targetPort: 'http' }], ...spec } };
}

/** Applies the objects in order, begins a journey for each, and runs until every journey settled. */
function trace(objects: KubeObject[]): { journeys: () => Journey[]; tracer: JourneyTracer; ids: string[] } {
  const simulator = new Simulator({ nodes: 3, seed: 4 });
  const tracer = new JourneyTracer();
  connectTracer(simulator, tracer);
  const ids: string[] = [];
  for (const object of objects) {
    const applied = simulator.apply(object);
    ids.push(tracer.begin({ kind: applied.object.kind as 'Service', namespace: 'default', name: applied.object.metadata?.name ?? '' }, simulator.clock.now()));
  }
  const outcome = simulator.runUntil(() => ids.every((id) => tracer.progress(id)?.settled), 120_000);
  assert.equal(outcome, 'done');
  return { journeys: () => ids.map((id) => tracer.journey(id) as Journey), tracer, ids };
}

function stageKinds(object: ObjectJourney | undefined): string[] {
  return (object?.stages ?? []).map((stage) => stage.kind);
}

function pods(journey: Journey): ObjectJourney[] {
  return journey.tree?.children.flatMap((replicaSet) => replicaSet.children) ?? [];
}

describe('Service journeys', () => {
  it('go stored → ClusterIP allocated → endpoints added → programmed, and each selected pod ends serving traffic for the Service', () => {
    const { journeys } = trace([deployment('hello', 2), service('hello', { selector: { app: 'hello' } })]);
    const [web, hello] = journeys();
    assert.equal(hello.status, 'complete');
    const root = hello.tree;
    const kinds = stageKinds(root);
    assert.deepEqual(kinds.slice(0, 3), ['submitted', 'stored', 'ipAllocated']);
    assert.equal(kinds.filter((kind) => kind === 'endpointAdded').length, 2);
    assert.equal(kinds.at(-1), 'programmed');
    assert.match(root?.stages.at(-1)?.title ?? '', /^Programmed on 3 nodes: traffic goes to 2 endpoints$/);
    assert.match(root?.service?.clusterIP ?? '', /^10\.(9[6-9]|10\d|11[01])\./);
    assert.deepEqual([root?.service?.readyEndpoints, root?.service?.programmedEndpoints, root?.service?.programmedNodes], [2, 2, 3]);

    const slice = root?.children[0];
    assert.equal(slice?.ref.kind, 'EndpointSlice');
    assert.deepEqual(slice?.endpoints?.map((endpoint) => endpoint.pod).sort(), pods(web).map((pod) => pod.ref.name).sort());

    for (const pod of pods(web)) {
      const last = pod.stages.at(-1);
      assert.equal(last?.kind, 'servingTraffic', pod.ref.name);
      assert.equal(last?.title, 'Serving traffic for Service hello');
      assert.ok((last?.time ?? 0) >= (pod.stages.find((stage) => stage.kind === 'ready')?.time ?? Infinity));
    }
    // The Service completes when kube-proxy programmed the last pod, after every pod was Ready.
    assert.ok((hello.completedAt ?? 0) >= (web.completedAt ?? Infinity));
    assert.match(journeySummary(hello), /^2 endpoints · \d/);
  });

  it('says "no endpoints" for a selector no pod matches, and settles without completing', () => {
    const { journeys, tracer, ids } = trace([deployment('hello', 1), service('typo', { selector: { app: 'helo' } })]);
    const typo = journeys()[1];
    assert.equal(typo.status, 'stuck');
    assert.equal(typo.done, false);
    assert.deepEqual(tracer.progress(ids[1]), { done: false, stuck: true, settled: true });
    assert.equal(typo.stuckObjects[0]?.stuck.reason, 'NoEndpoints');
    assert.equal(typo.stuckObjects[0]?.stuck.message, 'no endpoints: no pod matches selector app=helo');
    assert.equal(journeySummary(typo), '0 endpoints · stuck: NoEndpoints');
    assert.equal(journeys()[0].status, 'complete');
  });

  it('names the problem of a selected pod that cannot become ready', () => {
    const stuckDeployment = deployment('hello', 1);
    (stuckDeployment.spec as { template: { spec: Record<string, unknown> } }).template.spec.nodeSelector = { disktype: 'ssd' };
    const simulator = new Simulator({ nodes: 2, seed: 4 });
    const tracer = new JourneyTracer();
    connectTracer(simulator, tracer);
    // Both traced, as `trace` traces every document: the Service learns of the pod applied before it.
    simulator.apply(stuckDeployment);
    tracer.begin({ kind: 'Deployment', namespace: 'default', name: 'hello' }, simulator.clock.now());
    simulator.runUntil(() => false, 100);
    simulator.apply(service('hello', { selector: { app: 'hello' } }));
    const id = tracer.begin({ kind: 'Service', namespace: 'default', name: 'hello' }, simulator.clock.now());
    simulator.runUntil(() => tracer.progress(id)?.stuck === true, 30_000);
    const stuck = tracer.journey(id)?.stuckObjects[0]?.stuck;
    assert.equal(stuck?.reason, 'FailedScheduling');
    assert.match(stuck?.message ?? '', /^pod hello-[a-z0-9]+-[a-z0-9]{5} is not ready: 0\/2 nodes are available: 2 node\(s\) didn't match Pod's node affinity\/selector\./);
    assert.equal(tracer.progress(id)?.settled, false);
  });

  it('completes a headless Service without kube-proxy, and an ExternalName Service at once', () => {
    const { journeys } = trace([deployment('db', 1), service('db', { clusterIP: 'None', selector: { app: 'db' } }), { apiVersion: 'v1', kind: 'Service', metadata: { name: 'alias', namespace: 'default' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } }]);
    const [, headless, alias] = journeys();
    assert.equal(headless.status, 'complete');
    assert.ok(!stageKinds(headless.tree).includes('programmed'));
    assert.ok(stageKinds(headless.tree).includes('endpointAdded'));
    assert.equal(alias.status, 'complete');
    assert.equal(alias.tree?.stages.find((stage) => stage.kind === 'ipAllocated')?.title, 'ExternalName db.example.com: a DNS alias, no ClusterIP and no endpoints');
  });
});

describe('a re-applied Service', () => {
  it('keeps what kube-proxy programmed, so the new journey completes without a new sync', () => {
    const simulator = new Simulator({ nodes: 2, seed: 4 });
    const tracer = new JourneyTracer();
    connectTracer(simulator, tracer);
    simulator.apply(deployment('hello', 1));
    const manifest = service('hello', { selector: { app: 'hello' } });
    simulator.apply(manifest);
    const first = tracer.begin({ kind: 'Service', namespace: 'default', name: 'hello' }, simulator.clock.now());
    assert.equal(simulator.runUntil(() => tracer.progress(first)?.done === true, 60_000), 'done');
    simulator.runUntil(() => false, 5_000);
    assert.equal(simulator.apply(manifest).action, 'unchanged');
    const second = tracer.begin({ kind: 'Service', namespace: 'default', name: 'hello' }, simulator.clock.now());
    assert.equal(tracer.journey(second)?.status, 'complete');
    assert.equal(tracer.journey(second)?.tree?.service?.programmedEndpoints, 1);
  });
});
