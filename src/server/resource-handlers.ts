/**
 * The resource verbs of the API server — list, get, watch, create, update, patch (four patch
 * types), delete — and the subresources status, scale, binding, log and token, over the simulator's
 * store. Answers carry the exact Status errors kube-apiserver gives, because kubectl builds its
 * messages from them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../core/k8s';
import type { MemoryStore } from '../sim/store/store';
import { isStorageVersion, qualifiedResource } from '../sim/store/resources';
import { toServedVersion, toStorageVersion } from '../sim/apis/version-conversion';
import { formatLabelSelector } from '../sim/store/selectors';
import { ApiError, isBuiltin, type PropagationPolicy, type ResourceInfo } from '../sim/store/types';
import { assignToNode, type PodObject } from '../sim/store/pod-binding';
import { deepEqual } from '../common/json';
import { labelSetString } from './printers/selector';
import { resourceTable, scaleToTable } from './printers/table';
import { applyJsonPatch } from './patch/json-patch';
import { applyMergePatch } from './patch/merge-patch';
import { applyStrategicMergePatch } from './patch/strategic-merge-patch';
import { inspectDecoding, pruneUnknownFields, unstructuredConversionError } from '../core/schema/fields';
import { strictDecodingErrors } from '../core/schema/json-keys';
import { readApplyConfiguration, strictYamlError } from './apply-yaml';
import { applyConfigurationErrors, objectGvkNn, validationErrorsText } from '../core/schema/apply-decoding';
import { decodeCheck, type FieldValidation } from '../sim/apis/validation';
import { goPlainValue, goQuote } from '../core/schema/go-format';
import { JSON_TYPE, PATCH_MEDIA_TYPES, TABLE_TYPE, isProtobuf, parseJsonBody, parseObjectBody, readBody, sendJson, unsupportedMediaType, wantsTable } from './http-util';
import type { ResourceHandlerDeps } from './handler-deps';
import { handlePodLog } from './pod-logs';
import { handleTokenRequest } from './token-request';
import type { ResourcePath } from './routing';
import { serveWatch } from './watch';
import { listPage } from './list-pages';
import { customResourceScale, setSpecReplicas } from './custom-scale';
import { inServedVersion } from '../sim/store/custom-resources';
import { customResourceUnknownFields } from '../sim/apis/apiextensions/custom-resource-admission';
import { unsupportedFieldSelectorLabel } from '../sim/apis/apiextensions/crd';

type Query = URLSearchParams;

function isDryRun(query: Query, body?: { dryRun?: string[] }): boolean {
  return query.getAll('dryRun').includes('All') || !!body?.dryRun?.includes('All');
}

function notAllowed(method: string, info: ResourceInfo, sub?: string): ApiError {
  return new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource (${method} ${qualifiedResource(info)}${sub ? `/${sub}` : ''})`);
}

function fieldValidation(query: Query): FieldValidation {
  const mode = query.get('fieldValidation');
  return mode === 'Strict' || mode === 'Ignore' ? mode : 'Warn';
}


/**
 * Decoding a create or update body (handlers/create.go, update.go): a value of the wrong type is
 * a 400 in every mode; unknown fields are a 400 under Strict, Warning headers under Warn (the
 * default when the client sends none), nothing under Ignore. Accepted, they are dropped, as
 * decoding into the Go types drops them.
 */
function decodeBody(info: ResourceInfo, object: KubeObject, text: string | undefined, query: Query, res: ServerResponse): void {
  if (!isBuiltin(info)) {
    // Custom resources are pruned by admission, which sees in-process writes too.
    const { error, warnings } = customResourceUnknownFields(info.custom!, object, fieldValidation(query));
    if (error) throw error;
    return sendWarnings(res, warnings);
  }
  const { error, warnings } = decodeCheck(info.kind, object, fieldValidation(query), text);
  if (error) throw error;
  pruneUnknownFields(info.kind, object);
  sendWarnings(res, warnings);
}

/**
 * Decoding the object a JSON, merge or strategic merge patch produced (handlers/patch.go
 * applyPatchToObject, jsonPatcher): a failure is a 422 on the field `patch` whose value is the
 * patch (strategic) or the patched object (JSON and merge patches), with the decoding error as
 * detail. Repeated fields of the patch come first, then the unknown fields of the result, sorted,
 * as upstream finds them in the map it decodes (test/integration/apiserver/field_validation_test.go).
 */
