import assert from 'node:assert/strict';
import type { KubeObject, ResourceKind } from '../../../src/core/k8s';
import { decodedLength, encodeUtf8Base64 } from '../../../src/common/base64';
import { applyDefaults } from '../../../src/sim/store/defaults';

function defaulted(kind: ResourceKind, body: Record<string, unknown>): KubeObject {
  const object: KubeObject = { metadata: { name: 'x', namespace: 'default' }, ...body };
  applyDefaults(kind, object);
  return object;
}

describe('defaults: the built-in kinds without simulated controllers', () => {
  it('defaults a Service as SetDefaults_Service and the registry do, without allocating a ClusterIP', () => {
    const service = defaulted('Service', { spec: { selector: { app: 'web' }, ports: [{ port: 80 }, { port: 443, targetPort: 'https', protocol: 'TCP' }] } });
    assert.deepEqual(service.spec, {
      selector: { app: 'web' },
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 443, targetPort: 'https', protocol: 'TCP' },
      ],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
    assert.deepEqual(service.status, { loadBalancer: {} });
    const balancer = defaulted('Service', { spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    assert.equal((balancer.spec as Record<string, unknown>).externalTrafficPolicy, 'Cluster');
    assert.equal((balancer.spec as Record<string, unknown>).allocateLoadBalancerNodePorts, true);
    const headless = defaulted('Service', { spec: { clusterIP: 'None', ports: [{ port: 5432 }] } });
    assert.deepEqual([(headless.spec as Record<string, unknown>).ipFamilyPolicy, (headless.spec as Record<string, unknown>).ipFamilies], ['RequireDualStack', ['IPv4']]);
    const external = defaulted('Service', { spec: { type: 'ExternalName', externalName: 'db.example.com' } });
    assert.deepEqual(external.spec, { type: 'ExternalName', externalName: 'db.example.com', sessionAffinity: 'None' });
  });

  it('folds a Secret\'s stringData into base64 data and drops it; type Opaque', () => {
    const secret = defaulted('Secret', { data: { username: 'b2xk', keep: 'a2VlcA==' }, stringData: { username: 'admin', note: 'größe' } });
    assert.equal(secret.type, 'Opaque');
    assert.equal(secret.stringData, undefined);
    assert.deepEqual(secret.data, { username: 'YWRtaW4=', keep: 'a2VlcA==', note: encodeUtf8Base64('größe') });
    assert.equal(encodeUtf8Base64('größe'), 'Z3LDtsOfZQ==');
    assert.deepEqual(defaulted('Secret', { type: 'kubernetes.io/tls' }).type, 'kubernetes.io/tls');
  });

  it('reads base64 lengths and Go\'s error offsets', () => {
    assert.deepEqual(decodedLength('YWRtaW4='), { bytes: 5 });
    assert.deepEqual(decodedLength('YWRt\naW4='), { bytes: 5 });
    assert.deepEqual(decodedLength('Z3LDtsOfZQ=='), { bytes: 7 });
    assert.deepEqual(decodedLength(''), { bytes: 0 });
    assert.deepEqual(decodedLength('admin'), { error: 'illegal base64 data at input byte 4' });
    assert.deepEqual(decodedLength('ab$d'), { error: 'illegal base64 data at input byte 2' });
    assert.deepEqual(decodedLength('YWRtaW4=x'), { error: 'illegal base64 data at input byte 8' });
  });

  it('defaults storage: PV Retain/Filesystem/Pending, StorageClass Delete/Immediate', () => {
    const volume = defaulted('PersistentVolume', { spec: { capacity: { storage: '1Gi' }, hostPath: { path: '/data' } } });
    assert.deepEqual(volume.spec, { capacity: { storage: '1Gi' }, hostPath: { path: '/data' }, persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    assert.deepEqual(volume.status, { phase: 'Pending' });
    const storageClass = defaulted('StorageClass', { provisioner: 'rancher.io/local-path' });
    assert.equal(storageClass.reclaimPolicy, 'Delete');
    assert.equal(storageClass.volumeBindingMode, 'Immediate');
  });

  it('defaults a LimitRange container item from max, then default, then min', () => {
    const range = defaulted('LimitRange', { spec: { limits: [{ type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' } }, { type: 'Pod', max: { cpu: '2' } }] } });
    assert.deepEqual((range.spec as { limits: unknown[] }).limits, [
      { type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' }, default: { cpu: '1' }, defaultRequest: { cpu: '1', memory: '64Mi' } },
      { type: 'Pod', max: { cpu: '2' } },
    ]);
  });

  it('defaults an HPA: minReplicas 1, CPU at 80 %, behavior rules filled only when behavior is given', () => {
    const plain = defaulted('HorizontalPodAutoscaler', { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 } });
    assert.deepEqual((plain.spec as Record<string, unknown>).minReplicas, 1);
    assert.deepEqual((plain.spec as Record<string, unknown>).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    assert.equal((plain.spec as Record<string, unknown>).behavior, undefined);
    const tuned = defaulted('HorizontalPodAutoscaler', { spec: { maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } });
    assert.deepEqual((tuned.spec as Record<string, unknown>).behavior, {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });

  it('defaults NetworkPolicy policyTypes and port protocols, RBAC apiGroups, PriorityClass preemption, PDB status', () => {
    const policy = defaulted('NetworkPolicy', { spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] } });
    assert.deepEqual(policy.spec, { podSelector: {}, egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }], policyTypes: ['Ingress', 'Egress'] });
    assert.deepEqual((defaulted('NetworkPolicy', { spec: { podSelector: {} } }).spec as Record<string, unknown>).policyTypes, ['Ingress']);
    const binding = defaulted('RoleBinding', { roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', name: 'ci', namespace: 'default' }] });
    assert.deepEqual(binding.roleRef, { kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' });
    assert.deepEqual(binding.subjects, [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'ci', namespace: 'default', apiGroup: '' }]);
    assert.equal(defaulted('PriorityClass', { value: 1000 }).preemptionPolicy, 'PreemptLowerPriority');
    assert.deepEqual(defaulted('PodDisruptionBudget', { spec: { minAvailable: 1 } }).status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    assert.deepEqual(defaulted('IngressClass', { spec: { controller: 'x/y', parameters: { kind: 'P', name: 'p' } } }).spec, { controller: 'x/y', parameters: { kind: 'P', name: 'p', scope: 'Cluster' } });
    assert.deepEqual(defaulted('Ingress', { spec: {} }).status, { loadBalancer: {} });
  });
});
