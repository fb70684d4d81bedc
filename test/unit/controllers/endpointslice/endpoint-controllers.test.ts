import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import { VirtualClock } from '../../../../src/sim/clock';
import { defaultTimings, type SimContext } from '../../../../src/sim/context';
import { EndpointsController, type EndpointsObject } from '../../../../src/sim/controllers/endpoint/endpoints-controller';
import { EndpointSliceController } from '../../../../src/sim/controllers/endpointslice/endpointslice-controller';
import type { EndpointSliceObject } from '../../../../src/sim/controllers/endpointslice/service-types';
import { GarbageCollector } from '../../../../src/sim/controllers/garbage-collector';
import { MemoryStore } from '../../../../src/sim/store/store';

function setup() {
  const clock = new VirtualClock({ seed: 5 });
  const internals = { record: () => undefined, recordsWatchDeliveries: false };
  const store = new MemoryStore({ clock, internals });
  store.create('Namespace', { metadata: { name: 'default' } });
  store.create('Node', { metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } } });
  const ctx = { store, clock, events: { record: () => undefined }, internals, timings: defaultTimings } as SimContext;
  new GarbageCollector(ctx).start();
  new EndpointSliceController(ctx).start();
  new EndpointsController(ctx).start();
  const settle = (): void => {
    while (clock.step()) {
      /* run the controllers */
    }
  };
  return { store, clock, settle };
}

type Store = ReturnType<typeof setup>['store'];

interface PodOptions {
  ready?: boolean;
  labels?: Record<string, string>;
  ports?: { name: string; containerPort: number }[];
}

let podCount = 0;
function addPod(store: Store, name: string, options: PodOptions = {}): void {
  const host = ++podCount;
  store.create('Pod', { metadata: { name, namespace: 'default', labels: options.labels ?? { app: 'web' } }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx', ports: options.ports }] } } as KubeObject);
  store.mutate<KubeObject>('Pod', 'default', name, (copy) => {
    copy.status = { phase: 'Running', podIP: `10.244.${host >> 8}.${host & 255}`, conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }] };
  }, { subresource: 'status' });
}

function addService(store: Store, name: string, spec: Record<string, unknown> = {}): void {
  store.create('Service', { metadata: { name, namespace: 'default', labels: { tier: 'front' } }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec } } as KubeObject);
}

function slicesOf(store: Store, service: string): EndpointSliceObject[] {
  return store.list<EndpointSliceObject>('EndpointSlice', { namespace: 'default', labelSelector: `kubernetes.io/service-name=${service}` }).items;
}

function endpointNames(slices: EndpointSliceObject[]): string[] {
  return slices.flatMap((slice) => (slice.endpoints ?? []).map((endpoint) => endpoint.targetRef.name ?? '')).sort();
}

