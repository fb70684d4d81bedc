/**
 * What kube-apiserver adds to an object before storing it, so that `kubectl get -o yaml` and the
 * controllers see the same fields as on a real cluster:
 * - versioned defaulting (pkg/apis/core/v1/defaults.go, pkg/apis/apps/v1/defaults.go and the
 *   generated `+default` markers), including quantities printed back in canonical form;
 * - the default admission plugins that mutate pods: ServiceAccount and DefaultTolerationSeconds
 *   (Priority is in src/sim/admission/priority.ts);
 * - the pod strategy's PrepareForCreate (`prepareForCreate`): status Pending and the QoS class;
 *   the Job strategy's: the generated selector.
 */
import type { Container, KubeObject, PodSpec, ResourceKind, Toleration } from '../../core/k8s';
import { canonicalResourceQuantity, parseQuantity } from '../../core/schema/quantity';
import { deepEqual } from '../../common/json';
import { applyBuiltinKindDefaults } from './defaults-builtin';
import { defaultCustomResourceDefinition } from '../apis/apiextensions/crd';

export interface DefaultingOptions {
  /** The stored object, on updates: create-only admission keeps what the object already had. */
  old?: KubeObject;
  /**
   * Five random characters for the `kube-api-access-xxxxx` volume (names.SimpleNameGenerator).
   * Without it the suffix is derived from the pod's namespace and name, which keeps runs reproducible.
   */
  randomSuffix?: () => string;
  /** Whether the ServiceAccount admission plugin mounts the API token volume (default true, as on every cluster). */
  mountServiceAccountToken?: boolean;
}

type Json = Record<string, unknown>;

const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** DefaultTolerationSeconds admission: 300 s for both taints. */
const DEFAULT_TOLERATION_SECONDS = 300;

/**
 * Every pod carries these same values. Stored objects are read-only for everyone, so one deeply
 * frozen instance is shared by all pods instead of a copy each (a 150,000-pod cluster saves
 * ~100 MB); a copy made for a change (the store's `mutate`) is a fresh, unfrozen one.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const SERVICE_ACCOUNT_PROJECTION = deepFreeze({
  sources: [
    { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
    { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
  ],
  defaultMode: 420,
});

const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';

const DEFAULT_TOLERATIONS: Readonly<Record<string, Toleration>> = deepFreeze(
  Object.fromEntries(
    [NOT_READY_TAINT, UNREACHABLE_TAINT].map((taint) => [taint, { key: taint, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS }]),
  ),
);

export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function record(parent: Json, key: string): Json {
  const existing = parent[key];
  if (isRecord(existing)) return existing;
  const created: Json = {};
  parent[key] = created;
  return created;
}

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** Calls `visit` for each object in `list` (when it is an array), without building a filtered copy. */
export function forEachRecord(list: unknown, visit: (item: Json) => void): void {
  if (!Array.isArray(list)) return;
  for (const item of list) if (isRecord(item)) visit(item);
}

export function setIfAbsent(target: Json, key: string, value: unknown): void {
  if (target[key] === undefined || target[key] === null || target[key] === '') target[key] = value;
}

/** A probe's numeric fields default when unset or 0, as SetDefaults_Probe compares with zero. */
function setIfZero(target: Json, key: string, value: number): void {
  if (!target[key]) target[key] = value;
}

export function applyDefaults(kind: ResourceKind, object: KubeObject, options: DefaultingOptions = {}): void {
  switch (kind) {
    case 'Deployment':
      defaultDeployment(object);
      break;
    case 'ReplicaSet':
      defaultReplicaSet(object);
      break;
    case 'StatefulSet':
      defaultStatefulSet(object);
      break;
    case 'ReplicationController':
      defaultReplicationController(object);
      break;
    case 'PersistentVolumeClaim':
      defaultPersistentVolumeClaim(object);
      break;
    case 'DaemonSet':
      defaultDaemonSet(object);
      prepareDaemonSetTemplateGeneration(object, options.old);
      break;
      break;
    case 'Pod':
      defaultPod(object, options);
      break;
    case 'Namespace':
      defaultNamespace(object);
      break;
    case 'Node':
      defaultNode(object);
      break;
    case 'Job':
      defaultJob(object);
      break;
    case 'CustomResourceDefinition':
      defaultCustomResourceDefinition(object);
      break;
    case 'CronJob':
      defaultCronJob(object);
      break;
    case 'Event':
    case 'ConfigMap':
      break;
    default:
      applyBuiltinKindDefaults(kind, object);
  }
}

