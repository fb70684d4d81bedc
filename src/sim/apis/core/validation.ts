/**
 * The core group's validation (pkg/apis/core/validation/validation.go): pods and their specs,
 * pod templates, nodes, namespaces, ConfigMaps, Events and ReplicationControllers, in upstream's
 * order of checks.
 */
import type { KubeObject } from '../../../core/k8s';
import { podSpecDiff, semanticEqual } from '../../../core/schema/go-diff';
import { goQuote, goScalar, goStringMap } from '../../../core/schema/go-format';
import { inclusiveRangeError, isDNS1123Label, isQualifiedName, isValidLabelValue, maxLenError, nameIsDNSSubdomain, regexError } from '../../../core/schema/name-rules';
import { compareQuantities, formatQuantity, parseQuantity, type Quantity } from '../../../core/schema/quantity';
import { IS_NEGATIVE, NO_MESSAGES, addInvalid, checkNonNegative, duplicate, forbidden, invalid, isNonEmptyList, isSet, listOf, notFound, notSupported, objectOf, recordAt, records, required, str, stringMap, tooLong, type Errors, type Json } from '../field';
import { isJsonObject } from '../../../common/json';
import { checkAnnotations, checkLabels, checkObjectMeta, checkObjectMetaUpdate, type NameRule } from '../meta/validation';

// ---------------------------------------------------------------------------------------------
// Pod spec (pkg/apis/core/validation/validation.go)

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const TOLERATION_OPERATORS = ['Equal', 'Exists'];
const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral',
];
const VOLUME_SOURCE_NAMES = new Set(VOLUME_SOURCES);
const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME = new RegExp(`^${ENV_VAR_NAME_FMT}$`);
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
export const STANDARD_RESOURCES: ReadonlySet<string> = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'requests.storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers',
]);

export function checkPortNumber(value: unknown, field: string, errors: Errors): void {
  const port = typeof value === 'number' ? value : Number(value);
  if (!(port >= 1 && port <= 65535)) errors.push(invalid(field, goScalar(value as number), inclusiveRangeError(1, 65535)));
}

export function isValidPortName(port: string): string[] {
  const errors: string[] = [];
  if (port.length > 15) errors.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errors.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errors.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errors.push('must not begin or end with a hyphen');
  return errors;
}

function checkContainerPorts(ports: readonly unknown[], field: string, errors: Errors): void {
  const names = new Set<string>();
  for (let index = 0; index < ports.length; index++) {
    const port = recordAt(ports, index);
    const name = str(port.name);
    if (name) {
      const messages = isValidPortName(name);
      if (messages.length > 0) addInvalid(`${field}[${index}].name`, name, messages, errors);
      else if (names.has(name)) errors.push(duplicate(`${field}[${index}].name`, goQuote(name)));
      else names.add(name);
    }
    if (!port.containerPort) errors.push(required(`${field}[${index}].containerPort`));
    else checkPortNumber(port.containerPort, `${field}[${index}].containerPort`, errors);
    if (port.hostPort) checkPortNumber(port.hostPort, `${field}[${index}].hostPort`, errors);
    const protocol = str(port.protocol);
    if (!protocol) errors.push(required(`${field}[${index}].protocol`));
    else if (!PORT_PROTOCOLS.includes(protocol)) errors.push(notSupported(`${field}[${index}].protocol`, goQuote(protocol), PORT_PROTOCOLS));
  }
}

