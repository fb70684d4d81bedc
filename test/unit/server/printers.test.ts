import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { KubeObject, ResourceKind } from '../../../src/core/k8s';
import { toTable, type Table } from '../../../src/server/printers/table';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();
const agoMicro = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace('Z', '123Z');

const columnsOf = (table: Table) => (table.columnDefinitions ?? []).map((c) => (c.priority === 1 ? `${c.name}*` : c.name));
const cellsOf = (kind: ResourceKind, object: KubeObject) => toTable(kind, [object], { now: NOW }).rows[0].cells;

describe('server-side Table', () => {
  it('has the shape kubectl accepted in the pods capture: types, formats, priorities, PartialObjectMetadata rows', () => {
    const captured = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/kubectl-captures/pods.table.json'), 'utf8')) as Table;
    const pods = captured.rows.map((row) => ({ apiVersion: 'v1', kind: 'Pod', metadata: (row.object as { metadata: KubeObject['metadata'] }).metadata }));
    const table = toTable('Pod', pods, { now: NOW, resourceVersion: '1028' });
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(table.metadata, { resourceVersion: '1028' });
    const shape = (t: Table) => (t.columnDefinitions ?? []).map(({ name, type, format, priority }) => ({ name, type, format, priority }));
    assert.deepEqual(shape(table), shape(captured));
    assert.deepEqual(
      table.rows.map((row) => row.object),
      captured.rows.map((row) => row.object),
    );
  });

  it('declares the upstream column sets, wide columns included', () => {
    const expected: Partial<Record<ResourceKind, string[]>> = {
      Pod: ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*'],
      Deployment: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers*', 'Images*', 'Selector*'],
      ReplicaSet: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*'],
      Event: ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*'],
      Node: ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP*', 'External-IP*', 'OS-Image*', 'Kernel-Version*', 'Container-Runtime*'],
      Namespace: ['Name', 'Status', 'Age'],
      ConfigMap: ['Name', 'Data', 'Age'],
    };
    for (const [kind, names] of Object.entries(expected)) {
      const table = toTable(kind as ResourceKind, [], { now: NOW });
      assert.deepEqual(columnsOf(table), names, kind);
      assert.deepEqual(table.rows, []);
    }
  });

  it('follows includeObject and noHeaders', () => {
    const cm = { metadata: { name: 'c', namespace: 'default', labels: { a: 'b' } }, data: { k: 'v' } };
    assert.deepEqual(toTable('ConfigMap', [cm], { now: NOW }).rows[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm.metadata });
    assert.equal(toTable('ConfigMap', [cm], { now: NOW, includeObject: 'None' }).rows[0].object, null);
    assert.deepEqual(toTable('ConfigMap', [cm], { now: NOW, includeObject: 'Object' }).rows[0].object, { ...cm, apiVersion: 'v1', kind: 'ConfigMap' });
    const watchEvent = toTable('ConfigMap', [cm], { now: NOW, noHeaders: true });
    assert.equal(watchEvent.columnDefinitions, null);
    assert.deepEqual(watchEvent.metadata, {});
  });

  it('prints deployments: READY as ready/desired, counts as numbers, selector in the wide columns', () => {
    const deployment = {
      metadata: { name: 'web', creationTimestamp: ago(190) },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'api'] }, { key: 'canary', operator: 'DoesNotExist' }] },
        template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }, { name: 'log', image: 'busybox' }] } },
      },
      status: { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    assert.deepEqual(cellsOf('Deployment', deployment), ['web', '2/3', 3, 2, '3m10s', 'nginx,log', 'nginx:1.25,busybox', 'app=web,!canary,tier in (api,front)']);
    assert.deepEqual(cellsOf('Deployment', { metadata: { name: 'new' }, spec: { replicas: 2 } }), ['new', '0/2', 0, 0, '<unknown>', '', '', '']);
  });

  it('prints replica sets with <none> for an empty selector', () => {
    const rs = {
      metadata: { name: 'web-5d567cc74c', creationTimestamp: ago(49 * 3600) },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web', 'pod-template-hash': '5d567cc74c' } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } },
      status: { replicas: 3, readyReplicas: 1 },
    };
    assert.deepEqual(cellsOf('ReplicaSet', rs), ['web-5d567cc74c', 3, 3, 1, '2d1h', 'nginx', 'nginx:1.25', 'app=web,pod-template-hash=5d567cc74c']);
    assert.equal(cellsOf('ReplicaSet', { metadata: { name: 'x' }, spec: { replicas: 0, selector: {} } })[7], '<none>');
  });

  describe('events', () => {
    it('prints a core/v1 event from a component with first/last timestamps and a count', () => {
      const event = {
        metadata: { name: 'web-1.17a', namespace: 'default' },
        involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{app}' },
        reason: 'BackOff',
        message: 'Back-off restarting failed container app in pod web-1_default(uid)\n',
        type: 'Warning',
        source: { component: 'kubelet', host: 'node-1' },
        firstTimestamp: ago(600),
        lastTimestamp: ago(12),
        count: 7,
      };
      assert.deepEqual(cellsOf('Event', event), [
        '12s',
        'Warning',
        'BackOff',
        'pod/web-1',
        'spec.containers{app}',
        'kubelet, node-1',
        'Back-off restarting failed container app in pod web-1_default(uid)',
        '10m',
        7,
        'web-1.17a',
      ]);
    });

    it('prints an events.k8s.io-style event (eventTime only, no count) by its eventTime, count 1, reportingComponent as source', () => {
      const scheduled = {
        metadata: { name: 'web-1.17b', namespace: 'default' },
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1' },
        reason: 'Scheduled',
        message: 'Successfully assigned default/web-1 to node-1',
        type: 'Normal',
        source: {},
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: agoMicro(5),
        reportingComponent: 'default-scheduler',
        reportingInstance: 'default-scheduler-control-plane',
        action: 'Binding',
      };
      assert.deepEqual(cellsOf('Event', scheduled), [
        '5s',
        'Normal',
        'Scheduled',
        'pod/web-1',
        '',
        'default-scheduler, default-scheduler-control-plane',
        'Successfully assigned default/web-1 to node-1',
        '5s',
        1,
        'web-1.17b',
      ]);
    });

    it('reads the same event in events.k8s.io/v1 form, and uses the series for repeats', () => {
      const v1 = {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'web.17c' },
        regarding: { kind: 'Deployment', name: 'web' },
        note: 'Scaled up replica set web-5d567cc74c from 0 to 3',
        reason: 'ScalingReplicaSet',
        type: 'Normal',
        eventTime: agoMicro(200),
        reportingController: 'deployment-controller',
        series: { count: 4, lastObservedTime: agoMicro(30) },
      };
      assert.deepEqual(cellsOf('Event', v1), ['30s', 'Normal', 'ScalingReplicaSet', 'deployment/web', '', 'deployment-controller', 'Scaled up replica set web-5d567cc74c from 0 to 3', '3m20s', 4, 'web.17c']);
    });
  });

  it('prints nodes: Ready/NotReady/Unknown, SchedulingDisabled, sorted roles, addresses', () => {
    const node = {
      metadata: { name: 'node-1', creationTimestamp: ago(3 * 3600 + 60), labels: { 'node-role.kubernetes.io/worker': '', 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'edge' } },
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }],
        addresses: [{ type: 'Hostname', address: 'node-1' }, { type: 'InternalIP', address: '172.18.0.2' }],
        nodeInfo: { kubeletVersion: 'v1.32.4', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.24' },
      },
    };
    assert.deepEqual(cellsOf('Node', node), [
      'node-1',
      'Ready,SchedulingDisabled',
      'control-plane,edge,worker',
      '3h1m',
      'v1.32.4',
      '172.18.0.2',
      '<none>',
      'Debian GNU/Linux 12 (bookworm)',
      '6.1.0',
      'containerd://1.7.24',
    ]);
    const bare = cellsOf('Node', { metadata: { name: 'n2' }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } });
    assert.deepEqual(bare, ['n2', 'NotReady', '<none>', '<unknown>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
    assert.equal(cellsOf('Node', { metadata: { name: 'n3' } })[1], 'Unknown');
  });

  it('prints namespaces and config maps', () => {
    assert.deepEqual(cellsOf('Namespace', { metadata: { name: 'default', creationTimestamp: ago(8 * 86400) }, status: { phase: 'Active' } }), ['default', 'Active', '8d']);
    assert.deepEqual(cellsOf('Namespace', { metadata: { name: 'gone', creationTimestamp: ago(5) }, status: { phase: 'Terminating' } }), ['gone', 'Terminating', '5s']);
    assert.deepEqual(cellsOf('ConfigMap', { metadata: { name: 'cfg', creationTimestamp: ago(1) }, data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), ['cfg', 3, '1s']);
    assert.deepEqual(cellsOf('ConfigMap', { metadata: { name: 'empty', creationTimestamp: ago(1) } }), ['empty', 0, '1s']);
  });

  it('prints 150,000 pods quickly', () => {
    const pods: KubeObject[] = [];
    for (let i = 0; i < 150_000; i++) {
      pods.push({
        metadata: { name: `web-${i}`, creationTimestamp: ago(i % 5000) },
        spec: { nodeName: `node-${i % 5000}`, containers: [{ name: 'app', image: 'nginx' }] },
        status: { phase: 'Running', podIP: '10.0.0.1', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: {} } }] },
      });
    }
    const start = performance.now();
    const table = toTable('Pod', pods, { now: NOW });
    const elapsed = performance.now() - start;
    assert.equal(table.rows.length, 150_000);
    assert.equal(table.rows[149_999].cells[2], 'Running');
    assert.ok(elapsed < 3000, `took ${elapsed.toFixed(0)} ms`);
  });
});
