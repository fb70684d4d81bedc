/**
 * What each object counts for in a ResourceQuota (pkg/quota/v1/evaluator/core and the generic
 * object-count evaluator): a pod counts `pods`, `count/pods` and its requests and limits
 * (`requests.cpu`, `cpu`, `limits.memory`…) while it is not finished; a Service counts
 * `services`, `services.nodeports`, `services.loadbalancers`; a claim `persistentvolumeclaims`
 * and `requests.storage` (also per storage class); every namespaced kind `count/<resource>`.
 * Shared by the ResourceQuota admission plugin and the quota controller, so both count alike.
 */
import type { KubeObject, PodSpec, ResourceKind } from '../../core/k8s';
import type { Quantity } from '../../core/schema/quantity';
import { podQOSClass } from '../store/defaults';
import { RESOURCES, resourceInfo } from '../store/resources';
import { add, podResources, quantityOf, quantityText, type QuantityMap } from '../admission/resource-lists';

const ONE: Quantity = Object.freeze({ nano: 1_000_000_000n, format: 'DecimalSI' });

/** The legacy names of object counts, beside `count/<resource>`. */
const LEGACY_COUNTS: Partial<Record<ResourceKind, string>> = {
  Pod: 'pods',
  Service: 'services',
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  ReplicationController: 'replicationcontrollers',
  ResourceQuota: 'resourcequotas',
};

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

/** `count/deployments.apps`, `count/pods`. */
export function countResourceName(kind: ResourceKind): string {
  const info = resourceInfo(kind);
  return `count/${info.group ? `${info.plural}.${info.group}` : info.plural}`;
}

/** The kind whose objects a quota's resource name counts. */
export function kindCounted(resourceName: string): ResourceKind | undefined {
  if (resourceName.startsWith('count/')) {
    const counted = resourceName.slice('count/'.length);
    return RESOURCES.find((info) => info.namespaced && (info.group ? `${info.plural}.${info.group}` : info.plural) === counted)?.kind;
  }
  for (const [kind, legacy] of Object.entries(LEGACY_COUNTS)) if (legacy === resourceName) return kind as ResourceKind;
  if (resourceName.startsWith('services.')) return 'Service';
  if (resourceName === 'requests.storage' || resourceName.includes(STORAGE_CLASS_SUFFIX)) return 'PersistentVolumeClaim';
  if (/^(requests\.|limits\.)?(cpu|memory|ephemeral-storage)$/.test(resourceName) || /^(requests\.)?hugepages-/.test(resourceName)) return 'Pod';
  return undefined;
}

/** QuotaV1Pod: a finished pod no longer counts. */
export function podCounts(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** Everything one object counts for. */
export function usageOf(kind: ResourceKind, object: KubeObject): QuantityMap {
  const usage: QuantityMap = new Map();
  if (kind === 'Pod' && !podCounts(object)) return usage;
  usage.set(countResourceName(kind), ONE);
  const legacy = LEGACY_COUNTS[kind];
  if (legacy) usage.set(legacy, ONE);
  if (kind === 'Pod') addPodCompute(object.spec as PodSpec | undefined, usage);
  else if (kind === 'Service') addServiceUsage(object, usage);
  else if (kind === 'PersistentVolumeClaim') addClaimUsage(object, usage);
  return usage;
}

function addPodCompute(spec: PodSpec | undefined, usage: QuantityMap): void {
  for (const [name, quantity] of podResources(spec, 'requests')) {
    usage.set(`requests.${name}`, quantity);
    // cpu, memory and ephemeral-storage also count under their bare names.
    if (name === 'cpu' || name === 'memory' || name === 'ephemeral-storage') usage.set(name, quantity);
  }
  for (const [name, quantity] of podResources(spec, 'limits')) usage.set(`limits.${name}`, quantity);
}

function addServiceUsage(service: KubeObject, usage: QuantityMap): void {
  const spec = service.spec as { type?: string; ports?: unknown[]; allocateLoadBalancerNodePorts?: boolean } | undefined;
  const ports = spec?.ports?.length ?? 0;
  const nodePorts = spec?.type === 'NodePort' || (spec?.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false) ? ports : 0;
  usage.set('services.nodeports', countOf(nodePorts));
  usage.set('services.loadbalancers', spec?.type === 'LoadBalancer' ? ONE : countOf(0));
}

function addClaimUsage(claim: KubeObject, usage: QuantityMap): void {
  const spec = claim.spec as { storageClassName?: string; resources?: { requests?: Record<string, string> } } | undefined;
  const storage = quantityOf(spec?.resources?.requests?.storage);
  if (storage) usage.set('requests.storage', storage);
  const className = spec?.storageClassName;
  if (className) {
    usage.set(`${className}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, ONE);
    if (storage) usage.set(`${className}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
  }
}

function countOf(n: number): Quantity {
  return { nano: BigInt(n) * 1_000_000_000n, format: 'DecimalSI' };
}

/** Whether a quota with these `scopes` tracks the object (Terminating, NotTerminating, BestEffort, NotBestEffort). */
export function scopesMatch(scopes: readonly string[] | undefined, kind: ResourceKind, object: KubeObject): boolean {
  if (!scopes || scopes.length === 0) return true;
  if (kind !== 'Pod') return false;
  const spec = (object.spec ?? {}) as PodSpec;
  for (const scope of scopes) {
    const terminating = spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null;
    const bestEffort = podQOSClass(spec) === 'BestEffort';
    if (scope === 'Terminating' && !terminating) return false;
    if (scope === 'NotTerminating' && terminating) return false;
    if (scope === 'BestEffort' && !bestEffort) return false;
    if (scope === 'NotBestEffort' && bestEffort) return false;
  }
  return true;
}

/** prettyPrint: `pods=1,requests.cpu=500m`, keys sorted. */
export function prettyPrint(list: QuantityMap): string {
  return [...list.keys()].sort().map((name) => `${name}=${quantityText(list.get(name)!)}`).join(',');
}

export function sumInto(total: QuantityMap, usage: QuantityMap, names: ReadonlySet<string>): void {
  for (const [name, quantity] of usage) if (names.has(name)) total.set(name, add(total.get(name), quantity));
}
