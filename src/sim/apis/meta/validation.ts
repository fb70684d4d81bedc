/**
 * ObjectMeta and label selector validation (k8s.io/apimachinery/pkg/api/validation/objectmeta.go,
 * pkg/apis/meta/v1/validation), shared by every API group.
 */
import type { KubeObject, LabelSelector } from '../../../core/k8s';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel } from '../../../core/schema/name-rules';
import { goQuote } from '../../../core/schema/go-format';
import { FIELD_IMMUTABLE, addInvalid, checkNonNegative, forbidden, invalid, listOf, objectOf, recordAt, required, str, stringMap, tooLong, type Errors, type Json } from '../field';

// ---------------------------------------------------------------------------------------------
// ObjectMeta (k8s.io/apimachinery/pkg/api/validation/objectmeta.go)

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
const IDENTITY_FIELDS = ['name', 'namespace', 'uid', 'creationTimestamp'] as const;

export type NameRule = (name: string, prefix: boolean) => readonly string[];

export function checkLabels(labels: Record<string, string> | undefined, field: string, errors: Errors): void {
  // Decoded JSON objects inherit no enumerable keys: for…in visits exactly Object.entries' keys, in its order.
  for (const key in labels) {
    addInvalid(field, key, isQualifiedName(key), errors);
    const value = str(labels[key]);
    addInvalid(field, value, isValidLabelValue(value), errors);
  }
}

export function validateLabels(labels: Record<string, string> | undefined, field: string): Errors {
  const errors: Errors = [];
  checkLabels(labels, field, errors);
  return errors;
}

export function checkAnnotations(annotations: Record<string, string> | undefined, field: string, errors: Errors): void {
  let size = 0;
  for (const key in annotations) {
    // The rule is QualifiedName except that case does not matter.
    addInvalid(field, key, isQualifiedName(key.toLowerCase()), errors);
    size += key.length + str(annotations[key]).length;
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errors.push(tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT));
}

function checkOwnerReferences(references: unknown, field: string, errors: Errors): void {
  const list = listOf(references);
  for (let index = 0; index < list.length; index++) {
    const reference = recordAt(list, index);
    const apiVersion = str(reference.apiVersion);
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (!version) errors.push(invalid(`${field}.apiVersion`, goQuote(apiVersion), 'version must not be empty'));
    if (!str(reference.kind)) errors.push(invalid(`${field}.kind`, goQuote(''), 'must not be empty'));
    if (!str(reference.name)) errors.push(invalid(`${field}.name`, goQuote(''), 'must not be empty'));
    if (!str(reference.uid)) errors.push(invalid(`${field}.uid`, goQuote(''), 'must not be empty'));
  }
}

function checkFinalizers(finalizers: unknown, errors: Errors): void {
  for (const finalizer of listOf(finalizers)) {
    const name = str(finalizer);
    addInvalid('metadata.finalizers', name, isQualifiedName(name), errors);
  }
}

function checkMetaCommon(meta: Json, namespaced: boolean, errors: Errors): void {
  if (namespaced) {
    const namespace = str(meta.namespace);
    if (!namespace) errors.push(required('metadata.namespace'));
    else addInvalid('metadata.namespace', namespace, nameIsDNSLabel(namespace, false), errors);
  } else if (str(meta.namespace)) {
    errors.push(forbidden('metadata.namespace', 'not allowed on this type'));
  }
  checkNonNegative(meta.generation, 'metadata.generation', errors);
  checkLabels(stringMap(meta.labels), 'metadata.labels', errors);
  checkAnnotations(stringMap(meta.annotations), 'metadata.annotations', errors);
  checkOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences', errors);
  checkFinalizers(meta.finalizers, errors);
}

