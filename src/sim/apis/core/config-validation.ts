/**
 * Secrets, ResourceQuotas and LimitRanges (pkg/apis/core/validation/validation.go: ValidateSecret,
 * ValidateSecretUpdate, ValidateResourceQuota, ValidateLimitRange). A Secret's values never appear
 * in a cause: only key names, sizes and types do.
 */
import type { KubeObject } from '../../../core/k8s';
import { semanticEqual } from '../../../core/schema/go-diff';
import { goQuote } from '../../../core/schema/go-format';
import { nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { compareQuantities, formatQuantity, parseQuantity, type Quantity } from '../../../core/schema/quantity';
import { decodedLength } from '../../../common/base64';
import { FIELD_IMMUTABLE, IS_NEGATIVE, addInvalid, forbidden, invalid, listOf, objectOf, recordAt, required, str, tooLong, type Errors, type Json } from '../field';
import { checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';
import { STANDARD_RESOURCES, isConfigMapKey } from './validation';

/** `core.MaxSecretSize`. */
const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

/** The keys each built-in Secret type must carry (ValidateSecret's switch). */
function checkSecretType(secret: KubeObject, data: Json, errors: Errors): void {
  const has = (key: string) => Object.prototype.hasOwnProperty.call(data, key);
  switch (str(secret.type)) {
    case 'kubernetes.io/service-account-token':
      if (!secret.metadata?.annotations?.['kubernetes.io/service-account.name']) errors.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      break;
    case 'kubernetes.io/dockercfg':
      if (!has('.dockercfg')) errors.push(required('data[.dockercfg]'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!has('.dockerconfigjson')) errors.push(required('data[.dockerconfigjson]'));
      break;
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) errors.push(required('data[username]'), required('data[password]'));
      break;
    case 'kubernetes.io/ssh-auth':
      if (secretValueLength(data['ssh-privatekey']) === 0) errors.push(required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errors.push(required('data[tls.crt]'));
      if (!has('tls.key')) errors.push(required('data[tls.key]'));
      break;
  }
}

/** Decoded size of a data value; malformed base64 was refused when the body was decoded. */
function secretValueLength(value: unknown): number {
  return decodedLength(str(value)).bytes ?? 0;
}

function checkSecretBody(secret: KubeObject, errors: Errors): void {
  const data = objectOf(secret.data);
  let totalSize = 0;
  for (const key of Object.keys(data)) {
    addInvalid(`data[${key}]`, key, isConfigMapKey(key), errors);
    totalSize += secretValueLength(data[key]);
  }
  if (totalSize > MAX_SECRET_SIZE) errors.push(tooLong('data', MAX_SECRET_SIZE));
  checkSecretType(secret, data, errors);
}

export function validateSecret(secret: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (!old) {
    checkObjectMeta(secret, true, nameIsDNSSubdomain, errors);
    checkSecretBody(secret, errors);
    return errors;
  }
  checkObjectMetaUpdate(secret, old, errors);
  if (str(secret.type) !== str(old.type)) errors.push(invalid('type', goQuote(str(secret.type)), FIELD_IMMUTABLE));
  if (old.immutable === true) {
    if (secret.immutable !== true) errors.push(forbidden('immutable', IMMUTABLE_WHEN_SET));
    if (!semanticEqual(secret.data, old.data)) errors.push(forbidden('data', IMMUTABLE_WHEN_SET));
  }
  checkSecretBody(secret, errors);
  return errors;
}

/**
 * The first problem `decodeCheck` reports for a Secret's data: Go decodes `[]byte` fields from
 * base64 while reading the body, so a plain-text value is a 400 naming only a byte offset.
 */
export function secretDecodeFailure(secret: KubeObject): string | undefined {
  for (const value of Object.values(objectOf(secret.data))) {
    if (typeof value !== 'string') continue;
    const decoded = decodedLength(value);
    if (decoded.error !== undefined) return decoded.error;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// ResourceQuota and LimitRange

/** Resource names whose quota must be a whole number (`helper.IsIntegerResourceName`). */
const INTEGER_RESOURCES = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);
const NANO_PER_UNIT = 1_000_000_000n;

function quantityAt(list: Json, name: string): Quantity | undefined {
  const value = list[name];
  return typeof value === 'string' || typeof value === 'number' ? parseQuantity(value).quantity : undefined;
}

/** ValidateResourceQuotaResourceName and ValidateResourceQuantityValue for one `spec.hard` entry. */
function checkQuotaEntry(name: string, quantity: Quantity | undefined, field: string, errors: Errors): void {
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !name.startsWith('hugepages-') && !name.startsWith('requests.hugepages-')) {
    errors.push(invalid(field, goQuote(name), 'must be a standard resource for quota'));
  }
  if (!quantity) return;
  if (quantity.nano < 0n) errors.push(invalid(field, goQuote(formatQuantity(quantity)), IS_NEGATIVE));
  const integer = INTEGER_RESOURCES.has(name) || name.startsWith('count/');
  // MilliValue() % 1000: a fraction of a unit, rounded up to milli-units.
  if (integer && ((quantity.nano + 999_999n) / 1_000_000n) % 1000n !== 0n) errors.push(invalid(field, goQuote(formatQuantity(quantity)), 'must be an integer'));
}

export function validateResourceQuota(quota: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(quota, old, errors);
  else checkObjectMeta(quota, true, nameIsDNSSubdomain, errors);
  const hard = objectOf(objectOf(quota.spec).hard);
  for (const name of Object.keys(hard)) checkQuotaEntry(name, quantityAt(hard, name), `spec.hard[${name}]`, errors);
  return errors;
}

const LIMIT_TYPES = ['Container', 'Pod', 'PersistentVolumeClaim'];
const LIMIT_BOUNDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

/** The ordering checks of ValidateLimitRange for one resource of one item. */
function checkLimitOrdering(item: Json, name: string, path: string, errors: Errors): void {
  const [max, min, defaultLimit, defaultRequest, ratio] = LIMIT_BOUNDS.map((bound) => quantityAt(objectOf(item[bound]), name));
  const text = (quantity: Quantity) => formatQuantity(quantity);
  const at = (bound: string) => `${path}.${bound}[${name}]`;
  if (min && max && compareQuantities(min, max) > 0) errors.push(invalid(at('min'), goQuote(text(min)), `min value ${text(min)} is greater than max value ${text(max)}`));
  if (defaultRequest && min && compareQuantities(min, defaultRequest) > 0) {
    errors.push(invalid(at('defaultRequest'), goQuote(text(defaultRequest)), `min value ${text(min)} is greater than default request value ${text(defaultRequest)}`));
  }
  if (defaultRequest && max && compareQuantities(defaultRequest, max) > 0) {
    errors.push(invalid(at('defaultRequest'), goQuote(text(defaultRequest)), `default request value ${text(defaultRequest)} is greater than max value ${text(max)}`));
  }
  if (defaultRequest && defaultLimit && compareQuantities(defaultRequest, defaultLimit) > 0) {
    errors.push(invalid(at('defaultRequest'), goQuote(text(defaultRequest)), `default request value ${text(defaultRequest)} is greater than default limit value ${text(defaultLimit)}`));
  }
  if (defaultLimit && min && compareQuantities(min, defaultLimit) > 0) errors.push(invalid(at('default'), goQuote(text(min)), `min value ${text(min)} is greater than default value ${text(defaultLimit)}`));
  if (defaultLimit && max && compareQuantities(defaultLimit, max) > 0) errors.push(invalid(at('default'), goQuote(text(max)), `default value ${text(defaultLimit)} is greater than max value ${text(max)}`));
  if (ratio && ratio.nano < NANO_PER_UNIT) errors.push(invalid(at('maxLimitRequestRatio'), goQuote(text(ratio)), `ratio ${text(ratio)} is less than 1`));
}

export function validateLimitRange(range: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(range, old, errors);
  else checkObjectMeta(range, true, nameIsDNSSubdomain, errors);
  const limits = listOf(objectOf(range.spec).limits);
  for (let i = 0; i < limits.length; i++) {
    const item = recordAt(limits, i);
    const path = `spec.limits[${i}]`;
    const type = str(item.type);
    if (!type.includes('/') && !LIMIT_TYPES.includes(type)) errors.push(invalid(`${path}.type`, goQuote(type), 'must be a standard limit type or fully qualified'));
    if (type === 'Pod') {
      if (Object.keys(objectOf(item.default)).length > 0) errors.push(forbidden(`${path}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(objectOf(item.defaultRequest)).length > 0) errors.push(forbidden(`${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    }
    const names = new Set(LIMIT_BOUNDS.flatMap((bound) => Object.keys(objectOf(item[bound]))));
    for (const name of names) checkLimitOrdering(item, name, path, errors);
  }
  return errors;
}
