/** The store's tables for established CRDs' kinds, driven by the simulator's CRD controller. */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';
import { ApiError, type StoreChange } from '../../../src/sim/store/types';

const CRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'pods.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    // A custom kind named like a built-in one lives in a table of its own.
    names: { plural: 'pods', kind: 'Pod' },
    versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
  },
};

function established(simulator: Simulator): void {
  simulator.store.create('CustomResourceDefinition', structuredClone(CRD));
  assert.equal(simulator.runUntil(() => simulator.store.customResources().length > 0, 1_000), 'done');
}

describe('custom resources in the store', () => {
  it('serves a CRD\'s kind once the CRD controller has established it, apart from the built-in kind of the same name', () => {
    const simulator = new Simulator({ nodes: 1, seed: 1 });
    assert.equal(simulator.store.customResourceInfo('Pod.example.com'), undefined);
    established(simulator);
    const crd = simulator.store.read('CustomResourceDefinition', undefined, 'pods.example.com');
    assert.deepEqual((crd.status as { conditions: { type: string }[] }).conditions.map((c) => c.type), ['NamesAccepted', 'Established']);
    const created = simulator.store.create<KubeObject>('Pod.example.com', { metadata: { name: 'p' }, spec: { size: 2, extra: true }, status: { ignored: true } });
    assert.deepEqual([created.apiVersion, created.kind, created.metadata?.namespace, created.spec, created.status], ['example.com/v1', 'Pod', 'default', { size: 2 }, undefined]);
    assert.equal(simulator.store.list('Pod').items.some((pod) => pod.metadata?.name === 'p'), false);
    assert.throws(
      () => simulator.store.create('Pod.example.com', { metadata: { name: 'q' }, spec: { size: 'big' } }),
      (error: unknown) => error instanceof ApiError && error.code === 422 && error.message === 'Pod.example.com "q" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    );
  });

  it('leaves an object owned by a custom resource to the garbage collector as owned by a live owner', () => {
    const simulator = new Simulator({ nodes: 1, seed: 1 });
    established(simulator);
    const owner = simulator.store.create<KubeObject>('Pod.example.com', { metadata: { name: 'owner' }, spec: {} });
    const ownerReferences = [{ apiVersion: 'example.com/v1', kind: 'Pod', name: 'owner', uid: owner.metadata?.uid ?? '', controller: true }];
    simulator.store.create('ConfigMap', { metadata: { name: 'owned', namespace: 'default', ownerReferences }, data: {} });
    simulator.runUntil(() => false, 1_000);
    assert.notEqual(simulator.store.get('ConfigMap', 'default', 'owned'), undefined);
  });

  it('deletes the custom resources, with DELETED changes, when the CRD is deleted', () => {
    const simulator = new Simulator({ nodes: 1, seed: 1 });
    established(simulator);
    simulator.store.create('Pod.example.com', { metadata: { name: 'p' }, spec: {} });
    const changes: string[] = [];
    simulator.store.subscribe('Pod.example.com', (change: StoreChange) => changes.push(`${change.type} ${change.object.metadata?.name}`));
    simulator.store.delete('CustomResourceDefinition', undefined, 'pods.example.com');
    assert.deepEqual(changes, ['DELETED p']);
    assert.deepEqual(simulator.store.customResources(), []);
    assert.throws(() => simulator.store.list('Pod.example.com'), (error: unknown) => error instanceof ApiError && error.code === 404);
  });
});
