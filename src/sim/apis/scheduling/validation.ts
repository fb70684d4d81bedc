/** The scheduling group's validation (pkg/apis/scheduling/validation/validation.go): PriorityClasses. */
import type { KubeObject } from '../../../core/k8s';
import { goQuote } from '../../../core/schema/go-format';
import { nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { FIELD_IMMUTABLE, forbidden, invalid, isSet, notSupported, str, type Errors } from '../field';
import { checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';
import { SYSTEM_PRIORITY_CLASSES } from './system-priority-classes';

/** `scheduling.HighestUserDefinablePriority`. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_PREFIX = 'system-';
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** `scheduling.IsKnownSystemPriorityClass`'s error, or undefined when the class is the known one. */
function systemClassProblem(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES[name];
  if (known === undefined) return `${name} is not a known system priority class`;
  if (value !== known) return `value of ${name} PriorityClass must be ${known}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

export function validatePriorityClass(priorityClass: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  const name = priorityClass.metadata?.name ?? '';
  const value = typeof priorityClass.value === 'number' ? priorityClass.value : 0;
  if (old) {
    checkObjectMetaUpdate(priorityClass, old, errors);
    if (value !== old.value) errors.push(forbidden('value', 'may not be changed in an update.'));
    if (str(priorityClass.preemptionPolicy) !== str(old.preemptionPolicy)) errors.push(invalid('preemptionPolicy', goQuote(str(priorityClass.preemptionPolicy)), FIELD_IMMUTABLE));
    return errors;
  }
  checkObjectMeta(priorityClass, false, nameIsDNSSubdomain, errors);
  if (name.startsWith(SYSTEM_PREFIX)) {
    const problem = systemClassProblem(name, value, priorityClass.globalDefault === true);
    if (problem) errors.push(forbidden('metadata.name', `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${problem}`));
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errors.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (isSet(priorityClass.preemptionPolicy) && !PREEMPTION_POLICIES.includes(str(priorityClass.preemptionPolicy))) {
    errors.push(notSupported('preemptionPolicy', goQuote(str(priorityClass.preemptionPolicy)), PREEMPTION_POLICIES));
  }
  return errors;
}