/** ValidateObjectMeta on create (the name has been generated already when generateName was used). */
export function checkObjectMeta(object: KubeObject, namespaced: boolean, nameRule: NameRule, errors: Errors): void {
  const meta = objectOf(object.metadata);
  const generateName = str(meta.generateName);
  if (generateName) addInvalid('metadata.generateName', generateName, nameRule(generateName, true), errors);
  const name = str(meta.name);
  if (!name) errors.push(required('metadata.name', 'name or generateName is required'));
  else addInvalid('metadata.name', name, nameRule(name, false), errors);
  checkMetaCommon(meta, namespaced, errors);
}

/**
 * ValidateObjectMetaUpdate: identity fields are immutable, the rest is validated again. A labels,
 * annotations, ownerReferences or finalizers value that is the stored object's own (stored objects
 * are read-only, so unchanged subtrees are shared between versions) passed these same checks when
 * it was written: it is not checked again.
 */
export function checkObjectMetaUpdate(object: KubeObject, old: KubeObject, errors: Errors): void {
  const meta = objectOf(object.metadata);
  const oldMeta = objectOf(old.metadata);
  if (typeof meta.generation === 'number' && typeof oldMeta.generation === 'number' && meta.generation < oldMeta.generation) {
    errors.push(invalid('metadata.generation', String(meta.generation), 'must not be decremented'));
  }
  for (const key of IDENTITY_FIELDS) {
    if (str(meta[key]) !== str(oldMeta[key])) errors.push(invalid(`metadata.${key}`, goQuote(str(meta[key])), FIELD_IMMUTABLE));
  }
  if (meta.labels !== oldMeta.labels) checkLabels(stringMap(meta.labels), 'metadata.labels', errors);
  if (meta.annotations !== oldMeta.annotations) checkAnnotations(stringMap(meta.annotations), 'metadata.annotations', errors);
  if (meta.ownerReferences !== oldMeta.ownerReferences) checkOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences', errors);
  if (meta.finalizers !== oldMeta.finalizers) checkFinalizers(meta.finalizers, errors);
}

// ---------------------------------------------------------------------------------------------
// Label selectors (k8s.io/apimachinery/pkg/apis/meta/v1/validation)

export function checkLabelSelector(selector: LabelSelector, field: string, errors: Errors): void {
  checkLabels(selector.matchLabels, `${field}.matchLabels`, errors);
  (selector.matchExpressions ?? []).forEach((requirement, index) => {
    const path = `${field}.matchExpressions[${index}]`;
    const values = requirement.values ?? [];
    switch (requirement.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errors.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errors.push(forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errors.push(invalid(`${path}.operator`, goQuote(str(requirement.operator)), 'not a valid selector operator'));
    }
    addInvalid(`${path}.key`, str(requirement.key), isQualifiedName(str(requirement.key)), errors);
    values.forEach((value, valueIndex) => {
      addInvalid(`${path}.values[${valueIndex}]`, str(value), isValidLabelValue(str(value)), errors);
    });
  });
}

/**
 * LabelSelectorAsSelector(...).Matches(labels). A missing selector is labels.Nothing() (matches
 * nothing, not empty); `{}` is labels.Everything() (empty: the template check is skipped).
 */
export function selectorVerdict(selector: LabelSelector | undefined, labels: Record<string, string>): 'empty' | 'matches' | 'mismatch' {
  if (!selector) return 'mismatch';
  const expressions = selector.matchExpressions ?? [];
  const matchLabels = selector.matchLabels ?? {};
  if (Object.keys(matchLabels).length === 0 && expressions.length === 0) return 'empty';
  for (const [key, value] of Object.entries(matchLabels)) if (labels[key] !== value) return 'mismatch';
  for (const requirement of expressions) {
    const has = Object.prototype.hasOwnProperty.call(labels, requirement.key);
    const values = requirement.values ?? [];
    const ok =
      requirement.operator === 'In' ? has && values.includes(labels[requirement.key])
      : requirement.operator === 'NotIn' ? !has || !values.includes(labels[requirement.key])
      : requirement.operator === 'Exists' ? has
      : requirement.operator === 'DoesNotExist' ? !has
      : false;
    if (!ok) return 'mismatch';
  }
  return 'matches';
}