function decodePatched(info: ResourceInfo, patched: KubeObject, patchText: string, strategic: boolean, query: Query, res: ServerResponse): void {
  const mode = fieldValidation(query);
  if (!isBuiltin(info)) {
    const { error, warnings } = customResourceUnknownFields(info.custom!, patched, mode);
    if (error) throw error;
    return sendWarnings(res, warnings);
  }
  const inspection = inspectDecoding(info.kind, patched);
  // A strategic patch's result is converted from a map; the others' is decoded from JSON.
  const failure = strategic ? unstructuredConversionError(info.kind, patched) : inspection.error;
  const duplicates = patchText.trimStart().startsWith('{') ? strictDecodingErrors(patchText, []) : [];
  const strictErrors = [...duplicates, ...[...inspection.unknownFields].sort().map((path) => `unknown field "${path}"`)];
  const invalid = (detail: string): ApiError => {
    const patchValue = strategic ? goPlainValue(JSON.parse(patchText)) : JSON.stringify(patched);
    const message = `Invalid value: ${goQuote(patchValue)}: ${detail}`;
    return new ApiError(422, 'Invalid', ` "" is invalid: patch: ${message}`, { name: '', group: '', kind: '', causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] });
  };
  if (failure !== undefined) throw invalid(failure);
  if (strictErrors.length > 0 && mode === 'Strict') throw invalid(`strict decoding error: ${strictErrors.join(', ')}`);
  if (inspection.unknownFields.length > 0) pruneUnknownFields(info.kind, patched);
  if (mode === 'Warn') sendWarnings(res, strictErrors);
}

/**
 * Server-side apply validates the configuration against the schema with structured-merge-diff
 * (see core/schema/apply-decoding.ts): unknown fields and wrong types are refused in every
 * `fieldValidation` mode, as a 500 without a reason, since upstream's error is not a Status.
 */
function decodeApplyConfiguration(info: ResourceInfo, config: KubeObject): void {
  // A custom resource's configuration is checked by its schema when the merged object is written.
  if (!isBuiltin(info)) return;
  const subject = objectGvkNn(config.metadata?.namespace, config.metadata?.name ?? '', info.apiVersion, info.kind);
  const errors = applyConfigurationErrors(info.kind, config);
  if (errors.length > 0) throw new ApiError(500, '', `failed to create typed patch object (${subject}): ${validationErrorsText(errors)}`);
  // What structured-merge-diff lets through (3.5 replicas, a malformed quantity) fails when the
  // merged object becomes the Go type; the decoder's words stand in for the converter's here.
  const { error } = inspectDecoding(info.kind, config);
  if (error !== undefined) throw new ApiError(500, '', `failed to convert new object (${subject}) to proper version (${info.apiVersion}): ${error}`);
}

/** Admission's warnings (PodSecurity's `would violate …`) as `Warning: 299 - "<text>"` headers, after any already set. */
function sendWarnings(res: ServerResponse, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  const existing = res.getHeader('Warning');
  const previous = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  res.setHeader('Warning', [...previous, ...warnings.map((text) => `299 - ${JSON.stringify(text)}`)]);
}

