/**
 * Compact digests of the objects the tracer follows. The tracer diffs digests rather than whole
 * objects: a pod digest is a few hundred bytes where a pod as a watch delivers it is several
 * kilobytes, and 150,000 of them have to fit in memory. Everything is read defensively: real
 * streams carry nulls (`lastProbeTime: null`) and old or partial shapes.
 */
import type { KubeObject } from '../k8s';
import { parseTime, type TimeValue } from './time';
import type { TraceableKind } from './types';

export interface ConditionDigest {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: TimeValue;
  /** Deployments only: changes when the reason or message changes without a status change. */
  lastUpdateTime?: TimeValue;
}

export type ContainerStateName = 'waiting' | 'running' | 'terminated' | 'none';

export interface TerminationDigest {
  reason?: string;
  exitCode?: number;
  message?: string;
  startedAt?: TimeValue;
  finishedAt?: TimeValue;
}

export interface ContainerDigest {
  name: string;
  init: boolean;
  image?: string;
  state: ContainerStateName;
  /** waiting or terminated reason. */
  reason?: string;
  message?: string;
  startedAt?: TimeValue;
  terminated?: TerminationDigest;
  restartCount: number;
  ready: boolean;
  lastTerminated?: TerminationDigest;
}

export interface OwnerDigest {
  kind: string;
  name: string;
  uid: string;
}

export interface ManagerDigest {
  name: string;
  operation?: string;
  subresource?: string;
  time?: TimeValue;
}

interface CommonDigest {
  uid: string;
  name: string;
  namespace: string;
  resourceVersion?: string;
  generation?: number;
  created?: TimeValue;
  deletionTimestamp?: TimeValue;
  deletionGraceSeconds?: number;
  owner?: OwnerDigest;
  managers: ManagerDigest[];
}

export interface PodDigest extends CommonDigest {
  kind: 'Pod';
  nodeName?: string;
  phase?: string;
  statusReason?: string;
  statusMessage?: string;
  podIP?: string;
  conditions: ConditionDigest[];
  containers: ContainerDigest[];
  /** Containers in the spec (statuses may be missing early on). */
  /** The containers READY counts: sidecars first, then the regular containers. */
  specContainers: { name: string; image?: string; sidecar?: true }[];
  /** The PersistentVolumeClaims the pod mounts; absent when none. */
  claims?: string[];
  /** The pod's labels, the object's own (not copied): what a Service's selector is matched against. */
  labels?: Readonly<Record<string, string>>;
}

/** A StatefulSet's own fields. */
export interface StatefulSetFields {
  podManagementPolicy: string;
  serviceName?: string;
  currentRevision?: string;
  updateRevision?: string;
}

/** A Job's own fields (`spec.completions` unset: one success completes it, or any with parallelism). */
export interface JobFields {
  completions?: number;
  parallelism: number;
  backoffLimit: number;
  suspend: boolean;
  completionMode: string;
  active: number;
  succeeded: number;
  failed: number;
  startTime?: TimeValue;
  completionTime?: TimeValue;
}

/** A CronJob's own fields. */
export interface CronJobFields {
  schedule: string;
  timeZone?: string;
  suspend: boolean;
  concurrencyPolicy: string;
  active: number;
  lastScheduleTime?: TimeValue;
  lastSuccessfulTime?: TimeValue;
}

/** A Service's own fields. */
export interface ServiceFields {
  type: string;
  clusterIP?: string;
  nodePorts: number[];
  /** `spec.selector`; absent: the Service's endpoints are not managed by Kubernetes. */
  selector?: Record<string, string>;
  externalName?: string;
}

/** One endpoint of an EndpointSlice, by the pod it points to. */
export interface EndpointDigest {
  /** The pod's name (its address when the endpoint has no targetRef). */
  target: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  nodeName?: string;
}

/** An EndpointSlice's own fields. */
export interface SliceFields {
  serviceName?: string;
  endpoints: EndpointDigest[];
}

