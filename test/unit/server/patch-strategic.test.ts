import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { PatchError } from '../../../src/server/patch/errors';
import { applyStrategicMergePatch, strategicMergePatch } from '../../../src/server/patch/strategic-merge-patch';
import type { SchemaNode } from '../../../src/server/patch/strategic-schema';

/**
 * Upstream's test type (k8s.io/apimachinery strategicpatch patch_test.go `MergeItem`), recursive
 * as in Go: mergingList elements are MergeItems themselves.
 */
function mergeItemSchema(): SchemaNode {
  const leaf: SchemaNode = { fields: new Map() };
  const mergeItem: SchemaNode = { fields: new Map() };
  const retainKeysItem: SchemaNode = { fields: new Map() };
  mergeItem.fields.set('mergingList', { meta: { strategy: 'merge', mergeKey: 'name' }, node: mergeItem });
  mergeItem.fields.set('nonMergingList', { meta: {}, node: mergeItem });
  mergeItem.fields.set('mergingIntList', { meta: { strategy: 'merge' }, node: leaf });
  mergeItem.fields.set('nonMergingIntList', { meta: {}, node: leaf });
  mergeItem.fields.set('mergeItemPtr', { meta: { strategy: 'merge', mergeKey: 'name' }, node: mergeItem });
  mergeItem.fields.set('replacingItem', { meta: { strategy: 'replace' }, node: leaf });
  mergeItem.fields.set('retainKeysMap', { meta: { strategy: 'retainKeys' }, node: retainKeysItem });
  mergeItem.fields.set('retainKeysMergingList', { meta: { strategy: 'merge,retainKeys', mergeKey: 'name' }, node: mergeItem });
  retainKeysItem.fields.set('mergingIntList', { meta: { strategy: 'merge' }, node: leaf });
  retainKeysItem.fields.set('mergingList', { meta: { strategy: 'merge', mergeKey: 'name' }, node: mergeItem });
  retainKeysItem.fields.set('nonMergingList', { meta: {}, node: mergeItem });
  return mergeItem;
}

const MERGE_ITEM = mergeItemSchema();
const yaml = (text: string): unknown => parse(text);

