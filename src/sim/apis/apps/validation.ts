/**
 * The apps group's validation (pkg/apis/apps/validation/validation.go): Deployments,
 * ReplicaSets and StatefulSets, their strategies, selectors and pod templates.
 */
import type { KubeObject, LabelSelector } from '../../../core/k8s';
import { semanticEqual } from '../../../core/schema/go-diff';
import { goIntOrString, goLabelSelector, goQuote, goStringMap } from '../../../core/schema/go-format';
import { nameIsDNSSubdomain, regexError } from '../../../core/schema/name-rules';
import { FIELD_IMMUTABLE, checkNonNegative, forbidden, invalid, isSet, notSupported, objectOf, required, str, stringMap, type Errors, type Json } from '../field';
import { isJsonObject } from '../../../common/json';
import { checkAnnotations, checkLabelSelector, checkLabels, checkObjectMeta, checkObjectMetaUpdate, selectorVerdict } from '../meta/validation';
import { checkPodTemplateSpec } from '../core/validation';

// ---------------------------------------------------------------------------------------------
// Deployments and ReplicaSets (pkg/apis/apps/validation/validation.go)

const PERCENT_FMT = '[0-9]+%';

function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  const text = str(value);
  if (/^[0-9]+%$/.test(text)) return Number(text.slice(0, -1));
  return /^-?\d+$/.test(text) ? Number(text) : 0;
}

