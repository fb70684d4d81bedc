/**
 * NamespaceLifecycle (plugin/pkg/admission/namespace/lifecycle): nothing new is created in a
 * namespace being deleted, and the namespaces kube-apiserver makes cannot be deleted. A
 * namespace that does not exist is refused by the store itself (`namespaces "x" not found`),
 * before any plugin runs, as the plugin's own lookup would.
 */
import type { KubeObject } from '../../core/k8s';
import { ApiError, type StoreApi } from '../store/types';
import { forbidden, type AdmissionAttributes, type AdmissionPlugin } from './plugin';

/** kube-apiserver's immortal namespaces. */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/** The refusal of deleting an immortal namespace, checked by the store's delete (admission's Delete operation). */
export function namespaceDeletionRefusal(name: string): ApiError | undefined {
  if (!IMMORTAL_NAMESPACES.has(name)) return undefined;
  return new ApiError(403, 'Forbidden', `namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, kind: 'namespaces' });
}

export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';

  admit(attributes: AdmissionAttributes, store: StoreApi): void {
    // Only creations are refused: updates and deletions let the namespace controller finish.
    if (attributes.old !== undefined || !attributes.namespace || attributes.kind === 'Namespace') return;
    // Events are let through: a real recorder drops a refused event, the simulator's recorder
    // only expects a missing namespace, and controllers report their refusals with events.
    if (attributes.kind === 'Event') return;
    const namespace = store.get<KubeObject>('Namespace', undefined, attributes.namespace);
    if ((namespace?.status as { phase?: string } | undefined)?.phase === 'Terminating') {
      throw forbidden(attributes, `unable to create new content in namespace ${attributes.namespace} because it is being terminated`);
    }
  }
}