/** Vectors from upstream patch_test.go: patch applied to the live object gives the result. */
const upstreamCases: { name: string; current: string; patch: string; result: string }[] = [
  {
    name: 'unique scalars when merging lists',
    current: 'mergingIntList: [1, 2]',
    patch: 'mergingIntList: [2, 3]',
    result: 'mergingIntList: [1, 2, 3]',
  },
  {
    name: 'delete map from nested map',
    current: 'simpleMap: {key1: 1, key2: 1}',
    patch: 'simpleMap: {$patch: delete}',
    result: 'simpleMap: {}',
  },
  {
    name: 'delete all items from merging list',
    current: 'mergingList: [{name: 1}, {name: 2}]',
    patch: 'mergingList: [{$patch: replace}]',
    result: 'mergingList: []',
  },
  { name: 'delete all keys from map', current: '{name: 1, value: 1}', patch: '{$patch: replace}', result: '{}' },
  { name: 'add key and delete all keys from map', current: '{name: 1, value: 1}', patch: '{other: a, $patch: replace}', result: '{other: a}' },
  {
    name: 'de-duplicate entries in a merging list',
    current: 'mergingList: [{name: 1}, {name: 1}, {name: 2, value: a}, {name: 3}, {name: 3}]',
    patch: 'mergingList: [{name: 1, $patch: delete}, {name: 3, $patch: delete}]',
    result: 'mergingList: [{name: 2, value: a}]',
  },
  {
    name: 'preserve the order from the patch in a merging list 2',
    current: 'mergingList: [{name: 1}, {name: 2, value: b}, {name: 3}]',
    patch: 'mergingList: [{name: 3, value: c}, {name: 1, value: a}]',
    result: 'mergingList: [{name: 2, value: b}, {name: 3, value: c}, {name: 1, value: a}]',
  },
  {
    name: 'preserve the order from the patch in a merging int list',
    current: 'mergingIntList: [1, 2, 3]',
    patch: 'mergingIntList: [3, 1]',
    result: 'mergingIntList: [2, 3, 1]',
  },
  {
    name: '$setElementOrder contains item that is not present in the list to be merged',
    current: 'mergingList: [{name: 1}, {name: 3}]',
    patch: '{$setElementOrder/mergingList: [{name: 3}, {name: 2}, {name: 1}], mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]}',
    result: 'mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]',
  },
  {
    name: 'delete items in lists of scalars',
    current: 'mergingIntList: [1, 2, 3, 4]',
    patch: '{$setElementOrder/mergingIntList: [1, 2], $deleteFromPrimitiveList/mergingIntList: [3]}',
    result: 'mergingIntList: [1, 2, 4]',
  },
  {
    name: 'add and delete an item in a int list and preserve order',
    current: 'mergingIntList: [1, 2, 3]',
    patch: '{$setElementOrder/mergingIntList: [4, 2, 1], mergingIntList: [4], $deleteFromPrimitiveList/mergingIntList: [3]}',
    result: 'mergingIntList: [4, 2, 1]',
  },
  {
    name: 'merge lists of maps',
    current: 'mergingList: [{name: 1, other: a}, {name: 2, value: 2, other: b}]',
    patch: '{$setElementOrder/mergingList: [{name: 4}, {name: 1}, {name: 2}, {name: 3}], mergingList: [{name: 4, value: 4}, {name: 3, value: 3}]}',
    result: 'mergingList: [{name: 4, value: 4}, {name: 1, other: a}, {name: 2, value: 2, other: b}, {name: 3, value: 3}]',
  },
  {
    name: 'set elements order in a list with server-only items 3',
    current: 'mergingList: [{name: 1, other: a}, {name: 2, value: 2}, {name: 7}, {name: 9}, {name: 8}, {name: 3, value: 3}, {name: 4, value: 4}]',
    patch: '$setElementOrder/mergingList: [{name: 2}, {name: 1}, {name: 4}, {name: 3}]',
    result: 'mergingList: [{name: 2, value: 2}, {name: 1, other: a}, {name: 7}, {name: 9}, {name: 8}, {name: 4, value: 4}, {name: 3, value: 3}]',
  },
  {
    name: 'set elements order in a int list with server-only items 3',
    current: 'mergingIntList: [1, 2, 7, 9, 8, 3, 4]',
    patch: '$setElementOrder/mergingIntList: [2, 1, 4, 3]',
    result: 'mergingIntList: [2, 1, 7, 9, 8, 4, 3]',
  },
  {
    name: 'behavior of set element order for a merging list with duplicate',
    current: 'mergingList: [{name: 1}, {name: 2, value: dup1}, {name: 3}, {name: 2, value: dup2}, {name: 4}]',
    patch: '$setElementOrder/mergingList: [{name: 2}, {name: 1}, {name: 4}, {name: 3}, {name: 2}]',
    result: 'mergingList: [{name: 2, value: dup1}, {name: 2, value: dup2}, {name: 1}, {name: 4}, {name: 3}]',
  },
  {
    name: 'retainKeys map should clear defaulted field',
    current: 'retainKeysMap: {value: foo}',
    patch: 'retainKeysMap: {$retainKeys: [other], other: bar}',
    result: 'retainKeysMap: {other: bar}',
  },
  {
    name: 'retainKeys map adds a field and clear a field',
    current: 'retainKeysMap: {name: foo, other: a}',
    patch: 'retainKeysMap: {$retainKeys: [name, value], value: bar}',
    result: 'retainKeysMap: {name: foo, value: bar}',
  },
  {
    name: 'retainKeys map deletes a field in a nested map',
    current: 'retainKeysMap: {name: foo, value: bar, simpleMap: {key1: a, key2: b, key3: c}}',
    patch: 'retainKeysMap: {$retainKeys: [name, simpleMap, value], simpleMap: {key2: null}}',
    result: 'retainKeysMap: {name: foo, value: bar, simpleMap: {key1: a, key3: c}}',
  },
  {
    name: 'defined null values should propagate removing original fields',
    current: '{name: original-name, value: original-value, other: current-other}',
    patch: '{name: modified-name, value: null}',
    result: '{name: modified-name, other: current-other}',
  },
  {
    name: 'null in a value added whole is dropped',
    current: '{name: 2}',
    patch: '{name: 1, value: 1, other: null}',
    result: '{name: 1, value: 1}',
  },
  {
    name: 'replace strategy takes the patch map as is',
    current: 'replacingItem: {a: 1, b: 2}',
    patch: 'replacingItem: {b: 3}',
    result: 'replacingItem: {b: 3}',
  },
  {
    name: 'non-merging list is replaced',
    current: 'nonMergingIntList: [1, 2]',
    patch: 'nonMergingIntList: [2, 3]',
    result: 'nonMergingIntList: [2, 3]',
  },
];

