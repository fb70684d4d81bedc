/**
 * kube-apiserver's validation of the served kinds (pkg/apis/core/validation,
 * pkg/apis/apps/validation, k8s.io/apimachinery validation, Kubernetes 1.30), with the exact
 * causes and messages a client receives: `validate` lists the causes, `validationError` turns
 * them into the 422 `Invalid` status, `decodeCheck` is the 400 a malformed body gets before that.
 * Checks run in upstream's order, since a multi-cause message lists them in that order.
 */
import type { KubeObject, LabelSelector, ResourceKind, StatusCause } from '../../core/k8s';
import { decodeFailureMessage, inspectDecoding, strictDecodingMessage } from '../../core/schema/fields';
import { podSpecDiff, semanticEqual } from '../../core/schema/go-diff';
import { goIntOrString, goLabelSelector, goQuote, goScalar, goStringMap } from '../../core/schema/go-format';
import {
  inclusiveRangeError,
  isDNS1123Label,
  isQualifiedName,
  isValidLabelValue,
  maxLenError,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  regexError,
} from '../../core/schema/name-rules';
import { compareQuantities, formatQuantity, parseQuantity } from '../../core/schema/quantity';
import { applyDefaults } from './defaults';
import { ApiError } from './types';

export type CauseReason =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError';

/** A field error as field.Error holds it: `message` is ErrorBody(), without the field path. */
export interface FieldCause extends StatusCause {
  reason: CauseReason;
  message: string;
  field: string;
}

type Json = Record<string, unknown>;
type Errors = FieldCause[];

// ---------------------------------------------------------------------------------------------
// field.Error constructors. Bad values arrive already printed the Go way (see go-format.ts).

const IS_NEGATIVE = 'must be greater than or equal to 0';
const FIELD_IMMUTABLE = 'field is immutable';

function withDetail(body: string, detail: string): string {
  return detail ? `${body}: ${detail}` : body;
}

const required = (field: string, detail = ''): FieldCause => ({ reason: 'FieldValueRequired', field, message: withDetail('Required value', detail) });
const forbidden = (field: string, detail: string): FieldCause => ({ reason: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) });
const invalid = (field: string, value: string, detail: string): FieldCause => ({ reason: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${value}`, detail) });
const duplicate = (field: string, value: string, detail = ''): FieldCause => ({ reason: 'FieldValueDuplicate', field, message: withDetail(`Duplicate value: ${value}`, detail) });
const notFound = (field: string, value: string): FieldCause => ({ reason: 'FieldValueNotFound', field, message: `Not found: ${value}` });
const tooLong = (field: string, maxLength: number): FieldCause => ({ reason: 'FieldValueTooLong', field, message: `Too long: must have at most ${maxLength} bytes` });

function notSupported(field: string, value: string, validValues: readonly string[]): FieldCause {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(', ')}` : '';
  return { reason: 'FieldValueNotSupported', field, message: withDetail(`Unsupported value: ${value}`, detail) };
}

function nonNegative(value: unknown, field: string): Errors {
  return typeof value === 'number' && value < 0 ? [invalid(field, String(value), IS_NEGATIVE)] : [];
}

// ---------------------------------------------------------------------------------------------
// Small readers over untyped JSON.

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.map((item) => (isRecord(item) ? item : {})) : []);
const stringMap = (value: unknown): Record<string, string> | undefined => (isRecord(value) ? (value as Record<string, string>) : undefined);
const objectOf = (value: unknown): Json => (isRecord(value) ? value : {});

// ---------------------------------------------------------------------------------------------
// ObjectMeta (k8s.io/apimachinery/pkg/api/validation/objectmeta.go)

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

type NameRule = (name: string, prefix: boolean) => string[];

export function validateLabels(labels: Record<string, string> | undefined, field: string): Errors {
  const errors: Errors = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const message of isQualifiedName(key)) errors.push(invalid(field, goQuote(key), message));
    for (const message of isValidLabelValue(str(value))) errors.push(invalid(field, goQuote(str(value)), message));
  }
  return errors;
}

