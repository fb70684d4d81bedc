/**
 * What PodTopologySpread and InterPodAffinity read through listers beyond the scheduler cache:
 * namespace labels (for `namespaceSelector`) and `helper.DefaultSelector`, the Services selecting
 * the pod and the selector of its controller (ReplicationController, ReplicaSet or StatefulSet),
 * which the system default spread constraints count by.
 */
import type { KubeObject, Namespace, ReplicaSet, ReplicationController, StatefulSet } from '../../core/k8s';
import type { Service } from 'kubernetes-types/core/v1';
import type { StoreApi } from '../store/types';
import type { ClusterLookups } from './framework';
import { compileSelector, mergeSelectors, selectorFromSet, type CompiledSelector } from './label-selector';
import type { PodSchedulingInfo } from './pod-info';

/** A Service whose selector picks the pod: its selector merges into the default selector. */
function selectsPod(service: Service & KubeObject, pod: PodSchedulingInfo): boolean {
  const selector = service.spec?.selector;
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => pod.labels[key] === value);
}

/** The pod's controller when it is one whose selector the default constraints take. */
function selectorController(store: StoreApi, pod: PodSchedulingInfo): KubeObject | undefined {
  const owner = pod.controller;
  if (!owner) return undefined;
  if (owner.apiVersion === 'v1' && owner.kind === 'ReplicationController') return store.get<ReplicationController & KubeObject>('ReplicationController', pod.namespace, owner.name);
  if (owner.apiVersion === 'apps/v1' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) return store.get<(ReplicaSet | StatefulSet) & KubeObject>(owner.kind, pod.namespace, owner.name);
  return undefined;
}

function buildDefaultSelector(services: readonly (Service & KubeObject)[], controller: KubeObject | undefined, controllerKind: string | undefined): CompiledSelector {
  let labelSet: Record<string, string> = {};
  for (const service of services) labelSet = { ...labelSet, ...service.spec?.selector };
  if (!controller) return selectorFromSet(labelSet);
  if (controllerKind === 'ReplicationController') return selectorFromSet({ ...labelSet, ...(controller as ReplicationController).spec?.selector });
  return mergeSelectors(selectorFromSet(labelSet), compileSelector((controller as ReplicaSet | StatefulSet).spec?.selector));
}

/** One default selector as built, with the objects it was built from. */
interface BuiltSelector {
  /** The selecting Services and the controller (last), with their resourceVersions when built. */
  readonly sources: readonly (KubeObject | undefined)[];
  readonly versions: readonly (string | undefined)[];
  readonly selector: CompiledSelector;
}

/** Default selectors kept at most; past it the cache starts over (one entry per controller in use). */
const MAX_BUILT_SELECTORS = 1024;

/**
 * `helper.DefaultSelector`, built once per controller and set of selecting Services: the store
 * replaces an object on every write, never changes it in place, so the same objects (the
 * identities and resourceVersions checked here) give the same selector. Every pod of a
 * ReplicaSet then shares one selector object, which also lets the spread plugin reuse its
 * compiled default constraints.
 */
function defaultSelectors(store: StoreApi): (pod: PodSchedulingInfo) => CompiledSelector {
  const built = new Map<string, BuiltSelector>();
  return (pod) => {
    const services: (Service & KubeObject)[] = [];
    for (const service of store.list<Service & KubeObject>('Service', { namespace: pod.namespace }).items) if (selectsPod(service, pod)) services.push(service);
    const controller = selectorController(store, pod);
    const owner = pod.controller;
    const key = owner ? `${pod.namespace}\u0000${owner.kind}\u0000${owner.name}` : `${pod.namespace}\u0000`;
    const sources: (KubeObject | undefined)[] = [...services, controller];
    const cached = built.get(key);
    if (cached && sameSources(cached, sources)) return cached.selector;
    const selector = buildDefaultSelector(services, controller, owner?.kind);
    if (built.size >= MAX_BUILT_SELECTORS) built.clear();
    built.set(key, { sources, versions: sources.map((o) => o?.metadata?.resourceVersion), selector });
    return selector;
  };
}

function sameSources(built: BuiltSelector, sources: readonly (KubeObject | undefined)[]): boolean {
  if (built.sources.length !== sources.length) return false;
  for (let i = 0; i < sources.length; i++) {
    if (built.sources[i] !== sources[i] || built.versions[i] !== sources[i]?.metadata?.resourceVersion) return false;
  }
  return true;
}

export function storeLookups(store: StoreApi): ClusterLookups {
  return {
    namespaces: {
      labelsOf: (namespace) => store.get<Namespace & KubeObject>('Namespace', undefined, namespace)?.metadata?.labels ?? {},
      all: () => store.list<Namespace & KubeObject>('Namespace').items.map((ns) => ({ name: ns.metadata?.name ?? '', labels: ns.metadata?.labels ?? {} })),
    },
    defaultSpreadSelector: defaultSelectors(store),
  };
}