describe('EndpointSlice and Endpoints controllers', () => {
  it('spreads 250 pods over slices of at most 100 endpoints, labelled and owned by the Service, and follows a pod leaving', () => {
    const { store, settle } = setup();
    addService(store, 'web');
    for (let i = 0; i < 250; i++) addPod(store, `web-${i}`);
    settle();
    const slices = slicesOf(store, 'web');
    assert.deepEqual(slices.map((slice) => slice.endpoints?.length).sort(), [100, 100, 50]);
    for (const slice of slices) {
      assert.equal(slice.metadata?.labels?.['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
      assert.equal(slice.metadata?.labels?.tier, 'front');
      assert.equal(slice.metadata?.ownerReferences?.[0].kind, 'Service');
      assert.match(slice.metadata?.name ?? '', /^web-[a-z0-9]{5}$/);
      assert.deepEqual(slice.ports, [{ name: '', port: 8080, protocol: 'TCP' }]);
    }
    const first = slices.flatMap((slice) => slice.endpoints ?? []).find((endpoint) => endpoint.targetRef.name === 'web-0');
    assert.deepEqual(first, { addresses: ['10.244.0.1'], conditions: { ready: true, serving: true, terminating: false }, targetRef: first?.targetRef, nodeName: 'node-1', zone: 'zone-a' });
    assert.equal(endpointNames(slices).length, 250);
    const endpoints = store.get<EndpointsObject>('Endpoints', 'default', 'web');
    assert.equal(endpoints?.subsets?.[0].addresses?.length, 250);

    const unchanged = new Map(slices.map((slice) => [slice.metadata?.name, slice.metadata?.resourceVersion]));
    store.delete('Pod', 'default', 'web-7', { gracePeriodSeconds: 0 });
    store.mutate<KubeObject>('Pod', 'default', 'web-8', (copy) => {
      copy.metadata!.labels = { app: 'other' };
    });
    settle();
    const after = slicesOf(store, 'web');
    assert.equal(endpointNames(after).length, 248);
    assert.ok(!endpointNames(after).includes('web-7') && !endpointNames(after).includes('web-8'));
    // Only the slice that held the two pods was rewritten.
    assert.equal(after.filter((slice) => unchanged.get(slice.metadata?.name) !== slice.metadata?.resourceVersion).length, 1);
    assert.equal(store.get<EndpointsObject>('Endpoints', 'default', 'web')?.subsets?.[0].addresses?.length, 248);
  });

  it('resolves a named targetPort on each pod; a pod without that port gets no port in its slice and is left out of Endpoints', () => {
    const { store, settle } = setup();
    addService(store, 'web', { ports: [{ name: 'http', port: 80, targetPort: 'web-port', protocol: 'TCP' }] });
    addPod(store, 'named-1', { ports: [{ name: 'web-port', containerPort: 8080 }] });
    addPod(store, 'named-2', { ports: [{ name: 'web-port', containerPort: 9090 }] });
    addPod(store, 'unnamed');
    settle();
    const byPorts = new Map(slicesOf(store, 'web').map((slice) => [JSON.stringify(slice.ports), endpointNames([slice])]));
    assert.deepEqual(byPorts.get(JSON.stringify([{ name: 'http', port: 8080, protocol: 'TCP' }])), ['named-1']);
    assert.deepEqual(byPorts.get(JSON.stringify([{ name: 'http', port: 9090, protocol: 'TCP' }])), ['named-2']);
    assert.deepEqual(byPorts.get('[]'), ['unnamed']);
    const subsets = store.get<EndpointsObject>('Endpoints', 'default', 'web')?.subsets ?? [];
    assert.deepEqual(subsets.map((subset) => [subset.addresses?.map((address) => address.targetRef.name), subset.ports?.[0].port]).sort(), [[['named-1'], 8080], [['named-2'], 9090]]);
  });

  it('lists not-ready pods as not ready, or as ready with publishNotReadyAddresses; a terminating pod is serving but not ready', () => {
    const { store, settle } = setup();
    addService(store, 'web');
    addService(store, 'web-all', { publishNotReadyAddresses: true });
    addPod(store, 'starting', { ready: false });
    addPod(store, 'ready');
    settle();
    const conditions = (service: string, pod: string) => slicesOf(store, service).flatMap((slice) => slice.endpoints ?? []).find((endpoint) => endpoint.targetRef.name === pod)?.conditions;
    assert.deepEqual(conditions('web', 'starting'), { ready: false, serving: false, terminating: false });
    assert.deepEqual(conditions('web-all', 'starting'), { ready: true, serving: false, terminating: false });
    const web = store.get<EndpointsObject>('Endpoints', 'default', 'web')?.subsets?.[0];
    assert.deepEqual(web?.notReadyAddresses?.map((address) => address.targetRef.name), ['starting']);
    assert.deepEqual(web?.addresses?.map((address) => address.targetRef.name), ['ready']);
    assert.deepEqual(store.get<EndpointsObject>('Endpoints', 'default', 'web-all')?.subsets?.[0].addresses?.map((address) => address.targetRef.name), ['starting', 'ready']);

    // Bound to a node: a graceful delete only marks it, the kubelet (absent here) would finish it.
    store.delete('Pod', 'default', 'ready', { gracePeriodSeconds: 30 });
    settle();
    assert.deepEqual(conditions('web', 'ready'), { ready: false, serving: true, terminating: true });
    assert.deepEqual(conditions('web-all', 'ready'), { ready: true, serving: true, terminating: true });
    assert.equal(store.get<EndpointsObject>('Endpoints', 'default', 'web')?.subsets?.[0].addresses, undefined);
  });

  it('keeps one placeholder slice for a Service no pod matches, and removes slices and Endpoints with the Service', () => {
    const { store, settle } = setup();
    addService(store, 'lonely', { selector: { app: 'nothing' } });
    addPod(store, 'web-1');
    settle();
    const slices = slicesOf(store, 'lonely');
    assert.equal(slices.length, 1);
    assert.deepEqual([slices[0].endpoints, slices[0].ports], [[], null]);
    assert.equal(store.get<EndpointsObject>('Endpoints', 'default', 'lonely')?.subsets, undefined);
    store.delete('Service', 'default', 'lonely');
    settle();
    assert.equal(slicesOf(store, 'lonely').length, 0);
    assert.equal(store.get('Endpoints', 'default', 'lonely'), undefined);
  });
});
