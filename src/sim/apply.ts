/**
 * Apply a manifest object to the store, reporting what kubectl reports: created, configured or
 * unchanged. The object's desired fields (labels, annotations, spec, data) replace the stored
 * ones, so a field removed from the manifest is removed from the object; server-owned fields and
 * status are kept.
 */
import type { KubeObject } from '../core/k8s';
import { noKindMatchMessage } from '../core/kind-mapping';
import { SERVED_RESOURCES } from './store/resources';
import { ApiError, isBuiltin, type ResourceInfo, type StoreApi } from './store/types';
import { decodeCheck } from './apis/validation';
import { toStorageVersion } from './apis/version-conversion';
import { customResourceUnknownFields } from './apis/apiextensions/custom-resource-admission';

export type ApplyAction = 'created' | 'configured' | 'unchanged';

export interface ApplyResult {
  action: ApplyAction;
  object: KubeObject;
}

/** The resource a manifest object names, if the simulator serves its kind in that version (`custom`: established CRDs' kinds). */
export function findServedKind(object: KubeObject, custom: readonly ResourceInfo[] = []): ResourceInfo | undefined {
  const matches = (r: ResourceInfo): boolean => r.kind === object.kind && r.apiVersion === object.apiVersion;
  return SERVED_RESOURCES.find(matches) ?? custom.find(matches);
}

/** The resource a manifest object names, checked against what the simulator serves (the RESTMapper's error otherwise). */
export function servedKind(object: KubeObject, custom: readonly ResourceInfo[] = []): ResourceInfo {
  const info = findServedKind(object, custom);
  if (!info) throw new ApiError(404, 'NotFound', noKindMatchMessage(String(object.apiVersion ?? ''), String(object.kind ?? '')));
  return info;
}

/** The API versions the simulator serves a kind in (`batch/v1` for CronJob), for saying what to write instead. */
export function servedVersionsOf(kind: string): string[] {
  return SERVED_RESOURCES.filter((r) => r.kind === kind).map((r) => r.apiVersion);
}

const DESIRED_TOP_LEVEL = ['spec', 'data', 'binaryData', 'immutable'];
const NOT_DESIRED = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/** A custom resource's desired fields are any top-level ones but its identity, metadata and status, in the manifest or stored. */
function customDesiredFields(manifest: KubeObject, stored: KubeObject): string[] {
  return [...new Set([...Object.keys(manifest), ...Object.keys(stored)])].filter((field) => !NOT_DESIRED.has(field));
}

/**
 * Applies as `kubectl apply` does by default (`--validate=strict`): the body is decoded with
 * `fieldValidation=Strict` first, so a wrong type or an unknown field is refused with the API
 * server's 400. The refusal names the field as a cause, for placing it on the manifest's line.
 */
export function applyObject(store: StoreApi, given: KubeObject, fieldManager: string, options: { dryRun?: boolean } = {}): ApplyResult {
  const info = servedKind(given, store.customResources());
  const kind = info.key;
  // An object of another served version (autoscaling/v1) is stored as its kind's storage version.
  const manifest = isBuiltin(info) ? toStorageVersion(info, given) : given;
  const decoded = isBuiltin(info) ? decodeCheck(info.kind, manifest, 'Strict') : customResourceUnknownFields(info.custom!, manifest, 'Strict');
  if (decoded.error) {
    const { code, reason, message } = decoded.error;
    throw new ApiError(code, reason, message, { kind: info.kind, causes: decoded.field ? [{ reason: 'FieldValueInvalid', message, field: decoded.field }] : [] });
  }
  const object = structuredClone(manifest);
  const meta = object.metadata ?? {};
  if (!meta.name) {
    throw new ApiError(422, 'Invalid', `${info.kind} "" is invalid: metadata.name: Required value: name or generateName is required`, { kind: info.kind, causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }] });
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
    for (const field of isBuiltin(info) ? DESIRED_TOP_LEVEL : customDesiredFields(object, copy)) {
      if (object[field] === undefined) delete copy[field];
      else copy[field] = object[field];
    }
  }, { fieldManager, operation: 'Apply', dryRun: options.dryRun });
  return { action: updated.metadata?.resourceVersion === before ? 'unchanged' : 'configured', object: updated };
}
