/**
 * Applies manifest objects with server-side apply, the way `kubectl apply --server-side` does:
 * `PATCH <object> application/apply-patch+yaml` with `fieldManager=kube-journey`,
 * `fieldValidation=Strict`, and `force` only when asked (kubectl's `--force-conflicts`), so a field
 * another manager owns is reported as a conflict instead of being taken over silently.
 *
 * Each object's outcome: `created` (201), `configured` (its resourceVersion moved), `unchanged`
 * (it did not), or the failure with the server's Status message and per-field causes, their paths
 * normalized for placing diagnostics on YAML lines.
 */
import type { KubeObject } from '../core/k8s';
import { ClusterApiError, ClusterUnreachableError, type StatusCause } from './errors';
import { NoKindMatchError, resourcePath, splitApiVersion, type ResourceMapper, type ResourceMapping } from './discovery';
import { normalizeFieldPath } from './field-path';
import { ENSURE_CRDS, resourceMappingNotFound } from '../core/kind-mapping';
import type { ClusterHttp } from './http';

export const FIELD_MANAGER = 'kube-journey';

export type ApplyAction = 'created' | 'configured' | 'unchanged';

export interface ApplyOptions {
  /** Namespace for namespaced objects that name none (the context's namespace). */
  defaultNamespace: string;
  fieldManager?: string;
  /** Take over fields other managers own (kubectl `--force-conflicts`). Default false. */
  force?: boolean;
  /** Server-side dry run (`dryRun=All`): validated and admitted, not stored. */
  dryRun?: boolean;
  /** Where the objects come from (the manifest's file name), as kubectl names it in a "resource mapping not found" error. */
  source?: string;
  now?: () => number;
}

export interface FieldCause {
  /** The path as the server wrote it. */
  field?: string;
  /** The path in `spec.containers[0].image` form, for `lineOfField`. */
  path?: string;
  reason?: string;
  message?: string;
}

export interface ApplyConflict {
  /** The field manager that owns the field (`kubectl-client-side-apply`, `kube-controller-manager`, …). */
  manager: string;
  field: string;
  path: string;
}

export interface ApplyFailure {
  message: string;
  /** The API server refused the object (false: it was never sent, or no answer came). */
  fromServer: boolean;
  code?: number;
  reason?: string;
  causes: FieldCause[];
  /** Server-side apply conflicts (409): fields owned by other managers. */
  conflicts: ApplyConflict[];
}

export interface ApplyResult {
  /** `deployment.apps/web`, as kubectl names objects. */
  display: string;
  apiVersion: string;
  kind: string;
  name: string;
  /** For namespaced objects. */
  namespace?: string;
  /** When the apply request was sent (local clock, ms). */
  requestedAt: number;
  /** When its answer came (local clock, ms). */
  answeredAt?: number;
  action?: ApplyAction;
  /** The object as the server returned it. */
  applied?: KubeObject;
  failure?: ApplyFailure;
}