export type WorkloadKind = Exclude<TraceableKind, 'Pod'>;

/**
 * Every workload kind read into one shape: `specReplicas` is how many pods it wants (a
 * DaemonSet's desiredNumberScheduled, a Job's completions), `replicas`/`readyReplicas`/
 * `updatedReplicas`/`availableReplicas` how many it has, so the replica logic serves all kinds.
 */
export interface WorkloadDigest extends CommonDigest {
  kind: WorkloadKind;
  specReplicas: number;
  observedGeneration?: number;
  replicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  conditions: ConditionDigest[];
  revision?: string;
  /** `name=image` of the pod template's containers. */
  images: string[];
  /** Deployment `spec.strategy.rollingUpdate.maxUnavailable`, raw. */
  maxUnavailable?: string | number;
  statefulSet?: StatefulSetFields;
  service?: ServiceFields;
  slice?: SliceFields;
  job?: JobFields;
  cronJob?: CronJobFields;
}

export type ObjectDigest = PodDigest | WorkloadDigest;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export const read = { record, list, str, num };

type CompleteOwnerRef = Record<string, unknown> & { kind: string; name: string; uid: string };

function isComplete(ref: Record<string, unknown> | undefined): ref is CompleteOwnerRef {
  return !!str(ref?.kind) && !!str(ref?.name) && !!str(ref?.uid);
}

/** The owner reference a journey follows, as written (nothing built): the controller, else the first complete reference. */
export function followedOwnerRef(metadata: Record<string, unknown> | undefined): CompleteOwnerRef | undefined {
  let fallback: CompleteOwnerRef | undefined;
  for (const raw of list(metadata?.ownerReferences)) {
    const ref = record(raw);
    if (!isComplete(ref)) continue;
    if (ref.controller === true) return ref;
    fallback ??= ref;
  }
  return fallback;
}

function controllerOwner(metadata: Record<string, unknown> | undefined): OwnerDigest | undefined {
  const ref = followedOwnerRef(metadata);
  return ref && sharedOwner(ref.kind, ref.name, ref.uid);
}

/** Digests made from many objects share their small equal parts (an owner, a pod's spec containers): each traced pod keeps its digest. */
const SHARED_LIMIT = 4096;
const owners = new Map<string, OwnerDigest>();
const specContainerLists = new Map<string, PodDigest['specContainers']>();

function shared<T>(table: Map<string, T>, key: string, make: () => T): T {
  let value = table.get(key);
  if (value === undefined) {
    value = make();
    if (table.size >= SHARED_LIMIT) table.clear();
    table.set(key, value);
  }
  return value;
}

function sharedOwner(kind: string, name: string, uid: string): OwnerDigest {
  // Keyed by all three: a replayed or recorded stream may reuse a uid for another object.
  return shared(owners, `${uid}\u0000${kind}\u0000${name}`, () => ({ kind, name, uid }));
}

function managers(metadata: Record<string, unknown> | undefined): ManagerDigest[] {
  const out: ManagerDigest[] = [];
  for (const raw of list(metadata?.managedFields)) {
    const entry = record(raw);
    const name = str(entry?.manager);
    if (!name) continue;
    out.push({ name, operation: str(entry?.operation), subresource: str(entry?.subresource), time: parseTime(entry?.time) });
  }
  return out;
}

const NO_MANAGERS: ManagerDigest[] = [];

function common(object: KubeObject, ownedPod = false): CommonDigest | undefined {
  const metadata = record(object.metadata);
  const uid = str(metadata?.uid);
  const name = str(metadata?.name);
  if (!uid || !name) return undefined;
  const owner = controllerOwner(metadata);
  return {
    uid,
    name,
    namespace: str(metadata?.namespace) ?? 'default',
    resourceVersion: str(metadata?.resourceVersion),
    generation: num(metadata?.generation),
    created: parseTime(metadata?.creationTimestamp),
    deletionTimestamp: parseTime(metadata?.deletionTimestamp),
    deletionGraceSeconds: num(metadata?.deletionGracePeriodSeconds),
    owner,
    // Only roots (which have no owner) and workloads need their field managers; pods are most objects.
    managers: ownedPod && owner ? NO_MANAGERS : managers(metadata),
  };
}

