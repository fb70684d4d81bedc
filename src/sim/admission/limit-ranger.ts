/**
 * LimitRanger (plugin/pkg/admission/limitranger): a new pod's containers get the namespace's
 * LimitRange defaults (`defaultRequest`, `default`) for what they leave out, noted in the
 * `kubernetes.io/limit-ranger` annotation; then `min`, `max` and `maxLimitRequestRatio` are
 * enforced per Container, per Pod and per PersistentVolumeClaim with upstream's messages
 * (`maximum cpu usage per Container is 800m, but limit is 1500m`).
 */
import type { Container, KubeObject, PodSpec } from '../../core/k8s';
import type { StoreApi } from '../store/types';
import { canonicalResourceQuantity } from '../../core/schema/quantity';
import { containerList, podResources, quantityOf, quantityText, toQuantities, type QuantityMap, type ResourceList } from './resource-lists';
import { forbidden, type AdmissionAttributes, type AdmissionPlugin } from './plugin';
import type { ApiError } from '../store/types';

const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

interface LimitRangeItem {
  type?: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

function limitRangeItems(store: StoreApi, namespace: string): LimitRangeItem[] {
  const items: LimitRangeItem[] = [];
  for (const range of store.list<KubeObject>('LimitRange', { namespace }).items) {
    for (const item of ((range.spec as { limits?: LimitRangeItem[] } | undefined)?.limits ?? [])) items.push(item);
  }
  return items;
}

/**
 * SetDefaults_LimitRangeItem, applied when reading so the plugin needs no stored defaults: a
 * Container item's `default` falls back to `max`, its `defaultRequest` to `default`, then to `min`.
 */
function containerDefaults(items: LimitRangeItem[]): { requests: ResourceList; limits: ResourceList } {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  for (const item of items) {
    if (item.type !== 'Container') continue;
    const itemLimits: ResourceList = { ...item.max, ...item.default };
    const itemRequests: ResourceList = { ...item.min, ...itemLimits, ...item.defaultRequest };
    Object.assign(limits, itemLimits);
    Object.assign(requests, itemRequests);
  }
  return { requests, limits };
}

export class LimitRanger implements AdmissionPlugin {
  readonly name = 'LimitRanger';

