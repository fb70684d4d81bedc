/**
 * The object a user edits to change a pod: its topmost controller in the store (a Deployment
 * above the ReplicaSet, a CronJob above the Job), or the pod itself, and where the pod template
 * sits in it. Also the controller whose `spec.replicas` decides how many such pods there are.
 */
import type { KubeObject, OwnerReference } from '../../../core/k8s';
import { podSpecPrefix, type FitTarget } from '../../../core/journey/fit-suggestions';
import type { StoreApi, StoreKind } from '../../store/types';
import type { PodObject } from '../../store/pod-binding';

export interface PodOwner {
  target: FitTarget;
  /** `spec.template.` (or `` for a bare pod): prefix of the pod's field paths in `target`. */
  prefix: string;
  /** The pod's own controller (ReplicaSet, StatefulSet, Job…), whose pods are copies of it. */
  controller?: KubeObject;
  /** The object whose `spec.replicas` sets the pod count (Deployment, ReplicaSet, StatefulSet, ReplicationController). */
  scaled?: KubeObject;
}

/** Controllers the simulator runs: a custom controller's object is not followed (its kind may not be served). */
const CONTROLLER_KINDS: ReadonlySet<string> = new Set(['ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicationController']);
const SCALED_KINDS: ReadonlySet<string> = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

function controllerRef(object: KubeObject): OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

function refOf(object: KubeObject): FitTarget {
  return { kind: object.kind ?? '', namespace: object.metadata?.namespace ?? 'default', name: object.metadata?.name ?? '' };
}

export function podOwner(store: StoreApi, pod: PodObject): PodOwner {
  const namespace = pod.metadata?.namespace ?? 'default';
  let top: KubeObject = pod;
  let controller: KubeObject | undefined;
  let scaled: KubeObject | undefined;
  // A pod's chain is at most two controllers deep (Deployment → ReplicaSet, CronJob → Job); a cap guards against cycles.
  for (let depth = 0; depth < 4; depth++) {
    const ref = controllerRef(top);
    if (!ref || !CONTROLLER_KINDS.has(ref.kind)) break;
    const owner = store.get<KubeObject>(ref.kind as StoreKind, namespace, ref.name);
    if (!owner || owner.metadata?.uid !== ref.uid) break;
    controller ??= owner;
    if (SCALED_KINDS.has(ref.kind)) scaled = owner;
    top = owner;
  }
  return { target: refOf(top), prefix: podSpecPrefix(top.kind ?? 'Pod'), controller, scaled };
}