/** kubectl's `<kind>.<group>/<name>`. */
export function displayName(apiVersion: string, kind: string, name: string): string {
  const { group } = splitApiVersion(apiVersion);
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}/${name}`;
}

const UNKNOWN_FIELD = /unknown field "([^"]+)"/g;
const DUPLICATE_FIELD = /duplicate field "([^"]+)"/g;

/** structured-merge-diff's `.spec.foo: field not declared in schema`, one per line after `errors:` when there are several. */
const TYPED_PATCH_ERROR = /^\s*(\.[^:\s]+(?:\[[^\]]*\][^:\s]*)*): (.+)$/gm;
/** encoding/json's `into Go struct field DeploymentSpec.spec.replicas of type int32` (the path without list indices). */
const UNMARSHAL_FIELD = /cannot unmarshal (.+?) into Go struct field [^.\s]+\.(\S+) of type/;

/**
 * Decoding errors name the fields in the message only (strict decoding, server-side apply's
 * schema check, encoding/json's type errors); they become causes.
 */
function messageCauses(message: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const match of message.matchAll(UNKNOWN_FIELD)) causes.push({ reason: 'FieldValueInvalid', message: `unknown field "${match[1]}"`, field: match[1] });
  for (const match of message.matchAll(DUPLICATE_FIELD)) causes.push({ reason: 'FieldValueDuplicate', message: `duplicate field "${match[1]}"`, field: match[1] });
  if (message.startsWith('failed to create typed patch object')) {
    const errors = message.slice(message.indexOf('): ') + 3);
    for (const match of errors.matchAll(TYPED_PATCH_ERROR)) causes.push({ reason: 'FieldValueInvalid', message: match[2], field: match[1] });
  }
  const unmarshal = UNMARSHAL_FIELD.exec(message);
  if (unmarshal) causes.push({ reason: 'FieldValueInvalid', message: unmarshal[0], field: unmarshal[2] });
  return causes;
}

/** `conflict with "kubectl-client-side-apply" using apps/v1` → `kubectl-client-side-apply`. */
function conflictManager(message: string | undefined): string {
  return /conflict with "([^"]*)"/.exec(message ?? '')?.[1] ?? message ?? 'another manager';
}

export function failureFromError(error: unknown, object: KubeObject, source = ''): ApplyFailure {
  if (error instanceof ClusterApiError) {
    const causes = (error.causes.length > 0 ? error.causes : messageCauses(error.message)).map(
      (cause): FieldCause => ({ ...cause, path: cause.field ? normalizeFieldPath(cause.field, object) : undefined }),
    );
    const conflicts =
      error.code === 409
        ? causes.filter((c) => c.reason === 'FieldManagerConflict' && c.field).map((c) => ({ manager: conflictManager(c.message), field: c.field!, path: c.path ?? '' }))
        : [];
    return { message: error.message, fromServer: true, code: error.code, reason: error.reason, causes, conflicts };
  }
  if (error instanceof NoKindMatchError) {
    const name = object.metadata?.name ?? '';
    const message = `${resourceMappingNotFound(name, object.metadata?.namespace ?? '', source, String(object.apiVersion ?? ''), String(object.kind ?? ''))}\n${ENSURE_CRDS}`;
    return { message, fromServer: false, causes: [{ path: 'apiVersion', field: 'apiVersion', message: error.message }], conflicts: [] };
  }
  if (error instanceof ClusterUnreachableError) return { message: error.message, fromServer: false, causes: [], conflicts: [] };
  throw error;
}

/** Equal apart from what every write changes (for telling `unchanged` in a dry run). */
function sameContent(before: KubeObject, after: KubeObject): boolean {
  const strip = (object: KubeObject): string => {
    const { managedFields: _m, resourceVersion: _r, generation: _g, ...meta } = object.metadata ?? {};
    return JSON.stringify({ ...object, metadata: meta });
  };
  return strip(before) === strip(after);
}

/**
 * The server's time stamp of the write an apply made (floored to the second): the creation time
 * of a created object, else the time of our field manager's Apply entry. None when nothing was
 * written (unchanged, dry run).
 */
export function writeStamp(result: ApplyResult, fieldManager: string = FIELD_MANAGER): number | undefined {
  const meta = result.applied?.metadata;
  if (!meta || result.failure || result.action === 'unchanged') return undefined;
  const stamp = result.action === 'created' ? meta.creationTimestamp : meta.managedFields?.find((m) => m.manager === fieldManager && m.operation === 'Apply')?.time;
  const ms = stamp ? Date.parse(String(stamp)) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

export class ManifestApplier {
  constructor(
    private readonly http: ClusterHttp,
    private readonly mapper: ResourceMapper,
  ) {}

  /** Applies the objects in order (as kubectl does); a failure does not stop the ones after it. */
  async applyAll(objects: readonly KubeObject[], options: ApplyOptions, onResult?: (result: ApplyResult, index: number) => void): Promise<ApplyResult[]> {
    const results: ApplyResult[] = [];
    for (const [index, object] of objects.entries()) {
      const result = await this.apply(object, options);
      results.push(result);
      onResult?.(result, index);
    }
    return results;
  }

  async apply(object: KubeObject, options: ApplyOptions): Promise<ApplyResult> {
    const now = options.now ?? Date.now;
    const apiVersion = String(object.apiVersion ?? '');
    const kind = String(object.kind ?? '');
    const name = object.metadata?.name ?? '';
    const result: ApplyResult = { display: displayName(apiVersion, kind, name), apiVersion, kind, name, requestedAt: now() };
    if (!name) {
      result.failure = { message: 'resource name may not be empty', fromServer: false, causes: [{ field: 'metadata.name', path: 'metadata.name', message: 'resource name may not be empty' }], conflicts: [] };
      return result;
    }
    let mapping: ResourceMapping;
    try {
      mapping = await this.mapper.mapping(apiVersion, kind);
    } catch (error) {
      result.failure = failureFromError(error, object, options.source);
      return result;
    }
    const body: KubeObject = structuredClone(object);
    if (mapping.namespaced) {
      result.namespace = body.metadata?.namespace ?? options.defaultNamespace;
      body.metadata = { ...body.metadata, namespace: result.namespace };
    }
    const path = resourcePath(mapping, result.namespace, name);
    try {
      const before = await this.current(path);
      result.requestedAt = now();
      const { status, body: answer } = await this.http.json('PATCH', path, {
        query: { fieldManager: options.fieldManager ?? FIELD_MANAGER, fieldValidation: 'Strict', force: options.force ? 'true' : undefined, dryRun: options.dryRun ? 'All' : undefined },
        contentType: 'application/apply-patch+yaml',
        // JSON is YAML: the server reads it as the applied configuration.
        body: JSON.stringify(body),
      });
      result.answeredAt = now();
      const applied = answer as KubeObject;
      result.applied = applied;
      if (status === 201) result.action = 'created';
      else if (!before) result.action = 'configured';
      else if (options.dryRun) result.action = sameContent(before, applied) ? 'unchanged' : 'configured';
      else result.action = before.metadata?.resourceVersion === applied.metadata?.resourceVersion ? 'unchanged' : 'configured';
    } catch (error) {
      result.failure = failureFromError(error, object);
    }
    return result;
  }

  private async current(path: string): Promise<KubeObject | undefined> {
    try {
      return (await this.http.json('GET', path)).body as KubeObject;
    } catch (error) {
      // Not found: it will be created. Forbidden to read but maybe allowed to patch: let the patch tell.
      if (error instanceof ClusterApiError && (error.code === 404 || error.code === 403)) return undefined;
      throw error;
    }
  }
}