const CONDITION_CACHE_LIMIT = 4096;
/**
 * Pods created together carry equal conditions (stamped to the same second), and every traced pod
 * keeps its latest digest: equal conditions share one frozen digest.
 */
const conditionCache = new Map<string, ConditionDigest>();

function conditionDigest(type: string, status: string, reason: string | undefined, message: string | undefined, transition: unknown, update: unknown): ConditionDigest {
  const key = `${type}\u0000${status}\u0000${reason ?? '\u0001'}\u0000${message ?? '\u0001'}\u0000${String(transition)}\u0000${String(update)}`;
  let digest = conditionCache.get(key);
  if (!digest) {
    digest = Object.freeze({ type, status, reason, message, lastTransitionTime: parseTime(transition), lastUpdateTime: parseTime(update) });
    if (conditionCache.size >= CONDITION_CACHE_LIMIT) conditionCache.clear();
    conditionCache.set(key, digest);
  }
  return digest;
}

/**
 * Digests of frozen conditions, by object: the simulator's kubelet writes one shared frozen object
 * for each equal condition, so a pod's update finds its digests without building their keys.
 */
const frozenConditions = new WeakMap<object, ConditionDigest | null>();

function conditionOf(raw: unknown): ConditionDigest | undefined {
  const c = record(raw);
  const type = str(c?.type);
  const value = str(c?.status);
  if (!type || !value) return undefined;
  return conditionDigest(type, value, str(c?.reason), str(c?.message), c?.lastTransitionTime, c?.lastUpdateTime);
}

function conditions(status: Record<string, unknown> | undefined): ConditionDigest[] {
  const out: ConditionDigest[] = [];
  for (const raw of list(status?.conditions)) {
    let digest: ConditionDigest | null | undefined;
    if (typeof raw === 'object' && raw !== null && Object.isFrozen(raw)) {
      digest = frozenConditions.get(raw);
      if (digest === undefined) frozenConditions.set(raw, (digest = conditionOf(raw) ?? null));
    } else digest = conditionOf(raw);
    if (digest) out.push(digest);
  }
  // Without the spare slots of an array grown by push: every traced pod keeps its latest digest.
  return out.slice();
}

function termination(value: unknown): TerminationDigest | undefined {
  const t = record(value);
  if (!t) return undefined;
  return {
    reason: str(t.reason),
    exitCode: num(t.exitCode),
    message: str(t.message),
    startedAt: parseTime(t.startedAt),
    finishedAt: parseTime(t.finishedAt),
  };
}

function container(raw: unknown, init: boolean): ContainerDigest | undefined {
  const c = record(raw);
  const name = str(c?.name);
  if (!c || !name) return undefined;
  const state = record(c.state);
  const waiting = record(state?.waiting);
  const running = record(state?.running);
  const terminated = termination(state?.terminated);
  const digest: ContainerDigest = {
    name,
    init,
    image: str(c.image),
    state: 'none',
    restartCount: num(c.restartCount) ?? 0,
    ready: c.ready === true,
    lastTerminated: termination(record(c.lastState)?.terminated),
  };
  if (running) {
    digest.state = 'running';
    digest.startedAt = parseTime(running.startedAt);
  } else if (terminated) {
    digest.state = 'terminated';
    digest.reason = terminated.reason;
    digest.message = terminated.message;
    digest.terminated = terminated;
  } else if (waiting) {
    digest.state = 'waiting';
    digest.reason = str(waiting.reason);
    digest.message = str(waiting.message);
  }
  return digest;
}

