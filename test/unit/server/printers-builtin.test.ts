import assert from 'node:assert/strict';
import type { KubeObject, ResourceKind } from '../../../src/core/k8s';
import { toTable, type Table } from '../../../src/server/printers/table';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const created = (name: string, extra: Record<string, unknown> = {}) => ({ name, creationTimestamp: new Date(NOW - 300_000).toISOString(), ...extra });
const columnsOf = (table: Table) => (table.columnDefinitions ?? []).map((c) => (c.priority === 1 ? `${c.name}*` : c.name));
const cellsOf = (kind: ResourceKind, object: KubeObject) => toTable(kind, [object], { now: NOW }).rows[0].cells;

describe('server-side Table of the built-in kinds no controller of the simulator writes', () => {
  it('declares upstream column sets', () => {
    const expected: Partial<Record<ResourceKind, string[]>> = {
      Service: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*'],
      Endpoints: ['Name', 'Endpoints', 'Age'],
      EndpointSlice: ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
      Secret: ['Name', 'Type', 'Data', 'Age'],
      ServiceAccount: ['Name', 'Secrets', 'Age'],
      PersistentVolume: ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode*'],
      StorageClass: ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
      ResourceQuota: ['Name', 'Request', 'Limit', 'Age'],
      LimitRange: ['Name', 'Created At'],
      PriorityClass: ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy'],
      Ingress: ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'],
      IngressClass: ['Name', 'Controller', 'Parameters', 'Age'],
      NetworkPolicy: ['Name', 'Pod-Selector', 'Age'],
      Role: ['Name', 'Created At'],
      ClusterRole: ['Name', 'Created At'],
      RoleBinding: ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*'],
      ClusterRoleBinding: ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*'],
      HorizontalPodAutoscaler: ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
      PodDisruptionBudget: ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
      Lease: ['Name', 'Holder', 'Age'],
    };
    for (const [kind, names] of Object.entries(expected)) {
      assert.deepEqual(columnsOf(toTable(kind as ResourceKind, [], { now: NOW })), names, kind);
    }
  });

  it('prints Services of each type as printService does', () => {
    const clusterIP = { metadata: created('web'), spec: { type: 'ClusterIP', clusterIPs: ['10.96.12.7'], ports: [{ port: 80, protocol: 'TCP' }, { port: 443, protocol: 'TCP' }], selector: { tier: 'fe', app: 'web' } } };
    assert.deepEqual(cellsOf('Service', clusterIP), ['web', 'ClusterIP', '10.96.12.7', '<none>', '80/TCP,443/TCP', '5m', 'app=web,tier=fe']);
    const nodePort = { metadata: created('np'), spec: { type: 'NodePort', clusterIPs: ['10.96.0.9'], ports: [{ port: 8080, nodePort: 30080, protocol: 'TCP' }] } };
    assert.deepEqual(cellsOf('Service', nodePort).slice(1, 5), ['NodePort', '10.96.0.9', '<none>', '8080:30080/TCP']);
    const balancer = { metadata: created('lb'), spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] } };
    assert.deepEqual(cellsOf('Service', balancer).slice(1, 4), ['LoadBalancer', '<none>', '<pending>']);
    const withAddress = { ...balancer, status: { loadBalancer: { ingress: [{ ip: '172.18.0.5' }, { hostname: 'a.example.com' }] } }, spec: { ...balancer.spec, externalIPs: ['1.2.3.4'] } };
    assert.equal(cellsOf('Service', withAddress)[3], '172.18.0.5,a.example.com,1.2.3.4');
    const external = { metadata: created('db'), spec: { type: 'ExternalName', externalName: 'db.example.com' } };
    assert.deepEqual(cellsOf('Service', external).slice(1, 5), ['ExternalName', '<none>', 'db.example.com', '<none>']);
  });

  it('lists at most three endpoints, then how many more', () => {
    const addresses = ['10.244.1.2', '10.244.1.3', '10.244.2.4', '10.244.2.5'].map((ip) => ({ ip }));
    const endpoints = { metadata: created('web'), subsets: [{ addresses, ports: [{ port: 80 }] }] };
    assert.deepEqual(cellsOf('Endpoints', endpoints), ['web', '10.244.1.2:80,10.244.1.3:80,10.244.2.4:80 + 1 more...', '5m']);
    assert.equal(cellsOf('Endpoints', { metadata: created('none') })[1], '<none>');
    assert.equal(cellsOf('Endpoints', { metadata: created('headless'), subsets: [{ addresses: [{ ip: 'fd00::1' }] }] })[1], 'fd00::1');
    const slice = { metadata: created('web-abc12'), addressType: 'IPv4', ports: [{ port: 80 }, { name: 'metrics' }], endpoints: [{ addresses: ['10.244.1.2'] }, { addresses: ['10.244.1.3'] }] };
    assert.deepEqual(cellsOf('EndpointSlice', slice), ['web-abc12', 'IPv4', '80,metrics', '10.244.1.2,10.244.1.3', '5m']);
    assert.deepEqual(cellsOf('EndpointSlice', { metadata: created('empty'), addressType: 'IPv4', endpoints: [] }).slice(2, 4), ['<unset>', '<unset>']);
  });

  it('counts a Secret\'s keys and never prints its values', () => {
    const row = cellsOf('Secret', { metadata: created('creds'), type: 'Opaque', data: { username: 'YWRtaW4=', password: 'czNjcjN0' } });
    assert.deepEqual(row, ['creds', 'Opaque', 2, '5m']);
    assert.deepEqual(cellsOf('ServiceAccount', { metadata: created('default') }), ['default', 0, '5m']);
  });

  it('prints storage: PV capacity canonical, the default StorageClass marked', () => {
    const volume = { metadata: created('pv0003'), spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Recycle', storageClassName: 'slow', volumeMode: 'Filesystem', claimRef: { namespace: 'default', name: 'data' } }, status: { phase: 'Bound' } };
    assert.deepEqual(cellsOf('PersistentVolume', volume), ['pv0003', '5Gi', 'RWO,RWX', 'Recycle', 'Bound', 'default/data', 'slow', '<unset>', '', '5m', 'Filesystem']);
    const standard = { metadata: created('standard', { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }), provisioner: 'rancher.io/local-path', reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer' };
    assert.deepEqual(cellsOf('StorageClass', standard), ['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '5m']);
  });

  it('splits quota requests from limits, sorted by resource', () => {
    const quota = { metadata: created('compute'), status: { hard: { pods: '4', 'limits.memory': '2Gi', 'requests.cpu': '1', 'limits.cpu': '2' }, used: { pods: '1', 'requests.cpu': '500m' } } };
    assert.deepEqual(cellsOf('ResourceQuota', quota), ['compute', 'pods: 1/4, requests.cpu: 500m/1', 'limits.cpu: 0/2, limits.memory: 0/2Gi', '5m']);
  });

  it('prints ingress hosts and TLS ports, ingress class parameters, network policy selectors', () => {
    const ingress = { metadata: created('demo'), spec: { ingressClassName: 'nginx', tls: [{ hosts: ['a.example.com'] }], rules: [{ host: 'a.example.com' }, {}, { host: 'b.example.com' }] } };
    assert.deepEqual(cellsOf('Ingress', ingress), ['demo', 'nginx', 'a.example.com,b.example.com', '', '80, 443', '5m']);
    assert.deepEqual(cellsOf('Ingress', { metadata: created('any'), spec: { defaultBackend: {} } }).slice(1, 5), ['<none>', '*', '', '80']);
    const manyHosts = { metadata: created('many'), spec: { rules: ['a', 'b', 'c', 'd', 'e'].map((h) => ({ host: `${h}.io` })) } };
    assert.equal(cellsOf('Ingress', manyHosts)[2], 'a.io,b.io,c.io + 2 more...');
    const ingressClass = { metadata: created('external-lb'), spec: { controller: 'example.com/ingress-controller', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } } };
    assert.deepEqual(cellsOf('IngressClass', ingressClass), ['external-lb', 'example.com/ingress-controller', 'IngressParameters.k8s.example.com/external-lb', '5m']);
    assert.deepEqual(cellsOf('NetworkPolicy', { metadata: created('deny-all'), spec: { podSelector: {} } }), ['deny-all', '<none>', '5m']);
    assert.equal(cellsOf('NetworkPolicy', { metadata: created('db'), spec: { podSelector: { matchLabels: { role: 'db' } } } })[1], 'role=db');
  });

  it('prints RBAC bindings with their subjects, HPAs with their targets, PDBs, priority classes and leases', () => {
    const binding = { metadata: created('read-pods'), roleRef: { kind: 'Role', name: 'pod-reader', apiGroup: 'rbac.authorization.k8s.io' }, subjects: [{ kind: 'User', name: 'jane' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'ci', namespace: 'build' }, { kind: 'User', name: 'joe' }] };
    assert.deepEqual(cellsOf('RoleBinding', binding), ['read-pods', 'Role/pod-reader', '5m', 'jane, joe', 'devs', 'build/ci']);
    const hpa = {
      metadata: created('php-apache'),
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'php-apache' }, minReplicas: 1, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
    };
    assert.deepEqual(cellsOf('HorizontalPodAutoscaler', hpa), ['php-apache', 'Deployment/php-apache', 'cpu: <unknown>/50%', '1', 10, 0, '5m']);
    const observed = { ...hpa, status: { currentReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12 } } }] } };
    assert.equal(cellsOf('HorizontalPodAutoscaler', observed)[2], 'cpu: 12%/50%');
    const three = { ...hpa, spec: { ...hpa.spec, metrics: [...hpa.spec.metrics, { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1k' } } }, { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '30' } } }] } };
    assert.equal(cellsOf('HorizontalPodAutoscaler', three)[2], 'cpu: <unknown>/50%, <unknown>/1k + 1 more...');
    const queue = { ...hpa, spec: { ...hpa.spec, metrics: [{ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } }, { type: 'Object', object: { metric: { name: 'rps' }, target: { type: 'Value', value: '10k' } } }] }, status: { currentMetrics: [{ type: 'External', external: { current: { averageValue: '12' } } }] } };
    assert.equal(cellsOf('HorizontalPodAutoscaler', queue)[2], '12/30 (avg), <unknown>/10k');
    assert.equal(cellsOf('HorizontalPodAutoscaler', { metadata: created('none'), spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 3 } })[2], '<none>');
    assert.deepEqual(cellsOf('PodDisruptionBudget', { metadata: created('zk'), spec: { minAvailable: 2 }, status: { disruptionsAllowed: 1 } }), ['zk', '2', 'N/A', 1, '5m']);
    assert.deepEqual(cellsOf('PodDisruptionBudget', { metadata: created('web'), spec: { maxUnavailable: '50%' } }).slice(1, 4), ['N/A', '50%', 0]);
    assert.deepEqual(cellsOf('PriorityClass', { metadata: created('high-priority'), value: 1000000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' }), ['high-priority', 1000000, false, '5m', 'PreemptLowerPriority']);
    assert.deepEqual(cellsOf('Lease', { metadata: created('kind-control-plane'), spec: { holderIdentity: 'kind-control-plane' } }), ['kind-control-plane', 'kind-control-plane', '5m']);
  });
});
