/**
 * Apply a manifest object to the store, reporting what kubectl reports: created, configured or
 * unchanged. The object's desired fields (labels, annotations, spec, data) replace the stored
 * ones, so a field removed from the manifest is removed from the object; server-owned fields and
 * status are kept.
 */
import type { KubeObject, ResourceKind } from '../core/k8s';
import { RESOURCES } from './store/resources';
import { ApiError, type StoreApi } from './store/types';

export type ApplyAction = 'created' | 'configured' | 'unchanged';

export interface ApplyResult {
  action: ApplyAction;
  object: KubeObject;
}

/** The kind a manifest object names, checked against what the simulator serves. */
export function servedKind(object: KubeObject): ResourceKind {
  const info = RESOURCES.find((r) => r.kind === object.kind && r.apiVersion === object.apiVersion);
  if (!info) {
    throw new ApiError(404, 'NotFound', `the server doesn't have a resource type for ${object.apiVersion ?? '<no apiVersion>'} ${object.kind ?? '<no kind>'} (the simulator serves ${RESOURCES.map((r) => `${r.apiVersion} ${r.kind}`).join(', ')})`);
  }
  return info.kind;
}

const DESIRED_TOP_LEVEL = ['spec', 'data', 'binaryData', 'immutable'];

export function applyObject(store: StoreApi, manifest: KubeObject, fieldManager: string, options: { dryRun?: boolean } = {}): ApplyResult {
  const kind = servedKind(manifest);
  const object = structuredClone(manifest);
  const meta = object.metadata ?? {};
  if (!meta.name) {
    throw new ApiError(422, 'Invalid', `${kind} "" is invalid: metadata.name: Required value: name or generateName is required`, { kind, causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }] });
  }
  const existing = store.get(kind, meta.namespace, meta.name);
  if (!existing) {
    return { action: 'created', object: store.create(kind, object, { fieldManager, operation: 'Apply', dryRun: options.dryRun }) };
  }
  const before = existing.metadata?.resourceVersion;
  const updated = store.mutate(kind, meta.namespace, meta.name, (copy) => {
    const target = copy.metadata ?? (copy.metadata = {});
    (target as { labels?: Record<string, string> }).labels = meta.labels;
    (target as { annotations?: Record<string, string> }).annotations = meta.annotations;
    for (const field of DESIRED_TOP_LEVEL) {
      if (object[field] === undefined) delete copy[field];
      else copy[field] = object[field];
    }
  }, { fieldManager, operation: 'Apply', dryRun: options.dryRun });
  return { action: updated.metadata?.resourceVersion === before ? 'unchanged' : 'configured', object: updated };
}
