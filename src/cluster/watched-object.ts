/**
 * What the watcher keeps of the objects a list or a watch brings, so that a 10,000-pod journey does
 * not keep 10,000 pods whole in the extension host:
 * - `withoutFieldSets`: every object as it arrives, less its managedFields' field sets
 *   (`fieldsV1`, a tree of every field each manager owns, often a third of a pod's JSON). The
 *   entries stay, with their manager, operation, subresource and time, which the tracer reads;
 *   nothing downstream reads the field sets (the recorded versions are shown without managedFields,
 *   as kubectl shows objects).
 * - `shareEventWords`: an Event's repeated words as one string each, since the tracer keeps them.
 */
import type { KubeObject, ManagedFieldsEntry } from '../core/k8s';
import type { SharedWords } from './shared-words';

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

/** Longer messages are rarely repeated word for word (they name pods and nodes). */
const SHARED_MESSAGE_LENGTH = 120;

/**
 * The Event with its repeated words (type, reason, reporting component and host, the involved
 * object's kind and namespace, a short message) replaced by the instances `words` saw first;
 * changed in place (a freshly parsed object), equal before and after.
 */
export function shareEventWords(event: KubeObject, words: SharedWords): KubeObject {
  const fields = event as Record<string, unknown>;
  for (const field of ['type', 'reason', 'action', 'reportingComponent', 'reportingController', 'reportingInstance']) shareField(fields, field, words);
  if (typeof fields.message === 'string' && fields.message.length <= SHARED_MESSAGE_LENGTH) fields.message = words.share(fields.message);
  const source = fields.source;
  if (typeof source === 'object' && source !== null) {
    shareField(source as Record<string, unknown>, 'component', words);
    shareField(source as Record<string, unknown>, 'host', words);
  }
  const involved = fields.involvedObject;
  if (typeof involved === 'object' && involved !== null) {
    for (const field of ['kind', 'namespace', 'apiVersion', 'fieldPath']) shareField(involved as Record<string, unknown>, field, words);
  }
  return event;
}

function shareField(fields: Record<string, unknown>, field: string, words: SharedWords): void {
  const value = fields[field];
  if (typeof value === 'string') fields[field] = words.share(value);
}