function validateAnnotations(annotations: Record<string, string> | undefined, field: string): Errors {
  const errors: Errors = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    // The rule is QualifiedName except that case does not matter.
    for (const message of isQualifiedName(key.toLowerCase())) errors.push(invalid(field, goQuote(key), message));
    size += key.length + str(value).length;
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errors.push(tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errors;
}

function validateOwnerReferences(references: unknown, field: string): Errors {
  const errors: Errors = [];
  for (const reference of records(references)) {
    const apiVersion = str(reference.apiVersion);
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (!version) errors.push(invalid(`${field}.apiVersion`, goQuote(apiVersion), 'version must not be empty'));
    if (!str(reference.kind)) errors.push(invalid(`${field}.kind`, goQuote(''), 'must not be empty'));
    if (!str(reference.name)) errors.push(invalid(`${field}.name`, goQuote(''), 'must not be empty'));
    if (!str(reference.uid)) errors.push(invalid(`${field}.uid`, goQuote(''), 'must not be empty'));
  }
  return errors;
}

function validateMetaCommon(meta: Json, namespaced: boolean): Errors {
  const errors: Errors = [];
  if (namespaced) {
    const namespace = str(meta.namespace);
    if (!namespace) errors.push(required('metadata.namespace'));
    else for (const message of nameIsDNSLabel(namespace, false)) errors.push(invalid('metadata.namespace', goQuote(namespace), message));
  } else if (str(meta.namespace)) {
    errors.push(forbidden('metadata.namespace', 'not allowed on this type'));
  }
  errors.push(...nonNegative(meta.generation, 'metadata.generation'));
  errors.push(...validateLabels(stringMap(meta.labels), 'metadata.labels'));
  errors.push(...validateAnnotations(stringMap(meta.annotations), 'metadata.annotations'));
  errors.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  for (const finalizer of Array.isArray(meta.finalizers) ? meta.finalizers : []) {
    for (const message of isQualifiedName(str(finalizer))) errors.push(invalid('metadata.finalizers', goQuote(str(finalizer)), message));
  }
  return errors;
}

/** ValidateObjectMeta on create (the name has been generated already when generateName was used). */
function validateObjectMeta(object: KubeObject, namespaced: boolean, nameRule: NameRule): Errors {
  const meta = objectOf(object.metadata);
  const errors: Errors = [];
  const generateName = str(meta.generateName);
  if (generateName) for (const message of nameRule(generateName, true)) errors.push(invalid('metadata.generateName', goQuote(generateName), message));
  const name = str(meta.name);
  if (!name) errors.push(required('metadata.name', 'name or generateName is required'));
  else for (const message of nameRule(name, false)) errors.push(invalid('metadata.name', goQuote(name), message));
  errors.push(...validateMetaCommon(meta, namespaced));
  return errors;
}

/** ValidateObjectMetaUpdate: identity fields are immutable, the rest is validated again. */
function validateObjectMetaUpdate(object: KubeObject, old: KubeObject): Errors {
  const meta = objectOf(object.metadata);
  const oldMeta = objectOf(old.metadata);
  const errors: Errors = [];
  if (typeof meta.generation === 'number' && typeof oldMeta.generation === 'number' && meta.generation < oldMeta.generation) {
    errors.push(invalid('metadata.generation', String(meta.generation), 'must not be decremented'));
  }
  for (const key of ['name', 'namespace', 'uid', 'creationTimestamp']) {
    if (str(meta[key]) !== str(oldMeta[key])) errors.push(invalid(`metadata.${key}`, goQuote(str(meta[key])), FIELD_IMMUTABLE));
  }
  errors.push(...validateLabels(stringMap(meta.labels), 'metadata.labels'));
  errors.push(...validateAnnotations(stringMap(meta.annotations), 'metadata.annotations'));
  errors.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  for (const finalizer of Array.isArray(meta.finalizers) ? meta.finalizers : []) {
    for (const message of isQualifiedName(str(finalizer))) errors.push(invalid('metadata.finalizers', goQuote(str(finalizer)), message));
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Label selectors (k8s.io/apimachinery/pkg/apis/meta/v1/validation)

function validateLabelSelector(selector: LabelSelector, field: string): Errors {
  const errors = validateLabels(selector.matchLabels, `${field}.matchLabels`);
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
    for (const message of isQualifiedName(str(requirement.key))) errors.push(invalid(`${path}.key`, goQuote(str(requirement.key)), message));
    values.forEach((value, valueIndex) => {
      for (const message of isValidLabelValue(str(value))) errors.push(invalid(`${path}.values[${valueIndex}]`, goQuote(str(value)), message));
    });
  });
  return errors;
}

/**
 * LabelSelectorAsSelector(...).Matches(labels). A missing selector is labels.Nothing() (matches
 * nothing, not empty); `{}` is labels.Everything() (empty: the template check is skipped).
 */
function selectorVerdict(selector: LabelSelector | undefined, labels: Record<string, string>): 'empty' | 'matches' | 'mismatch' {
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

// ---------------------------------------------------------------------------------------------
// Pod spec (pkg/apis/core/validation/validation.go)

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral',
];
const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME = new RegExp(`^${ENV_VAR_NAME_FMT}$`);
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'requests.storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers',
]);

function validateDNS1123Label(value: string, field: string): Errors {
  return isDNS1123Label(value).map((message) => invalid(field, goQuote(value), message));
}

function validatePortNumber(value: unknown, field: string): Errors {
  const port = typeof value === 'number' ? value : Number(value);
  return port >= 1 && port <= 65535 ? [] : [invalid(field, goScalar(value as number), inclusiveRangeError(1, 65535))];
}

function isValidPortName(port: string): string[] {
  const errors: string[] = [];
  if (port.length > 15) errors.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errors.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errors.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errors.push('must not begin or end with a hyphen');
  return errors;
}

function validateContainerPorts(ports: unknown, field: string): Errors {
  const errors: Errors = [];
  const names = new Set<string>();
  records(ports).forEach((port, index) => {
    const path = `${field}[${index}]`;
    const name = str(port.name);
    if (name) {
      const messages = isValidPortName(name);
      if (messages.length > 0) for (const message of messages) errors.push(invalid(`${path}.name`, goQuote(name), message));
      else if (names.has(name)) errors.push(duplicate(`${path}.name`, goQuote(name)));
      else names.add(name);
    }
    if (!port.containerPort) errors.push(required(`${path}.containerPort`));
    else errors.push(...validatePortNumber(port.containerPort, `${path}.containerPort`));
    if (port.hostPort) errors.push(...validatePortNumber(port.hostPort, `${path}.hostPort`));
    const protocol = str(port.protocol);
    if (!protocol) errors.push(required(`${path}.protocol`));
    else if (!PORT_PROTOCOLS.includes(protocol)) errors.push(notSupported(`${path}.protocol`, goQuote(protocol), PORT_PROTOCOLS));
  });
  return errors;
}

