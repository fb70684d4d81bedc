/**
 * What the API server does to a custom resource on a write, as apiextensions-apiserver's
 * customresource strategy does it: prune the fields the schema does not specify, fill in the
 * schema's defaults, check the metadata and validate against the version's openAPIV3Schema.
 */
import type { KubeObject, StatusCause } from '../../../core/k8s';
import { nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { validateMetaOnly } from '../core/validation';
import { ApiError } from '../../store/types';
import type { CustomResourceInfo } from './crd';
import { applySchemaDefaults } from './defaulting';
import { pruneToSchema } from './pruning';
import { validateAgainstSchema } from './schema-validation';

/** `Widget.example.com "x" is invalid: spec.size: …`, the 422 apierrors.NewInvalid builds. */
export function customResourceInvalid(info: CustomResourceInfo, name: string, causes: readonly StatusCause[]): ApiError {
  const lines = [...new Set(causes.map((cause) => `${cause.field ?? ''}: ${cause.message ?? ''}`))];
  const detail = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  return new ApiError(422, 'Invalid', `${info.kind}.${info.group} "${name}" is invalid: ${detail}`, {
    name,
    group: info.group,
    kind: info.kind,
    causes: causes.map((cause) => ({ reason: cause.reason, message: cause.message, field: cause.field })),
  });
}

/** Prunes and defaults `object` in place and returns the 422 for an invalid one (undefined when valid). */
export function admitCustomResource(info: CustomResourceInfo, object: KubeObject, old: KubeObject | undefined): ApiError | undefined {
  pruneToSchema(info.schema, object);
  applySchemaDefaults(info.schema, object);
  const causes = [...validateMetaOnly(object, old, info.namespaced, nameIsDNSSubdomain), ...validateAgainstSchema(info.schema, object)];
  return causes.length === 0 ? undefined : customResourceInvalid(info, object.metadata?.name ?? '', causes);
}

/**
 * The decoding step for a custom resource: the fields pruning would drop are unknown fields, a 400
 * under fieldValidation=Strict (`strict decoding error: unknown field "spec.extra"`) and warnings
 * under Warn. The body itself is pruned later, by admission.
 */
export function customResourceUnknownFields(info: CustomResourceInfo, object: KubeObject, fieldValidation: 'Strict' | 'Warn' | 'Ignore'): { error?: ApiError; warnings: string[]; field?: string } {
  if (fieldValidation === 'Ignore') return { warnings: [] };
  const paths = pruneToSchema(info.schema, structuredClone(object));
  const unknown = paths.map((path) => `unknown field "${path}"`);
  if (unknown.length === 0) return { warnings: [] };
  if (fieldValidation === 'Warn') return { warnings: unknown };
  return { error: new ApiError(400, 'BadRequest', `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${unknown.join(', ')}`), warnings: [], field: paths[0] };
}