describe('strategic merge patch: upstream vectors (MergeItem schema)', () => {
  for (const c of upstreamCases) {
    it(c.name, () => {
      assert.deepEqual(strategicMergePatch(yaml(c.current), yaml(c.patch), MERGE_ITEM), yaml(c.result));
    });
  }

  it('rejects a patch list out of $setElementOrder order (500, as upstream leaves it unclassified)', () => {
    const run = () =>
      strategicMergePatch(
        yaml('mergingList: [{name: 1}, {name: 3}, {name: 2}]'),
        yaml('{$setElementOrder/mergingList: [{name: 1}, {name: 2}, {name: 3}], mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]}'),
        MERGE_ITEM,
      );
    assert.throws(run, (error: unknown) => error instanceof PatchError && error.code === 500 && /doesn't match \$setElementOrder list/.test(error.message));
  });

  it('rejects a merging-list element without its merge key', () => {
    const run = () => strategicMergePatch(yaml('mergingList: [{name: 1, value: a}]'), yaml('mergingList: [{value: b}]'), MERGE_ITEM);
    assert.throws(run, /map: map\[value:b\] does not contain declared merge key: name/);
  });

  it('rejects a field the $retainKeys list does not cover (400 BadRequest)', () => {
    const run = () => strategicMergePatch(yaml('retainKeysMap: {name: a}'), yaml('retainKeysMap: {$retainKeys: [name], value: b}'), MERGE_ITEM);
    assert.throws(run, (error: unknown) => error instanceof PatchError && error.code === 400 && error.reason === 'BadRequest' && error.message === 'invalid patch format of retainKeys');
  });

  it('rejects lists of lists (422 Invalid)', () => {
    const run = () => strategicMergePatch(yaml('mergingIntList: [[1]]'), yaml('mergingIntList: [[2]]'), MERGE_ITEM);
    assert.throws(run, (error: unknown) => error instanceof PatchError && error.code === 422 && error.detail === 'lists of lists are not supported');
  });

  it('rejects $patch: merge inside a list, and unknown directives', () => {
    assert.throws(() => strategicMergePatch(yaml('mergingList: [{name: 1}]'), yaml('mergingList: [{$patch: merge}]'), MERGE_ITEM), /merging lists cannot yet be specified in the patch/);
    assert.throws(() => strategicMergePatch(yaml('simpleMap: {a: b}'), yaml('simpleMap: {$patch: merge}'), MERGE_ITEM), /unknown patch type: merge in map: map\[\$patch:merge\]/);
  });

  it('rejects a malformed $deleteFromPrimitiveList key', () => {
    const run = () => strategicMergePatch(yaml('mergingIntList: [1]'), yaml('$deleteFromPrimitiveListX: [1]'), MERGE_ITEM);
    assert.throws(run, /invalid patch format of primitive list/);
  });
});

/** The Deployment kubectl created from smp1.yaml in capture s24, with the defaults a real server adds. */
function liveDeployment() {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'smp', namespace: 'default', labels: { app: 'smp' }, finalizers: ['example.com/a'] },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'smp' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'smp' } },
        spec: {
          containers: [
            {
              name: 'a',
              image: 'nginx:1.25',
              imagePullPolicy: 'IfNotPresent',
              env: [
                { name: 'XX', value: '1' },
                { name: 'YY', value: '2' },
              ],
              ports: [
                { containerPort: 80, protocol: 'TCP' },
                { containerPort: 443, protocol: 'TCP' },
              ],
            },
            { name: 'b', image: 'busybox', imagePullPolicy: 'Always' },
          ],
          volumes: [{ name: 'v1', emptyDir: {} }],
          tolerations: [{ key: 'k1', operator: 'Exists' }],
        },
      },
    },
  };
}

