/** A namespace's usage of the resources a quota limits, counted from the stored objects. */
import type { KubeObject, ResourceKind } from '../../core/k8s';
import type { StoreApi } from '../store/types';
import type { QuantityMap } from '../admission/resource-lists';
import { kindCounted, scopesMatch, sumInto, usageOf } from './evaluators';

export interface QuotaObject extends KubeObject {
  spec?: { hard?: Record<string, string>; scopes?: string[] };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

/** Every tracked resource of `names` at zero, then each counted object's share added. */
export function namespaceUsage(store: StoreApi, namespace: string, names: ReadonlySet<string>, scopes: readonly string[] | undefined, skip?: ResourceKind): QuantityMap {
  const used: QuantityMap = new Map();
  for (const name of names) used.set(name, { nano: 0n, format: 'DecimalSI' });
  const kinds = new Set<ResourceKind>();
  for (const name of names) {
    const kind = kindCounted(name);
    if (kind && kind !== skip) kinds.add(kind);
  }
  for (const kind of kinds) {
    for (const object of store.list<KubeObject>(kind, { namespace }).items) {
      if (scopesMatch(scopes, kind, object)) sumInto(used, usageOf(kind, object), names);
    }
  }
  return used;
}
