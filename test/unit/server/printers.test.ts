import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { KubeObject, ResourceKind } from '../../../src/core/k8s';
import { scaleToTable, toTable, type Table } from '../../../src/server/printers/table';

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
      ReplicationController: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*'],
      StatefulSet: ['Name', 'Ready', 'Age', 'Containers*', 'Images*'],
      DaemonSet: ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers*', 'Images*', 'Selector*'],
      ControllerRevision: ['Name', 'Controller', 'Revision', 'Age'],
      Job: ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*'],
      CronJob: ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers*', 'Images*', 'Selector*'],
      PersistentVolumeClaim: ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode*'],
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

  it('prints replication controllers with the equality selector as labels', () => {
    const rc = {
      metadata: { name: 'nginx', creationTimestamp: ago(75) },
      spec: { replicas: 3, selector: { app: 'nginx', tier: 'web' }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } },
      status: { replicas: 3, readyReplicas: 2 },
    };
    assert.deepEqual(cellsOf('ReplicationController', rc), ['nginx', 3, 3, 2, '75s', 'nginx', 'nginx', 'app=nginx,tier=web']);
    assert.deepEqual(cellsOf('ReplicationController', { metadata: { name: 'bare' } }), ['bare', 1, 0, 0, '<unknown>', '', '', '<none>']);
  });

  it('prints stateful sets as ready/desired, and daemon sets with their node selector', () => {
    const sts = { metadata: { name: 'web', creationTimestamp: ago(30) }, spec: { replicas: 2, template: { spec: { containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.24' }] } } }, status: { replicas: 2, readyReplicas: 1 } };
    assert.deepEqual(cellsOf('StatefulSet', sts), ['web', '1/2', '30s', 'nginx', 'registry.k8s.io/nginx-slim:0.24']);
    const ds = {
      metadata: { name: 'fluentd-elasticsearch', creationTimestamp: ago(600) },
      spec: { selector: { matchLabels: { name: 'fluentd-elasticsearch' } }, template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux', disk: 'ssd' }, containers: [{ name: 'fluentd-elasticsearch', image: 'quay.io/fluentd_elasticsearch/fluentd:v2.5.2' }] } } },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
    };
    assert.deepEqual(cellsOf('DaemonSet', ds), ['fluentd-elasticsearch', 3, 3, 2, 3, 2, 'disk=ssd,kubernetes.io/os=linux', '10m', 'fluentd-elasticsearch', 'quay.io/fluentd_elasticsearch/fluentd:v2.5.2', 'name=fluentd-elasticsearch']);
    assert.equal(cellsOf('DaemonSet', { metadata: { name: 'x' }, spec: {} })[6], '<none>');
  });

  it('prints controller revisions with their controlling owner as kind.group/name', () => {
    const owned = (apiVersion: string, kind: string, controller: boolean) => ({
      metadata: { name: 'web-6d4cf56db6', creationTimestamp: ago(5), ownerReferences: [{ apiVersion, kind, name: 'web', uid: 'u', controller }] },
      revision: 2,
    });
    assert.deepEqual(cellsOf('ControllerRevision', owned('apps/v1', 'StatefulSet', true)), ['web-6d4cf56db6', 'statefulset.apps/web', 2, '5s']);
    assert.deepEqual(cellsOf('ControllerRevision', owned('v1', 'Pod', true)).slice(1, 2), ['pod/web']);
    assert.deepEqual(cellsOf('ControllerRevision', owned('apps/v1', 'DaemonSet', false)).slice(1, 2), ['<none>']);
  });

  describe('jobs', () => {
    const job = (status: Record<string, unknown>, extra: { spec?: Record<string, unknown>; deletionTimestamp?: string } = {}) => ({
      metadata: { name: 'pi', creationTimestamp: ago(300), ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}) },
      spec: { completions: 1, parallelism: 1, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'abc' } }, template: { spec: { containers: [{ name: 'pi', image: 'perl:5.34.0' }] } }, ...extra.spec },
      status,
    });
    const condition = (type: string, status = 'True') => ({ type, status });

    it('prints a running job with its duration so far and the selector', () => {
      assert.deepEqual(cellsOf('Job', job({ active: 1, startTime: ago(65) })), ['pi', 'Running', '0/1', '65s', '5m', 'pi', 'perl:5.34.0', 'batch.kubernetes.io/controller-uid=abc']);
    });

    it('prints a complete job with the duration from start to completion', () => {
      const cells = cellsOf('Job', job({ succeeded: 1, startTime: ago(290), completionTime: ago(250), conditions: [condition('SuccessCriteriaMet'), condition('Complete')] }));
      assert.deepEqual(cells.slice(0, 4), ['pi', 'Complete', '1/1', '40s']);
    });

    it('orders the STATUS conditions as printJob does', () => {
      const statusOf = (conditions: { type: string; status: string }[], deletionTimestamp?: string) => cellsOf('Job', job({ conditions }, { deletionTimestamp }))[1];
      assert.equal(statusOf([condition('FailureTarget'), condition('Failed')]), 'Failed');
      assert.equal(statusOf([condition('FailureTarget')]), 'FailureTarget');
      assert.equal(statusOf([condition('SuccessCriteriaMet')]), 'SuccessCriteriaMet');
      assert.equal(statusOf([condition('Suspended'), condition('FailureTarget')]), 'Suspended');
      assert.equal(statusOf([condition('Suspended')], ago(1)), 'Terminating');
      assert.equal(statusOf([condition('Complete')], ago(1)), 'Complete');
      assert.equal(statusOf([condition('Suspended', 'False')]), 'Running');
    });

    it('prints completions for work queues (no completions) by parallelism', () => {
      assert.equal(cellsOf('Job', job({ succeeded: 2 }, { spec: { completions: undefined, parallelism: 3 } }))[2], '2/1 of 3');
      assert.equal(cellsOf('Job', job({}, { spec: { completions: undefined, parallelism: 1 } }))[2], '0/1');
      assert.equal(cellsOf('Job', job({ succeeded: 3 }, { spec: { completions: 5 } }))[2], '3/5');
      assert.equal(cellsOf('Job', job({}))[3], '');
    });
  });

  it('prints cron jobs: schedule, time zone, suspend, active jobs, last schedule', () => {
    const cronJob = {
      metadata: { name: 'hello', creationTimestamp: ago(3600) },
      spec: { schedule: '* * * * *', suspend: false, jobTemplate: { spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox:1.28' }] } } } } },
      status: { active: [{ kind: 'Job', name: 'hello-1' }], lastScheduleTime: ago(20) },
    };
    assert.deepEqual(cellsOf('CronJob', cronJob), ['hello', '* * * * *', '<none>', 'False', 1, '20s', '60m', 'hello', 'busybox:1.28', '<none>']);
    const zoned = { metadata: { name: 'z' }, spec: { schedule: '0 3 * * *', timeZone: 'Etc/UTC', suspend: true } };
    assert.deepEqual(cellsOf('CronJob', zoned).slice(1, 6), ['0 3 * * *', 'Etc/UTC', 'True', 0, '<none>']);
    assert.equal(cellsOf('CronJob', { metadata: { name: 'u' }, spec: { schedule: '@daily' } })[3], '<unset>');
  });

  it('prints persistent volume claims: capacity and access modes only once bound', () => {
    const claim = {
      metadata: { name: 'www-web-0', creationTimestamp: ago(42) },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard', volumeMode: 'Filesystem', volumeName: 'pvc-1234' },
      status: { phase: 'Bound', accessModes: ['ReadWriteMany', 'ReadWriteOnce'], capacity: { storage: '1Gi' } },
    };
    assert.deepEqual(cellsOf('PersistentVolumeClaim', claim), ['www-web-0', 'Bound', 'pvc-1234', '1Gi', 'RWO,RWX', 'standard', '<unset>', '42s', 'Filesystem']);
    const pending = { metadata: { name: 'p', annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } }, spec: { storageClassName: 'slow', resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } };
    assert.deepEqual(cellsOf('PersistentVolumeClaim', pending), ['p', 'Pending', '', '', '', 'fast', '<unset>', '<unknown>', '<unset>']);
    assert.equal(cellsOf('PersistentVolumeClaim', { ...pending, metadata: { name: 'p', deletionTimestamp: ago(1) } })[1], 'Terminating');
  });

  it('prints a Scale subresource as printScale does: desired and observed replicas', () => {
    const scale = { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web', namespace: 'default', creationTimestamp: ago(61) }, spec: { replicas: 3 }, status: { replicas: 2, selector: 'app=nginx' } };
    const table = scaleToTable(scale, { now: NOW });
    assert.deepEqual(columnsOf(table), ['Name', 'Desired', 'Available', 'Age']);
    assert.equal(table.columnDefinitions?.[0].format, '');
    assert.deepEqual(table.rows[0].cells, ['web', 3, 2, '61s']);
    assert.deepEqual(table.rows[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: scale.metadata });
    assert.deepEqual(scaleToTable({ metadata: { name: 'x' } }, { now: NOW, includeObject: 'Object' }).rows[0].object, { metadata: { name: 'x' }, apiVersion: 'autoscaling/v1', kind: 'Scale' });
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
