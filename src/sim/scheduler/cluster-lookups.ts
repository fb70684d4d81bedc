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

function defaultSelector(store: StoreApi, pod: PodSchedulingInfo): CompiledSelector {
  let labelSet: Record<string, string> = {};
  for (const service of store.list<Service & KubeObject>('Service', { namespace: pod.namespace }).items) {
    const selector = service.spec?.selector;
    if (!selector || Object.keys(selector).length === 0) continue;
    if (Object.entries(selector).every(([key, value]) => pod.labels[key] === value)) labelSet = { ...labelSet, ...selector };
  }
  let selector = selectorFromSet(labelSet);
  const owner = pod.controller;
  if (!owner) return selector;
  if (owner.apiVersion === 'v1' && owner.kind === 'ReplicationController') {
    const rc = store.get<ReplicationController & KubeObject>('ReplicationController', pod.namespace, owner.name);
    if (rc) selector = selectorFromSet({ ...labelSet, ...rc.spec?.selector });
  } else if (owner.apiVersion === 'apps/v1' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const controller = store.get<(ReplicaSet | StatefulSet) & KubeObject>(owner.kind, pod.namespace, owner.name);
    if (controller) selector = mergeSelectors(selector, compileSelector(controller.spec?.selector));
  }
  return selector;
}

export function storeLookups(store: StoreApi): ClusterLookups {
  return {
    namespaces: {
      labelsOf: (namespace) => store.get<Namespace & KubeObject>('Namespace', undefined, namespace)?.metadata?.labels ?? {},
      all: () => store.list<Namespace & KubeObject>('Namespace').items.map((ns) => ({ name: ns.metadata?.name ?? '', labels: ns.metadata?.labels ?? {} })),
    },
    defaultSpreadSelector: (pod) => defaultSelector(store, pod),
  };
}