export function checkPositiveIntOrPercent(value: unknown, field: string, errors: Errors): void {
  if (typeof value === 'number') checkNonNegative(value, field, errors);
  else if (typeof value === 'string' && !/^[0-9]+%$/.test(value)) {
    errors.push(invalid(field, goIntOrString(value), regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')));
  }
}

function checkDeploymentStrategy(strategy: Json, field: string, errors: Errors): void {
  const type = str(strategy.type);
  const rollingUpdate = strategy.rollingUpdate;
  if (type === 'Recreate') {
    if (isSet(rollingUpdate)) errors.push(forbidden(`${field}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'"));
    return;
  }
  if (type === 'RollingUpdate') {
    if (!isJsonObject(rollingUpdate)) {
      errors.push(required(`${field}.rollingUpdate`, 'this should be defaulted and never be nil'));
      return;
    }
    const path = `${field}.rollingUpdate`;
    checkPositiveIntOrPercent(rollingUpdate.maxUnavailable, `${path}.maxUnavailable`, errors);
    checkPositiveIntOrPercent(rollingUpdate.maxSurge, `${path}.maxSurge`, errors);
    const goMaxUnavailable = goIntOrString(rollingUpdate.maxUnavailable as number | string);
    if (intOrPercentValue(rollingUpdate.maxUnavailable) === 0 && intOrPercentValue(rollingUpdate.maxSurge) === 0) {
      errors.push(invalid(`${path}.maxUnavailable`, goMaxUnavailable, 'may not be 0 when `maxSurge` is 0'));
    }
    if (typeof rollingUpdate.maxUnavailable === 'string' && /^[0-9]+%$/.test(rollingUpdate.maxUnavailable) && intOrPercentValue(rollingUpdate.maxUnavailable) > 100) {
      errors.push(invalid(`${path}.maxUnavailable`, goMaxUnavailable, 'must not be greater than 100%'));
    }
    return;
  }
  const rollingUpdateValue = isJsonObject(rollingUpdate) ? '(*apps.RollingUpdateDeployment)(0xc000a1b2c0)' : '(*apps.RollingUpdateDeployment)(nil)';
  errors.push(notSupported(field, `apps.DeploymentStrategy{Type:${goQuote(type)}, RollingUpdate:${rollingUpdateValue}}`, ['Recreate', 'RollingUpdate']));
}

/** ValidatePodTemplateSpecForReplicaSet: selector ↔ labels, the template, restartPolicy Always. */
function checkTemplateForReplicaSet(spec: Json, field: string, errors: Errors): void {
  const template = spec.template;
  if (!isJsonObject(template)) {
    errors.push(required(field));
    return;
  }
  const labels = stringMap(objectOf(template.metadata).labels);
  const selector = isJsonObject(spec.selector) ? (spec.selector as LabelSelector) : undefined;
  if (selectorVerdict(selector, labels ?? {}) === 'mismatch') {
    errors.push(invalid(`${field}.metadata.labels`, goStringMap(labels), '`selector` does not match template `labels`'));
  }
  checkPodTemplateSpec(template, field, errors);
  const podSpec = objectOf(template.spec);
  const restartPolicy = str(podSpec.restartPolicy);
  if (restartPolicy !== 'Always') errors.push(notSupported(`${field}.spec.restartPolicy`, goQuote(restartPolicy), ['Always']));
  if (typeof podSpec.activeDeadlineSeconds === 'number') {
    errors.push(invalid(`${field}.spec.activeDeadlineSeconds`, String(podSpec.activeDeadlineSeconds), 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
}

function checkWorkloadSelector(spec: Json, errors: Errors): void {
  if (!isJsonObject(spec.selector)) {
    errors.push(required('spec.selector'));
    return;
  }
  const selector = spec.selector as LabelSelector;
  checkLabelSelector(selector, 'spec.selector', errors);
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errors.push(invalid('spec.selector', goLabelSelector(selector), 'empty selector is invalid for deployment'));
  }
}

function checkDeploymentSpec(spec: Json, errors: Errors): void {
  checkNonNegative(spec.replicas, 'spec.replicas', errors);
  checkWorkloadSelector(spec, errors);
  checkTemplateForReplicaSet(spec, 'spec.template', errors);
  checkDeploymentStrategy(objectOf(spec.strategy), 'spec.strategy', errors);
  checkNonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errors);
  checkNonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', errors);
  if (typeof spec.progressDeadlineSeconds === 'number') {
    checkNonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds', errors);
    const minReadySeconds = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (spec.progressDeadlineSeconds <= minReadySeconds) errors.push(invalid('spec.progressDeadlineSeconds', String(spec.progressDeadlineSeconds), 'must be greater than minReadySeconds'));
  }
}

function checkReplicaSetSpec(spec: Json, errors: Errors): void {
  checkNonNegative(spec.replicas, 'spec.replicas', errors);
  checkNonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errors);
  checkWorkloadSelector(spec, errors);
  checkTemplateForReplicaSet(spec, 'spec.template', errors);
}

/** apps/v1 strategies reject any change of the selector after creation. */
function checkSelectorImmutable(spec: Json, oldSpec: Json, errors: Errors): void {
  if (semanticEqual(spec.selector, oldSpec.selector)) return;
  errors.push(invalid('spec.selector', goLabelSelector(isJsonObject(spec.selector) ? (spec.selector as LabelSelector) : undefined), FIELD_IMMUTABLE));
}

const SPEC_CHECKS = { Deployment: checkDeploymentSpec, ReplicaSet: checkReplicaSetSpec, DaemonSet: checkDaemonSetSpec };

/** Validate<Kind> and Validate<Kind>Update, with the apps/v1 strategies' immutable selector. */
export function validateWorkload(kind: keyof typeof SPEC_CHECKS, object: KubeObject, old: KubeObject | undefined): Errors {
  const spec = objectOf(object.spec);
  const checkSpec = SPEC_CHECKS[kind];
  const errors: Errors = [];
  if (!old) {
    checkObjectMeta(object, true, nameIsDNSSubdomain, errors);
    checkSpec(spec, errors);
    return errors;
  }
  checkObjectMetaUpdate(object, old, errors);
  checkSpec(spec, errors);
  checkSelectorImmutable(spec, objectOf(old.spec), errors);
  return errors;
}

// ---------------------------------------------------------------------------------------------
// StatefulSets (ValidateStatefulSet, ValidateStatefulSetUpdate; 1.32, MaxUnavailableStatefulSet off)

const RETENTION_POLICY_TYPES = ['Retain', 'Delete'];
/** The spec fields an update may change; any other change is forbidden as a whole. */
const STATEFULSET_MUTABLE_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];
const STATEFULSET_SPEC_FORBIDDEN =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/** `%#v` of the rollingUpdate pointer (dereferenced by field.Invalid). */
function goRollingUpdateStatefulSet(rollingUpdate: Json): string {
  const partition = typeof rollingUpdate.partition === 'number' ? rollingUpdate.partition : 0;
  return `apps.RollingUpdateStatefulSetStrategy{Partition:${partition}, MaxUnavailable:(*intstr.IntOrString)(nil)}`;
}

function checkStatefulSetUpdateStrategy(strategy: Json, errors: Errors): void {
  const type = str(strategy.type);
  const rollingUpdate = strategy.rollingUpdate;
  switch (type) {
    case '':
      errors.push(required('spec.updateStrategy'));
      return;
    case 'OnDelete':
      if (isJsonObject(rollingUpdate)) errors.push(invalid('spec.updateStrategy.rollingUpdate', goRollingUpdateStatefulSet(rollingUpdate), "only allowed for updateStrategy 'RollingUpdate'"));
      return;
    case 'RollingUpdate':
      if (isJsonObject(rollingUpdate)) checkNonNegative(rollingUpdate.partition, 'spec.updateStrategy.rollingUpdate.partition', errors);
      return;
    default: {
      const pointer = isJsonObject(rollingUpdate) ? '(*apps.RollingUpdateStatefulSetStrategy)(0xc000a1b2c0)' : '(*apps.RollingUpdateStatefulSetStrategy)(nil)';
      errors.push(invalid('spec.updateStrategy', `apps.StatefulSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${pointer}}`, "must be 'RollingUpdate' or 'OnDelete'"));
    }
  }
}

function checkRetentionPolicy(policy: unknown, errors: Errors): void {
  if (!isJsonObject(policy)) return;
  for (const key of ['whenDeleted', 'whenScaled']) {
    const value = str(policy[key]);
    if (!RETENTION_POLICY_TYPES.includes(value)) errors.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${key}`, goQuote(value), RETENTION_POLICY_TYPES));
  }
}

/** ValidateStatefulSetSpec, in upstream's order. The pod spec itself is not validated here (upstream's TODO): a bad one fails at pod creation. */
function checkStatefulSetSpec(spec: Json, errors: Errors): void {
  const policy = str(spec.podManagementPolicy);
  if (policy === '') errors.push(required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errors.push(invalid('spec.podManagementPolicy', goQuote(policy), "must be 'OrderedReady' or 'Parallel'"));
  checkStatefulSetUpdateStrategy(objectOf(spec.updateStrategy), errors);
  checkRetentionPolicy(spec.persistentVolumeClaimRetentionPolicy, errors);
  checkNonNegative(spec.replicas, 'spec.replicas', errors);
  if (isJsonObject(spec.ordinals)) checkNonNegative(spec.ordinals.start, 'spec.ordinals.start', errors);
  checkNonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errors);
  const selector = isJsonObject(spec.selector) ? (spec.selector as LabelSelector) : undefined;
  if (!selector) errors.push(required('spec.selector'));
  else {
    checkLabelSelector(selector, 'spec.selector', errors);
    if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
      errors.push(invalid('spec.selector', goLabelSelector(selector), 'empty selector is invalid for statefulset'));
    }
  }
  const template = objectOf(spec.template);
  const templateMeta = objectOf(template.metadata);
  const labels = stringMap(templateMeta.labels);
  // A missing selector is labels.Nothing(): not empty, and matching no labels.
  if (selectorVerdict(selector, labels ?? {}) === 'mismatch') {
    errors.push(invalid('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
  }
  checkLabels(labels, 'spec.template.labels', errors);
  checkAnnotations(stringMap(templateMeta.annotations), 'spec.template.annotations', errors);
  const podSpec = objectOf(template.spec);
  const restartPolicy = str(podSpec.restartPolicy);
  if (restartPolicy !== 'Always') errors.push(notSupported('spec.template.spec.restartPolicy', goQuote(restartPolicy), ['Always']));
  if (typeof podSpec.activeDeadlineSeconds === 'number') errors.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
}

/** ValidateStatefulSet and ValidateStatefulSetUpdate. */
export function validateStatefulSet(object: KubeObject, old: KubeObject | undefined): Errors {
  const spec = objectOf(object.spec);
  const errors: Errors = [];
  if (!old) {
    checkObjectMeta(object, true, nameIsDNSSubdomain, errors);
    checkStatefulSetSpec(spec, errors);
    return errors;
  }
  checkObjectMetaUpdate(object, old, errors);
  checkStatefulSetSpec(spec, errors);
  const oldSpec = objectOf(old.spec);
  const changed = new Set([...Object.keys(spec), ...Object.keys(oldSpec)]);
  for (const field of changed) {
    if (!STATEFULSET_MUTABLE_FIELDS.includes(field) && !semanticEqual(spec[field], oldSpec[field])) {
      errors.push(forbidden('spec', STATEFULSET_SPEC_FORBIDDEN));
      break;
    }
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// DaemonSets (ValidateDaemonSet, ValidateDaemonSetSpec, ValidateDaemonSetUpdateStrategy)

export function checkNotMoreThan100Percent(value: unknown, field: string, errors: Errors): void {
  if (typeof value === 'string' && /^[0-9]+%$/.test(value) && intOrPercentValue(value) > 100) errors.push(invalid(field, goIntOrString(value), 'must not be greater than 100%'));
}

/** ValidateRollingUpdateDaemonSet: non-negative ints or percentages, at most 100%, exactly one of the two non-zero. */
function checkRollingUpdateDaemonSet(rollingUpdate: Json, field: string, errors: Errors): void {
  checkPositiveIntOrPercent(rollingUpdate.maxUnavailable, `${field}.maxUnavailable`, errors);
  checkPositiveIntOrPercent(rollingUpdate.maxSurge, `${field}.maxSurge`, errors);
  checkNotMoreThan100Percent(rollingUpdate.maxUnavailable, `${field}.maxUnavailable`, errors);
  checkNotMoreThan100Percent(rollingUpdate.maxSurge, `${field}.maxSurge`, errors);
  const hasUnavailable = intOrPercentValue(rollingUpdate.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(rollingUpdate.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errors.push(invalid(`${field}.maxSurge`, goIntOrString(rollingUpdate.maxSurge as number | string), 'may not be set when maxUnavailable is non-zero'));
  else if (!hasUnavailable && !hasSurge) errors.push(required(`${field}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
}

function checkDaemonSetUpdateStrategy(strategy: Json, field: string, errors: Errors): void {
  const type = str(strategy.type);
  if (type === 'OnDelete') return;
  if (type === 'RollingUpdate') {
    if (!isJsonObject(strategy.rollingUpdate)) errors.push(required(`${field}.rollingUpdate`));
    else checkRollingUpdateDaemonSet(strategy.rollingUpdate, `${field}.rollingUpdate`, errors);
    return;
  }
  const rollingUpdateValue = isJsonObject(strategy.rollingUpdate) ? '(*apps.RollingUpdateDaemonSet)(0xc000a1b2c0)' : '(*apps.RollingUpdateDaemonSet)(nil)';
  errors.push(notSupported(field, `apps.DaemonSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${rollingUpdateValue}}`, ['RollingUpdate', 'OnDelete']));
}

/** ValidateDaemonSetSpec: selector ↔ template labels, the template with restartPolicy Always, the update strategy. */
function checkDaemonSetSpec(spec: Json, errors: Errors): void {
  const selector = isJsonObject(spec.selector) ? (spec.selector as LabelSelector) : undefined;
  if (selector) checkLabelSelector(selector, 'spec.selector', errors);
  const template = objectOf(spec.template);
  const labels = stringMap(objectOf(template.metadata).labels);
  if (selectorVerdict(selector, labels ?? {}) === 'mismatch') {
    errors.push(invalid('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
  }
  if (selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errors.push(invalid('spec.selector', goLabelSelector(selector), 'empty selector is invalid for daemonset'));
  }
  checkPodTemplateSpec(template, 'spec.template', errors);
  const podSpec = objectOf(template.spec);
  const restartPolicy = str(podSpec.restartPolicy);
  if (restartPolicy !== 'Always') errors.push(notSupported('spec.template.spec.restartPolicy', goQuote(restartPolicy), ['Always']));
  if (typeof podSpec.activeDeadlineSeconds === 'number') errors.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'));
  checkNonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errors);
  checkDaemonSetUpdateStrategy(objectOf(spec.updateStrategy), 'spec.updateStrategy', errors);
  checkNonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', errors);
}
