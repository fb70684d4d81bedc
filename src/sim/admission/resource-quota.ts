/**
 * ResourceQuota admission (plugin/pkg/admission/resourcequota, checkRequest): a new object is
 * refused when it would take its namespace past a quota's hard limit
 * (`exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2`), and a pod under
 * a quota of cpu or memory must state them for every container
 * (`failed quota: mem-cpu-demo: must specify limits.cpu for: nginx`). Usage is counted from the
 * store at the moment of the request, what upstream's admission reads from `status.used` and
 * increments in the same request; the quota controller writes it to `status.used`.
 */
import type { PodSpec } from '../../core/k8s';
import type { ApiError, StoreApi } from '../store/types';
import type { QuantityMap } from './resource-lists';
import { containerList, quantityOf, toQuantities } from './resource-lists';
import { prettyPrint, scopesMatch, usageOf } from '../quota/evaluators';
import { namespaceUsage, type QuotaObject } from '../quota/namespace-usage';
import { forbidden, type AdmissionAttributes, type AdmissionPlugin } from './plugin';

/** The resources a quota on cpu or memory makes every container state (validationSet). */
const MUST_SPECIFY = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

export class ResourceQuotaAdmission implements AdmissionPlugin {
  readonly name = 'ResourceQuota';

  validate(attributes: AdmissionAttributes, store: StoreApi): ApiError | undefined {
    const { kind, object, old } = attributes;
    // Only a Service (its type, its node ports) and a claim (its size) can grow by an update;
    // a pod's resources cannot change in place without InPlacePodVerticalScaling, off in 1.32.
    if (!attributes.namespace || (old !== undefined && kind !== 'Service' && kind !== 'PersistentVolumeClaim')) return undefined;
    const quotas = store.list<QuotaObject>('ResourceQuota', { namespace: attributes.namespace }).items;
    if (quotas.length === 0) return undefined;
    const delta = old === undefined ? usageOf(kind, object) : growth(usageOf(kind, object), usageOf(kind, old));
    if (delta.size === 0) return undefined;
    const interesting: { quota: QuotaObject; hard: QuantityMap }[] = [];
    for (const quota of quotas) {
      if (!scopesMatch(quota.spec?.scopes, kind, object)) continue;
      const hard = toQuantities(quota.spec?.hard);
      const matching = [...hard.keys()].filter((name) => delta.has(name) || (kind === 'Pod' && MUST_SPECIFY.has(name)));
      if (matching.length === 0) continue;
      if (kind === 'Pod') {
        const missing = missingContainerResources(object.spec as PodSpec | undefined, matching);
        if (missing) return forbidden(attributes, `failed quota: ${quota.metadata?.name}: ${missing}`);
      }
      interesting.push({ quota, hard });
    }
    for (const { quota, hard } of interesting) {
      const requested: QuantityMap = new Map([...delta].filter(([name]) => hard.has(name)));
      if (requested.size === 0) continue;
      const used = namespaceUsage(store, attributes.namespace, new Set(requested.keys()), quota.spec?.scopes);
      const exceeded = [...requested.keys()].filter((name) => used.get(name)!.nano + requested.get(name)!.nano > hard.get(name)!.nano);
      if (exceeded.length === 0) continue;
      const pick = (list: QuantityMap): QuantityMap => new Map(exceeded.map((name) => [name, list.get(name)!]));
      return forbidden(attributes, `exceeded quota: ${quota.metadata?.name}, requested: ${prettyPrint(pick(requested))}, used: ${prettyPrint(pick(used))}, limited: ${prettyPrint(pick(hard))}`);
    }
    return undefined;
  }
}

/** SubtractWithNonNegativeResult, keeping only what grew. */
function growth(now: QuantityMap, before: QuantityMap): QuantityMap {
  const grown: QuantityMap = new Map();
  for (const [name, quantity] of now) {
    const increase = quantity.nano - (before.get(name)?.nano ?? 0n);
    if (increase > 0n) grown.set(name, { nano: increase, format: quantity.format });
  }
  return grown;
}

/** podEvaluator.Constraints: `must specify limits.cpu for: a,b; requests.memory for: a`. */
function missingContainerResources(spec: PodSpec | undefined, quotaResources: string[]): string | undefined {
  const required = quotaResources.filter((name) => MUST_SPECIFY.has(name));
  if (required.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const container of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) {
    const stated = new Set<string>();
    for (const name of toQuantities(containerList(container, 'requests')).keys()) {
      if (name === 'cpu' || name === 'memory') stated.add(name).add(`requests.${name}`);
    }
    for (const [name, value] of Object.entries(containerList(container, 'limits') ?? {})) {
      if ((name === 'cpu' || name === 'memory') && quantityOf(value) !== undefined) stated.add(`limits.${name}`);
    }
    for (const name of required) {
      if (stated.has(name)) continue;
      if (!missing.has(name)) missing.set(name, new Set());
      missing.get(name)!.add(container.name);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((name) => `${name} for: ${[...missing.get(name)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}