function checkEnv(env: readonly unknown[], field: string, errors: Errors): void {
  for (let index = 0; index < env.length; index++) {
    const variable = recordAt(env, index);
    const name = str(variable.name);
    if (!name) errors.push(required(`${field}[${index}].name`));
    else {
      if (!ENV_VAR_NAME.test(name)) {
        errors.push(invalid(`${field}[${index}].name`, goQuote(name), regexError("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit", ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1')));
      }
      if (name === '.') errors.push(invalid(`${field}[${index}].name`, goQuote(name), "must not be '.'"));
      else if (name === '..') errors.push(invalid(`${field}[${index}].name`, goQuote(name), "must not be '..'"));
      else if (name.startsWith('..')) errors.push(invalid(`${field}[${index}].name`, goQuote(name), "must not start with '..'"));
    }
    if (isSet(variable.valueFrom) && str(variable.value) !== '') {
      errors.push(invalid(`${field}[${index}].valueFrom`, goQuote(''), 'may not be specified when `value` is not empty'));
    }
  }
}

function checkVolumeMounts(mounts: readonly unknown[], volumeNames: ReadonlySet<string>, field: string, errors: Errors): void {
  const mountPaths = new Set<string>();
  for (let index = 0; index < mounts.length; index++) {
    const mount = recordAt(mounts, index);
    const name = str(mount.name);
    if (!name) errors.push(required(`${field}[${index}].name`));
    if (!volumeNames.has(name)) errors.push(notFound(`${field}[${index}].name`, goQuote(name)));
    const mountPath = str(mount.mountPath);
    if (!mountPath) errors.push(required(`${field}[${index}].mountPath`));
    if (mountPaths.has(mountPath)) errors.push(invalid(`${field}[${index}].mountPath`, goQuote(mountPath), 'must be unique'));
    mountPaths.add(mountPath);
  }
}

/** Native resources (no domain, or a kubernetes.io domain) other than hugepages may be overcommitted. */
function isOvercommitAllowed(resource: string): boolean {
  const native = !resource.includes('/') || resource.includes('kubernetes.io/');
  return native && !resource.startsWith('hugepages-');
}

function checkContainerResourceName(name: string, field: string, errors: Errors): void {
  const nameMessages = isQualifiedName(name);
  if (nameMessages.length > 0) {
    addInvalid(field, name, nameMessages, errors);
    return;
  }
  if (!name.includes('/')) {
    if (!STANDARD_RESOURCES.has(name) && !name.startsWith('hugepages-') && !name.startsWith('requests.hugepages-')) {
      errors.push(invalid(field, goQuote(name), 'must be a standard resource type or fully qualified'));
    }
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')) errors.push(invalid(field, goQuote(name), 'must be a standard resource for containers'));
  } else if (!name.includes('kubernetes.io/') && name.startsWith('requests.')) {
    errors.push(invalid(field, goQuote(name), "doesn't follow extended resource name standard"));
  }
}

/** cpu, memory and ephemeral-storage pass every rule of checkContainerResourceName. */
function isStandardContainerResource(name: string): boolean {
  return STANDARD_CONTAINER_RESOURCES.has(name);
}

function quantityOf(value: unknown): Quantity | undefined {
  return typeof value === 'string' || typeof value === 'number' ? parseQuantity(value).quantity : undefined;
}

/** ValidateResourceRequirements: names, non-negative quantities, requests ≤ limits. */
function checkResources(resources: Json, field: string, errors: Errors): void {
  const limits = objectOf(resources.limits);
  const requests = objectOf(resources.requests);
  for (const name in limits) {
    if (!isStandardContainerResource(name)) checkContainerResourceName(name, `${field}.limits[${name}]`, errors);
    const quantity = quantityOf(limits[name]);
    if (quantity && quantity.nano < 0n) errors.push(invalid(`${field}.limits[${name}]`, goQuote(formatQuantity(quantity)), IS_NEGATIVE));
  }
  for (const name in requests) {
    if (!isStandardContainerResource(name)) checkContainerResourceName(name, `${field}.requests[${name}]`, errors);
    const quantity = quantityOf(requests[name]);
    if (!quantity) continue;
    if (quantity.nano < 0n) errors.push(invalid(`${field}.requests[${name}]`, goQuote(formatQuantity(quantity)), IS_NEGATIVE));
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
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const PROBE_NON_NEGATIVE_FIELDS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];

function checkPortNumOrName(port: unknown, field: string, errors: Errors): void {
  if (typeof port === 'number') {
    checkPortNumber(port, field, errors);
    return;
  }
  const name = str(port);
  if (!name) errors.push(required(field));
  else addInvalid(field, name, isValidPortName(name), errors);
}

/** The keys of `object`, among `candidates` (in their order), whose value is set. */
function setKeys(object: Json, candidates: readonly string[]): string[] {
  return candidates.filter((key) => isSet(object[key]));
}

function checkProbe(probe: Json, field: string, kind: 'liveness' | 'readiness' | 'startup', errors: Errors): void {
  const handlers = setKeys(probe, PROBE_HANDLERS);
  if (handlers.length === 0) errors.push(required(field, 'must specify a handler type'));
  for (let extra = 1; extra < handlers.length; extra++) errors.push(forbidden(`${field}.${handlers[extra]}`, 'may not specify more than 1 handler type'));
  if (isJsonObject(probe.httpGet)) checkPortNumOrName(probe.httpGet.port, `${field}.httpGet.port`, errors);
  if (isJsonObject(probe.tcpSocket)) checkPortNumOrName(probe.tcpSocket.port, `${field}.tcpSocket.port`, errors);
  for (const key of PROBE_NON_NEGATIVE_FIELDS) {
    const value = probe[key];
    if (typeof value === 'number' && value < 0) errors.push(invalid(`${field}.${key}`, String(value), IS_NEGATIVE));
  }
  if (typeof probe.terminationGracePeriodSeconds === 'number' && probe.terminationGracePeriodSeconds <= 0) {
    errors.push(invalid(`${field}.terminationGracePeriodSeconds`, String(probe.terminationGracePeriodSeconds), 'must be greater than 0'));
  }
  if (kind !== 'readiness' && probe.successThreshold !== 1) errors.push(invalid(`${field}.successThreshold`, goScalar(probe.successThreshold as number), 'must be 1'));
  if (kind === 'readiness' && probe.terminationGracePeriodSeconds !== undefined) errors.push(invalid(`${field}.terminationGracePeriodSeconds`, goScalar(probe.terminationGracePeriodSeconds as number), 'must not be set for readinessProbes'));
}

/** validateContainerCommon: what every regular and init container must satisfy. */
function checkContainerCommon(container: Json, volumeNames: ReadonlySet<string>, path: string, errors: Errors): void {
  const name = str(container.name);
  const nameMessages = name ? isDNS1123Label(name) : NO_MESSAGES;
  if (!name) errors.push(required(`${path}.name`));
  else if (nameMessages.length > 0) addInvalid(`${path}.name`, name, nameMessages, errors);
  if (!str(container.image)) errors.push(required(`${path}.image`));
  const messagePolicy = str(container.terminationMessagePolicy);
  if (!messagePolicy) errors.push(required(`${path}.terminationMessagePolicy`));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(messagePolicy)) {
    errors.push(notSupported(`${path}.terminationMessagePolicy`, goQuote(messagePolicy), TERMINATION_MESSAGE_POLICIES));
  }
  // An absent or empty list has nothing to report: its path is built only when there are items.
  if (isNonEmptyList(container.ports)) checkContainerPorts(listOf(container.ports), `${path}.ports`, errors);
  if (isNonEmptyList(container.env)) checkEnv(listOf(container.env), `${path}.env`, errors);
  if (isNonEmptyList(container.volumeMounts)) checkVolumeMounts(listOf(container.volumeMounts), volumeNames, `${path}.volumeMounts`, errors);
  const pullPolicy = str(container.imagePullPolicy);
  if (!pullPolicy) errors.push(required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pullPolicy)) errors.push(notSupported(`${path}.imagePullPolicy`, goQuote(pullPolicy), PULL_POLICIES));
  if (isJsonObject(container.resources) && (isJsonObject(container.resources.limits) || isJsonObject(container.resources.requests))) {
    checkResources(container.resources, `${path}.resources`, errors);
  }
}

/** Whether a volume sets exactly one source; decided from its own keys, usually just `name` and the source. */
function hasOneVolumeSource(volume: Json): boolean {
  let sources = 0;
  for (const key in volume) if (VOLUME_SOURCE_NAMES.has(key) && isSet(volume[key])) sources++;
  return sources === 1;
}

/** The volumes' causes (under `${field}.volumes`), and the names volume mounts may refer to. */
function checkVolumes(volumes: unknown, field: string, errors: Errors): Set<string> {
  const names = new Set<string>();
  const list = listOf(volumes);
  for (let index = 0; index < list.length; index++) {
    const volume = recordAt(list, index);
    if (!hasOneVolumeSource(volume)) {
      const sources = setKeys(volume, VOLUME_SOURCES);
      if (sources.length === 0) errors.push(required(`${field}.volumes[${index}]`, 'must specify a volume type'));
      for (let extra = 1; extra < sources.length; extra++) errors.push(forbidden(`${field}.volumes[${index}].${sources[extra]}`, 'may not specify more than 1 volume type'));
    }
    const name = str(volume.name);
    const nameMessages = name ? isDNS1123Label(name) : NO_MESSAGES;
    if (!name) errors.push(required(`${field}.volumes[${index}].name`));
    else if (nameMessages.length > 0) addInvalid(`${field}.volumes[${index}].name`, name, nameMessages, errors);
    if (names.has(name)) errors.push(duplicate(`${field}.volumes[${index}].name`, goQuote(name)));
    else names.add(name);
  }
  return names;
}

function goToleration(toleration: Json): string {
  const seconds = typeof toleration.tolerationSeconds === 'number' ? `(*int64)(${toleration.tolerationSeconds})` : '(*int64)(nil)';
  return `core.Toleration{Key:${goQuote(str(toleration.key))}, Operator:${goQuote(str(toleration.operator))}, Value:${goQuote(str(toleration.value))}, Effect:${goQuote(str(toleration.effect))}, TolerationSeconds:${seconds}}`;
}

function checkTaintEffect(effect: string, allowEmpty: boolean, field: string, errors: Errors): void {
  if (!allowEmpty && !effect) errors.push(required(field));
  else if (!TAINT_EFFECTS.includes(effect)) errors.push(notSupported(field, goQuote(effect), TAINT_EFFECTS));
}

function checkToleration(toleration: Json, field: string, index: number, errors: Errors): void {
  const key = str(toleration.key);
  const operator = str(toleration.operator);
  const effect = str(toleration.effect);
  if (key) {
    const keyMessages = isQualifiedName(key);
    if (keyMessages.length > 0) addInvalid(`${field}[${index}].key`, key, keyMessages, errors);
  }
  if (!key && operator !== 'Exists') errors.push(invalid(`${field}[${index}].operator`, goQuote(operator), 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
  if (isSet(toleration.tolerationSeconds) && effect !== 'NoExecute') {
    errors.push(invalid(`${field}[${index}].effect`, goQuote(effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"));
  }
  if (operator === 'Equal' || operator === '') {
    const messages = isValidLabelValue(str(toleration.value));
    if (messages.length > 0) errors.push(invalid(`${field}[${index}].operator`, goQuote(str(toleration.value)), messages.join(';')));
  } else if (operator === 'Exists') {
    if (str(toleration.value)) errors.push(invalid(`${field}[${index}].operator`, goToleration(toleration), "value must be empty when `operator` is 'Exists'"));
  } else {
    errors.push(notSupported(`${field}[${index}].operator`, goQuote(operator), TOLERATION_OPERATORS));
  }
  if (effect && !TAINT_EFFECTS.includes(effect)) checkTaintEffect(effect, true, `${field}[${index}].effect`, errors);
}

function checkTolerations(tolerations: unknown, field: string, errors: Errors): void {
  const list = listOf(tolerations);
  for (let index = 0; index < list.length; index++) checkToleration(recordAt(list, index), field, index, errors);
}

export function validateTolerations(tolerations: unknown, field: string): Errors {
  const errors: Errors = [];
  checkTolerations(tolerations, field, errors);
  return errors;
}

/** The checks every container gets, init or not: the common fields and a name unique in the pod. */
function checkContainerAndName(container: Json, volumeNames: ReadonlySet<string>, containerNames: Set<string>, path: string, errors: Errors): void {
  checkContainerCommon(container, volumeNames, path, errors);
  const name = str(container.name);
  if (containerNames.has(name)) errors.push(duplicate(`${path}.name`, goQuote(name)));
  else containerNames.add(name);
}

/** The regular containers: the common checks, unique names, probes, no restartPolicy. */
function checkContainers(containers: readonly unknown[], volumeNames: ReadonlySet<string>, containerNames: Set<string>, field: string, errors: Errors): void {
  for (let index = 0; index < containers.length; index++) {
    const container = recordAt(containers, index);
    const path = `${field}[${index}]`;
    checkContainerAndName(container, volumeNames, containerNames, path, errors);
    if (isJsonObject(container.livenessProbe)) checkProbe(container.livenessProbe, `${path}.livenessProbe`, 'liveness', errors);
    if (isJsonObject(container.readinessProbe)) checkProbe(container.readinessProbe, `${path}.readinessProbe`, 'readiness', errors);
    if (isJsonObject(container.startupProbe)) checkProbe(container.startupProbe, `${path}.startupProbe`, 'startup', errors);
    if (isSet(container.restartPolicy)) errors.push(forbidden(`${path}.restartPolicy`, 'may not be set for non-init containers'));
  }
}

function checkInitContainers(containers: readonly unknown[], volumeNames: ReadonlySet<string>, containerNames: Set<string>, field: string, errors: Errors): void {
  for (let index = 0; index < containers.length; index++) {
    const container = recordAt(containers, index);
    const path = `${field}[${index}]`;
    checkContainerAndName(container, volumeNames, containerNames, path, errors);
  }
}

/** ValidatePodSpec, in upstream's order. */
function checkPodSpec(spec: Json, field: string, errors: Errors): void {
  const volumeNames = checkVolumes(spec.volumes, field, errors);
  const containers = listOf(spec.containers);
  const containerNames = new Set<string>();
  if (containers.length === 0) errors.push(required(`${field}.containers`));
  checkContainers(containers, volumeNames, containerNames, `${field}.containers`, errors);
  if (isNonEmptyList(spec.initContainers)) checkInitContainers(listOf(spec.initContainers), volumeNames, containerNames, `${field}.initContainers`, errors);
  const restartPolicy = str(spec.restartPolicy);
  if (!restartPolicy) errors.push(required(`${field}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(restartPolicy)) errors.push(notSupported(`${field}.restartPolicy`, goQuote(restartPolicy), RESTART_POLICIES));
  const dnsPolicy = str(spec.dnsPolicy);
  if (!dnsPolicy) errors.push(required(`${field}.dnsPolicy`));
  else if (!DNS_POLICIES.includes(dnsPolicy)) errors.push(notSupported(`${field}.dnsPolicy`, goQuote(dnsPolicy), DNS_POLICIES));
  if (isJsonObject(spec.nodeSelector)) checkLabels(stringMap(spec.nodeSelector), `${field}.nodeSelector`, errors);
  const serviceAccountName = str(spec.serviceAccountName);
  const serviceAccountMessages = serviceAccountName ? nameIsDNSSubdomain(serviceAccountName, false) : NO_MESSAGES;
  if (serviceAccountMessages.length > 0) addInvalid(`${field}.serviceAccountName`, serviceAccountName, serviceAccountMessages, errors);
  const nodeName = str(spec.nodeName);
  const nodeNameMessages = nodeName ? nameIsDNSSubdomain(nodeName, false) : NO_MESSAGES;
  if (nodeNameMessages.length > 0) addInvalid(`${field}.nodeName`, nodeName, nodeNameMessages, errors);
  if (typeof spec.activeDeadlineSeconds === 'number' && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > 2147483647)) {
    errors.push(invalid(`${field}.activeDeadlineSeconds`, String(spec.activeDeadlineSeconds), inclusiveRangeError(1, 2147483647)));
  }
  if (isNonEmptyList(spec.tolerations)) checkTolerations(spec.tolerations, `${field}.tolerations`, errors);
  if (isSet(spec.preemptionPolicy) && spec.preemptionPolicy !== 'PreemptLowerPriority' && spec.preemptionPolicy !== 'Never') {
    errors.push(notSupported(`${field}.preemptionPolicy`, goQuote(str(spec.preemptionPolicy)), ['PreemptLowerPriority', 'Never']));
  }
}

/** ValidatePodTemplateSpec: the template's labels and annotations, then its pod spec. */
export function checkPodTemplateSpec(template: Json, field: string, errors: Errors): void {
  const meta = objectOf(template.metadata);
  checkLabels(stringMap(meta.labels), `${field}.labels`, errors);
  checkAnnotations(stringMap(meta.annotations), `${field}.annotations`, errors);
  checkPodSpec(objectOf(template.spec), `${field}.spec`, errors);
}

// ---------------------------------------------------------------------------------------------
// Pods

/** Only pods, not templates, reject images with surrounding whitespace (backwards compatibility). */
function checkImagesTrimmed(containers: unknown, field: string, errors: Errors): void {
  const list = listOf(containers);
  for (let index = 0; index < list.length; index++) {
    const image = str(recordAt(list, index).image);
    if (image !== image.trim()) errors.push(invalid(`${field}[${index}].image`, goQuote(image), 'must not have leading or trailing whitespace'));
  }
}

export function validatePodCreate(pod: KubeObject): Errors {
  const spec = objectOf(pod.spec);
  const errors: Errors = [];
  checkObjectMeta(pod, true, nameIsDNSSubdomain, errors);
  checkPodSpec(spec, 'spec', errors);
  checkImagesTrimmed(spec.containers, 'spec.containers', errors);
  checkImagesTrimmed(spec.initContainers, 'spec.initContainers', errors);
  if (isNonEmptyList(spec.ephemeralContainers)) errors.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (str(spec.nodeName) && isNonEmptyList(spec.schedulingGates)) errors.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
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

function checkOnlyAddedTolerations(tolerations: Json[], oldTolerations: Json[], field: string, errors: Errors): void {
  for (const old of oldTolerations) {
    const kept = tolerations.some((toleration) => semanticEqual({ ...old, tolerationSeconds: toleration.tolerationSeconds }, toleration));
    if (!kept) {
      errors.push(forbidden(field, 'existing toleration can not be modified except its tolerationSeconds'));
      return;
    }
  }
  checkTolerations(tolerations, field, errors);
}

/** `validateOnlyDeletedSchedulingGates`: a gate may be removed, never added. */
function checkOnlyDeletedSchedulingGates(gates: Json[], oldGates: Json[], errors: Errors): void {
  const oldNames = new Set(oldGates.map((gate) => str(gate.name)));
  gates.forEach((gate, index) => {
    const name = str(gate.name);
    if (!oldNames.has(name)) errors.push(forbidden(`spec.schedulingGates[${index}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`));
  });
}

/** ValidatePodSpecUpdate's part beyond ValidatePodSpec: only images, activeDeadlineSeconds and added tolerations may change. */
function checkPodSpecUpdate(spec: Json, oldSpec: Json, errors: Errors): void {
  const containers = records(spec.containers);
  const oldContainers = records(oldSpec.containers);
  const initContainers = records(spec.initContainers);
  const oldInitContainers = records(oldSpec.initContainers);
  if (validateContainerUpdates(containers, oldContainers, 'spec.containers', errors)) return;
  if (validateContainerUpdates(initContainers, oldInitContainers, 'spec.initContainers', errors)) return;
  if (typeof spec.activeDeadlineSeconds === 'number') {
    if (spec.activeDeadlineSeconds < 0 || spec.activeDeadlineSeconds > 2147483647) {
      errors.push(invalid('spec.activeDeadlineSeconds', String(spec.activeDeadlineSeconds), inclusiveRangeError(0, 2147483647)));
      return;
    }
    if (typeof oldSpec.activeDeadlineSeconds === 'number' && oldSpec.activeDeadlineSeconds < spec.activeDeadlineSeconds) {
      errors.push(invalid('spec.activeDeadlineSeconds', String(spec.activeDeadlineSeconds), 'must be less than or equal to previous value'));
      return;
    }
  } else if (typeof oldSpec.activeDeadlineSeconds === 'number') {
    errors.push(invalid('spec.activeDeadlineSeconds', 'null', 'must not update from a positive integer to nil value'));
  }
  checkOnlyAddedTolerations(records(spec.tolerations), records(oldSpec.tolerations), 'spec.tolerations', errors);
  checkOnlyDeletedSchedulingGates(records(spec.schedulingGates), records(oldSpec.schedulingGates), errors);
  if (semanticEqual(spec, oldSpec)) return;
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
}

export function validatePodUpdate(pod: KubeObject, old: KubeObject): Errors {
  const errors: Errors = [];
  checkObjectMetaUpdate(pod, old, errors);
  // The stored spec itself (writes that leave spec alone share it) passed all of this when it was written.
  if (isJsonObject(pod.spec) && pod.spec === old.spec) return errors;
  const spec = objectOf(pod.spec);
  checkPodSpec(spec, 'spec', errors);
  checkPodSpecUpdate(spec, objectOf(old.spec), errors);
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Namespaces, Nodes, ConfigMaps, Events

function goTaint(taint: Json): string {
  return `core.Taint{Key:${goQuote(str(taint.key))}, Value:${goQuote(str(taint.value))}, Effect:${goQuote(str(taint.effect))}, TimeAdded:(*v1.Time)(nil)}`;
}

export function validateNode(node: KubeObject): Errors {
  const errors: Errors = [];
  checkObjectMeta(node, false, nameIsDNSSubdomain, errors);
  const seen = new Set<string>();
  // Upstream passes the metadata path to validateNodeTaints, so taint errors read `metadata.taints[i]`.
  records(objectOf(node.spec).taints).forEach((taint, index) => {
    const path = `metadata.taints[${index}]`;
    const key = str(taint.key);
    addInvalid(`${path}.key`, key, isQualifiedName(key), errors);
    const valueMessages = isValidLabelValue(str(taint.value));
    if (valueMessages.length > 0) errors.push(invalid(`${path}.value`, goQuote(str(taint.value)), valueMessages.join(';')));
    checkTaintEffect(str(taint.effect), false, `${path}.effect`, errors);
    const identity = `${str(taint.effect)}\u0000${key}`;
    if (seen.has(identity)) errors.push(duplicate(path, goTaint(taint), 'taints must be unique by key and effect pair'));
    seen.add(identity);
  });
  return errors;
}

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const MAX_CONFIG_MAP_SIZE = 1024 * 1024;

export function isConfigMapKey(key: string): string[] {
  const errors: string[] = [];
  if (key.length > 253) errors.push(maxLenError(253));
  if (!/^[-._a-zA-Z0-9]+$/.test(key)) errors.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  if (key === '.') errors.push("must not be '.'");
  else if (key === '..') errors.push("must not be '..'");
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

export function validateConfigMap(configMap: KubeObject): Errors {
  const errors: Errors = [];
  checkObjectMeta(configMap, true, nameIsDNSSubdomain, errors);
  const data = objectOf(configMap.data);
  const binaryData = objectOf(configMap.binaryData);
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    addInvalid(`data[${key}]`, key, isConfigMapKey(key), errors);
    if (key in binaryData) errors.push(invalid(`data[${key}]`, goQuote(key), 'duplicate of key present in binaryData'));
    size += str(value).length;
  }
  for (const [key, value] of Object.entries(binaryData)) {
    addInvalid(`binaryData[${key}]`, key, isConfigMapKey(key), errors);
    if (key in data) errors.push(invalid(`binaryData[${key}]`, goQuote(key), 'duplicate of key present in data'));
    size += str(value).length;
  }
  if (size > MAX_CONFIG_MAP_SIZE) errors.push(tooLong('', MAX_CONFIG_MAP_SIZE));
  return errors;
}

export function validateConfigMapUpdate(configMap: KubeObject, old: KubeObject): Errors {
  const errors: Errors = [];
  checkObjectMetaUpdate(configMap, old, errors);
  if (old.immutable === true) {
    if (configMap.immutable !== true) errors.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
    if (!semanticEqual(configMap.data, old.data)) errors.push(forbidden('data', 'field is immutable when `immutable` is set'));
    if (!semanticEqual(configMap.binaryData, old.binaryData)) errors.push(forbidden('binaryData', 'field is immutable when `immutable` is set'));
  }
  for (const cause of validateConfigMap(configMap)) if (!cause.field.startsWith('metadata.')) errors.push(cause);
  return errors;
}

export function validateNodeUpdate(node: KubeObject, old: KubeObject): Errors {
  const errors: Errors = [];
  checkObjectMetaUpdate(node, old, errors);
  for (const cause of validateNode(node)) if (!cause.field.startsWith('metadata.name')) errors.push(cause);
  return errors;
}

/** ValidateObjectMeta, or ValidateObjectMetaUpdate, and nothing else: Namespaces and Events. */
export function validateMetaOnly(object: KubeObject, old: KubeObject | undefined, namespaced: boolean, nameRule: NameRule): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(object, old, errors);
  else checkObjectMeta(object, namespaced, nameRule, errors);
  return errors;
}

// ---------------------------------------------------------------------------------------------
// ReplicationControllers

/** ValidatePodTemplateSpecForRC: the equality selector must match the template's labels, restartPolicy Always. */
function checkPodTemplateSpecForRC(template: unknown, selector: Record<string, string>, field: string, errors: Errors): void {
  if (!isJsonObject(template)) {
    errors.push(required(field));
    return;
  }
  const labels = stringMap(objectOf(template.metadata).labels) ?? {};
  const selectorKeys = Object.keys(selector);
  if (selectorKeys.length > 0 && !selectorKeys.every((key) => Object.prototype.hasOwnProperty.call(labels, key) && labels[key] === selector[key])) {
    errors.push(invalid(`${field}.metadata.labels`, goStringMap(stringMap(objectOf(template.metadata).labels)), '`selector` does not match template `labels`'));
  }
  checkPodTemplateSpec(template, field, errors);
  const podSpec = objectOf(template.spec);
  const restartPolicy = str(podSpec.restartPolicy);
  if (restartPolicy !== 'Always') errors.push(notSupported(`${field}.spec.restartPolicy`, goQuote(restartPolicy), ['Always']));
  if (isSet(podSpec.activeDeadlineSeconds)) errors.push(forbidden(`${field}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicationController is not Supported'));
}

/** ValidateReplicationControllerSpec. Unlike apps/v1 selectors, an RC's selector may change after creation. */
function checkReplicationControllerSpec(spec: Json, errors: Errors): void {
  checkNonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errors);
  const selector = stringMap(spec.selector) ?? {};
  if (Object.keys(selector).length === 0) errors.push(required('spec.selector'));
  checkNonNegative(spec.replicas, 'spec.replicas', errors);
  checkPodTemplateSpecForRC(spec.template, selector, 'spec.template', errors);
}

/** ValidateReplicationController, or ValidateReplicationControllerUpdate when `old` is given. */
export function validateReplicationController(controller: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(controller, old, errors);
  else checkObjectMeta(controller, true, nameIsDNSSubdomain, errors);
  checkReplicationControllerSpec(objectOf(controller.spec), errors);
  return errors;
}
