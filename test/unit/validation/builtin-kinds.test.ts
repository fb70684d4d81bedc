import assert from 'node:assert/strict';
import type { KubeObject, ResourceKind } from '../../../src/core/k8s';
import { applyDefaults } from '../../../src/sim/store/defaults';
import { bytesDecodeError, validate, validationError } from '../../../src/sim/apis/validation';

const RESOURCE_QUALIFIED = { namespace: 'default' };

function object(kind: ResourceKind, name: string, body: Record<string, unknown>, namespaced = true): KubeObject {
  const result: KubeObject = { metadata: { name, ...(namespaced ? RESOURCE_QUALIFIED : {}) }, ...body };
  applyDefaults(kind, result);
  return result;
}

/** `field: message` of each cause, as kubectl lists them. */
function causes(kind: ResourceKind, candidate: KubeObject, old?: KubeObject): string[] {
  return validate(kind, candidate, old).map((cause) => `${cause.field}: ${cause.message}`);
}

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('validation of the built-in kinds beyond workloads', () => {
  describe('Service', () => {
    it('accepts the docs\' Service and names a DNS-1035 label rule for a name starting with a digit', () => {
      assert.deepEqual(causes('Service', object('Service', 'my-service', { spec: { selector: { app: 'MyApp' }, ports: [{ protocol: 'TCP', port: 80, targetPort: 9376 }] } })), []);
      assert.deepEqual(causes('Service', object('Service', '1st', { spec: { ports: [{ port: 80 }] } })), [`metadata.name: Invalid value: "1st": ${DNS1035}`]);
      const error = validationError('Service', object('Service', 'web.v1', { spec: { ports: [{ port: 80 }] } }), undefined);
      assert.equal(error?.message, `Service "web.v1" is invalid: metadata.name: Invalid value: "web.v1": ${DNS1035}`);
    });

    it('requires ports unless headless or ExternalName, and names once there are several', () => {
      assert.deepEqual(causes('Service', object('Service', 'web', { spec: { selector: { app: 'web' } } })), ['spec.ports: Required value']);
      assert.deepEqual(causes('Service', object('Service', 'db', { spec: { clusterIP: 'None', selector: { app: 'db' } } })), []);
      assert.deepEqual(causes('Service', object('Service', 'ext', { spec: { type: 'ExternalName' } })), ['spec.externalName: Required value']);
      assert.deepEqual(causes('Service', object('Service', 'two', { spec: { ports: [{ port: 80 }, { port: 443 }] } })), ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']);
    });

    it('refuses bad ports, a bad type and duplicates with upstream\'s messages', () => {
      assert.deepEqual(causes('Service', object('Service', 'web', { spec: { ports: [{ port: 70000, targetPort: 'http_port' }] } })), [
        'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.ports[0].targetPort: Invalid value: "http_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ]);
      assert.deepEqual(causes('Service', object('Service', 'web', { spec: { type: 'Nodeport', ports: [{ port: 80 }] } })), [
        'spec.type: Unsupported value: "Nodeport": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ]);
      assert.deepEqual(causes('Service', object('Service', 'web', { spec: { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] } })), [
        'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
      ]);
      assert.deepEqual(causes('Service', object('Service', 'web', { spec: { ports: [{ port: 80, nodePort: 30080 }] } })), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
    });
  });

  describe('Secret', () => {
    it('checks key names and the keys a type requires, never echoing values', () => {
      assert.deepEqual(causes('Secret', object('Secret', 'tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'Y2VydA==' } })), ['data[tls.key]: Required value']);
      const bad = causes('Secret', object('Secret', 's', { data: { 'bad key': 'c2VjcmV0LXZhbHVl' } }));
      assert.equal(bad.length, 1);
      assert.match(bad[0], /^data\[bad key\]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters/);
      assert.doesNotMatch(bad[0], /c2VjcmV0LXZhbHVl|secret-value/);
      assert.deepEqual(causes('Secret', object('Secret', 'basic', { type: 'kubernetes.io/basic-auth', data: {} })), ['data[username]: Required value', 'data[password]: Required value']);
    });

    it('refuses more than 1 MiB of data, a type change and data changes once immutable', () => {
      const big = 'A'.repeat(4 * 350_000);
      assert.deepEqual(causes('Secret', object('Secret', 'big', { data: { a: big } })), ['data: Too long: must have at most 1048576 bytes']);
      const old = object('Secret', 's', { data: { a: 'YQ==' }, immutable: true });
      assert.deepEqual(causes('Secret', object('Secret', 's', { type: 'kubernetes.io/tls', data: { a: 'Yg==', 'tls.crt': '', 'tls.key': '' }, immutable: true }), old), [
        'type: Invalid value: "kubernetes.io/tls": field is immutable',
        'data: Forbidden: field is immutable when `immutable` is set',
      ]);
    });

    it('refuses data that is not base64 at decoding time, naming only the byte offset', () => {
      const error = bytesDecodeError('Secret', { metadata: { name: 's' }, data: { password: 'hunter2!' } });
      assert.equal(error?.code, 400);
      assert.equal(error?.message, 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7');
      assert.equal(bytesDecodeError('Secret', { metadata: { name: 's' }, data: { password: 'aHVudGVyMg==' }, stringData: { other: 'not base64!' } }), undefined);
    });
  });

  it('ResourceQuota and LimitRange: standard resources, integers, ordering of bounds', () => {
    assert.deepEqual(causes('ResourceQuota', object('ResourceQuota', 'q', { spec: { hard: { pods: '1500m', cpus: '2', 'requests.cpu': '-1' } } })), [
      'spec.hard[pods]: Invalid value: "1500m": must be an integer',
      'spec.hard[cpus]: Invalid value: "cpus": must be a standard resource for quota',
      'spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
    assert.deepEqual(causes('LimitRange', object('LimitRange', 'l', { spec: { limits: [{ type: 'Container', max: { memory: '512Mi' }, default: { memory: '1Gi' } }] } })), [
      'spec.limits[0].defaultRequest[memory]: Invalid value: "1Gi": default request value 1Gi is greater than max value 512Mi',
      'spec.limits[0].default[memory]: Invalid value: "512Mi": default value 1Gi is greater than max value 512Mi',
    ]);
  });

  it('PersistentVolume, PersistentVolumeClaim and StorageClass essentials', () => {
    assert.deepEqual(causes('PersistentVolume', object('PersistentVolume', 'pv', { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } }, false)), ['spec: Required value: must specify a volume type']);
    assert.deepEqual(causes('PersistentVolumeClaim', object('PersistentVolumeClaim', 'c', { spec: { resources: {} } })), ['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value']);
    assert.deepEqual(causes('StorageClass', object('StorageClass', 'fast', {}, false)), ['provisioner: Required value']);
    assert.deepEqual(causes('StorageClass', object('StorageClass', 'fast', { provisioner: 'x/y', volumeBindingMode: 'Lazy' }, false)), [
      'volumeBindingMode: Unsupported value: "Lazy": supported values: "Immediate", "WaitForFirstConsumer"',
    ]);
  });

  it('PriorityClass value range, reserved system- names, immutable value', () => {
    assert.deepEqual(causes('PriorityClass', object('PriorityClass', 'huge', { value: 2_000_000_000 }, false)), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']);
    assert.deepEqual(causes('PriorityClass', object('PriorityClass', 'system-mine', { value: 10 }, false)), [
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    ]);
    const old = object('PriorityClass', 'high', { value: 1000 }, false);
    assert.deepEqual(causes('PriorityClass', object('PriorityClass', 'high', { value: 2000 }, false), old), ['value: Forbidden: may not be changed in an update.']);
  });

  it('Ingress rules, paths and backends', () => {
    assert.deepEqual(causes('Ingress', object('Ingress', 'i', { spec: {} })), ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']);
    const rule = (path: Record<string, unknown>) => ({ spec: { rules: [{ host: 'foo.bar.com', http: { paths: [path] } }] } });
    assert.deepEqual(causes('Ingress', object('Ingress', 'i', rule({ path: '/', backend: { service: { name: 'web', port: { number: 80 } } } }))), ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
    assert.deepEqual(causes('Ingress', object('Ingress', 'i', rule({ path: 'app', pathType: 'Prefix', backend: { service: { name: 'web' } } }))), [
      'spec.rules[0].http.paths[0].path: Invalid value: "app": must be an absolute path',
      'spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
    ]);
    assert.deepEqual(causes('Ingress', object('Ingress', 'i', { spec: { rules: [{ host: '10.0.0.1' }] } })), ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address']);
    assert.deepEqual(causes('IngressClass', object('IngressClass', 'c', { spec: { controller: 'nginx' } }, false)), ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']);
  });

  it('NetworkPolicy peers and ports', () => {
    assert.deepEqual(causes('NetworkPolicy', object('NetworkPolicy', 'n', { spec: { podSelector: {}, ingress: [{ from: [{}], ports: [{ protocol: 'ICMP', port: 80, endPort: 70 }] }] } })), [
      'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      'spec.ingress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to `port`',
      'spec.ingress[0].from[0]: Required value: must specify a peer',
    ]);
    assert.deepEqual(causes('NetworkPolicy', object('NetworkPolicy', 'n', { spec: { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' }, podSelector: {} }] }] } })), [
      'spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer',
    ]);
  });

  it('RBAC: verbs required, bindings to a known role kind, roleRef never changes, system: names allowed', () => {
    assert.deepEqual(causes('Role', object('Role', 'pod-reader', { rules: [{ apiGroups: [''], resources: ['pods'] }] })), ['rules[0].verbs: Required value: verbs must contain at least one value']);
    assert.deepEqual(causes('ClusterRole', object('ClusterRole', 'system:controller:x', { rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] }, false)), []);
    assert.deepEqual(causes('RoleBinding', object('RoleBinding', 'b', { roleRef: { kind: 'Roles', name: 'r' }, subjects: [{ kind: 'Robot', name: 'x' }] })), [
      'roleRef.kind: Unsupported value: "Roles": supported values: "Role", "ClusterRole"',
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ]);
    const old = object('RoleBinding', 'b', { roleRef: { kind: 'Role', name: 'pod-reader' } });
    assert.deepEqual(causes('RoleBinding', object('RoleBinding', 'b', { roleRef: { kind: 'Role', name: 'other' } }), old), [
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"other"}: cannot change roleRef',
    ]);
    assert.deepEqual(causes('ClusterRoleBinding', object('ClusterRoleBinding', 'b', { roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'ci' }] }, false)), ['subjects[0].namespace: Required value']);
  });

  it('HPA bounds, target reference and metrics; PDB bounds; Lease durations', () => {
    assert.deepEqual(causes('HorizontalPodAutoscaler', object('HorizontalPodAutoscaler', 'h', { spec: { minReplicas: 5, maxReplicas: 2, scaleTargetRef: { kind: 'Deployment' } } })), [
      'spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
      'spec.scaleTargetRef.name: Required value',
    ]);
    assert.deepEqual(causes('HorizontalPodAutoscaler', object('HorizontalPodAutoscaler', 'h', { spec: { maxReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: 'web' }, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }] } })), [
      'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
    ]);
    const both = causes('PodDisruptionBudget', object('PodDisruptionBudget', 'p', { spec: { minAvailable: 1, maxUnavailable: '150%' } }));
    assert.match(both[0], /^spec: Invalid value: policy\.PodDisruptionBudgetSpec\{.*\}: minAvailable and maxUnavailable cannot be both set$/);
    assert.equal(both[1], 'spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%');
    assert.deepEqual(causes('Lease', object('Lease', 'l', { spec: { leaseDurationSeconds: 0 } })), ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']);
  });

  it('names the API group in the Status message', () => {
    const error = validationError('Ingress', object('Ingress', 'i', { spec: {} }), undefined);
    assert.match(error?.message ?? '', /^Ingress\.networking\.k8s\.io "i" is invalid: spec: /);
    assert.equal(error?.details?.group, 'networking.k8s.io');
  });
});
