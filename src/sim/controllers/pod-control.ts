/**
 * `RealPodControl` (pkg/controller/controller_utils.go): the pod writes a controller makes through
 * the API server for an owner, with the events upstream records about the owner
 * (`SuccessfulCreate`, `FailedCreate`, `SuccessfulDelete`, `FailedDelete`).
 */
import type { KubeObject } from '../../core/k8s';
import type { ComponentName } from '../../core/internals';
import type { SimContext } from '../context';
import { ApiError } from '../store/types';
import { recordEvent } from './controller-events';
import type { PodObject } from './controller-types';

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isNamespaceTerminating(error: unknown): boolean {
  return error instanceof ApiError && (error.details?.causes ?? []).some((cause) => cause.reason === 'NamespaceTerminating');
}

/**
 * `CreatePods`: the created pod, or undefined when the namespace is being deleted (upstream does
 * not count that as a failure). Any other failure is recorded and thrown.
 */
export function createPod(ctx: SimContext, component: ComponentName, owner: KubeObject, pod: PodObject): PodObject | undefined {
  let created: PodObject;
  try {
    created = ctx.store.create<PodObject>('Pod', pod, { fieldManager: component });
  } catch (error) {
    if (isNamespaceTerminating(error)) return undefined;
    recordEvent(ctx, component, owner, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(error)}`);
    throw error;
  }
  recordEvent(ctx, component, owner, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata?.name ?? ''}`);
  return created;
}

/** `DeletePod`; returns the API error instead of throwing, so a controller attempts every victim. */
export function deletePod(ctx: SimContext, component: ComponentName, owner: KubeObject, pod: PodObject): ApiError | undefined {
  const name = pod.metadata?.name ?? '';
  try {
    ctx.store.delete('Pod', pod.metadata?.namespace, name, { actor: component });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code !== 404) recordEvent(ctx, component, owner, 'Warning', 'FailedDelete', `Error deleting: ${error.message}`);
    return error;
  }
  recordEvent(ctx, component, owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
  return undefined;
}