  admit(attributes: AdmissionAttributes, store: StoreApi): void {
    if (attributes.kind !== 'Pod' || attributes.old !== undefined) return;
    const items = limitRangeItems(store, attributes.namespace);
    if (items.length === 0) return;
    const defaults = containerDefaults(items);
    if (Object.keys(defaults.requests).length === 0 && Object.keys(defaults.limits).length === 0) return;
    const spec = attributes.object.spec as PodSpec | undefined;
    const notes: string[] = [];
    for (const container of spec?.containers ?? []) notes.push(...mergeContainerResources(container, defaults, 'container'));
    for (const container of spec?.initContainers ?? []) notes.push(...mergeContainerResources(container, defaults, 'init container'));
    if (notes.length === 0) return;
    const meta = (attributes.object.metadata ??= {});
    meta.annotations = { ...meta.annotations, [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }

  validate(attributes: AdmissionAttributes, store: StoreApi): ApiError | undefined {
    if (attributes.old !== undefined || (attributes.kind !== 'Pod' && attributes.kind !== 'PersistentVolumeClaim')) return undefined;
    const items = limitRangeItems(store, attributes.namespace);
    if (items.length === 0) return undefined;
    const errors = attributes.kind === 'Pod' ? podLimitErrors(attributes.object.spec as PodSpec | undefined, items) : claimLimitErrors(attributes.object, items);
    if (errors.length === 0) return undefined;
    // utilerrors.NewAggregate: one error reads as itself, several as `[a, b]`.
    return forbidden(attributes, errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  }
}

/** mergeContainerResources: fills what the container leaves out and says what it filled. */
function mergeContainerResources(container: Container, defaults: { requests: ResourceList; limits: ResourceList }, prefix: string): string[] {
  const setRequests: string[] = [];
  const setLimits: string[] = [];
  const resources = (container.resources ??= {});
  for (const [name, value] of Object.entries(defaults.limits)) {
    const limits = (resources.limits ??= {}) as ResourceList;
    if (limits[name] === undefined) {
      limits[name] = canonicalResourceQuantity(value) ?? value;
      setLimits.push(name);
    }
  }
  for (const [name, value] of Object.entries(defaults.requests)) {
    const requests = (resources.requests ??= {}) as ResourceList;
    if (requests[name] === undefined) {
      requests[name] = canonicalResourceQuantity(value) ?? value;
      setRequests.push(name);
    }
  }
  const notes: string[] = [];
  if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${container.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${container.name}`);
  return notes;
}

function podLimitErrors(spec: PodSpec | undefined, items: LimitRangeItem[]): string[] {
  const errors: string[] = [];
  for (const item of items) {
    if (item.type === 'Container') {
      for (const container of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) {
        checkItem(item, 'Container', toQuantities(containerList(container, 'requests')), toQuantities(containerList(container, 'limits')), errors);
      }
    } else if (item.type === 'Pod') {
      checkItem(item, 'Pod', podResources(spec, 'requests'), podResources(spec, 'limits'), errors);
    }
  }
  return errors;
}

function claimLimitErrors(claim: KubeObject, items: LimitRangeItem[]): string[] {
  const resources = (claim.spec as { resources?: { requests?: ResourceList; limits?: ResourceList } } | undefined)?.resources;
  const errors: string[] = [];
  for (const item of items) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    const requests = toQuantities(resources?.requests);
    const limits = toQuantities(resources?.limits);
    for (const [name, value] of Object.entries(item.min ?? {})) {
      const enforced = quantityOf(value);
      const request = requests.get(name);
      if (!enforced) continue;
      if (!request) errors.push(`minimum ${name} usage per PersistentVolumeClaim is ${quantityText(enforced)}.  No request is specified`);
      else if (request.nano < enforced.nano) errors.push(`minimum ${name} usage per PersistentVolumeClaim is ${quantityText(enforced)}, but request is ${quantityText(request)}`);
    }
    for (const [name, value] of Object.entries(item.max ?? {})) {
      const enforced = quantityOf(value);
      const request = requests.get(name);
      if (!enforced) continue;
      if (!request && !limits.get(name)) errors.push(`maximum ${name} usage per PersistentVolumeClaim is ${quantityText(enforced)}.  No limit is specified`);
      else if (request && request.nano > enforced.nano) errors.push(`maximum ${name} usage per PersistentVolumeClaim is ${quantityText(enforced)}, but request is ${quantityText(request)}`);
    }
  }
  return errors;
}

/** minConstraint, maxConstraint and limitRequestRatioConstraint for one item and one container or pod. */
function checkItem(item: LimitRangeItem, limitType: string, requests: QuantityMap, limits: QuantityMap, errors: string[]): void {
  for (const [name, value] of Object.entries(item.min ?? {})) {
    const enforced = quantityOf(value);
    if (!enforced) continue;
    const request = requests.get(name);
    const limit = limits.get(name);
    if (!request) errors.push(`minimum ${name} usage per ${limitType} is ${quantityText(enforced)}.  No request is specified`);
    else if (request.nano < enforced.nano) errors.push(`minimum ${name} usage per ${limitType} is ${quantityText(enforced)}, but request is ${quantityText(request)}`);
    else if (limit && limit.nano < enforced.nano) errors.push(`minimum ${name} usage per ${limitType} is ${quantityText(enforced)}, but limit is ${quantityText(limit)}`);
  }
  for (const [name, value] of Object.entries(item.max ?? {})) {
    const enforced = quantityOf(value);
    if (!enforced) continue;
    const request = requests.get(name);
    const limit = limits.get(name);
    if (!limit) errors.push(`maximum ${name} usage per ${limitType} is ${quantityText(enforced)}.  No limit is specified`);
    else if (limit.nano > enforced.nano) errors.push(`maximum ${name} usage per ${limitType} is ${quantityText(enforced)}, but limit is ${quantityText(limit)}`);
    else if (request && request.nano > enforced.nano) errors.push(`maximum ${name} usage per ${limitType} is ${quantityText(enforced)}, but request is ${quantityText(request)}`);
  }
  for (const [name, value] of Object.entries(item.maxLimitRequestRatio ?? {})) {
    const enforced = quantityOf(value);
    if (!enforced) continue;
    const request = requests.get(name);
    const limit = limits.get(name);
    if (!request || request.nano === 0n) {
      errors.push(`${name} max limit to request ratio per ${limitType} is ${quantityText(enforced)}, but no request is specified or request is 0`);
    } else if (!limit || limit.nano === 0n) {
      errors.push(`${name} max limit to request ratio per ${limitType} is ${quantityText(enforced)}, but no limit is specified or limit is 0`);
    } else {
      const ratio = Number(limit.nano) / Number(request.nano);
      // Go's %f: six decimals.
      if (ratio * 1e9 > Number(enforced.nano) + 1e-6) errors.push(`${name} max limit to request ratio per ${limitType} is ${quantityText(enforced)}, but provided ratio is ${ratio.toFixed(6)}`);
    }
  }
}
