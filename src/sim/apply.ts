/**
 * Apply a manifest object to the store, reporting what kubectl reports: created, configured or
 * unchanged. The object's desired fields (labels, annotations, spec, data) replace the stored
 * ones, so a field removed from the manifest is removed from the object; server-owned fields and
 * status are kept.
 */
import type { KubeObject, ResourceKind } from '../core/k8s';
import { noKindMatchMessage } from '../core/kind-mapping';
import { SERVED_RESOURCES } from './store/resources';
import { ApiError, type ResourceInfo, type StoreApi } from './store/types';
import { decodeCheck } from './apis/validation';
import { toStorageVersion } from './apis/version-conversion';

export type ApplyAction = 'created' | 'configured' | 'unchanged';

export interface ApplyResult {
  action: ApplyAction;
  object: KubeObject;
}

function servedInfo(object: KubeObject): ResourceInfo | undefined {
  return SERVED_RESOURCES.find((r) => r.kind === object.kind && r.apiVersion === object.apiVersion);
}

/** The kind a manifest object names, if the simulator serves it in that version. */
export function findServedKind(object: KubeObject): ResourceKind | undefined {
  return servedInfo(object)?.kind;
}

/** The kind a manifest object names, checked against what the simulator serves (the RESTMapper's error otherwise). */
export function servedKind(object: KubeObject): ResourceKind {
  const kind = findServedKind(object);
  if (!kind) throw new ApiError(404, 'NotFound', noKindMatchMessage(String(object.apiVersion ?? ''), String(object.kind ?? '')));
  return kind;
}

/** The API versions the simulator serves a kind in (`batch/v1` for CronJob), for saying what to write instead. */
export function servedVersionsOf(kind: string): string[] {
  return SERVED_RESOURCES.filter((r) => r.kind === kind).map((r) => r.apiVersion);
}

const DESIRED_TOP_LEVEL = ['spec', 'data', 'binaryData', 'immutable'];

/**
 * Applies as `kubectl apply` does by default (`--validate=strict`): the body is decoded with
 * `fieldValidation=Strict` first, so a wrong type or an unknown field is refused with the API
 * server's 400. The refusal names the field as a cause, for placing it on the manifest's line.
 */
export function applyObject(store: StoreApi, given: KubeObject, fieldManager: string, options: { dryRun?: boolean } = {}): ApplyResult {
  const kind = servedKind(given);
  // An object of another served version (autoscaling/v1) is stored as its kind's storage version.
  const manifest = toStorageVersion(servedInfo(given)!, given);
  const decoded = decodeCheck(kind, manifest, 'Strict');
  if (decoded.error) {
    const { code, reason, message } = decoded.error;
    throw new ApiError(code, reason, message, { kind, causes: decoded.field ? [{ reason: 'FieldValueInvalid', message, field: decoded.field }] : [] });
  }
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