function serviceFields(spec: Record<string, unknown> | undefined): ServiceFields {
  const nodePorts: number[] = [];
  for (const raw of list(spec?.ports)) {
    const nodePort = num(record(raw)?.nodePort);
    if (nodePort) nodePorts.push(nodePort);
  }
  const selector: Record<string, string> = {};
  for (const [key, value] of Object.entries(record(spec?.selector) ?? {})) if (typeof value === 'string') selector[key] = value;
  return {
    type: str(spec?.type) ?? 'ClusterIP',
    clusterIP: str(spec?.clusterIP),
    nodePorts,
    selector: Object.keys(selector).length > 0 ? selector : undefined,
    externalName: str(spec?.externalName),
  };
}

function sliceFields(object: KubeObject): SliceFields {
  const endpoints: EndpointDigest[] = [];
  for (const raw of list(object.endpoints)) {
    const endpoint = record(raw);
    const conditions = record(endpoint?.conditions);
    const target = str(record(endpoint?.targetRef)?.name) ?? str(list(endpoint?.addresses)[0]);
    if (!target) continue;
    // Unset conditions mean ready and serving (discovery/v1: "nil should be interpreted as true").
    const digest: EndpointDigest = { target, ready: conditions?.ready !== false, serving: conditions?.serving !== false, terminating: conditions?.terminating === true };
    const nodeName = str(endpoint?.nodeName);
    if (nodeName) digest.nodeName = nodeName;
    endpoints.push(digest);
  }
  return { serviceName: str(record(record(object.metadata)?.labels)?.['kubernetes.io/service-name']), endpoints };
}

export function digestPod(object: KubeObject): PodDigest | undefined {
  const base = common(object, true);
  if (!base) return undefined;
  const spec = record(object.spec);
  const status = record(object.status);
  const containers: ContainerDigest[] = [];
  for (const raw of list(status?.initContainerStatuses)) {
    const c = container(raw, true);
    if (c) containers.push(c);
  }
  for (const raw of list(status?.containerStatuses)) {
    const c = container(raw, false);
    if (c) containers.push(c);
  }
  const specContainers: { name: string; image?: string; sidecar?: true }[] = [];
  let specKey = '';
  // Sidecars (init containers with restartPolicy Always) run beside the containers and count in READY, as kubectl counts them.
  for (const raw of list(spec?.initContainers)) {
    const c = record(raw);
    const name = str(c?.name);
    if (name && c?.restartPolicy === 'Always') {
      specContainers.push({ name, image: str(c?.image), sidecar: true });
      specKey += `${name}\u0000${str(c?.image) ?? '\u0001'}\u0000s\u0002`;
    }
  }
  for (const raw of list(spec?.containers)) {
    const c = record(raw);
    const name = str(c?.name);
    if (name) {
      specContainers.push({ name, image: str(c?.image) });
      specKey += `${name}\u0000${str(c?.image) ?? '\u0001'}\u0002`;
    }
  }
  const digest: PodDigest = {
    kind: 'Pod',
    uid: base.uid,
    name: base.name,
    namespace: base.namespace,
    resourceVersion: base.resourceVersion,
    generation: base.generation,
    created: base.created,
    deletionTimestamp: base.deletionTimestamp,
    deletionGraceSeconds: base.deletionGraceSeconds,
    owner: base.owner,
    managers: base.managers,
    nodeName: str(spec?.nodeName),
    phase: str(status?.phase),
    statusReason: str(status?.reason),
    statusMessage: str(status?.message),
    podIP: str(status?.podIP),
    conditions: conditions(status),
    // Without the spare slots of an array grown by push.
    containers: containers.slice(),
    // Read only: pods of one template share one list.
    specContainers: shared(specContainerLists, specKey, () => specContainers),
    labels: record(record(object.metadata)?.labels) as Record<string, string> | undefined,
  };
  const claims = podClaimNames(spec);
  if (claims) digest.claims = claims;
  return digest;
}

