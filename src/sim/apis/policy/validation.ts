/** The policy group's validation (pkg/apis/policy/validation/validation.go): PodDisruptionBudgets. */
import type { KubeObject, LabelSelector } from '../../../core/k8s';
import { nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { invalid, isSet, notSupported, objectOf, str, type Errors } from '../field';
import { checkLabelSelector, checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';
import { checkNotMoreThan100Percent, checkPositiveIntOrPercent } from '../apps/validation';
import { goQuote } from '../../../core/schema/go-format';

const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** `%#v` of the spec upstream prints when both bounds are set; Go shows pointers as addresses. */
function goBudgetSpec(spec: Record<string, unknown>): string {
  const pointer = (type: string, value: unknown) => (isSet(value) ? `(*${type})(0xc000a1b2c0)` : `(*${type})(nil)`);
  return (
    `policy.PodDisruptionBudgetSpec{MinAvailable:${pointer('intstr.IntOrString', spec.minAvailable)}, Selector:${pointer('v1.LabelSelector', spec.selector)}, ` +
    `MaxUnavailable:${pointer('intstr.IntOrString', spec.maxUnavailable)}, UnhealthyPodEvictionPolicy:${pointer('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy)}}`
  );
}

/** ValidatePodDisruptionBudget: minAvailable xor maxUnavailable, each a non-negative int or a percent up to 100 %. */
export function validatePodDisruptionBudget(budget: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(budget, old, errors);
  else checkObjectMeta(budget, true, nameIsDNSSubdomain, errors);
  const spec = objectOf(budget.spec);
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable)) errors.push(invalid('spec', goBudgetSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  for (const key of ['minAvailable', 'maxUnavailable']) {
    if (!isSet(spec[key])) continue;
    checkPositiveIntOrPercent(spec[key], `spec.${key}`, errors);
    checkNotMoreThan100Percent(spec[key], `spec.${key}`, errors);
  }
  if (isSet(spec.selector)) checkLabelSelector(objectOf(spec.selector) as LabelSelector, 'spec.selector', errors);
  const policy = spec.unhealthyPodEvictionPolicy;
  if (isSet(policy) && !UNHEALTHY_POD_EVICTION_POLICIES.includes(str(policy))) {
    errors.push(notSupported('spec.unhealthyPodEvictionPolicy', goQuote(str(policy)), UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return errors;
}