function validateEnv(env: unknown, field: string): Errors {
  const errors: Errors = [];
  records(env).forEach((variable, index) => {
    const path = `${field}[${index}]`;
    const name = str(variable.name);
    if (!name) errors.push(required(`${path}.name`));
    else {
      if (!ENV_VAR_NAME.test(name)) {
        errors.push(invalid(`${path}.name`, goQuote(name), regexError("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit", ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1')));
      }
      if (name === '.') errors.push(invalid(`${path}.name`, goQuote(name), "must not be '.'"));
      else if (name === '..') errors.push(invalid(`${path}.name`, goQuote(name), "must not be '..'"));
      else if (name.startsWith('..')) errors.push(invalid(`${path}.name`, goQuote(name), "must not start with '..'"));
    }
    if (variable.valueFrom !== undefined && variable.valueFrom !== null && str(variable.value) !== '') {
      errors.push(invalid(`${path}.valueFrom`, goQuote(''), 'may not be specified when `value` is not empty'));
    }
  });
  return errors;
}

function validateVolumeMounts(mounts: unknown, volumeNames: Set<string>, field: string): Errors {
  const errors: Errors = [];
  const mountPaths = new Set<string>();
  records(mounts).forEach((mount, index) => {
    const path = `${field}[${index}]`;
    const name = str(mount.name);
    if (!name) errors.push(required(`${path}.name`));
    if (!volumeNames.has(name)) errors.push(notFound(`${path}.name`, goQuote(name)));
    const mountPath = str(mount.mountPath);
    if (!mountPath) errors.push(required(`${path}.mountPath`));
    if (mountPaths.has(mountPath)) errors.push(invalid(`${path}.mountPath`, goQuote(mountPath), 'must be unique'));
    mountPaths.add(mountPath);
  });
  return errors;
}

/** Native resources (no domain, or a kubernetes.io domain) other than hugepages may be overcommitted. */
function isOvercommitAllowed(resource: string): boolean {
  const native = !resource.includes('/') || resource.includes('kubernetes.io/');
  return native && !resource.startsWith('hugepages-');
}

function validateContainerResourceName(name: string, field: string): Errors {
  const errors: Errors = isQualifiedName(name).map((message) => invalid(field, goQuote(name), message));
  if (errors.length > 0) return errors;
  if (!name.includes('/')) {
    if (!STANDARD_RESOURCES.has(name) && !name.startsWith('hugepages-') && !name.startsWith('requests.hugepages-')) {
      errors.push(invalid(field, goQuote(name), 'must be a standard resource type or fully qualified'));
    }
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')) errors.push(invalid(field, goQuote(name), 'must be a standard resource for containers'));
  } else if (!name.includes('kubernetes.io/') && name.startsWith('requests.')) {
    errors.push(invalid(field, goQuote(name), "doesn't follow extended resource name standard"));
  }
  return errors;
}

/** ValidateResourceRequirements: names, non-negative quantities, requests ≤ limits. */
function validateResources(resources: Json, field: string): Errors {
  const errors: Errors = [];
  const limits = objectOf(resources.limits);
  const requests = objectOf(resources.requests);
  const quantityOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? parseQuantity(value).quantity : undefined);
  for (const [name, value] of Object.entries(limits)) {
    const path = `${field}.limits[${name}]`;
    errors.push(...validateContainerResourceName(name, path));
    const quantity = quantityOf(value);
    if (quantity && quantity.nano < 0n) errors.push(invalid(path, goQuote(formatQuantity(quantity)), IS_NEGATIVE));
  }
  for (const [name, value] of Object.entries(requests)) {
    const path = `${field}.requests[${name}]`;
    errors.push(...validateContainerResourceName(name, path));
    const quantity = quantityOf(value);
    if (!quantity) continue;
    if (quantity.nano < 0n) errors.push(invalid(path, goQuote(formatQuantity(quantity)), IS_NEGATIVE));
    const limit = limits[name] === undefined ? undefined : quantityOf(limits[name]);
    if (limit) {
      const comparison = compareQuantities(quantity, limit);
      if (comparison !== 0 && !isOvercommitAllowed(name)) {
        errors.push(invalid(`${field}.requests`, goQuote(formatQuantity(quantity)), `must be equal to ${name} limit of ${formatQuantity(limit)}`));
      } else if (comparison > 0) {
        errors.push(invalid(`${field}.requests`, goQuote(formatQuantity(quantity)), `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errors.push(required(`${field}.limits`, 'Limit must be set for non overcommitable resources'));
    }
  }
  return errors;
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];

function validatePortNumOrName(port: unknown, field: string): Errors {
  if (typeof port === 'number') return validatePortNumber(port, field);
  const name = str(port);
  if (!name) return [required(field)];
  return isValidPortName(name).map((message) => invalid(field, goQuote(name), message));
}

function validateProbe(probe: unknown, field: string, kind: 'liveness' | 'readiness' | 'startup'): Errors {
  if (!isRecord(probe)) return [];
  const errors: Errors = [];
  const handlers = PROBE_HANDLERS.filter((handler) => probe[handler] !== undefined && probe[handler] !== null);
  if (handlers.length === 0) errors.push(required(field, 'must specify a handler type'));
  for (const extra of handlers.slice(1)) errors.push(forbidden(`${field}.${extra}`, 'may not specify more than 1 handler type'));
  if (isRecord(probe.httpGet)) errors.push(...validatePortNumOrName(probe.httpGet.port, `${field}.httpGet.port`));
  if (isRecord(probe.tcpSocket)) errors.push(...validatePortNumOrName(probe.tcpSocket.port, `${field}.tcpSocket.port`));
  for (const key of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errors.push(...nonNegative(probe[key], `${field}.${key}`));
  }
  if (typeof probe.terminationGracePeriodSeconds === 'number' && probe.terminationGracePeriodSeconds <= 0) {
    errors.push(invalid(`${field}.terminationGracePeriodSeconds`, String(probe.terminationGracePeriodSeconds), 'must be greater than 0'));
  }
  if (kind !== 'readiness' && probe.successThreshold !== 1) errors.push(invalid(`${field}.successThreshold`, goScalar(probe.successThreshold as number), 'must be 1'));
  if (kind === 'readiness' && probe.terminationGracePeriodSeconds !== undefined) errors.push(invalid(`${field}.terminationGracePeriodSeconds`, goScalar(probe.terminationGracePeriodSeconds as number), 'must not be set for readinessProbes'));
  return errors;
}

/** validateContainerCommon: what every regular and init container must satisfy. */
function validateContainerCommon(container: Json, volumeNames: Set<string>, path: string): Errors {
  const errors: Errors = [];
  const name = str(container.name);
  if (!name) errors.push(required(`${path}.name`));
  else errors.push(...validateDNS1123Label(name, `${path}.name`));
  if (!str(container.image)) errors.push(required(`${path}.image`));
  const messagePolicy = str(container.terminationMessagePolicy);
  if (!messagePolicy) errors.push(required(`${path}.terminationMessagePolicy`));
  else if (messagePolicy !== 'File' && messagePolicy !== 'FallbackToLogsOnError') {
    errors.push(notSupported(`${path}.terminationMessagePolicy`, goQuote(messagePolicy), ['File', 'FallbackToLogsOnError']));
  }
  errors.push(...validateContainerPorts(container.ports, `${path}.ports`));
  errors.push(...validateEnv(container.env, `${path}.env`));
  errors.push(...validateVolumeMounts(container.volumeMounts, volumeNames, `${path}.volumeMounts`));
  const pullPolicy = str(container.imagePullPolicy);
  if (!pullPolicy) errors.push(required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pullPolicy)) errors.push(notSupported(`${path}.imagePullPolicy`, goQuote(pullPolicy), PULL_POLICIES));
  errors.push(...validateResources(objectOf(container.resources), `${path}.resources`));
  return errors;
}

function validateVolumes(volumes: unknown, field: string): { errors: Errors; names: Set<string> } {
  const errors: Errors = [];
  const names = new Set<string>();
  records(volumes).forEach((volume, index) => {
    const path = `${field}[${index}]`;
    const sources = VOLUME_SOURCES.filter((source) => volume[source] !== undefined && volume[source] !== null);
    if (sources.length === 0) errors.push(required(path, 'must specify a volume type'));
    for (const extra of sources.slice(1)) errors.push(forbidden(`${path}.${extra}`, 'may not specify more than 1 volume type'));
    const name = str(volume.name);
    if (!name) errors.push(required(`${path}.name`));
    else errors.push(...validateDNS1123Label(name, `${path}.name`));
    if (names.has(name)) errors.push(duplicate(`${path}.name`, goQuote(name)));
    else names.add(name);
  });
  return { errors, names };
}

function goToleration(toleration: Json): string {
  const seconds = typeof toleration.tolerationSeconds === 'number' ? `(*int64)(${toleration.tolerationSeconds})` : '(*int64)(nil)';
  return `core.Toleration{Key:${goQuote(str(toleration.key))}, Operator:${goQuote(str(toleration.operator))}, Value:${goQuote(str(toleration.value))}, Effect:${goQuote(str(toleration.effect))}, TolerationSeconds:${seconds}}`;
}

function validateTaintEffect(effect: string, allowEmpty: boolean, field: string): Errors {
  if (!allowEmpty && !effect) return [required(field)];
  return TAINT_EFFECTS.includes(effect) ? [] : [notSupported(field, goQuote(effect), TAINT_EFFECTS)];
}

export function validateTolerations(tolerations: unknown, field: string): Errors {
  const errors: Errors = [];
  records(tolerations).forEach((toleration, index) => {
    const path = `${field}[${index}]`;
    const key = str(toleration.key);
    const operator = str(toleration.operator);
    const effect = str(toleration.effect);
    if (key) errors.push(...isQualifiedName(key).map((message) => invalid(`${path}.key`, goQuote(key), message)));
    if (!key && operator !== 'Exists') errors.push(invalid(`${path}.operator`, goQuote(operator), 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (toleration.tolerationSeconds !== undefined && toleration.tolerationSeconds !== null && effect !== 'NoExecute') {
      errors.push(invalid(`${path}.effect`, goQuote(effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const messages = isValidLabelValue(str(toleration.value));
      if (messages.length > 0) errors.push(invalid(`${path}.operator`, goQuote(str(toleration.value)), messages.join(';')));
    } else if (operator === 'Exists') {
      if (str(toleration.value)) errors.push(invalid(`${path}.operator`, goToleration(toleration), "value must be empty when `operator` is 'Exists'"));
    } else {
      errors.push(notSupported(`${path}.operator`, goQuote(operator), ['Equal', 'Exists']));
    }
    if (effect) errors.push(...validateTaintEffect(effect, true, `${path}.effect`));
  });
  return errors;
}

/** ValidatePodSpec, in upstream's order. */
function validatePodSpec(spec: Json, field: string): Errors {
  const { errors, names: volumeNames } = validateVolumes(spec.volumes, `${field}.volumes`);
  const containers = records(spec.containers);
  const containerNames = new Set<string>();
  if (containers.length === 0) errors.push(required(`${field}.containers`));
  containers.forEach((container, index) => {
    const path = `${field}.containers[${index}]`;
    errors.push(...validateContainerCommon(container, volumeNames, path));
    const name = str(container.name);
    if (containerNames.has(name)) errors.push(duplicate(`${path}.name`, goQuote(name)));
    else containerNames.add(name);
    errors.push(...validateProbe(container.livenessProbe, `${path}.livenessProbe`, 'liveness'));
    errors.push(...validateProbe(container.readinessProbe, `${path}.readinessProbe`, 'readiness'));
    errors.push(...validateProbe(container.startupProbe, `${path}.startupProbe`, 'startup'));
    if (container.restartPolicy !== undefined && container.restartPolicy !== null) errors.push(forbidden(`${path}.restartPolicy`, 'may not be set for non-init containers'));
  });
  records(spec.initContainers).forEach((container, index) => {
    const path = `${field}.initContainers[${index}]`;
    errors.push(...validateContainerCommon(container, volumeNames, path));
    const name = str(container.name);
    if (containerNames.has(name)) errors.push(duplicate(`${path}.name`, goQuote(name)));
    else containerNames.add(name);
  });
  const restartPolicy = str(spec.restartPolicy);
  if (!restartPolicy) errors.push(required(`${field}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(restartPolicy)) errors.push(notSupported(`${field}.restartPolicy`, goQuote(restartPolicy), RESTART_POLICIES));
  const dnsPolicy = str(spec.dnsPolicy);
  if (!dnsPolicy) errors.push(required(`${field}.dnsPolicy`));
  else if (!DNS_POLICIES.includes(dnsPolicy)) errors.push(notSupported(`${field}.dnsPolicy`, goQuote(dnsPolicy), DNS_POLICIES));
  errors.push(...validateLabels(stringMap(spec.nodeSelector), `${field}.nodeSelector`));
  const serviceAccountName = str(spec.serviceAccountName);
  if (serviceAccountName) for (const message of nameIsDNSSubdomain(serviceAccountName, false)) errors.push(invalid(`${field}.serviceAccountName`, goQuote(serviceAccountName), message));
  const nodeName = str(spec.nodeName);
  if (nodeName) for (const message of nameIsDNSSubdomain(nodeName, false)) errors.push(invalid(`${field}.nodeName`, goQuote(nodeName), message));
  if (typeof spec.activeDeadlineSeconds === 'number' && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > 2147483647)) {
    errors.push(invalid(`${field}.activeDeadlineSeconds`, String(spec.activeDeadlineSeconds), inclusiveRangeError(1, 2147483647)));
  }
  errors.push(...validateTolerations(spec.tolerations, `${field}.tolerations`));
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== 'PreemptLowerPriority' && spec.preemptionPolicy !== 'Never') {
    errors.push(notSupported(`${field}.preemptionPolicy`, goQuote(str(spec.preemptionPolicy)), ['PreemptLowerPriority', 'Never']));
  }
  return errors;
}

/** ValidatePodTemplateSpec: the template's labels and annotations, then its pod spec. */
function validatePodTemplateSpec(template: Json, field: string): Errors {
  const meta = objectOf(template.metadata);
  return [
    ...validateLabels(stringMap(meta.labels), `${field}.labels`),
    ...validateAnnotations(stringMap(meta.annotations), `${field}.annotations`),
    ...validatePodSpec(objectOf(template.spec), `${field}.spec`),
  ];
}

// ---------------------------------------------------------------------------------------------
// Pods

function validatePodCreate(pod: KubeObject): Errors {
  const spec = objectOf(pod.spec);
  const errors = [...validateObjectMeta(pod, true, nameIsDNSSubdomain), ...validatePodSpec(spec, 'spec')];
  // Only pods, not templates, reject images with surrounding whitespace (backwards compatibility).
  for (const key of ['containers', 'initContainers']) {
    records(spec[key]).forEach((container, index) => {
      const image = str(container.image);
      if (image !== image.trim()) errors.push(invalid(`spec.${key}[${index}].image`, goQuote(image), 'must not have leading or trailing whitespace'));
    });
  }
  if (records(spec.ephemeralContainers).length > 0) errors.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (str(spec.nodeName) && records(spec.schedulingGates).length > 0) errors.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  return errors;
}

const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** ValidateContainerUpdates: same count, every image still set. Returns whether to stop. */
function validateContainerUpdates(containers: Json[], oldContainers: Json[], field: string, errors: Errors): boolean {
  if (containers.length !== oldContainers.length) {
    errors.push(forbidden(field, 'pod updates may not add or remove containers'));
    return true;
  }
  containers.forEach((container, index) => {
    const image = str(container.image);
    if (!image) errors.push(required(`${field}[${index}].image`));
    if (image.trim() !== image) errors.push(invalid(`${field}[${index}].image`, goQuote(image), 'must not have leading or trailing whitespace'));
  });
  return false;
}

function validateOnlyAddedTolerations(tolerations: Json[], oldTolerations: Json[], field: string): Errors {
  for (const old of oldTolerations) {
    const kept = tolerations.some((toleration) => semanticEqual({ ...old, tolerationSeconds: toleration.tolerationSeconds }, toleration));
    if (!kept) return [forbidden(field, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(tolerations, field);
}

function validatePodUpdate(pod: KubeObject, old: KubeObject): Errors {
  const errors = [...validateObjectMetaUpdate(pod, old), ...validatePodSpec(objectOf(pod.spec), 'spec')];
  const spec = objectOf(pod.spec);
  const oldSpec = objectOf(old.spec);
  const containers = records(spec.containers);
  const oldContainers = records(oldSpec.containers);
  const initContainers = records(spec.initContainers);
  const oldInitContainers = records(oldSpec.initContainers);
  if (validateContainerUpdates(containers, oldContainers, 'spec.containers', errors)) return errors;
  if (validateContainerUpdates(initContainers, oldInitContainers, 'spec.initContainers', errors)) return errors;
  if (typeof spec.activeDeadlineSeconds === 'number') {
    if (spec.activeDeadlineSeconds < 0 || spec.activeDeadlineSeconds > 2147483647) {
      errors.push(invalid('spec.activeDeadlineSeconds', String(spec.activeDeadlineSeconds), inclusiveRangeError(0, 2147483647)));
      return errors;
    }
    if (typeof oldSpec.activeDeadlineSeconds === 'number' && oldSpec.activeDeadlineSeconds < spec.activeDeadlineSeconds) {
      errors.push(invalid('spec.activeDeadlineSeconds', String(spec.activeDeadlineSeconds), 'must be less than or equal to previous value'));
      return errors;
    }
  } else if (typeof oldSpec.activeDeadlineSeconds === 'number') {
    errors.push(invalid('spec.activeDeadlineSeconds', 'null', 'must not update from a positive integer to nil value'));
  }
  errors.push(...validateOnlyAddedTolerations(records(spec.tolerations), records(oldSpec.tolerations), 'spec.tolerations'));
  if (semanticEqual(spec, oldSpec)) return errors;
  // Take over the fields that may change, then anything still different is forbidden.
  const munged: Json = {
    ...spec,
    containers: containers.map((container, index) => ({ ...container, image: oldContainers[index].image })),
    initContainers: spec.initContainers === undefined ? undefined : initContainers.map((container, index) => ({ ...container, image: oldInitContainers[index].image })),
    activeDeadlineSeconds: oldSpec.activeDeadlineSeconds,
    tolerations: oldSpec.tolerations,
    schedulingGates: oldSpec.schedulingGates,
    // The deprecated serviceAccount field does not exist in the internal PodSpec that is compared.
    serviceAccount: oldSpec.serviceAccount,
  };
  if (typeof oldSpec.terminationGracePeriodSeconds === 'number' && oldSpec.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
  }
  if (!semanticEqual(munged, oldSpec)) {
    errors.push(forbidden('spec', `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}\n${podSpecDiff(oldSpec, munged)}`));
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Deployments and ReplicaSets (pkg/apis/apps/validation/validation.go)

const PERCENT_FMT = '[0-9]+%';

function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  const text = str(value);
  if (/^[0-9]+%$/.test(text)) return Number(text.slice(0, -1));
  return /^-?\d+$/.test(text) ? Number(text) : 0;
}

function validatePositiveIntOrPercent(value: unknown, field: string): Errors {
  if (typeof value === 'number') return nonNegative(value, field);
  if (typeof value !== 'string') return [];
  if (/^[0-9]+%$/.test(value)) return [];
  return [invalid(field, goIntOrString(value), regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%'))];
}

function validateDeploymentStrategy(strategy: Json, field: string): Errors {
  const type = str(strategy.type);
  const rollingUpdate = strategy.rollingUpdate;
  if (type === 'Recreate') {
    return rollingUpdate !== undefined && rollingUpdate !== null ? [forbidden(`${field}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
  }
  if (type === 'RollingUpdate') {
    if (!isRecord(rollingUpdate)) return [required(`${field}.rollingUpdate`, 'this should be defaulted and never be nil')];
    const path = `${field}.rollingUpdate`;
    const errors = [...validatePositiveIntOrPercent(rollingUpdate.maxUnavailable, `${path}.maxUnavailable`), ...validatePositiveIntOrPercent(rollingUpdate.maxSurge, `${path}.maxSurge`)];
    const goMaxUnavailable = goIntOrString(rollingUpdate.maxUnavailable as number | string);
    if (intOrPercentValue(rollingUpdate.maxUnavailable) === 0 && intOrPercentValue(rollingUpdate.maxSurge) === 0) {
      errors.push(invalid(`${path}.maxUnavailable`, goMaxUnavailable, 'may not be 0 when `maxSurge` is 0'));
    }
    if (typeof rollingUpdate.maxUnavailable === 'string' && /^[0-9]+%$/.test(rollingUpdate.maxUnavailable) && intOrPercentValue(rollingUpdate.maxUnavailable) > 100) {
      errors.push(invalid(`${path}.maxUnavailable`, goMaxUnavailable, 'must not be greater than 100%'));
    }
    return errors;
  }
  const rollingUpdateValue = isRecord(rollingUpdate) ? '(*apps.RollingUpdateDeployment)(0xc000a1b2c0)' : '(*apps.RollingUpdateDeployment)(nil)';
  return [notSupported(field, `apps.DeploymentStrategy{Type:${goQuote(type)}, RollingUpdate:${rollingUpdateValue}}`, ['Recreate', 'RollingUpdate'])];
}

/** ValidatePodTemplateSpecForReplicaSet: selector ↔ labels, the template, restartPolicy Always. */
function validateTemplateForReplicaSet(spec: Json, field: string): Errors {
  const errors: Errors = [];
  const template = spec.template;
  if (!isRecord(template)) return [required(field)];
  const labels = stringMap(objectOf(template.metadata).labels);
  const selector = isRecord(spec.selector) ? (spec.selector as LabelSelector) : undefined;
  if (selectorVerdict(selector, labels ?? {}) === 'mismatch') {
    errors.push(invalid(`${field}.metadata.labels`, goStringMap(labels), '`selector` does not match template `labels`'));
  }
  errors.push(...validatePodTemplateSpec(template, field));
  const podSpec = objectOf(template.spec);
  const restartPolicy = str(podSpec.restartPolicy);
  if (restartPolicy !== 'Always') errors.push(notSupported(`${field}.spec.restartPolicy`, goQuote(restartPolicy), ['Always']));
  if (typeof podSpec.activeDeadlineSeconds === 'number') {
    errors.push(invalid(`${field}.spec.activeDeadlineSeconds`, String(podSpec.activeDeadlineSeconds), 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errors;
}

function validateWorkloadSelector(spec: Json): Errors {
  if (!isRecord(spec.selector)) return [required('spec.selector')];
  const selector = spec.selector as LabelSelector;
  const errors = validateLabelSelector(selector, 'spec.selector');
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errors.push(invalid('spec.selector', goLabelSelector(selector), 'empty selector is invalid for deployment'));
  }
  return errors;
}

function validateDeploymentSpec(spec: Json): Errors {
  const errors = [...nonNegative(spec.replicas, 'spec.replicas'), ...validateWorkloadSelector(spec), ...validateTemplateForReplicaSet(spec, 'spec.template')];
  errors.push(...validateDeploymentStrategy(objectOf(spec.strategy), 'spec.strategy'));
  errors.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errors.push(...nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    const minReadySeconds = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (spec.progressDeadlineSeconds <= minReadySeconds) errors.push(invalid('spec.progressDeadlineSeconds', String(spec.progressDeadlineSeconds), 'must be greater than minReadySeconds'));
  }
  return errors;
}

function validateReplicaSetSpec(spec: Json): Errors {
  return [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateWorkloadSelector(spec),
    ...validateTemplateForReplicaSet(spec, 'spec.template'),
  ];
}

/** apps/v1 strategies reject any change of the selector after creation. */
function validateSelectorImmutable(spec: Json, oldSpec: Json): Errors {
  if (semanticEqual(spec.selector, oldSpec.selector)) return [];
  return [invalid('spec.selector', goLabelSelector(isRecord(spec.selector) ? (spec.selector as LabelSelector) : undefined), FIELD_IMMUTABLE)];
}

// ---------------------------------------------------------------------------------------------
// Namespaces, Nodes, ConfigMaps, Events

function goTaint(taint: Json): string {
  return `core.Taint{Key:${goQuote(str(taint.key))}, Value:${goQuote(str(taint.value))}, Effect:${goQuote(str(taint.effect))}, TimeAdded:(*v1.Time)(nil)}`;
}

function validateNode(node: KubeObject): Errors {
  const errors = validateObjectMeta(node, false, nameIsDNSSubdomain);
  const seen = new Set<string>();
  // Upstream passes the metadata path to validateNodeTaints, so taint errors read `metadata.taints[i]`.
  records(objectOf(node.spec).taints).forEach((taint, index) => {
    const path = `metadata.taints[${index}]`;
    const key = str(taint.key);
    errors.push(...isQualifiedName(key).map((message) => invalid(`${path}.key`, goQuote(key), message)));
    const valueMessages = isValidLabelValue(str(taint.value));
    if (valueMessages.length > 0) errors.push(invalid(`${path}.value`, goQuote(str(taint.value)), valueMessages.join(';')));
    errors.push(...validateTaintEffect(str(taint.effect), false, `${path}.effect`));
    const identity = `${str(taint.effect)}\u0000${key}`;
    if (seen.has(identity)) errors.push(duplicate(path, goTaint(taint), 'taints must be unique by key and effect pair'));
    seen.add(identity);
  });
  return errors;
}

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const MAX_CONFIG_MAP_SIZE = 1024 * 1024;

function isConfigMapKey(key: string): string[] {
  const errors: string[] = [];
  if (key.length > 253) errors.push(maxLenError(253));
  if (!/^[-._a-zA-Z0-9]+$/.test(key)) errors.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  if (key === '.') errors.push("must not be '.'");
  else if (key === '..') errors.push("must not be '..'");
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

function validateConfigMap(configMap: KubeObject): Errors {
  const errors = validateObjectMeta(configMap, true, nameIsDNSSubdomain);
  const data = objectOf(configMap.data);
  const binaryData = objectOf(configMap.binaryData);
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const message of isConfigMapKey(key)) errors.push(invalid(`data[${key}]`, goQuote(key), message));
    if (key in binaryData) errors.push(invalid(`data[${key}]`, goQuote(key), 'duplicate of key present in binaryData'));
    size += str(value).length;
  }
  for (const [key, value] of Object.entries(binaryData)) {
    for (const message of isConfigMapKey(key)) errors.push(invalid(`binaryData[${key}]`, goQuote(key), message));
    if (key in data) errors.push(invalid(`binaryData[${key}]`, goQuote(key), 'duplicate of key present in data'));
    size += str(value).length;
  }
  if (size > MAX_CONFIG_MAP_SIZE) errors.push(tooLong('', MAX_CONFIG_MAP_SIZE));
  return errors;
}

function validateConfigMapUpdate(configMap: KubeObject, old: KubeObject): Errors {
  const errors = validateObjectMetaUpdate(configMap, old);
  if (old.immutable === true) {
    if (configMap.immutable !== true) errors.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
    if (!semanticEqual(configMap.data, old.data)) errors.push(forbidden('data', 'field is immutable when `immutable` is set'));
    if (!semanticEqual(configMap.binaryData, old.binaryData)) errors.push(forbidden('binaryData', 'field is immutable when `immutable` is set'));
  }
  return [...errors, ...validateConfigMap(configMap).filter((cause) => !cause.field.startsWith('metadata.'))];
}

// ---------------------------------------------------------------------------------------------
// Entry points

/** Every validation cause for a create (`old` absent) or an update, in upstream's order. */
export function validate(kind: ResourceKind, object: KubeObject, old?: KubeObject): FieldCause[] {
  const spec = objectOf(object.spec);
  switch (kind) {
    case 'Deployment':
      if (!old) return [...validateObjectMeta(object, true, nameIsDNSSubdomain), ...validateDeploymentSpec(spec)];
      return [...validateObjectMetaUpdate(object, old), ...validateDeploymentSpec(spec), ...validateSelectorImmutable(spec, objectOf(old.spec))];
    case 'ReplicaSet':
      if (!old) return [...validateObjectMeta(object, true, nameIsDNSSubdomain), ...validateReplicaSetSpec(spec)];
      return [...validateObjectMetaUpdate(object, old), ...validateReplicaSetSpec(spec), ...validateSelectorImmutable(spec, objectOf(old.spec))];
    case 'Pod':
      return old ? validatePodUpdate(object, old) : validatePodCreate(object);
    case 'Namespace':
      return old ? validateObjectMetaUpdate(object, old) : validateObjectMeta(object, false, nameIsDNSLabel);
    case 'Node':
      return old ? [...validateObjectMetaUpdate(object, old), ...validateNode(object).filter((cause) => !cause.field.startsWith('metadata.name'))] : validateNode(object);
    case 'ConfigMap':
      return old ? validateConfigMapUpdate(object, old) : validateConfigMap(object);
    case 'Event':
      return old ? validateObjectMetaUpdate(object, old) : validateObjectMeta(object, true, nameIsDNSSubdomain);
  }
}

const GROUPS: Partial<Record<ResourceKind, string>> = { Deployment: 'apps', ReplicaSet: 'apps' };

/** The causes as `field: message`, deduplicated and joined as utilerrors.Aggregate prints them. */
function aggregate(causes: readonly StatusCause[]): string {
  const seen = new Set<string>();
  for (const cause of causes) seen.add(`${cause.field ?? ''}: ${cause.message ?? ''}`);
  const messages = [...seen];
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

/** The Status message kube-apiserver sends: `Deployment.apps "bad" is invalid: <cause>` or `…: [<cause>, <cause>]`. */
export function invalidMessage(kind: ResourceKind, name: string, causes: readonly StatusCause[]): string {
  const group = GROUPS[kind];
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
  const name = object.metadata?.name ?? '';
  const statusCauses: StatusCause[] = causes.map((cause) => ({ reason: cause.reason, message: cause.message, field: cause.field }));
  return new ApiError(422, 'Invalid', invalidMessage(kind, name, causes), { name, group: GROUPS[kind] ?? '', kind, causes: statusCauses });
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface DecodeResult {
  /** The 400 BadRequest the body gets before defaulting and validation. */
  error?: ApiError;
  /** Warning headers (`unknown field "spec.replica"`) under fieldValidation=Warn. */
  warnings: string[];
}

/**
 * The decoding step of a create or update: values that cannot be decoded are a 400 in every
 * mode; unknown fields are a 400 under Strict (kubectl's default since 1.25), warnings under Warn.
 */
export function decodeCheck(kind: ResourceKind, object: KubeObject, fieldValidation: FieldValidation = 'Strict'): DecodeResult {
  const inspection = inspectDecoding(kind, object);
  if (inspection.error !== undefined) return { error: new ApiError(400, 'BadRequest', decodeFailureMessage(kind, inspection.error)), warnings: [] };
  if (inspection.unknownFields.length === 0 || fieldValidation === 'Ignore') return { warnings: [] };
  if (fieldValidation === 'Warn') return { warnings: inspection.unknownFields.map((path) => `unknown field "${path}"`) };
  return { error: new ApiError(400, 'BadRequest', strictDecodingMessage(kind, inspection.unknownFields)), warnings: [] };
}

/** Defaulting, admission and validation as the store's Admission hook expects them. */
export const apiServerAdmission = {
  applyDefaults(kind: ResourceKind, object: KubeObject, old?: KubeObject): void {
    applyDefaults(kind, object, old ? { old } : {});
  },
  validate: validationError,
};