function checkBodyIdentity(info: ResourceInfo, path: ResourcePath, object: unknown): KubeObject {
  if (!object || typeof object !== 'object' || Array.isArray(object)) throw new ApiError(400, 'BadRequest', 'the request body must be a JSON object');
  const body = object as KubeObject;
  if (body.kind !== undefined && body.kind !== info.kind) {
    throw new ApiError(400, 'BadRequest', `the API version in the data (${body.apiVersion}) does not match the expected API version (${info.apiVersion})`.replace(/\(.*\) does not/, `(${body.apiVersion ?? ''}) does not`));
  }
  const meta = (body.metadata ??= {});
  if (info.namespaced && path.namespace) {
    if (meta.namespace && meta.namespace !== path.namespace) {
      throw new ApiError(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
    }
    (meta as { namespace?: string }).namespace = path.namespace;
  }
  if (path.name && meta.name && meta.name !== path.name) {
    throw new ApiError(400, 'BadRequest', `the name of the object (${meta.name}) does not match the name on the URL (${path.name})`);
  }
  if (path.name && !meta.name) (meta as { name?: string }).name = path.name;
  body.apiVersion = info.apiVersion;
  body.kind = info.kind;
  return body;
}

/** A custom resource's field selector may only name metadata.name, metadata.namespace and its selectable fields. */
function checkFieldSelector(info: ResourceInfo, query: Query): void {
  const unsupported = info.custom && unsupportedFieldSelectorLabel(info.custom, query.get('fieldSelector'));
  if (unsupported) throw new ApiError(400, 'BadRequest', unsupported);
}

function respondObject(res: ServerResponse, req: IncomingMessage, deps: ResourceHandlerDeps, info: ResourceInfo, status: number, object: KubeObject, query: Query): void {
  if (wantsTable(req.headers.accept)) {
    sendJson(res, status, resourceTable(info, [object], { now: deps.now(), includeObject: includeObjectParam(query) }), TABLE_TYPE);
  } else {
    sendJson(res, status, inServedVersion(info, toServedVersion(info, object)));
  }
}

function includeObjectParam(query: Query): 'None' | 'Metadata' | 'Object' {
  const value = query.get('includeObject');
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}

// ------------------------------------------------------------------------------------------------

export async function handleResource(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): Promise<void> {
  const method = req.method ?? 'GET';
  const { info, name, subresource } = path;
  if (subresource) return handleSubresource(req, res, path, query, deps);
  if (!name) {
    if (method === 'GET') {
      if (query.get('watch') === 'true' || query.get('watch') === '1') {
        checkFieldSelector(info, query);
        return serveWatch(req, res, path, query, deps);
      }
      return list(req, res, path, query, deps);
    }
    if (method === 'POST') return create(req, res, path, query, deps);
    if (method === 'DELETE') return deleteCollection(req, res, path, query, deps);
    throw notAllowed(method, info);
  }
  switch (method) {
    case 'GET':
      return respondObject(res, req, deps, info, 200, deps.store.read(info.key, path.namespace, name), query);
    case 'PUT':
      return update(req, res, path, query, deps);
    case 'PATCH':
      return patch(req, res, path, query, deps);
    case 'DELETE':
      return remove(req, res, path, query, deps);
    default:
      throw notAllowed(method, info);
  }
}

function list(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): void {
  const { info } = path;
  checkFieldSelector(info, query);
  const labelSelector = query.get('labelSelector') || undefined;
  const fieldSelector = query.get('fieldSelector') || undefined;
  const listName = `${info.key} ${path.namespace ?? ''} ${labelSelector ?? ''} ${fieldSelector ?? ''}`;
  const result = listPage(deps.store, listName, query.get('limit'), query.get('continue'), labelSelector !== undefined || fieldSelector !== undefined, () =>
    deps.store.list(info.key, { namespace: path.namespace, labelSelector, fieldSelector }),
  );
  const metadata: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continue) metadata.continue = result.continue;
  if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  if (wantsTable(req.headers.accept)) {
    const table = resourceTable(info, result.items as KubeObject[], { now: deps.now(), includeObject: includeObjectParam(query) }) as KubeObject;
    table.metadata = metadata;
    sendJson(res, 200, table, TABLE_TYPE);
    return;
  }
  const items = result.items.map((item) => inServedVersion(info, toServedVersion(info, item)));
  sendJson(res, 200, { kind: `${info.kind}List`, apiVersion: info.apiVersion, metadata, items });
}

async function create(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): Promise<void> {
  const { info } = path;
  const raw = await readBody(req);
  const contentType = req.headers['content-type'] ?? JSON_TYPE;
  const body = toStorageVersion(info, checkBodyIdentity(info, path, parseObjectBody(raw, contentType, info)));
  decodeBody(info, body, bodyText(info, raw, contentType), query, res);
  const dryRun = isDryRun(query);
  const warnings: string[] = [];
  const created = deps.store.create(info.key, body, { fieldManager: query.get('fieldManager') ?? userAgentManager(req), dryRun, warnings });
  if (!dryRun) deps.afterWrite();
  sendWarnings(res, warnings);
  respondObject(res, req, deps, info, 201, created, query);
}