/** The claims a pod mounts (`spec.volumes[].persistentVolumeClaim.claimName`); undefined for none. */
function podClaimNames(spec: Record<string, unknown> | undefined): string[] | undefined {
  let names: string[] | undefined;
  for (const raw of list(spec?.volumes)) {
    const claimName = str(record(record(raw)?.persistentVolumeClaim)?.claimName);
    if (claimName) (names ??= []).push(claimName);
  }
  return names;
}

/** The pod template of a workload: a CronJob's is inside its jobTemplate. */
function podTemplateOf(kind: WorkloadKind, spec: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return kind === 'CronJob' ? record(record(record(spec?.jobTemplate)?.spec)?.template) : record(spec?.template);
}

/** `specReplicas` and the counts, read from each kind's own fields. */
function replicaCounts(kind: WorkloadKind, spec: Record<string, unknown> | undefined, status: Record<string, unknown> | undefined): Pick<WorkloadDigest, 'specReplicas' | 'replicas' | 'updatedReplicas' | 'readyReplicas' | 'availableReplicas'> {
  switch (kind) {
    case 'DaemonSet':
      return {
        specReplicas: num(status?.desiredNumberScheduled) ?? 0,
        replicas: num(status?.currentNumberScheduled) ?? 0,
        updatedReplicas: num(status?.updatedNumberScheduled) ?? 0,
        readyReplicas: num(status?.numberReady) ?? 0,
        availableReplicas: num(status?.numberAvailable) ?? 0,
      };
    case 'Job':
      return { specReplicas: num(spec?.completions) ?? 1, replicas: num(status?.active) ?? 0, updatedReplicas: 0, readyReplicas: num(status?.ready) ?? 0, availableReplicas: num(status?.succeeded) ?? 0 };
    case 'CronJob':
      return { specReplicas: 1, replicas: list(status?.active).length, updatedReplicas: 0, readyReplicas: 0, availableReplicas: 0 };
    case 'Service':
    case 'EndpointSlice':
      // Counted from their endpoints (see serviceFields, sliceFields), not from replicas.
      return { specReplicas: 0, replicas: 0, updatedReplicas: 0, readyReplicas: 0, availableReplicas: 0 };
    default:
      return {
        specReplicas: num(spec?.replicas) ?? 1,
        replicas: num(status?.replicas) ?? 0,
        updatedReplicas: num(status?.updatedReplicas) ?? 0,
        readyReplicas: num(status?.readyReplicas) ?? 0,
        availableReplicas: num(status?.availableReplicas) ?? 0,
      };
  }
}

export function digestWorkload(object: KubeObject, kind: WorkloadKind): WorkloadDigest | undefined {
  const base = common(object);
  if (!base) return undefined;
  const spec = record(object.spec);
  const status = record(object.status);
  const annotations = record(record(object.metadata)?.annotations);
  const images: string[] = [];
  for (const raw of list(record(podTemplateOf(kind, spec)?.spec)?.containers)) {
    const c = record(raw);
    const name = str(c?.name);
    if (name) images.push(`${name}=${str(c?.image) ?? ''}`);
  }
  const rollingUpdate = record(record(spec?.strategy)?.rollingUpdate);
  const maxUnavailable = rollingUpdate?.maxUnavailable;
  return {
    kind,
    uid: base.uid,
    name: base.name,
    namespace: base.namespace,
    resourceVersion: base.resourceVersion,
    generation: base.generation,
    created: base.created,
    deletionTimestamp: base.deletionTimestamp,
    deletionGraceSeconds: base.deletionGraceSeconds,
    owner: base.owner,
    managers: base.managers,
    ...replicaCounts(kind, spec, status),
    observedGeneration: num(status?.observedGeneration),
    conditions: conditions(status),
    revision: str(annotations?.['deployment.kubernetes.io/revision']),
    images,
    maxUnavailable: typeof maxUnavailable === 'string' || typeof maxUnavailable === 'number' ? maxUnavailable : undefined,
    statefulSet: kind === 'StatefulSet' ? statefulSetFields(spec, status) : undefined,
    service: kind === 'Service' ? serviceFields(spec) : undefined,
    slice: kind === 'EndpointSlice' ? sliceFields(object) : undefined,
    job: kind === 'Job' ? jobFields(spec, status) : undefined,
    cronJob: kind === 'CronJob' ? cronJobFields(spec, status) : undefined,
  };
}

