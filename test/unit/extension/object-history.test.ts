import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { KubeObject } from '../../../src/core/k8s';
import { contentLocation, parseContentAddress, versionHeader } from '../../../src/extension/headless/content-address';
import { describeChange, ObjectHistory, versionYaml } from '../../../src/extension/headless/object-history';

function pod(rv: number, patch: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', resourceVersion: String(rv), managedFields: [{ manager: 'kubectl' }] }, spec: {}, status: { phase: 'Pending' }, ...patch };
}

const key = { kind: 'Pod', namespace: 'default', name: 'web-1' };

describe('object history', () => {
  it('records each version the watch delivered, once per resourceVersion', () => {
    const history = new ObjectHistory();
    history.record({ type: 'ADDED', object: pod(1) }, 100);
    history.record({ type: 'MODIFIED', object: pod(1) }, 105);
    history.record({ type: 'MODIFIED', object: pod(2, { spec: { nodeName: 'node-1' } }) }, 120);
    history.record({ type: 'DELETED', object: pod(2) }, 300);
    assert.deepEqual(history.versions(key).map((v) => [v.type, v.resourceVersion, v.receivedAt]), [['ADDED', '1', 100], ['MODIFIED', '2', 120], ['DELETED', '2', 300]]);
    assert.equal(history.at(key, 119)?.resourceVersion, '1');
    assert.equal(history.at(key, 120)?.resourceVersion, '2');
    assert.equal(history.version(key, '2')?.receivedAt, 120);
  });

  it('shares the parts of a version equal to the version before, and changes neither object', () => {
    const history = new ObjectHistory();
    const first = pod(1, { spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] } });
    const second = pod(2, { spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] }, status: { phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'True' }] } });
    const delivered = structuredClone(second);
    history.record({ type: 'ADDED', object: first }, 1);
    history.record({ type: 'MODIFIED', object: second }, 2);
    const [v1, v2] = history.versions(key);
    assert.equal(v1.object, first);
    assert.deepEqual(v2.object, second, 'the version reads as delivered');
    assert.deepEqual(second, delivered, 'the delivered object is not changed');
    assert.equal(v2.object.spec, first.spec);
    assert.equal((v2.object.status as { conditions: unknown[] }).conditions[0], (first.status as { conditions: unknown[] }).conditions[0]);
    assert.notEqual(v2.object.status, first.status);
    assert.equal(v2.object.metadata?.managedFields, first.metadata?.managedFields);
  });

  it('ignores kinds it does not trace', () => {
    const history = new ObjectHistory();
    history.record({ type: 'ADDED', object: { kind: 'Event', metadata: { name: 'e', namespace: 'default', resourceVersion: '1' } } }, 1);
    assert.equal(history.size, 0);
  });

  it('stays within its limits: the first version and the latest ones per object, the most recently changed objects', () => {
    const history = new ObjectHistory({ versionsPerObject: 3, objects: 2 });
    for (let rv = 1; rv <= 6; rv++) history.record({ type: rv === 1 ? 'ADDED' : 'MODIFIED', object: pod(rv) }, rv);
    assert.deepEqual(history.versions(key).map((v) => v.resourceVersion), ['1', '5', '6']);
    history.record({ type: 'ADDED', object: pod(7, { metadata: { name: 'other', namespace: 'default', resourceVersion: '7' } }) }, 7);
    history.record({ type: 'MODIFIED', object: pod(8) }, 8);
    history.record({ type: 'ADDED', object: pod(9, { metadata: { name: 'third', namespace: 'default', resourceVersion: '9' } }) }, 9);
    assert.equal(history.size, 2);
    assert.equal(history.versions({ ...key, name: 'other' }).length, 0);
    assert.equal(history.versions(key).length, 3);
  });

  it('says what a version changed', () => {
    const history = new ObjectHistory();
    history.record({ type: 'ADDED', object: pod(1) }, 1);
    history.record({ type: 'MODIFIED', object: pod(2, { spec: { nodeName: 'node-2' }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] } }) }, 2);
    history.record({ type: 'MODIFIED', object: pod(3, { spec: { nodeName: 'node-2' }, status: { phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'True' }] } }) }, 3);
    const [first, second, third] = history.versions(key);
    assert.equal(describeChange(undefined, first), 'created');
    assert.equal(describeChange(first, second), 'bound to node-2, PodScheduled True');
    assert.equal(describeChange(second, third), 'phase Pending → Running, Ready True');
  });

  it('shows a version as YAML without managedFields, under a header comment', () => {
    const history = new ObjectHistory();
    history.record({ type: 'ADDED', object: pod(1) }, Date.UTC(2026, 0, 1, 12, 0, 0, 250));
    const [version] = history.versions(key);
    const text = versionYaml(version, versionHeader(key, version, undefined, Date.UTC(2026, 0, 1, 12, 0, 0, 0)));
    const lines = text.split('\n');
    assert.match(lines[0], /^# Pod default\/web-1 as the watch delivered it at \d\d:\d\d:00\.250 \(\+0\.250 s after the apply\)$/);
    assert.equal(lines[1], '# ADDED, resourceVersion 1: created');
    const object = parse(text) as KubeObject;
    assert.equal(object.metadata?.name, 'web-1');
    assert.equal(object.metadata?.managedFields, undefined);
  });

  it('round-trips virtual document addresses, odd names included', () => {
    const object = { type: 'object' as const, key: { kind: 'Pod', namespace: 'team a', name: 'web/1?x' }, resourceVersion: '42', journeyId: 'Deployment/default/web@1#2' };
    const location = contentLocation(object);
    assert.match(location.path, /\.yaml$/);
    assert.deepEqual(parseContentAddress(location.path, location.query), object);
    const scheduler = { type: 'scheduler' as const, namespace: 'default', name: 'big-1', journeyId: 'Deployment/default/big@5' };
    const at = contentLocation(scheduler);
    assert.match(at.path, /\.md$/);
    assert.deepEqual(parseContentAddress(at.path, at.query), scheduler);
    assert.equal(parseContentAddress('/object/Pod/default/x.yaml', ''), undefined);
    assert.equal(parseContentAddress('/elsewhere', ''), undefined);
  });
});