// ---------------------------------------------------------------------------------------------
// batch/v1 (pkg/apis/batch/v1/defaults.go, pkg/registry/batch/job/strategy.go)

/** `SetDefaults_Job`. */
function defaultJob(object: KubeObject): void {
  const spec = record(object, 'spec');
  defaultJobSpec(spec);
  const template = isRecord(spec.template) ? spec.template : undefined;
  const templateLabels = isRecord(template?.metadata) ? template.metadata.labels : undefined;
  const meta = record(object, 'metadata');
  if (isRecord(templateLabels) && (!isRecord(meta.labels) || Object.keys(meta.labels).length === 0)) meta.labels = { ...templateLabels };
}

function defaultJobSpec(spec: Json): void {
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (spec.parallelism == null) spec.parallelism = 1;
  // MaxInt32 with backoffLimitPerIndex: the per-index limit is the one that counts.
  if (spec.backoffLimit == null) spec.backoffLimit = spec.backoffLimitPerIndex == null ? 6 : 2147483647;
  setIfAbsent(spec, 'completionMode', 'NonIndexed');
  if (spec.suspend == null) spec.suspend = false;
  const podFailurePolicy = isRecord(spec.podFailurePolicy) ? spec.podFailurePolicy : undefined;
  if (podFailurePolicy) {
    forEachRecord(podFailurePolicy.rules, (rule) => forEachRecord(rule.onPodConditions, (pattern) => setIfAbsent(pattern, 'status', 'True')));
  }
  setIfAbsent(spec, 'podReplacementPolicy', podFailurePolicy ? 'Failed' : 'TerminatingOrFailed');
  if (spec.manualSelector == null) spec.manualSelector = false;
  defaultPodTemplate(spec);
}

/** `SetDefaults_CronJob`; the job template's pod template gets the pod defaults. */
function defaultCronJob(object: KubeObject): void {
  const spec = record(object, 'spec');
  setIfAbsent(spec, 'concurrencyPolicy', 'Allow');
  if (spec.suspend == null) spec.suspend = false;
  if (spec.successfulJobsHistoryLimit == null) spec.successfulJobsHistoryLimit = 3;
  if (spec.failedJobsHistoryLimit == null) spec.failedJobsHistoryLimit = 1;
  const jobTemplate = isRecord(spec.jobTemplate) ? spec.jobTemplate : undefined;
  if (jobTemplate && isRecord(jobTemplate.spec)) defaultPodTemplate(jobTemplate.spec);
}

const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'];
const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'];

/**
 * The Job strategy's PrepareForCreate: an empty status and, unless `manualSelector`, the generated
 * selector (`generateSelector`): the template gets the job-name and controller-uid labels and the
 * selector matches `batch.kubernetes.io/controller-uid`.
 *
 * The uid labels need the Job's uid, which kube-apiserver assigns before PrepareForCreate; the
 * simulator's store assigns it after admission, so until it does the same, a Job gets only the
 * job-name labels here and no selector (validation accepts that for generated selectors).
 */