async function update(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): Promise<void> {
  const { info } = path;
  const raw = await readBody(req);
  const contentType = req.headers['content-type'] ?? JSON_TYPE;
  const body = toStorageVersion(info, checkBodyIdentity(info, path, parseObjectBody(raw, contentType, info)));
  decodeBody(info, body, bodyText(info, raw, contentType), query, res);
  const dryRun = isDryRun(query);
  const warnings: string[] = [];
  const updated = deps.store.update(info.key, body, { fieldManager: query.get('fieldManager') ?? userAgentManager(req), dryRun, warnings });
  if (!dryRun) deps.afterWrite();
  sendWarnings(res, warnings);
  respondObject(res, req, deps, info, 200, updated, query);
}

/**
 * The JSON text of a body, for the checks made on the text itself (repeated keys, wrong types):
 * none for protobuf, nor for another version than the stored one, whose fields the stored
 * schema does not describe (the converted object is checked instead).
 */
function bodyText(info: ResourceInfo, raw: Buffer, contentType: string): string | undefined {
  return isProtobuf(contentType) || !isStorageVersion(info) ? undefined : raw.toString('utf8');
}

/** kube-apiserver names the manager after the client's user agent when none is given (`kubectl`, `node-fetch`). */
function userAgentManager(req: IncomingMessage): string {
  const agent = req.headers['user-agent'] ?? 'unknown';
  return agent.split('/')[0] || 'unknown';
}

/** Server-side apply remembers what each manager applied, so a field dropped from its config is removed. */
const appliedConfigs = new WeakMap<MemoryStore, Map<string, KubeObject>>();

function appliedConfigKey(info: ResourceInfo, namespace: string | undefined, name: string, manager: string): string {
  return `${info.kind}/${namespace ?? ''}/${name}/${manager}`;
}

function removeDroppedFields(target: Record<string, unknown>, previous: Record<string, unknown>, current: Record<string, unknown>): void {
  for (const key of Object.keys(previous)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'name' || key === 'namespace') continue;
    const before = previous[key];
    const now = current[key];
    if (now === undefined) delete target[key];
    else if (before && now && typeof before === 'object' && typeof now === 'object' && !Array.isArray(before) && !Array.isArray(now) && target[key] && typeof target[key] === 'object') {
      removeDroppedFields(target[key] as Record<string, unknown>, before as Record<string, unknown>, now as Record<string, unknown>);
    }
  }
}

async function patch(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): Promise<void> {
  const { info } = path;
  const name = path.name!;
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim();
  const text = (await readBody(req)).toString('utf8');
  const dryRun = isDryRun(query);
  const fieldManager = query.get('fieldManager') ?? userAgentManager(req);
  const existing = deps.store.get(info.key, path.namespace, name);
  const warnings: string[] = [];

  if (contentType === 'application/apply-patch+yaml' || contentType === 'application/apply-patch+cbor') {
    const applied = readApplyConfiguration(text);
    const config = toStorageVersion(info, checkBodyIdentity(info, path, applied.value));
    decodeApplyConfiguration(info, config);
    // Upstream checks repeated keys after the apply itself succeeded (applyPatchToCurrentObject).
    const mode = fieldValidation(query);
    if (applied.duplicateKeys.length > 0 && mode === 'Strict') throw strictYamlError(applied.duplicateKeys);
    if (mode === 'Warn') sendWarnings(res, applied.duplicateKeys);
    let configs = appliedConfigs.get(deps.store);
    if (!configs) appliedConfigs.set(deps.store, (configs = new Map()));
    const key = appliedConfigKey(info, path.namespace, name, fieldManager);
    if (!existing) {
      const created = deps.store.create(info.key, structuredClone(config), { fieldManager, operation: 'Apply', dryRun, warnings });
      if (!dryRun) {
        configs.set(key, config);
        deps.afterWrite();
      }
      sendWarnings(res, warnings);
      respondObject(res, req, deps, info, 201, created, query);
      return;
    }
    const merged = mergeApplied(info, existing, stripIdentity(config));
    const previous = configs.get(key);
    if (previous) removeDroppedFields(merged, previous, config);
    const result = writePatched(deps, info, path, merged, existing, { fieldManager, operation: 'Apply', dryRun, warnings });
    if (!dryRun) configs.set(key, config);
    sendWarnings(res, warnings);
    respondObject(res, req, deps, info, 200, result, query);
    return;
  }

  if (!existing) throw new ApiError(404, 'NotFound', `${qualifiedResource(info)} "${name}" not found`, { name, group: info.group, kind: info.plural });
  const patchBody = parseJsonBody(text, contentType);
  const patched = toStorageVersion(info, patchObject(contentType, toServedVersion(info, existing), patchBody, info));
  decodePatched(info, patched, text, contentType === 'application/strategic-merge-patch+json', query, res);
  const result = writePatched(deps, info, path, patched, existing, { fieldManager, operation: 'Update', dryRun, warnings });
  sendWarnings(res, warnings);
  respondObject(res, req, deps, info, 200, result, query);
}

