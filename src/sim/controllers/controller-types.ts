/**
 * The object shapes the deployment and replicaset controllers read, as `KubeObject`s (so the store
 * accepts them) with the typed fields of kubernetes-types.
 */
import type { Deployment, KubeObject, OwnerReference, Pod, ReplicaSet } from '../../core/k8s';

export type DeploymentObject = Deployment & KubeObject;
export type ReplicaSetObject = ReplicaSet & KubeObject;
export type PodObject = Pod & KubeObject;

export type DeploymentStatus = NonNullable<Deployment['status']>;
export type DeploymentCondition = NonNullable<DeploymentStatus['conditions']>[number];
export type ReplicaSetStatus = NonNullable<ReplicaSet['status']>;
export type ReplicaSetCondition = NonNullable<ReplicaSetStatus['conditions']>[number];
export type PodTemplateSpec = NonNullable<NonNullable<Deployment['spec']>['template']>;
export type LabelSelector = NonNullable<Deployment['spec']>['selector'];

/** `metav1.GetControllerOf`: the ownerReference with `controller: true`. */
export function controllerOf(object: KubeObject | undefined): OwnerReference | undefined {
  const refs = object?.metadata?.ownerReferences;
  if (!refs) return undefined;
  for (const ref of refs) if (ref.controller) return ref;
  return undefined;
}

/** `metav1.NewControllerRef`. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata?.name ?? '', uid: owner.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** Milliseconds since the epoch of an RFC 3339 timestamp, or undefined when absent or unparsable. */
export function parseTime(value: string | undefined | null): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** A shallow copy of a string map with its keys in sorted order, as Go's JSON encoder writes maps. */
export function sortedMap(map: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(map).sort()) out[key] = map[key];
  return out;
}

/** A sync failed for a reason upstream reports as an error (and retries with back-off). */
export class SyncError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncError';
  }
}
