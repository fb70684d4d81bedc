/**
 * What the watcher keeps of the objects a list or a watch brings, so that a 10,000-pod journey does
 * not keep 10,000 pods whole in the extension host:
 * - `withoutFieldSets`: every object as it arrives, less its managedFields' field sets
 *   (`fieldsV1`, a tree of every field each manager owns, often a third of a pod's JSON). The
 *   entries stay, with their manager, operation, subresource and time, which the tracer reads;
 *   nothing downstream reads the field sets (the recorded versions are shown without managedFields,
 *   as kubectl shows objects).
 * - `objectIdentity`: what a reflector remembers of each object between relists.
 */
import type { KubeObject, ManagedFieldsEntry } from '../core/k8s';

/** The object without `metadata.managedFields[].fieldsV1`; the same object when it has none. */
export function withoutFieldSets(object: KubeObject): KubeObject {
  const metadata = object.metadata;
  const entries = metadata?.managedFields;
  if (!Array.isArray(entries) || !entries.some(hasFieldSet)) return object;
  return { ...object, metadata: { ...metadata, managedFields: entries.map(entryWithoutFieldSet) } };
}

function hasFieldSet(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && 'fieldsV1' in entry;
}

function entryWithoutFieldSet(entry: ManagedFieldsEntry): ManagedFieldsEntry {
  if (!hasFieldSet(entry)) return entry;
  const { fieldsV1: _fieldSet, ...rest } = entry;
  return rest;
}

/**
 * What a reflector remembers of an object between relists: what a relist compares (uid,
 * resourceVersion) and names the object by. When a relist finds the object gone, its DELETED
 * carries only this: as client-go's DeletedFinalStateUnknown says, its final state is not known,
 * and the tracer has its own record of the states it saw (an Event's DELETED, its expiry, the
 * tracer ignores).
 */
export function objectIdentity(object: KubeObject): KubeObject {
  const metadata = object.metadata;
  return {
    kind: object.kind,
    apiVersion: object.apiVersion,
    metadata: { name: metadata?.name, namespace: metadata?.namespace, uid: metadata?.uid, resourceVersion: metadata?.resourceVersion },
  };
}