type Container = { name: string; image?: string; imagePullPolicy?: string; env?: unknown[]; ports?: unknown[] };
type PatchedDeployment = ReturnType<typeof liveDeployment> & {
  spec: { strategy: Record<string, unknown>; template: { spec: { containers: Container[]; volumes: unknown[]; tolerations: unknown[] } } };
};
const patchDeployment = (patch: unknown) => applyStrategicMergePatch(liveDeployment(), patch, 'Deployment') as PatchedDeployment;

describe('strategic merge patch: Deployment', () => {
  it('applies the patch kubectl 1.32 sent for smp2.yaml (capture s24) like the API server', () => {
    const patch = JSON.parse(
      '{"metadata":{"labels":{"tier":"web"}},"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":null,"type":"Recreate"},"template":{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"image":"busybox:1.36","name":"b"},{"$setElementOrder/env":[{"name":"YY"},{"name":"ZZ"}],"$setElementOrder/ports":[{"containerPort":80}],"env":[{"name":"YY","value":"3"},{"name":"ZZ","value":"4"},{"$patch":"delete","name":"XX"}],"name":"a","ports":[{"$patch":"delete","containerPort":443}]}],"volumes":[{"$patch":"delete","name":"v1"}]}}}}',
    );
    const result = patchDeployment(patch);
    assert.deepEqual(result.metadata.labels, { app: 'smp', tier: 'web' });
    assert.deepEqual(result.spec.strategy, { type: 'Recreate' });
    const containers = result.spec.template.spec.containers;
    assert.deepEqual(
      containers.map((c) => c.name),
      ['b', 'a'],
    );
    assert.deepEqual(containers[0], { name: 'b', image: 'busybox:1.36', imagePullPolicy: 'Always' });
    assert.deepEqual(containers[1].env, [
      { name: 'YY', value: '3' },
      { name: 'ZZ', value: '4' },
    ]);
    assert.deepEqual(containers[1].ports, [{ containerPort: 80, protocol: 'TCP' }]);
    assert.equal(containers[1].imagePullPolicy, 'IfNotPresent', 'server-side fields the patch does not mention stay');
    assert.deepEqual(result.spec.template.spec.volumes, []);
    assert.equal(JSON.stringify(result).includes('$'), false, 'no directive survives');
  });

  it('changes one image the way `kubectl set image` patches it', () => {
    const result = patchDeployment({
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'a', image: 'nginx:1.26' }] } } },
    });
    const containers = result.spec.template.spec.containers;
    assert.deepEqual(
      containers.map((c) => [c.name, c.image]),
      [
        ['a', 'nginx:1.26'],
        ['b', 'busybox'],
      ],
    );
    assert.equal(containers[0].env?.length, 2, 'the rest of the container is kept');
  });

  it('deletes a container with $patch: delete', () => {
    const result = patchDeployment({ spec: { template: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } } } });
    assert.deepEqual(
      result.spec.template.spec.containers.map((c) => c.name),
      ['b'],
    );
  });

  it('merges env by name: changes one, adds one, keeps the others', () => {
    const result = patchDeployment({
      spec: { template: { spec: { containers: [{ name: 'a', env: [{ name: 'YY', value: 'changed' }, { name: 'NEW', value: 'n' }] }] } } },
    });
    const env = result.spec.template.spec.containers.find((c) => c.name === 'a')?.env;
    assert.deepEqual(env, [
      { name: 'XX', value: '1' },
      { name: 'YY', value: 'changed' },
      { name: 'NEW', value: 'n' },
    ]);
  });

  it('adds a new container without $setElementOrder where upstream puts it: first', () => {
    const result = patchDeployment({ spec: { template: { spec: { containers: [{ name: 'c', image: 'redis' }] } } } });
    assert.deepEqual(
      result.spec.template.spec.containers.map((c) => c.name),
      ['c', 'a', 'b'],
    );
  });

  it('deletes a field set to null, and only that field', () => {
    const result = patchDeployment({ metadata: { labels: { app: null } }, spec: { replicas: null } });
    assert.deepEqual(result.metadata.labels, {});
    assert.equal('replicas' in result.spec, false);
    assert.equal(result.spec.selector.matchLabels.app, 'smp');
  });

  it('replaces tolerations whole (atomic list)', () => {
    const result = patchDeployment({ spec: { template: { spec: { tolerations: [{ key: 'k2', operator: 'Exists' }] } } } });
    assert.deepEqual(result.spec.template.spec.tolerations, [{ key: 'k2', operator: 'Exists' }]);
  });

  it('merges finalizers as a set and removes them with $deleteFromPrimitiveList', () => {
    const added = patchDeployment({ metadata: { finalizers: ['example.com/b', 'example.com/a'] } });
    assert.deepEqual(added.metadata.finalizers, ['example.com/b', 'example.com/a']);
    const removed = patchDeployment({ metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } });
    assert.deepEqual(removed.metadata.finalizers, []);
  });

  it('replaces the strategy content through $retainKeys but keeps it without the directive', () => {
    const merged = patchDeployment({ spec: { strategy: { type: 'Recreate' } } });
    assert.deepEqual(merged.spec.strategy, { type: 'Recreate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
  });

  it('switches a volume source through the volume $retainKeys kubectl sends', () => {
    const result = patchDeployment({
      spec: {
        template: {
          spec: {
            '$setElementOrder/volumes': [{ name: 'v1' }],
            volumes: [{ $retainKeys: ['configMap', 'name'], configMap: { name: 'cfg' }, name: 'v1' }],
          },
        },
      },
    });
    assert.deepEqual(result.spec.template.spec.volumes, [{ name: 'v1', configMap: { name: 'cfg' } }]);
  });

  it('does not modify its inputs', () => {
    const live = liveDeployment();
    const patch = { spec: { template: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } } } };
    const liveBefore = structuredClone(live);
    const patchBefore = structuredClone(patch);
    applyStrategicMergePatch(live, patch, 'Deployment');
    assert.deepEqual(live, liveBefore);
    assert.deepEqual(patch, patchBefore);
  });

  it('answers a patch that is not a JSON object with 400, and treats null as no change', () => {
    assert.throws(
      () => applyStrategicMergePatch(liveDeployment(), [{ op: 'add' }], 'Deployment'),
      (error: unknown) => error instanceof PatchError && error.code === 400 && error.message === 'json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
    assert.deepEqual(applyStrategicMergePatch(liveDeployment(), null, 'Deployment'), liveDeployment());
  });
});