function statefulSetFields(spec: Record<string, unknown> | undefined, status: Record<string, unknown> | undefined): StatefulSetFields {
  return {
    podManagementPolicy: str(spec?.podManagementPolicy) ?? 'OrderedReady',
    serviceName: str(spec?.serviceName),
    currentRevision: str(status?.currentRevision),
    updateRevision: str(status?.updateRevision),
  };
}

function jobFields(spec: Record<string, unknown> | undefined, status: Record<string, unknown> | undefined): JobFields {
  return {
    completions: num(spec?.completions),
    parallelism: num(spec?.parallelism) ?? 1,
    backoffLimit: num(spec?.backoffLimit) ?? 6,
    suspend: spec?.suspend === true,
    completionMode: str(spec?.completionMode) ?? 'NonIndexed',
    active: num(status?.active) ?? 0,
    succeeded: num(status?.succeeded) ?? 0,
    failed: num(status?.failed) ?? 0,
    startTime: parseTime(status?.startTime),
    completionTime: parseTime(status?.completionTime),
  };
}

function cronJobFields(spec: Record<string, unknown> | undefined, status: Record<string, unknown> | undefined): CronJobFields {
  return {
    schedule: str(spec?.schedule) ?? '',
    timeZone: str(spec?.timeZone),
    suspend: spec?.suspend === true,
    concurrencyPolicy: str(spec?.concurrencyPolicy) ?? 'Allow',
    active: list(status?.active).length,
    lastScheduleTime: parseTime(status?.lastScheduleTime),
    lastSuccessfulTime: parseTime(status?.lastSuccessfulTime),
  };
}

export function findCondition(list: readonly ConditionDigest[], type: string): ConditionDigest | undefined {
  for (const c of list) if (c.type === type) return c;
  return undefined;
}

/** The client that wrote the object last (not a controller, the scheduler or a kubelet). */
export function clientManager(managersList: readonly ManagerDigest[]): ManagerDigest | undefined {
  let best: ManagerDigest | undefined;
  for (const m of managersList) {
    if (m.subresource === 'status') continue;
    if (m.name === 'kube-controller-manager' || m.name === 'kube-scheduler' || m.name === 'kubelet') continue;
    if (!best || (m.time && (!best.time || m.time.ms >= best.time.ms))) best = m;
  }
  return best;
}

/** The kube-controller-manager's latest write of the object itself (not its status): when it last scaled. */
export function controllerWrite(managersList: readonly ManagerDigest[]): ManagerDigest | undefined {
  for (const m of managersList) if (m.name === 'kube-controller-manager' && m.subresource !== 'status') return m;
  return undefined;
}

/** `kubectl get pods`-style summary of a container's state. */
export function containerStateLabel(c: ContainerDigest): string {
  if (c.state === 'running') return 'Running';
  if (c.state === 'terminated') return c.reason ?? 'Terminated';
  if (c.state === 'waiting') return c.reason ?? 'Waiting';
  return 'Unknown';
}

/** Rollout finished, the way `kubectl rollout status` decides it. */
export function deploymentRolledOut(d: WorkloadDigest): boolean {
  if (d.generation !== undefined && (d.observedGeneration === undefined || d.generation > d.observedGeneration)) return false;
  const progressing = findCondition(d.conditions, 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') return false;
  return d.updatedReplicas >= d.specReplicas && d.replicas <= d.updatedReplicas && d.availableReplicas >= d.updatedReplicas;
}
