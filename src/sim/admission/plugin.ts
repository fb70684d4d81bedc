/**
 * The shape of one admission plugin (k8s.io/apiserver/pkg/admission): `admit` is the mutating
 * phase (it may change the object, and may refuse it), `validate` the validating phase, run
 * after the kind's own validation. Both see the request's attributes; a refusal is thrown or
 * returned as the ApiError the client receives, a warning is added to `warnings`, which the API
 * server sends as `Warning` response headers.
 */
import type { KubeObject, ResourceKind } from '../../core/k8s';
import { qualifiedResource, resourceInfo } from '../store/resources';
import { ApiError, type StoreApi } from '../store/types';

export interface AdmissionAttributes {
  kind: ResourceKind;
  object: KubeObject;
  /** The stored object on an update, undefined on a create. */
  old: KubeObject | undefined;
  /** The object's namespace ('' for cluster-scoped kinds). */
  namespace: string;
  warnings: string[] | undefined;
}

export interface AdmissionPlugin {
  readonly name: string;
  admit?(attributes: AdmissionAttributes, store: StoreApi): void;
  validate?(attributes: AdmissionAttributes, store: StoreApi): ApiError | undefined;
}

/**
 * admission.NewForbidden: `pods "web-7d4b9c-" is forbidden: <reason>`. Admission runs before a
 * generated name is chosen (extractResourceName), so a pod made from `generateName` is named by
 * its prefix. The store generates names first; a name that extends the prefix was generated.
 */
export function forbidden(attributes: Pick<AdmissionAttributes, 'kind' | 'object'>, reason: string): ApiError {
  const info = resourceInfo(attributes.kind);
  const name = admissionName(attributes.object);
  const resource = qualifiedResource(info);
  const message = name ? `${resource} "${name}" is forbidden: ${reason}` : `${resource} is forbidden: ${reason}`;
  return new ApiError(403, 'Forbidden', message, { name, group: info.group, kind: info.plural });
}

export function admissionName(object: KubeObject): string {
  const { name, generateName } = object.metadata ?? {};
  if (generateName && (!name || name.startsWith(generateName))) return generateName;
  return name ?? '';
}