function prepareJobForCreate(job: KubeObject): void {
  job.status = {};
  const spec = record(job, 'spec');
  if (spec.manualSelector === true) return;
  const template = record(spec, 'template');
  const templateMeta = record(template, 'metadata');
  const labels = record(templateMeta, 'labels');
  const name = job.metadata?.name ?? '';
  for (const key of JOB_NAME_LABELS) if (labels[key] === undefined) labels[key] = name;
  const uid = job.metadata?.uid;
  if (uid) {
    for (const key of CONTROLLER_UID_LABELS) if (labels[key] === undefined) labels[key] = uid;
    const selector = record(spec, 'selector');
    const matchLabels = record(selector, 'matchLabels');
    if (matchLabels['batch.kubernetes.io/controller-uid'] === undefined) matchLabels['batch.kubernetes.io/controller-uid'] = uid;
  }
  // Read back from etcd, a Job without labels is defaulted to its template's (now generated) labels.
  const meta = record(job, 'metadata');
  if (!isRecord(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
}

function defaultDeployment(object: KubeObject): void {
  const spec = record(object, 'spec');
  setIfAbsent(spec, 'replicas', 1);
  const strategy = record(spec, 'strategy');
  setIfAbsent(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = record(strategy, 'rollingUpdate');
    setIfAbsent(rollingUpdate, 'maxUnavailable', '25%');
    setIfAbsent(rollingUpdate, 'maxSurge', '25%');
  }
  setIfAbsent(spec, 'revisionHistoryLimit', 10);
  setIfAbsent(spec, 'progressDeadlineSeconds', 600);
  defaultPodTemplate(spec);
}

function defaultReplicaSet(object: KubeObject): void {
  const spec = record(object, 'spec');
  setIfAbsent(spec, 'replicas', 1);
  defaultPodTemplate(spec);
}

/** SetDefaults_StatefulSet (pkg/apis/apps/v1/defaults.go), without the MaxUnavailableStatefulSet gate (off in 1.32). */
function defaultStatefulSet(object: KubeObject): void {
  const spec = record(object, 'spec');
  setIfAbsent(spec, 'podManagementPolicy', 'OrderedReady');
  const updateStrategy = record(spec, 'updateStrategy');
  if (!updateStrategy.type) {
    updateStrategy.type = 'RollingUpdate';
    record(updateStrategy, 'rollingUpdate');
  }
  if (updateStrategy.type === 'RollingUpdate' && isRecord(updateStrategy.rollingUpdate)) setIfAbsent(updateStrategy.rollingUpdate, 'partition', 0);
  const retention = record(spec, 'persistentVolumeClaimRetentionPolicy');
  setIfAbsent(retention, 'whenDeleted', 'Retain');
  setIfAbsent(retention, 'whenScaled', 'Retain');
  setIfAbsent(spec, 'replicas', 1);
  setIfAbsent(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplate(spec);
  forEachRecord(spec.volumeClaimTemplates, defaultPersistentVolumeClaim);
}

/** SetDefaults_PersistentVolumeClaim and SetDefaults_PersistentVolumeClaimSpec: Filesystem volumes, phase Pending. */
function defaultPersistentVolumeClaim(claim: Json): void {
  setIfAbsent(record(claim, 'spec'), 'volumeMode', 'Filesystem');
  setIfAbsent(record(claim, 'status'), 'phase', 'Pending');
}

/** SetDefaults_ReplicationController: an empty selector, and empty labels, become the template's labels. */
function defaultReplicationController(object: KubeObject): void {
  const spec = record(object, 'spec');
  const template = spec.template;
  const labels = isRecord(template) && isRecord(template.metadata) && isRecord(template.metadata.labels) ? template.metadata.labels : undefined;
  if (labels) {
    if (!isRecord(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    const metadata = record(object as Json, 'metadata');
    if (!isRecord(metadata.labels) || Object.keys(metadata.labels).length === 0) metadata.labels = { ...labels };
  }
  setIfAbsent(spec, 'replicas', 1);
  defaultPodTemplate(spec);
}

/** SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0, 10 revisions kept. */
function defaultDaemonSet(object: KubeObject): void {
  const spec = record(object, 'spec');
  const updateStrategy = record(spec, 'updateStrategy');
  setIfAbsent(updateStrategy, 'type', 'RollingUpdate');
  if (updateStrategy.type === 'RollingUpdate') {
    const rollingUpdate = record(updateStrategy, 'rollingUpdate');
    setIfAbsent(rollingUpdate, 'maxUnavailable', 1);
    setIfAbsent(rollingUpdate, 'maxSurge', 0);
  }
  setIfAbsent(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplate(spec);
}

/** The annotation apps/v1 shows the internal `spec.templateGeneration` as (the controller labels pods with it). */
export const DAEMONSET_TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

function templateGenerationOf(object: KubeObject | undefined): number {
  const value = Number(object?.metadata?.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION]);
  return Number.isInteger(value) ? value : 0;
}

/**
 * The DaemonSet strategy's PrepareForCreate / PrepareForUpdate for `templateGeneration`: at least 1
 * on create; on update the stored value, one more when the pod template changed.
 */
function prepareDaemonSetTemplateGeneration(object: KubeObject, old: KubeObject | undefined): void {
  let generation: number;
  if (!old) generation = Math.max(1, templateGenerationOf(object));
  else {
    const oldTemplate = isRecord(old.spec) ? old.spec.template : undefined;
    const template = isRecord(object.spec) ? object.spec.template : undefined;
    generation = templateGenerationOf(old) + (deepEqual(oldTemplate, template) ? 0 : 1);
  }
  const meta = object.metadata ?? (object.metadata = {});
  meta.annotations = { ...meta.annotations, [DAEMONSET_TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

function defaultPodTemplate(workloadSpec: Json): void {
  const template = workloadSpec.template;
  if (!isRecord(template)) return;
  defaultPodSpec(record(template, 'spec'));
}

/** SetDefaults_PodSpec and everything nested in a PodSpec (containers, probes, volumes), for pods and templates alike. */
function defaultPodSpec(spec: Json): void {
  setIfAbsent(spec, 'dnsPolicy', 'ClusterFirst');
  setIfAbsent(spec, 'restartPolicy', 'Always');
  if (!isRecord(spec.securityContext)) spec.securityContext = {};
  setIfAbsent(spec, 'terminationGracePeriodSeconds', 30);
  setIfAbsent(spec, 'schedulerName', 'default-scheduler');
  // Conversion keeps the deprecated serviceAccount field in step with serviceAccountName.
  if (!spec.serviceAccountName && typeof spec.serviceAccount === 'string' && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  forEachRecord(spec.initContainers, defaultContainer);
  forEachRecord(spec.containers, defaultContainer);
  forEachRecord(spec.ephemeralContainers, defaultContainer);
  forEachRecord(spec.volumes, defaultVolume);
  if (isRecord(spec.overhead)) canonicalizeResourceList(spec.overhead);
}

function defaultContainer(container: Json): void {
  if (!container.imagePullPolicy) container.imagePullPolicy = imageTag(typeof container.image === 'string' ? container.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  setIfAbsent(container, 'terminationMessagePath', '/dev/termination-log');
  setIfAbsent(container, 'terminationMessagePolicy', 'File');
  forEachRecord(container.ports, defaultPort);
  // ResourceRequirements is a struct, not a pointer: it is always serialized, as `resources: {}` when empty.
  const resources = record(container, 'resources');
  if (isRecord(resources.limits)) canonicalizeResourceList(resources.limits);
  if (isRecord(resources.requests)) canonicalizeResourceList(resources.requests);
  if (isRecord(container.livenessProbe)) defaultProbe(container.livenessProbe);
  if (isRecord(container.readinessProbe)) defaultProbe(container.readinessProbe);
  if (isRecord(container.startupProbe)) defaultProbe(container.startupProbe);
  if (isRecord(container.lifecycle)) {
    defaultLifecycleHandler(container.lifecycle.postStart);
    defaultLifecycleHandler(container.lifecycle.preStop);
  }
  forEachRecord(container.env, defaultEnvVar);
}

function defaultPort(port: Json): void {
  setIfAbsent(port, 'protocol', 'TCP');
}

function defaultLifecycleHandler(handler: unknown): void {
  if (isRecord(handler) && isRecord(handler.httpGet)) defaultHttpGet(handler.httpGet);
}

function defaultEnvVar(env: Json): void {
  if (isRecord(env.valueFrom) && isRecord(env.valueFrom.fieldRef)) setIfAbsent(env.valueFrom.fieldRef, 'apiVersion', 'v1');
}

function defaultProbe(probe: Json): void {
  setIfZero(probe, 'timeoutSeconds', 1);
  setIfZero(probe, 'periodSeconds', 10);
  setIfZero(probe, 'successThreshold', 1);
  setIfZero(probe, 'failureThreshold', 3);
  if (isRecord(probe.httpGet)) defaultHttpGet(probe.httpGet);
  if (isRecord(probe.grpc) && probe.grpc.service === undefined) probe.grpc.service = '';
}

function defaultHttpGet(action: Json): void {
  setIfAbsent(action, 'path', '/');
  setIfAbsent(action, 'scheme', 'HTTP');
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi',
  'ephemeral', 'image',
];

/** SetDefaults_Volume and the per-source defaults (file modes are 0644, i.e. 420). */
function defaultVolume(volume: Json): void {
  if (!VOLUME_SOURCES.some((source) => volume[source] !== undefined && volume[source] !== null)) volume.emptyDir = {};
  for (const source of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isRecord(volume[source])) setIfAbsent(volume[source], 'defaultMode', 420);
  }
  if (isRecord(volume.hostPath)) setIfAbsent(volume.hostPath, 'type', '');
  if (isRecord(volume.projected)) {
    for (const projection of records(volume.projected.sources)) {
      if (isRecord(projection.serviceAccountToken)) setIfAbsent(projection.serviceAccountToken, 'expirationSeconds', 3600);
    }
  }
}

/**
 * The tag parsers.ParseImageName finds: `latest` when there is neither tag nor digest, empty
 * when there is only a digest. A `:` counts as a tag separator only after the last `/`
 * (`localhost:5000/app` has no tag).
 */
export function imageTag(image: string): string {
  const atDigest = image.indexOf('@');
  const name = atDigest >= 0 ? image.slice(0, atDigest) : image;
  const lastSlash = name.lastIndexOf('/');
  const colon = name.indexOf(':', lastSlash + 1);
  if (colon >= 0) return name.slice(colon + 1);
  return atDigest >= 0 ? '' : 'latest';
}

/** Quantities come back canonical (`0.5` → `500m`), rounded up to milli units (SetDefaults_ResourceList). */
function canonicalizeResourceList(list: Json): void {
  for (const name of Object.keys(list)) {
    const value = list[name];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const canonical = canonicalResourceQuantity(value);
    // Most values are canonical already: skip the store then (the list may be shared with a template).
    if (canonical !== undefined && canonical !== value) list[name] = canonical;
  }
}

function defaultPod(pod: KubeObject, options: DefaultingOptions): void {
  const spec = record(pod, 'spec');
  defaultPodSpec(spec);
  // SetDefaults_Pod: only pods (not templates) get requests copied from limits and service links on.
  forEachRecord(spec.containers, defaultRequestsFromLimits);
  forEachRecord(spec.initContainers, defaultRequestsFromLimits);
  if (typeof spec.enableServiceLinks !== 'boolean') spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    forEachRecord(spec.containers, defaultHostPorts);
    forEachRecord(spec.initContainers, defaultHostPorts);
  }
  if (!options.old) admitServiceAccount(pod, spec, options);
  admitDefaultTolerations(spec);
}

function defaultRequestsFromLimits(container: Json): void {
  const resources = record(container, 'resources');
  if (!isRecord(resources.limits)) return;
  const requests = record(resources, 'requests');
  for (const [name, limit] of Object.entries(resources.limits)) if (requests[name] === undefined) requests[name] = limit;
}

function defaultHostPorts(container: Json): void {
  forEachRecord(container.ports, (port) => {
    if (!port.hostPort) port.hostPort = port.containerPort;
  });
}

/** The ServiceAccount admission plugin: the `default` account and its projected API token volume. */
function admitServiceAccount(pod: KubeObject, spec: Json, options: DefaultingOptions): void {
  if (!spec.serviceAccountName) spec.serviceAccountName = 'default';
  spec.serviceAccount = spec.serviceAccountName;
  if (options.mountServiceAccountToken === false || spec.automountServiceAccountToken === false) return;
  const volumeName = TOKEN_VOLUME_PREFIX + (options.randomSuffix ? options.randomSuffix() : derivedSuffix(`${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? pod.metadata?.generateName ?? ''}`));
  const mountedInInit = mountTokenVolume(spec.initContainers, volumeName);
  const mounted = mountTokenVolume(spec.containers, volumeName);
  if (!mountedInInit && !mounted) return;
  const volumes = Array.isArray(spec.volumes) ? (spec.volumes as unknown[]) : [];
  // concat, not push: the stored array is exactly as long as its items (push reserves room for ~16 more, per pod).
  spec.volumes = volumes.concat([{ name: volumeName, projected: SERVICE_ACCOUNT_PROJECTION }]);
}

/** Mounts the token volume into each container that has nothing at its path yet; whether any was. */
function mountTokenVolume(containers: unknown, volumeName: string): boolean {
  let mounted = false;
  forEachRecord(containers, (container) => {
    const mounts = Array.isArray(container.volumeMounts) ? (container.volumeMounts as unknown[]) : [];
    if (hasMountAt(mounts, SERVICE_ACCOUNT_MOUNT_PATH)) return;
    container.volumeMounts = mounts.concat([{ name: volumeName, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH }]);
    mounted = true;
  });
  return mounted;
}

function hasMountAt(mounts: readonly unknown[], mountPath: string): boolean {
  for (const mount of mounts) if (isRecord(mount) && mount.mountPath === mountPath) return true;
  return false;
}

/** Five characters from the generator's alphabet, from an FNV-1a hash of `seed`. */
function derivedSuffix(seed: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += NAME_ALPHABET[hash % NAME_ALPHABET.length];
    hash = Math.floor(hash / NAME_ALPHABET.length) + i * 7919;
  }
  return out;
}

/** DefaultTolerationSeconds: tolerate not-ready and unreachable nodes for 300 s unless the pod already does. */
function admitDefaultTolerations(spec: Json): void {
  const existing: readonly unknown[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const addNotReady = !toleratesNoExecute(existing, NOT_READY_TAINT);
  const addUnreachable = !toleratesNoExecute(existing, UNREACHABLE_TAINT);
  if (!addNotReady && !addUnreachable) return;
  const added: unknown[] = addNotReady && addUnreachable ? [DEFAULT_TOLERATIONS[NOT_READY_TAINT], DEFAULT_TOLERATIONS[UNREACHABLE_TAINT]] : [DEFAULT_TOLERATIONS[addNotReady ? NOT_READY_TAINT : UNREACHABLE_TAINT]];
  spec.tolerations = existing.concat(added);
}

function toleratesNoExecute(tolerations: readonly unknown[], taint: string): boolean {
  for (const toleration of tolerations) {
    if (isRecord(toleration) && (toleration.key === taint || !toleration.key) && (toleration.effect === 'NoExecute' || !toleration.effect)) return true;
  }
  return false;
}

function defaultNamespace(namespace: KubeObject): void {
  const meta = namespace.metadata ?? (namespace.metadata = {});
  if (meta.name) meta.labels = { ...meta.labels, 'kubernetes.io/metadata.name': meta.name };
  const status = record(namespace, 'status');
  setIfAbsent(status, 'phase', 'Active');
}

function defaultNode(node: KubeObject): void {
  if (!isRecord(node.status)) return;
  const status = node.status;
  if (isRecord(status.capacity)) canonicalizeResourceList(status.capacity);
  if (isRecord(status.allocatable)) canonicalizeResourceList(status.allocatable);
  else if (isRecord(status.capacity)) status.allocatable = { ...status.capacity };
}

/** The strategies' PrepareForCreate of the kinds that have one. Call on create only. */
export function prepareForCreate(kind: ResourceKind, object: KubeObject): void {
  if (kind === 'Pod') preparePodForCreate(object);
  else if (kind === 'Job') prepareJobForCreate(object);
  else if (kind === 'CronJob') object.status = {};
  else if (kind === 'ReplicationController') prepareReplicationControllerForCreate(object);
  // The claim strategy empties the status; reading it back defaults the phase.
  else if (kind === 'PersistentVolumeClaim') object.status = { phase: 'Pending' };
}

/** rcStrategy.PrepareForCreate: the status starts empty and the generation at 1. */
function prepareReplicationControllerForCreate(object: KubeObject): void {
  object.status = { replicas: 0 };
  record(object as Json, 'metadata').generation = 1;
}

/**
 * The pod strategy's PrepareForCreate: a new pod's status is reset to Pending with its QoS class,
 * and a pod with scheduling gates gets PodScheduled=False/SchedulingGated.
 */
function preparePodForCreate(object: KubeObject): void {
  const spec = (isRecord(object.spec) ? object.spec : {}) as unknown as PodSpec;
  const status: Json = { phase: 'Pending', qosClass: podQOSClass(spec) };
  if ((spec.schedulingGates?.length ?? 0) > 0) {
    status.conditions = [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: null, reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }];
  }
  object.status = status;
}

function positiveNano(value: unknown): bigint | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const parsed = parseQuantity(value).quantity;
  return parsed && parsed.nano > 0n ? parsed.nano : undefined;
}

/** The pod's summed positive cpu and memory requests and limits, as qos.GetPodQOS adds them up. */
class QOSTally {
  requestCpu: bigint | undefined;
  requestMemory: bigint | undefined;
  limitCpu: bigint | undefined;
  limitMemory: bigint | undefined;
  /** Whether every container so far has both a cpu and a memory limit. */
  everyContainerLimited = true;

  add(container: Container): void {
    const requests = container.resources?.requests;
    const limits = container.resources?.limits;
    this.requestCpu = sum(this.requestCpu, positiveNano(requests?.cpu));
    this.requestMemory = sum(this.requestMemory, positiveNano(requests?.memory));
    const limitCpu = positiveNano(limits?.cpu);
    const limitMemory = positiveNano(limits?.memory);
    this.limitCpu = sum(this.limitCpu, limitCpu);
    this.limitMemory = sum(this.limitMemory, limitMemory);
    if (limitCpu === undefined || limitMemory === undefined) this.everyContainerLimited = false;
  }

  qosClass(): 'BestEffort' | 'Burstable' | 'Guaranteed' {
    const anyRequest = this.requestCpu !== undefined || this.requestMemory !== undefined;
    const anyLimit = this.limitCpu !== undefined || this.limitMemory !== undefined;
    if (!anyRequest && !anyLimit) return 'BestEffort';
    // Guaranteed: every container limits both, and each requested resource is requested exactly at its limit.
    const requestsMatchLimits =
      (this.requestCpu === undefined || this.requestCpu === this.limitCpu) && (this.requestMemory === undefined || this.requestMemory === this.limitMemory);
    const sameResources = (this.requestCpu === undefined) === (this.limitCpu === undefined) && (this.requestMemory === undefined) === (this.limitMemory === undefined);
    return this.everyContainerLimited && requestsMatchLimits && sameResources ? 'Guaranteed' : 'Burstable';
  }
}

function sum(total: bigint | undefined, value: bigint | undefined): bigint | undefined {
  if (value === undefined) return total;
  return total === undefined ? value : total + value;
}

/** qos.GetPodQOS: BestEffort, Burstable or Guaranteed from the cpu and memory requests and limits. */
export function podQOSClass(spec: PodSpec): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const tally = new QOSTally();
  const containers: Container[] = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  for (const container of containers) tally.add(container);
  return tally.qosClass();
}