/** The applied configuration over the live object: strategic merge for built-in kinds, JSON merge (lists replaced) for custom resources. */
function mergeApplied(info: ResourceInfo, existing: KubeObject, config: KubeObject): KubeObject {
  return (isBuiltin(info) ? applyStrategicMergePatch(structuredClone(existing), config, info.kind) : applyMergePatch(structuredClone(existing), config)) as KubeObject;
}

function stripIdentity(config: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = config;
  return rest;
}

/** What apiextensions-apiserver accepts for a custom resource: no strategic merge patch, as it has no Go struct. */
const CUSTOM_RESOURCE_PATCH_TYPES = 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';

function patchObject(contentType: string, existing: KubeObject, patchBody: unknown, info: ResourceInfo): KubeObject {
  try {
    switch (contentType) {
      case 'application/merge-patch+json':
        return applyMergePatch(structuredClone(existing), patchBody) as KubeObject;
      case 'application/strategic-merge-patch+json':
        if (!isBuiltin(info)) throw unsupportedMediaType(CUSTOM_RESOURCE_PATCH_TYPES);
        return applyStrategicMergePatch(structuredClone(existing), patchBody, info.kind) as KubeObject;
      case 'application/json-patch+json':
        return applyJsonPatch(structuredClone(existing), patchBody) as KubeObject;
      default:
        throw unsupportedMediaType(PATCH_MEDIA_TYPES);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(422, 'Invalid', error instanceof Error ? error.message : String(error));
  }
}

/** Write a patched object: a resourceVersion inside the patch is a precondition, otherwise the current one is. */
function writePatched(deps: ResourceHandlerDeps, info: ResourceInfo, path: ResourcePath, patched: KubeObject, existing: KubeObject, options: { fieldManager: string; operation: 'Apply' | 'Update'; dryRun: boolean; subresource?: 'status'; warnings?: string[] }): KubeObject {
  const meta = (patched.metadata ??= {}) as { resourceVersion?: string; name?: string; namespace?: string };
  meta.resourceVersion ??= existing.metadata?.resourceVersion;
  meta.name = path.name;
  if (info.namespaced) meta.namespace = path.namespace ?? 'default';
  patched.apiVersion = info.apiVersion;
  patched.kind = info.kind;
  const result = deps.store.update(info.key, patched, options);
  if (!options.dryRun) deps.afterWrite();
  return result;
}

interface DeleteBody {
  propagationPolicy?: PropagationPolicy;
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  dryRun?: string[];
  preconditions?: { uid?: string; resourceVersion?: string };
}

async function deleteOptions(req: IncomingMessage, query: Query): Promise<DeleteBody> {
  const body = (parseObjectBody(await readBody(req), req.headers['content-type'] ?? JSON_TYPE, { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' }) ?? {}) as DeleteBody;
  const policy = query.get('propagationPolicy');
  if (policy) body.propagationPolicy = policy as PropagationPolicy;
  const orphan = query.get('orphanDependents');
  if (orphan !== null) body.orphanDependents = orphan === 'true';
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) body.gracePeriodSeconds = Number(grace);
  if (body.propagationPolicy && !['Background', 'Foreground', 'Orphan'].includes(body.propagationPolicy)) {
    throw new ApiError(422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${body.propagationPolicy}": supported values: "Foreground", "Background", "Orphan"`);
  }
  if (!body.propagationPolicy && body.orphanDependents !== undefined) body.propagationPolicy = body.orphanDependents ? 'Orphan' : 'Background';
  return body;
}

async function remove(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): Promise<void> {
  const { info } = path;
  const name = path.name!;
  const options = await deleteOptions(req, query);
  const dryRun = isDryRun(query, options);
  const before = deps.store.read(info.key, path.namespace, name);
  const result = deps.store.delete(info.key, path.namespace, name, {
    propagationPolicy: options.propagationPolicy,
    gracePeriodSeconds: options.gracePeriodSeconds,
    preconditions: options.preconditions,
    dryRun,
    actor: userAgentManager(req),
  });
  if (!dryRun) deps.afterWrite();
  const stillThere = !dryRun && deps.store.get(info.key, path.namespace, name);
  if (stillThere || info.kind === 'Pod' || dryRun) {
    // Pending finalizers or a graceful pod deletion answer with the object itself.
    sendJson(res, options.orphanDependents === false ? 202 : 200, toServedVersion(info, stillThere || result));
    return;
  }
  sendJson(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, group: info.group, kind: info.plural, uid: before.metadata?.uid } });
}

async function deleteCollection(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): Promise<void> {
  const { info } = path;
  const options = await deleteOptions(req, query);
  const dryRun = isDryRun(query, options);
  const items = deps.store.list(info.key, { namespace: path.namespace, labelSelector: query.get('labelSelector') ?? undefined, fieldSelector: query.get('fieldSelector') ?? undefined }).items;
  for (const item of items) {
    try {
      deps.store.delete(info.key, item.metadata?.namespace, item.metadata?.name ?? '', { propagationPolicy: options.propagationPolicy, gracePeriodSeconds: options.gracePeriodSeconds, dryRun, actor: userAgentManager(req) });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    }
  }
  if (!dryRun) deps.afterWrite();
  sendJson(res, 200, { kind: `${info.kind}List`, apiVersion: info.apiVersion, metadata: { resourceVersion: String(deps.store.currentResourceVersion()) }, items: items.map((item) => toServedVersion(info, item)) });
}

// ------------------------------------------------------------------------------------------------
// Subresources

async function handleSubresource(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): Promise<void> {
  const method = req.method ?? 'GET';
  const { info, subresource } = path;
  const name = path.name!;
  if (subresource === 'status' && info.hasStatus) {
    if (method === 'GET') return respondObject(res, req, deps, info, 200, deps.store.read(info.key, path.namespace, name), query);
    const existing = deps.store.read(info.key, path.namespace, name);
    const body = await readBody(req);
    const contentType = (req.headers['content-type'] ?? JSON_TYPE).split(';')[0].trim();
    const dryRun = isDryRun(query);
    const fieldManager = query.get('fieldManager') ?? userAgentManager(req);
    const given = method === 'PUT' ? checkBodyIdentity(info, path, parseObjectBody(body, contentType, info)) : method === 'PATCH' ? patchObject(contentType, toServedVersion(info, existing), parseJsonBody(body.toString('utf8'), contentType), info) : undefined;
    if (!given) throw notAllowed(method, info, subresource);
    const next = toStorageVersion(info, given);
    const result = writePatched(deps, info, path, next, existing, { fieldManager, operation: 'Update', dryRun, subresource: 'status' });
    return respondObject(res, req, deps, info, 200, result, query);
  }
  if (subresource === 'scale' && info.hasScale) return handleScale(req, res, path, query, deps);
  if (subresource === 'binding' && info.kind === 'Pod' && method === 'POST') return handleBinding(req, res, path, deps);
  if (subresource === 'log' && info.kind === 'Pod' && method === 'GET') return handlePodLog(req, res, path, query, deps);
  if (subresource === 'token' && info.kind === 'ServiceAccount' && method === 'POST') return handleTokenRequest(req, res, path, deps);
  throw new ApiError(404, 'NotFound', `the server could not find the requested resource`);
}

type StructuredSelector = Parameters<typeof formatLabelSelector>[0];

/**
 * The autoscaling/v1 Scale of a scalable object. `status.selector` is the pod selector as a string:
 * `labels.SelectorFromSet` of a ReplicationController's map, `LabelSelectorAsSelector` of the
 * apps kinds' structured selector.
 */
function scaleOf(info: ResourceInfo, object: KubeObject): KubeObject {
  if (info.custom?.scale) return customResourceScale(info.custom.scale, object);
  const kind = info.kind;
  const meta = object.metadata ?? {};
  const spec = object.spec as { replicas?: number; selector?: StructuredSelector | Record<string, string> } | undefined;
  const status = object.status as { replicas?: number } | undefined;
  const selector = kind === 'ReplicationController' ? labelSetString(spec?.selector as Record<string, string> | undefined) : formatLabelSelector(spec?.selector as StructuredSelector);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp },
    spec: { replicas: spec?.replicas ?? 0 },
    status: { replicas: status?.replicas ?? 0, selector },
  };
}