describe('strategic merge patch: Pod, Node and metadata', () => {
  it('merges pod status conditions by type', () => {
    const pod = {
      status: {
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'False' },
        ],
      },
    };
    const result = applyStrategicMergePatch(pod, { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, 'Pod') as typeof pod;
    assert.deepEqual(result.status.conditions, [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'True' },
    ]);
  });

  it('merges volumeMounts by mountPath and ports by containerPort', () => {
    const pod = {
      spec: {
        containers: [{ name: 'c', volumeMounts: [{ name: 'v', mountPath: '/a' }], ports: [{ containerPort: 80, name: 'http' }] }],
      },
    };
    const patch = { spec: { containers: [{ name: 'c', volumeMounts: [{ name: 'w', mountPath: '/a' }], ports: [{ containerPort: 8080 }] }] } };
    const result = applyStrategicMergePatch(pod, patch, 'Pod') as typeof pod;
    assert.deepEqual(result.spec.containers[0].volumeMounts, [{ name: 'w', mountPath: '/a' }]);
    assert.deepEqual(
      result.spec.containers[0].ports.map((p) => p.containerPort),
      [8080, 80],
    );
  });

  it('merges ownerReferences by uid and node addresses by type', () => {
    const owned = { metadata: { ownerReferences: [{ uid: 'u1', name: 'x' }] } };
    const withOwner = applyStrategicMergePatch(owned, { metadata: { ownerReferences: [{ uid: 'u1', controller: true }] } }, 'ConfigMap') as {
      metadata: { ownerReferences: unknown[] };
    };
    assert.deepEqual(withOwner.metadata.ownerReferences, [{ uid: 'u1', name: 'x', controller: true }]);

    const node = { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n1' }] } };
    const patched = applyStrategicMergePatch(node, { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }] } }, 'Node') as typeof node;
    assert.deepEqual(patched.status.addresses, [
      { type: 'InternalIP', address: '10.0.0.2' },
      { type: 'Hostname', address: 'n1' },
    ]);
  });

  it('drops directive keys left in a subtree the patch adds whole', () => {
    const result = applyStrategicMergePatch({ spec: {} }, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, 'Deployment');
    assert.deepEqual(result, { spec: { strategy: { type: 'Recreate' } } });
  });
});
