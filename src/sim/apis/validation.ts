/**
 * kube-apiserver's validation of the served kinds, dispatched to each API group's rules as
 * upstream keeps them (pkg/apis/<group>/validation), with the exact causes and messages a client
 * receives: `validate` lists the causes, `validationError` turns them into the 422 `Invalid`
 * status, `decodeCheck` is the 400 a malformed body gets before that. Checks run in upstream's
 * order, since a multi-cause message lists them in that order.
 *
 * Every pod and event the simulator creates passes through here, so the checks add their causes
 * to one list (`check*(…, errors)`) instead of returning lists to concatenate, and the paths of
 * list items and the messages are built only once a problem is found.
 */
import type { KubeObject, ResourceKind, StatusCause } from '../../core/k8s';
import { decodeFailureMessage, inspectDecoding, strictErrorsMessage } from '../../core/schema/fields';
import { strictDecodingErrors } from '../../core/schema/json-keys';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../core/schema/name-rules';
import { applyDefaults, type DefaultingOptions } from '../store/defaults';
import { ApiError } from '../store/types';
import type { FieldCause } from './field';
import { validateConfigMap, validateConfigMapUpdate, validateMetaOnly, validateNode, validateNodeUpdate, validatePodCreate, validatePodUpdate, validateReplicationController } from './core/validation';
import { validateStatefulSet, validateWorkload } from './apps/validation';
import { validateCronJob, validateJob } from './batch/validation';
import { validateService } from './core/service-validation';
import { secretDecodeFailure, validateLimitRange, validateResourceQuota, validateSecret } from './core/config-validation';
import { validatePersistentVolume, validatePersistentVolumeClaim } from './core/volume-validation';
import { validateStorageClass } from './storage/validation';
import { validateIngress, validateIngressClass, validateNetworkPolicy } from './networking/validation';
import { validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from './rbac/validation';
import { validateHorizontalPodAutoscaler } from './autoscaling/validation';
import { validatePodDisruptionBudget } from './policy/validation';
import { validatePriorityClass } from './scheduling/validation';
import { validateLease } from './coordination/validation';
import { validateCustomResourceDefinition } from './apiextensions/crd';
import { resourceInfo } from '../store/resources';

// ---------------------------------------------------------------------------------------------
// Entry points

/**
 * Every validation cause for a create (`old` absent) or an update, in upstream's order. `old` is
 * the stored object: it passed validation when it was written, so what an update shares with it
 * by reference is not validated again.
 */
export function validate(kind: ResourceKind, object: KubeObject, old?: KubeObject): FieldCause[] {
  switch (kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'DaemonSet':
      return validateWorkload(kind, object, old);
    case 'StatefulSet':
      return validateStatefulSet(object, old);
    case 'Pod':
      return old ? validatePodUpdate(object, old) : validatePodCreate(object);
    case 'Namespace':
      return validateMetaOnly(object, old, false, nameIsDNSLabel);
    case 'Node':
      return old ? validateNodeUpdate(object, old) : validateNode(object);
    case 'ConfigMap':
      return old ? validateConfigMapUpdate(object, old) : validateConfigMap(object);
    case 'Event':
      return validateMetaOnly(object, old, true, nameIsDNSSubdomain);
    case 'ReplicationController':
      return validateReplicationController(object, old);
    // Kinds whose group validation is not ported yet: their metadata is still checked.
    case 'PersistentVolumeClaim':
      return validatePersistentVolumeClaim(object, old);
    case 'ControllerRevision':
      return validateMetaOnly(object, old, true, nameIsDNSSubdomain);
    case 'Job':
      return validateJob(object, old);
    case 'CronJob':
      return validateCronJob(object, old);
    case 'Service':
      return validateService(object, old);
    case 'Secret':
      return validateSecret(object, old);
    case 'ResourceQuota':
      return validateResourceQuota(object, old);
    case 'LimitRange':
      return validateLimitRange(object, old);
    case 'PersistentVolume':
      return validatePersistentVolume(object, old);
    case 'StorageClass':
      return validateStorageClass(object, old);
    case 'HorizontalPodAutoscaler':
      return validateHorizontalPodAutoscaler(object, old);
    case 'PodDisruptionBudget':
      return validatePodDisruptionBudget(object, old);
    case 'Ingress':
      return validateIngress(object, old);
    case 'IngressClass':
      return validateIngressClass(object, old);
    case 'NetworkPolicy':
      return validateNetworkPolicy(object, old);
    case 'Role':
      return validateRole(object, old);
    case 'ClusterRole':
      return validateClusterRole(object, old);
    case 'RoleBinding':
      return validateRoleBinding(object, old);
    case 'ClusterRoleBinding':
      return validateClusterRoleBinding(object, old);
    case 'PriorityClass':
      return validatePriorityClass(object, old);
    case 'Lease':
      return validateLease(object, old);
    case 'CustomResourceDefinition':
      return [...validateMetaOnly(object, old, false, nameIsDNSSubdomain), ...validateCustomResourceDefinition(object, old)];
    // Written by controllers more than by people: their metadata is checked.
    case 'ServiceAccount':
    case 'Endpoints':
    case 'EndpointSlice':
      return validateMetaOnly(object, old, true, nameIsDNSSubdomain);
  }
}


/** The causes as `field: message`, deduplicated and joined as utilerrors.Aggregate prints them. */
function aggregate(causes: readonly StatusCause[]): string {
  const seen = new Set<string>();
  for (const cause of causes) seen.add(`${cause.field ?? ''}: ${cause.message ?? ''}`);
  const messages = [...seen];
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

/** The Status message kube-apiserver sends: `Deployment.apps "bad" is invalid: <cause>` or `…: [<cause>, <cause>]`. */
export function invalidMessage(kind: ResourceKind, name: string, causes: readonly StatusCause[]): string {
  const group = resourceInfo(kind).group;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  return causes.length === 0 ? `${qualifiedKind} "${name}" is invalid` : `${qualifiedKind} "${name}" is invalid: ${aggregate(causes)}`;
}

/** What kubectl prints for that error: `The Deployment "bad" is invalid: <cause>`, or one `* <cause>` line per cause. */
export function kubectlInvalidMessage(kind: ResourceKind, name: string, causes: readonly StatusCause[]): string {
  const prefix = `The ${kind} "${name}" is invalid: `;
  const lines = [...new Set(causes.map((cause) => (cause.field ? `${cause.field}: ${cause.message ?? ''}` : cause.message ?? '')))];
  if (lines.length === 1) return prefix + lines[0];
  return `${prefix}\n${lines.map((line) => `* ${line}`).join('\n')}`;
}

/** The 422 Invalid ApiError for an object (undefined when it is valid). Fits the store's Admission.validate. */
export function validationError(kind: ResourceKind, object: KubeObject, old: KubeObject | undefined): ApiError | undefined {
  const causes = validate(kind, object, old);
  if (causes.length === 0) return undefined;
  return invalidError(kind, object.metadata?.name ?? '', causes);
}

/** apierrors.NewInvalid: the 422 `Invalid` status with its causes. */
export function invalidError(kind: ResourceKind, name: string, causes: readonly FieldCause[]): ApiError {
  const statusCauses: StatusCause[] = causes.map((cause) => ({ reason: cause.reason, message: cause.message, field: cause.field }));
  return new ApiError(422, 'Invalid', invalidMessage(kind, name, causes), { name, group: resourceInfo(kind).group, kind, causes: statusCauses });
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface DecodeResult {
  /** The 400 BadRequest the body gets before defaulting and validation. */
  error?: ApiError;
  /** Warning headers (`unknown field "spec.replica"`) under fieldValidation=Warn. */
  warnings: string[];
  /** Where the error is (`spec.template.spec.containers[0].ports[0].containerPort`), for placing it on a manifest line. */
  field?: string;
}

/**
 * The decoding step of a create or update: values that cannot be decoded are a 400 in every
 * mode; unknown fields (and, given the body's JSON text, repeated ones) are a 400 under Strict
 * (kubectl's default since 1.25), warnings under Warn.
 */
export function decodeCheck(kind: ResourceKind, object: KubeObject, fieldValidation: FieldValidation = 'Strict', bodyText?: string): DecodeResult {
  const inspection = inspectDecoding(kind, object);
  if (inspection.error !== undefined) return { error: new ApiError(400, 'BadRequest', decodeFailureMessage(kind, inspection.error)), warnings: [], field: inspection.errorPath };
  const bytesError = bytesDecodeError(kind, object);
  if (bytesError) return { error: bytesError, warnings: [] };
  if (fieldValidation === 'Ignore') return { warnings: [] };
  const errors = bodyText === undefined ? inspection.unknownFields.map((path) => `unknown field "${path}"`) : strictDecodingErrors(bodyText, inspection.unknownFields);
  if (errors.length === 0) return { warnings: [] };
  if (fieldValidation === 'Warn') return { warnings: errors };
  return { error: new ApiError(400, 'BadRequest', strictErrorsMessage(kind, errors)), warnings: [], field: inspection.unknownFields[0] };
}

/** The 400 a Secret whose `data` is not base64 gets: Go decodes `[]byte` fields while reading the body. */
export function bytesDecodeError(kind: ResourceKind, object: KubeObject): ApiError | undefined {
  const failure = kind === 'Secret' ? secretDecodeFailure(object) : undefined;
  return failure === undefined ? undefined : new ApiError(400, 'BadRequest', decodeFailureMessage(kind, failure));
}

/** The defaulting options of every create (defaulting only reads them). */
const CREATE_DEFAULTING: DefaultingOptions = Object.freeze({});

/** Defaulting, admission and validation as the store's Admission hook expects them. */
export const apiServerAdmission = {
  applyDefaults(kind: ResourceKind, object: KubeObject, old?: KubeObject): void {
    applyDefaults(kind, object, old ? { old } : CREATE_DEFAULTING);
  },
  validate: validationError,
};