async function handleScale(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): Promise<void> {
  const method = req.method ?? 'GET';
  const { info } = path;
  const name = path.name!;
  const existing = deps.store.read(info.key, path.namespace, name);
  const current = scaleOf(info, existing);
  if (method === 'GET') return respondScale(res, req, deps, current, query);
  const body = await readBody(req);
  const contentType = (req.headers['content-type'] ?? JSON_TYPE).split(';')[0].trim();
  let desired: KubeObject;
  if (method === 'PUT') desired = parseObjectBody(body, contentType, { apiVersion: 'autoscaling/v1', kind: 'Scale' }) as KubeObject;
  else if (method === 'PATCH') desired = patchObject(contentType === 'application/strategic-merge-patch+json' ? 'application/merge-patch+json' : contentType, current, parseJsonBody(body.toString('utf8'), contentType), info);
  else throw notAllowed(method, info, 'scale');
  const replicas = (desired.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw new ApiError(422, 'Invalid', `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`, { name, group: 'autoscaling', kind: 'Scale', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: must be greater than or equal to 0', field: 'spec.replicas' }] });
  }
  const precondition = (desired.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
  if (precondition && precondition !== existing.metadata?.resourceVersion) {
    throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(info)} "${name}": the object has been modified; please apply your changes to the latest version and try again`);
  }
  const dryRun = isDryRun(query);
  const next = structuredClone(existing);
  if (info.custom?.scale) setSpecReplicas(info.custom.scale, next, replicas);
  else (next.spec as { replicas: number }).replicas = replicas;
  const result = dryRun || deepEqual(next.spec, existing.spec) ? existing : deps.store.update(info.key, next, { fieldManager: query.get('fieldManager') ?? userAgentManager(req), dryRun });
  if (!dryRun) deps.afterWrite();
  respondScale(res, req, deps, scaleOf(info, dryRun ? next : result), query);
}

function respondScale(res: ServerResponse, req: IncomingMessage, deps: ResourceHandlerDeps, scale: KubeObject, query: Query): void {
  if (wantsTable(req.headers.accept)) sendJson(res, 200, scaleToTable(scale, { now: deps.now(), includeObject: includeObjectParam(query) }), TABLE_TYPE);
  else sendJson(res, 200, scale);
}

async function handleBinding(req: IncomingMessage, res: ServerResponse, path: ResourcePath, deps: ResourceHandlerDeps): Promise<void> {
  const name = path.name!;
  const binding = parseObjectBody(await readBody(req), req.headers['content-type'] ?? JSON_TYPE, { apiVersion: 'v1', kind: 'Binding' }) as { metadata?: { uid?: string; resourceVersion?: string }; target?: { name?: string } } | undefined;
  const nodeName = binding?.target?.name;
  if (!nodeName) throw new ApiError(422, 'Invalid', `Binding "${name}" is invalid: target.name: Required value`);
  const pod = deps.store.read('Pod', path.namespace, name);
  const spec = pod.spec as { nodeName?: string };
  if (pod.metadata?.deletionTimestamp) throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is being deleted, cannot be assigned to a host`);
  if (spec.nodeName) throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "${spec.nodeName}"`);
  if (binding?.metadata?.uid && binding.metadata.uid !== pod.metadata?.uid) throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on pods "${name}": Precondition failed: UID in precondition: ${binding.metadata.uid}, UID in object meta: ${pod.metadata?.uid}`);
  const manager = userAgentManager(req);
  deps.store.mutate<PodObject>('Pod', path.namespace, name, (copy) => assignToNode(copy, nodeName, deps.now()), { fieldManager: manager, subresource: 'binding' });
  deps.afterWrite();
  sendJson(res, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}
