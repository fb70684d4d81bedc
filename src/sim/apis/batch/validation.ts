/**
 * The batch group's validation (pkg/apis/batch/validation/validation.go): Jobs, CronJobs and the
 * job template they share, with upstream's causes and messages, in upstream's order.
 *
 * Not ported: `ValidateGeneratedSelector` (the generated selector needs the Job's uid, which the
 * store assigns after admission; see defaults.ts `prepareJobForCreate`), so a Job whose selector
 * is generated is not required to have one yet; the mutable-template rules of suspended Jobs; the
 * podFailurePolicy rule-shape checks beyond the action and operator.
 */
import type { KubeObject, LabelSelector } from '../../../core/k8s';
import { semanticEqual } from '../../../core/schema/go-diff';
import { goLabelSelector, goQuote, goStringMap } from '../../../core/schema/go-format';
import { nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { isKnownTimeZone, parseCronSchedule } from '../../controllers/cronjob/cron-schedule';
import { FIELD_IMMUTABLE, checkNonNegative, forbidden, invalid, notSupported, objectOf, records, required, str, stringMap, type Errors, type Json } from '../field';
import { isJsonObject } from '../../../common/json';
import { checkLabelSelector, checkObjectMeta, checkObjectMetaUpdate, selectorVerdict } from '../meta/validation';
import { checkPodTemplateSpec } from '../core/validation';

const isSet = (value: unknown): boolean => value !== undefined && value !== null;
/** `apimachineryvalidation.DNS1035LabelMaxLength - 11`: room for the `-<minutes>` Job suffix. */
const CRONJOB_NAME_MAX_LENGTH = 52;
const VALID_TIME_ZONE_CHARACTERS = /^[A-Za-z.\-_0-9+]{1,14}$/;

function checkPodFailurePolicy(policy: Json, field: string, errors: Errors): void {
  const actions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
  records(policy.rules).forEach((rule, index) => {
    const path = `${field}.rules[${index}]`;
    if (!actions.includes(str(rule.action))) errors.push(notSupported(`${path}.action`, goQuote(str(rule.action)), actions));
    if (isJsonObject(rule.onExitCodes)) {
      const operator = str(rule.onExitCodes.operator);
      if (operator !== 'In' && operator !== 'NotIn') errors.push(notSupported(`${path}.onExitCodes.operator`, goQuote(operator), ['In', 'NotIn']));
    }
  });
}

/** `validateJobSpec`: the fields a Job and a CronJob's job template share. */
function checkJobSpecFields(spec: Json, field: string, errors: Errors): void {
  for (const name of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) checkNonNegative(spec[name], `${field}.${name}`, errors);
  const indexed = spec.completionMode === 'Indexed';
  if (isSet(spec.backoffLimitPerIndex)) {
    checkNonNegative(spec.backoffLimitPerIndex, `${field}.backoffLimitPerIndex`, errors);
    if (!indexed) errors.push(forbidden(`${field}.backoffLimitPerIndex`, 'requires indexed completion mode'));
  }
  if (isSet(spec.maxFailedIndexes)) {
    checkNonNegative(spec.maxFailedIndexes, `${field}.maxFailedIndexes`, errors);
    if (!isSet(spec.backoffLimitPerIndex)) errors.push(required(`${field}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
    if (!indexed) errors.push(forbidden(`${field}.maxFailedIndexes`, 'requires indexed completion mode'));
  }
  if (isSet(spec.completionMode)) {
    const mode = str(spec.completionMode);
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errors.push(notSupported(`${field}.completionMode`, goQuote(mode), ['NonIndexed', 'Indexed']));
    if (indexed && !isSet(spec.completions)) errors.push(required(`${field}.completions`, 'when completion mode is Indexed'));
  }
  const template = objectOf(spec.template);
  const restartPolicy = str(objectOf(template.spec).restartPolicy);
  if (isJsonObject(spec.podFailurePolicy)) checkPodFailurePolicy(spec.podFailurePolicy, `${field}.podFailurePolicy`, errors);
  if (isJsonObject(spec.successPolicy) && !indexed) errors.push(invalid(`${field}.completionMode`, goQuote(str(spec.completionMode)), 'requires indexed completion mode'));
  if (isSet(spec.podReplacementPolicy)) {
    const policy = str(spec.podReplacementPolicy);
    if (policy !== 'Failed' && policy !== 'TerminatingOrFailed') errors.push(notSupported(`${field}.podReplacementPolicy`, goQuote(policy), ['Failed', 'TerminatingOrFailed']));
    else if (isJsonObject(spec.podFailurePolicy) && policy !== 'Failed') errors.push(notSupported(`${field}.podReplacementPolicy`, goQuote(policy), ['Failed']));
  }
  checkPodTemplateSpec(template, `${field}.template`, errors);
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errors.push(notSupported(`${field}.template.spec.restartPolicy`, goQuote(restartPolicy), ['OnFailure', 'Never']));
  else if (isJsonObject(spec.podFailurePolicy) && restartPolicy !== 'Never') errors.push(invalid(`${field}.template.spec.restartPolicy`, goQuote(restartPolicy), 'only "Never" is supported when podFailurePolicy is specified'));
}

/** `ValidateJobSpec`: the shared fields, then the selector and its match with the template's labels. */
function checkJobSpec(spec: Json, errors: Errors): void {
  checkJobSpecFields(spec, 'spec', errors);
  const selector = isJsonObject(spec.selector) ? (spec.selector as LabelSelector) : undefined;
  if (!selector) {
    if (spec.manualSelector === true) errors.push(required('spec.selector'));
    return;
  }
  checkLabelSelector(selector, 'spec.selector', errors);
  const labels = stringMap(objectOf(objectOf(spec.template).metadata).labels);
  if (selectorVerdict(selector, labels ?? {}) === 'mismatch') errors.push(invalid('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
}

/** `ValidateJobSpecUpdate`: what may not change once a Job exists. */
function checkJobSpecUpdate(spec: Json, oldSpec: Json, errors: Errors): void {
  if (!semanticEqual(spec.selector, oldSpec.selector)) errors.push(invalid('spec.selector', goLabelSelector(isJsonObject(spec.selector) ? (spec.selector as LabelSelector) : undefined), FIELD_IMMUTABLE));
  for (const name of ['completions', 'completionMode', 'backoffLimitPerIndex']) {
    if (!semanticEqual(spec[name], oldSpec[name]) && !(name === 'completions' && spec.completionMode === 'Indexed' && spec.completions === spec.parallelism && oldSpec.completions === oldSpec.parallelism)) {
      const value = spec[name];
      errors.push(invalid(`spec.${name}`, typeof value === 'string' ? goQuote(value) : String(value ?? 'nil'), FIELD_IMMUTABLE));
    }
  }
  if (!semanticEqual(spec.podFailurePolicy, oldSpec.podFailurePolicy)) errors.push(invalid('spec.podFailurePolicy', '(*batch.PodFailurePolicy)', FIELD_IMMUTABLE));
  if (!semanticEqual(spec.successPolicy, oldSpec.successPolicy)) errors.push(invalid('spec.successPolicy', '(*batch.SuccessPolicy)', FIELD_IMMUTABLE));
  if (!semanticEqual(spec.template, oldSpec.template) && oldSpec.suspend !== true) errors.push(invalid('spec.template', 'core.PodTemplateSpec{…}', FIELD_IMMUTABLE));
}

export function validateJob(object: KubeObject, old: KubeObject | undefined): Errors {
  const errors: Errors = [];
  const spec = objectOf(object.spec);
  if (old) checkObjectMetaUpdate(object, old, errors);
  else checkObjectMeta(object, true, nameIsDNSSubdomain, errors);
  checkJobSpec(spec, errors);
  if (old) checkJobSpecUpdate(spec, objectOf(old.spec), errors);
  return errors;
}

/** `validateScheduleFormat`: robfig's parse error, and the TZ-in-schedule rules. */
function checkSchedule(schedule: string, timeZone: unknown, errors: Errors): void {
  if (schedule.includes('TZ')) {
    errors.push(invalid('spec.schedule', goQuote(schedule), isSet(timeZone) ? 'cannot use both timeZone field and TZ or CRON_TZ in schedule' : 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    return;
  }
  try {
    parseCronSchedule(schedule);
  } catch (error) {
    errors.push(invalid('spec.schedule', goQuote(schedule), error instanceof Error ? error.message : String(error)));
  }
}

/** `validateTimeZone`. */
function checkTimeZone(timeZone: unknown, errors: Errors): void {
  if (!isSet(timeZone)) return;
  const zone = str(timeZone);
  const field = 'spec.timeZone';
  if (zone.length === 0) {
    errors.push(invalid(field, goQuote(zone), 'timeZone must be nil or non-empty string'));
    return;
  }
  for (const part of zone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !VALID_TIME_ZONE_CHARACTERS.test(part)) errors.push(invalid(field, goQuote(zone), `unknown time zone ${zone}`));
  }
  if (zone.toLowerCase() === 'local') errors.push(invalid(field, goQuote(zone), 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  else if (!isKnownTimeZone(zone)) errors.push(invalid(field, goQuote(zone), `unknown time zone ${zone}`));
}

/** `validateCronJobSpec` with `ValidateJobTemplateSpec`. */
function checkCronJobSpec(spec: Json, errors: Errors): void {
  const schedule = str(spec.schedule);
  if (schedule.length === 0) errors.push(required('spec.schedule'));
  else checkSchedule(schedule, spec.timeZone, errors);
  checkNonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds', errors);
  const policy = str(spec.concurrencyPolicy);
  if (policy.length === 0) errors.push(required('spec.concurrencyPolicy'));
  else if (!['Allow', 'Forbid', 'Replace'].includes(policy)) errors.push(notSupported('spec.concurrencyPolicy', goQuote(policy), ['Allow', 'Forbid', 'Replace']));
  const jobTemplateSpec = objectOf(objectOf(spec.jobTemplate).spec);
  checkJobSpecFields(jobTemplateSpec, 'spec.jobTemplate.spec', errors);
  if (jobTemplateSpec.manualSelector === true) errors.push(notSupported('spec.jobTemplate.spec.manualSelector', 'true', ['nil', 'false']));
  checkNonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit', errors);
  checkNonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit', errors);
  checkTimeZone(spec.timeZone, errors);
}

export function validateCronJob(object: KubeObject, old: KubeObject | undefined): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(object, old, errors);
  else {
    checkObjectMeta(object, true, nameIsDNSSubdomain, errors);
    const name = object.metadata?.name ?? '';
    if (name.length > CRONJOB_NAME_MAX_LENGTH) errors.push(invalid('metadata.name', goQuote(name), `must be no more than ${CRONJOB_NAME_MAX_LENGTH} characters`));
  }
  checkCronJobSpec(objectOf(object.spec), errors);
  return errors;
}
