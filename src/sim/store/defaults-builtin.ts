/**
 * Defaulting of the built-in kinds no simulated controller owns, as kube-apiserver 1.32 applies
 * it: the SetDefaults_* functions of pkg/apis/{core,discovery,networking,rbac,storage,scheduling,
 * autoscaling}/v1|v2/defaults.go, the conversion that folds a Secret's `stringData` into `data`,
 * and the fields the registries' PrepareForCreate set. ClusterIP allocation is not defaulting:
 * the Service registry does it.
 */
import type { KubeObject, ResourceKind } from '../../core/k8s';
import { encodeUtf8Base64 } from '../../common/base64';
import { forEachRecord, isRecord, record, setIfAbsent } from './defaults';

type Json = Record<string, unknown>;

/** Defaults `object` in place when `kind` is one of this file's; returns whether it was. */
export function applyBuiltinKindDefaults(kind: ResourceKind, object: KubeObject): boolean {
  switch (kind) {
    case 'Service':
      defaultService(object);
      return true;
    case 'Endpoints':
      forEachRecord(object.subsets, (subset) => forEachRecord(subset.ports, defaultProtocol));
      return true;
    case 'EndpointSlice':
      forEachRecord(object.ports, (port) => {
        setIfAbsent(port, 'name', '');
        defaultProtocol(port);
      });
      return true;
    case 'Secret':
      defaultSecret(object);
      return true;
    case 'PersistentVolume':
      defaultPersistentVolume(object);
      return true;
    case 'StorageClass':
      setIfAbsent(object, 'reclaimPolicy', 'Delete');
      setIfAbsent(object, 'volumeBindingMode', 'Immediate');
      return true;
    case 'LimitRange':
      forEachRecord(record(object, 'spec').limits, defaultLimitRangeItem);
      return true;
    case 'PriorityClass':
      setIfAbsent(object, 'preemptionPolicy', 'PreemptLowerPriority');
      return true;
    case 'HorizontalPodAutoscaler':
      defaultHorizontalPodAutoscaler(object);
      return true;
    case 'PodDisruptionBudget':
      defaultPodDisruptionBudgetStatus(object);
      return true;
    case 'NetworkPolicy':
      defaultNetworkPolicy(object);
      return true;
    case 'Ingress':
      // A struct upstream: a fresh Ingress reads back with `status: {loadBalancer: {}}`.
      record(record(object, 'status'), 'loadBalancer');
      return true;
    case 'IngressClass': {
      const parameters = record(object, 'spec').parameters;
      if (isRecord(parameters)) setIfAbsent(parameters, 'scope', 'Cluster');
      return true;
    }
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      defaultRoleBinding(object);
      return true;
    default:
      return false;
  }
}

function defaultProtocol(port: Json): void {
  setIfAbsent(port, 'protocol', 'TCP');
}

/** `SetDefaults_Service` plus the IP family fields the registry fills (single-stack IPv4, as kind). */
function defaultService(service: KubeObject): void {
  const spec = record(service, 'spec');
  setIfAbsent(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  setIfAbsent(spec, 'type', 'ClusterIP');
  forEachRecord(spec.ports, (port) => {
    defaultProtocol(port);
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  });
  const type = spec.type;
  const externalIPs = Array.isArray(spec.externalIPs) ? spec.externalIPs : [];
  const externallyAccessible = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && externalIPs.length > 0);
  if (externallyAccessible) setIfAbsent(spec, 'externalTrafficPolicy', 'Cluster');
  if (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer') {
    setIfAbsent(spec, 'internalTrafficPolicy', 'Cluster');
    // initIPFamilyFields: a headless Service without a selector asks for every family the cluster has.
    const clusterIP = Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0 ? spec.clusterIPs[0] : spec.clusterIP;
    const selectorless = !isRecord(spec.selector) || Object.keys(spec.selector).length === 0;
    setIfAbsent(spec, 'ipFamilyPolicy', clusterIP === 'None' && selectorless ? 'RequireDualStack' : 'SingleStack');
    if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) spec.ipFamilies = ['IPv4'];
  }
  if (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
  record(record(service, 'status'), 'loadBalancer');
}

