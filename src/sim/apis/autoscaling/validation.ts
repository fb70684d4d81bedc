/**
 * The autoscaling group's validation (pkg/apis/autoscaling/validation/validation.go) for
 * HorizontalPodAutoscalers: replica bounds, the scale target reference and each metric's source
 * and target, in upstream's order of checks.
 */
import type { KubeObject } from '../../../core/k8s';
import { goQuote, goScalar } from '../../../core/schema/go-format';
import { isValidPathSegmentName, nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { parseQuantity } from '../../../core/schema/quantity';
import { addInvalid, forbidden, invalid, isSet, listOf, notSupported, objectOf, recordAt, required, str, type Errors, type Json } from '../field';
import { checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';

const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
/** The JSON field of each metric source type. */
const SOURCE_FIELDS: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };
const MIN_REPLICAS_LOWER_BOUND = 1;

function checkTarget(target: Json, field: string, errors: Errors): void {
  const type = str(target.type);
  if (type === '') errors.push(required(`${field}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errors.push(invalid(`${field}.type`, goQuote(type), 'must be either Utilization, Value, or AverageValue'));
  for (const key of ['value', 'averageValue']) {
    if (!isSet(target[key])) continue;
    const quantity = parseQuantity(target[key] as string | number).quantity;
    if (quantity && quantity.nano <= 0n) errors.push(invalid(`${field}.${key}`, goQuote(str(target[key])), 'must be positive'));
  }
  if (typeof target.averageUtilization === 'number' && target.averageUtilization < 1) {
    errors.push(invalid(`${field}.averageUtilization`, goScalar(target.averageUtilization), 'must be greater than 0'));
  }
}

/** validateResourceSource and validateContainerResourceSource: a name, and a utilization or an average value. */
function checkResourceSource(source: Json, field: string, container: boolean, errors: Errors): void {
  if (str(source.name) === '') errors.push(required(`${field}.name`, 'must specify a resource name'));
  if (container && str(source.container) === '') errors.push(required(`${field}.container`, 'must specify a container'));
  const target = objectOf(source.target);
  checkTarget(target, `${field}.target`, errors);
  if (!isSet(target.averageUtilization) && !isSet(target.averageValue)) {
    errors.push(required(`${field}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  if (isSet(target.averageUtilization) && isSet(target.averageValue)) {
    errors.push(forbidden(`${field}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
}

function checkMetric(metric: Json, field: string, errors: Errors): void {
  const type = str(metric.type);
  if (type === '') errors.push(required(`${field}.type`, 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errors.push(notSupported(`${field}.type`, goQuote(type), METRIC_SOURCE_TYPES));
  const present = Object.entries(SOURCE_FIELDS).filter(([, key]) => isSet(metric[key]));
  const expected = SOURCE_FIELDS[type];
  if (expected !== undefined && !isSet(metric[expected])) errors.push(required(`${field}.${expected}`, 'must populate information for the given metric source'));
  if (present.length !== 1) {
    for (const [sourceType] of present) if (sourceType !== type) errors.push(forbidden(`${field}.${sourceType.toLowerCase()}`, 'must populate the given metric source only'));
  }
  if (isSet(metric.resource)) checkResourceSource(objectOf(metric.resource), `${field}.resource`, false, errors);
  else if (isSet(metric.containerResource)) checkResourceSource(objectOf(metric.containerResource), `${field}.containerResource`, true, errors);
  else {
    for (const key of ['pods', 'object', 'external']) {
      if (isSet(metric[key])) checkTarget(objectOf(objectOf(metric[key]).target), `${field}.${key}.target`, errors);
    }
  }
}

/** ValidateCrossVersionObjectReference. */
function checkScaleTargetRef(reference: Json, errors: Errors): void {
  for (const key of ['kind', 'name']) {
    const value = str(reference[key]);
    if (value === '') errors.push(required(`spec.scaleTargetRef.${key}`));
    else addInvalid(`spec.scaleTargetRef.${key}`, value, isValidPathSegmentName(value), errors);
  }
}

export function validateHorizontalPodAutoscaler(autoscaler: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(autoscaler, old, errors);
  else checkObjectMeta(autoscaler, true, nameIsDNSSubdomain, errors);
  const spec = objectOf(autoscaler.spec);
  const minReplicas = typeof spec.minReplicas === 'number' ? spec.minReplicas : undefined;
  const maxReplicas = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (minReplicas !== undefined && minReplicas < MIN_REPLICAS_LOWER_BOUND) {
    errors.push(invalid('spec.minReplicas', goScalar(minReplicas), `must be greater than or equal to ${MIN_REPLICAS_LOWER_BOUND}`));
  }
  if (maxReplicas < 1) errors.push(invalid('spec.maxReplicas', goScalar(maxReplicas), 'must be greater than 0'));
  if (minReplicas !== undefined && maxReplicas < minReplicas) errors.push(invalid('spec.maxReplicas', goScalar(maxReplicas), 'must be greater than or equal to `minReplicas`'));
  checkScaleTargetRef(objectOf(spec.scaleTargetRef), errors);
  const metrics = listOf(spec.metrics);
  for (let i = 0; i < metrics.length; i++) checkMetric(recordAt(metrics, i), `spec.metrics[${i}]`, errors);
  return errors;
}
