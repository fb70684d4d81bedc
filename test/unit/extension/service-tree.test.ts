import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { TRACEABLE_KIND_NAMES } from '../../../src/common/traceable-kinds';
import { JourneyTreeModel, CONTEXT_VALUES } from '../../../src/extension/headless/journey-tree-model';
import { TraceSession } from '../../../src/extension/headless/trace-session';
import { Simulator } from '../../../src/sim/simulator';

const MANIFEST: KubeObject[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'hello', namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'hello' } }, template: { metadata: { labels: { app: 'hello' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  },
  { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hello', namespace: 'default' }, spec: { type: 'NodePort', selector: { app: 'hello' }, ports: [{ port: 80 }] } },
];

describe('journey tree model of a Service', () => {
  it('shows Service → EndpointSlice → the pods it routes to, with the ClusterIP and NodePort', () => {
    const simulator = new Simulator({ nodes: 2, seed: 9 });
    const session = new TraceSession();
    for (const kind of [...TRACEABLE_KIND_NAMES, 'Event' as const]) simulator.store.subscribe(kind, (change) => session.ingest({ type: change.type, object: change.object }, simulator.clock.now()));
    simulator.internals.onStep((step) => session.ingestInternal(step));
    const entries = MANIFEST.map((object, documentIndex) => {
      const applied = simulator.apply(object);
      const kind = applied.object.kind as 'Deployment' | 'Service';
      const journeyId = session.begin({ kind, namespace: 'default', name: 'hello' }, simulator.clock.now());
      return { documentIndex, display: `${kind.toLowerCase()}/hello`, kind, name: 'hello', namespace: 'default', line: 1 + documentIndex * 10, action: 'created' as const, journeyId };
    });
    session.recordManifest({ key: 'file:///work/hello.yaml', label: 'hello.yaml', target: 'Simulator', appliedAt: 0, entries });
    simulator.runUntil(() => session.journey(entries[1].journeyId)?.status === 'complete', 60_000);

    const model = new JourneyTreeModel(session);
    const [manifest] = model.children();
    const serviceNode = model.children(manifest)[1];
    const serviceItem = model.item(serviceNode);
    const clusterIP = simulator.store.get<KubeObject & { spec: { clusterIP: string; ports: { nodePort: number }[] } }>('Service', 'default', 'hello')!.spec;
    assert.equal(serviceItem?.label, 'hello');
    assert.match(serviceItem?.description ?? '', new RegExp(`^Service · ClusterIP ${clusterIP.clusterIP.replaceAll('.', '\\.')} · NodePort ${clusterIP.ports[0].nodePort} · 2 endpoints · programmed on 2 nodes · `));
    assert.equal(serviceItem?.contextValue, CONTEXT_VALUES.service);
    const [sliceNode] = model.children(serviceNode);
    assert.match(model.item(sliceNode)?.description ?? '', /^EndpointSlice · 2\/2 endpoints ready$/);
    const endpoints = model.children(sliceNode);
    const podNames = simulator.store.list('Pod', { namespace: 'default' }).items.map((pod) => pod.metadata?.name).sort();
    assert.deepEqual(endpoints.map((node) => model.item(node)?.label).sort(), podNames);
    for (const node of endpoints) {
      assert.match(model.item(node)?.description ?? '', /^ready · node-\d$/);
      assert.equal(model.parentOf(node), sliceNode);
    }
  });
});