/**
 * `SetDefaults_Secret` and `Convert_v1_Secret_To_core_Secret`: `stringData` is write-only, its
 * values overwrite `data`'s as base64 of their UTF-8 bytes, and it is never stored.
 */
function defaultSecret(secret: KubeObject): void {
  setIfAbsent(secret, 'type', 'Opaque');
  const stringData = secret.stringData;
  if (stringData === undefined) return;
  delete secret.stringData;
  if (!isRecord(stringData)) return;
  const data = record(secret, 'data');
  for (const [key, value] of Object.entries(stringData)) data[key] = encodeUtf8Base64(typeof value === 'string' ? value : String(value));
}

/** `SetDefaults_PersistentVolume`: phase Pending until the PV controller makes it Available. */
function defaultPersistentVolume(volume: KubeObject): void {
  const spec = record(volume, 'spec');
  setIfAbsent(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setIfAbsent(spec, 'volumeMode', 'Filesystem');
  setIfAbsent(record(volume, 'status'), 'phase', 'Pending');
}

/** `SetDefaults_LimitRangeItem`: a Container item's default limit from max, default request from the default limit, then min. */
function defaultLimitRangeItem(item: Json): void {
  if (item.type !== 'Container') return;
  const defaults: Json = isRecord(item.default) ? item.default : {};
  const defaultRequests: Json = isRecord(item.defaultRequest) ? item.defaultRequest : {};
  const fill = (target: Json, source: unknown) => {
    if (!isRecord(source)) return;
    for (const [name, quantity] of Object.entries(source)) if (!(name in target)) target[name] = quantity;
  };
  fill(defaults, item.max);
  fill(defaultRequests, defaults);
  fill(defaultRequests, item.min);
  // Empty maps are omitted when the object is serialized.
  if (Object.keys(defaults).length > 0) item.default = defaults;
  if (Object.keys(defaultRequests).length > 0) item.defaultRequest = defaultRequests;
}

/** autoscaling/v2 `defaultHPAScaleUpRules` / `defaultHPAScaleDownRules`. */
const SCALE_UP_RULES = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const SCALE_DOWN_RULES = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
/** `autoscaling.DefaultCPUUtilization`. */
const DEFAULT_CPU_UTILIZATION = 80;

/** `copyHPAScalingRules` over a copy of the defaults: what the user set wins, field by field. */
function scalingRules(given: unknown, defaults: Json): Json {
  const rules: Json = structuredClone(defaults);
  if (!isRecord(given)) return rules;
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) if (given[key] !== undefined && given[key] !== null) rules[key] = given[key];
  return rules;
}

/** `SetDefaults_HorizontalPodAutoscaler`: minReplicas 1, CPU at 80 % without metrics, behavior filled only when given. */
function defaultHorizontalPodAutoscaler(autoscaler: KubeObject): void {
  const spec = record(autoscaler, 'spec');
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (isRecord(spec.behavior)) {
    spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, SCALE_UP_RULES);
    spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, SCALE_DOWN_RULES);
  }
}

/** The PDB registry resets status on create; its counters have no omitempty, so they read back as zeros. */
function defaultPodDisruptionBudgetStatus(budget: KubeObject): void {
  const status = record(budget, 'status');
  for (const counter of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) setIfAbsent(status, counter, 0);
}

/** `SetDefaults_NetworkPolicy` and `SetDefaults_NetworkPolicyPort`. */
function defaultNetworkPolicy(policy: KubeObject): void {
  const spec = record(policy, 'spec');
  record(spec, 'podSelector');
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
  for (const direction of ['ingress', 'egress']) forEachRecord(spec[direction], (rule) => forEachRecord(rule.ports, defaultProtocol));
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** `SetDefaults_RoleBinding` / `SetDefaults_ClusterRoleBinding` and `SetDefaults_Subject`. */
function defaultRoleBinding(binding: KubeObject): void {
  setIfAbsent(record(binding, 'roleRef'), 'apiGroup', RBAC_GROUP);
  forEachRecord(binding.subjects, (subject) => {
    if (subject.apiGroup !== undefined && subject.apiGroup !== '') return;
    if (subject.kind === 'ServiceAccount') subject.apiGroup = '';
    else if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = RBAC_GROUP;
  });
}
