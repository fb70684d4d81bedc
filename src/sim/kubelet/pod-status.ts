/**
 * The kubelet's API status for a pod, generated from what the container runtime knows, as
 * `kubelet_pods.go generateAPIPodStatus`, `status/generate.go` and the status manager's merge do:
 * phase (`getPhase`), container statuses (with the reason cache's waiting reasons and the
 * previous instance as lastState), the kubelet-owned conditions in their real order
 * (PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled) with
 * lastTransitionTime kept while a condition's status does not change.
 */
import type { Container, ContainerStatus, Pod, PodCondition } from '../../core/k8s';
import { rfc3339 as formatRfc3339 } from '../store/object-utils';

const formatted = new Map<number, string>();

/** RFC 3339 in whole seconds, remembered: statuses repeat the same few seconds many times. */
function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  let text = formatted.get(second);
  if (text === undefined) {
    if (formatted.size >= 4096) formatted.clear();
    text = formatRfc3339(ms);
    formatted.set(second, text);
  }
  return text;
}

/**
 * Status parts that thousands of pods hold with equal values (a condition that turned True in the
 * same second, a container running since the same second, a node's host IP). The API server keeps
 * objects read-only, so one frozen instance is shared instead of a copy per pod.
 */
class SharedParts<T> {
  private readonly parts = new Map<string, T>();
  constructor(private readonly limit = 4096) {}

  get(key: string, make: () => T): T {
    let part = this.parts.get(key);
    if (part === undefined) {
      if (this.parts.size >= this.limit) this.parts.clear();
      part = Object.freeze(make());
      this.parts.set(key, part);
    }
    return part;
  }
}

/** Conditions filed by transition time (the same few string instances), then matched field by field: no key to build. */
class SharedConditions {
  private readonly byTime = new Map<string, WrittenPodCondition[]>();

  get(type: string, status: string, lastTransitionTime: string, reason: string | undefined, message: string | undefined): WrittenPodCondition {
    let list = this.byTime.get(lastTransitionTime);
    if (!list) {
      if (this.byTime.size >= 4096) this.byTime.clear();
      this.byTime.set(lastTransitionTime, (list = []));
    }
    for (const c of list) if (c.type === type && c.status === status && c.reason === reason && c.message === message) return c;
    const condition: WrittenPodCondition = Object.freeze({ type, status, lastProbeTime: null, lastTransitionTime, ...(reason ? { reason } : {}), ...(message ? { message } : {}) });
    list.push(condition);
    return condition;
  }
}

const sharedConditions = new SharedConditions();
const sharedRunningStates = new SharedParts<ContainerStatus['state']>();
const sharedHostIPs = new SharedParts<ReadonlyArray<{ ip: string }>>();
const NO_LAST_STATE: ContainerStatus['lastState'] = Object.freeze({});

export type PodStatus = NonNullable<Pod['status']>;

/** A condition as the API serves it: `lastProbeTime` is written as an explicit null. */
export type WrittenPodCondition = Omit<PodCondition, 'lastProbeTime'> & { lastProbeTime: string | null };
/** The status the kubelet writes (the API server's JSON, null fields included). */
export type WrittenPodStatus = Omit<PodStatus, 'conditions'> & { conditions: Array<PodCondition | WrittenPodCondition> };

/** One container process the runtime created for a container of the spec. */
export interface ContainerInstance {
  /** `containerd://<64 hex>` */
  id: string;
  /** 0 for the first instance; the restart count of the container while this instance is the latest. */
  attempt: number;
  /** The image as the runtime names it, e.g. `docker.io/library/nginx:1.25`. */
  image: string;
  imageId: string;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  message?: string;
}

/** The kubelet's knowledge of one container of the spec. */
export interface ContainerRecord {
  spec: Container;
  init: boolean;
  current?: ContainerInstance;
  previous?: ContainerInstance;
  /** The reason cache: why the last start attempt failed (ErrImagePull, CrashLoopBackOff, …). */
  waiting?: { reason: string; message?: string };
  /** The readiness probe's verdict for the current instance. */
  ready: boolean;
}

export interface PodRuntimeView {
  spec: Pod['spec'];
  hostIP: string;
  podIP?: string;
  sandboxReady: boolean;
  startTime: number;
  initContainers: ContainerRecord[];
  containers: ContainerRecord[];
  /** The pod will never run containers again (being deleted, or finished for good). */
  terminal: boolean;
}

export interface GeneratedPodStatus {
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  conditions: PodCondition[];
  hostIP: string;
  podIP?: string;
  startTime: number;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses: ContainerStatus[];
}

/** Conditions the kubelet owns: the status manager replaces them, and keeps every other one. */
const KUBELET_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodReadyToStartContainers']);

export const CONTAINER_STATUS_UNKNOWN_MESSAGE = 'The container could not be located when the pod was terminated';

export function isRunning(instance: ContainerInstance | undefined): boolean {
  return instance?.startedAt !== undefined && instance.finishedAt === undefined;
}

export function hasExited(instance: ContainerInstance | undefined): boolean {
  return instance?.finishedAt !== undefined;
}

/** `kubecontainer.ShouldContainerBeRestarted` for a container that is not running. */
export function shouldRestart(record: ContainerRecord, restartPolicy: string | undefined): boolean {
  const current = record.current;
  if (isRunning(current)) return false;
  if (!hasExited(current)) return true;
  if (record.init) return current!.exitCode !== 0 && restartPolicy !== 'Never';
  if (restartPolicy === 'Never') return false;
  if (restartPolicy === 'OnFailure') return current!.exitCode !== 0;
  return true;
}

function terminatedState(instance: ContainerInstance): ContainerStatus['state'] {
  return {
    terminated: {
      exitCode: instance.exitCode ?? 0,
      reason: instance.reason,
      ...(instance.message ? { message: instance.message } : {}),
      startedAt: instance.startedAt !== undefined ? rfc3339(instance.startedAt) : undefined,
      finishedAt: rfc3339(instance.finishedAt ?? 0),
      containerID: instance.id,
    },
  };
}

function containerStatus(record: ContainerRecord, view: PodRuntimeView, defaultWaitingReason: string): ContainerStatus {
  const { spec, current, previous } = record;
  let state: ContainerStatus['state'];
  let lastState: ContainerStatus['lastState'] = previous && hasExited(previous) ? terminatedState(previous) : NO_LAST_STATE;
  let ready = false;
  let started = false;
  if (current && isRunning(current)) {
    const startedAt = rfc3339(current.startedAt!);
    state = sharedRunningStates.get(startedAt, () => ({ running: Object.freeze({ startedAt }) }));
    started = true;
    ready = record.ready;
  } else if (current && hasExited(current)) {
    state = terminatedState(current);
    if (record.init) ready = current.exitCode === 0;
  } else {
    state = { waiting: { reason: current ? 'ContainerCreating' : defaultWaitingReason } };
  }
  if (record.waiting && !view.terminal && shouldRestart(record, view.spec?.restartPolicy)) {
    if (state?.terminated) lastState = state;
    state = { waiting: { reason: record.waiting.reason, ...(record.waiting.message ? { message: record.waiting.message } : {}) } };
    ready = false;
  }
  if (view.terminal && !state?.terminated) {
    state = { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: CONTAINER_STATUS_UNKNOWN_MESSAGE } };
    ready = false;
  }
  // Field order as the API server serializes ContainerStatus.
  const status: ContainerStatus = {
    name: spec.name,
    state,
    lastState,
    ready,
    restartCount: current?.attempt ?? 0,
    image: current ? current.image : (spec.image ?? ''),
    imageID: current ? current.imageId : '',
    ...(current ? { containerID: current.id } : {}),
    started,
  };
  if (current && spec.volumeMounts && spec.volumeMounts.length > 0) {
    status.volumeMounts = spec.volumeMounts.map((mount) => ({
      name: mount.name,
      mountPath: mount.mountPath,
      ...(mount.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}),
    }));
  }
  return status;
}

/** `getPhase` (kubelet_pods.go), for regular init containers and containers. */
export function podPhase(spec: Pod['spec'], initStatuses: ContainerStatus[], statuses: ContainerStatus[], terminal: boolean): GeneratedPodStatus['phase'] {
  let pendingInit = 0;
  let failedInit = 0;
  for (const status of initStatuses) {
    const state = status.state ?? {};
    if (state.running) pendingInit++;
    else if (state.terminated) {
      if (state.terminated.exitCode !== 0) failedInit++;
    } else if (state.waiting && status.lastState?.terminated) {
      if (status.lastState.terminated.exitCode !== 0) failedInit++;
    } else pendingInit++;
  }
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const status of statuses) {
    const state = status.state ?? {};
    if (state.running) running++;
    else if (state.terminated) {
      stopped++;
      if (state.terminated.exitCode === 0) succeeded++;
    } else if (status.lastState?.terminated) stopped++;
    else waiting++;
  }
  const restartPolicy = spec?.restartPolicy ?? 'Always';
  if (failedInit > 0 && restartPolicy === 'Never') return 'Failed';
  if (pendingInit > 0 || waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (terminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function condition(type: string, status: boolean, reason?: string, message?: string): PodCondition {
  return { type, status: status ? 'True' : 'False', ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

function goList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

function containersReadyCondition(view: PodRuntimeView, statuses: ContainerStatus[], phase: GeneratedPodStatus['phase']): PodCondition {
  if (phase === 'Succeeded') return condition('ContainersReady', false, 'PodCompleted');
  if (phase === 'Failed') return condition('ContainersReady', false, 'PodFailed');
  const unready = statuses.filter((s) => !s.ready).map((s) => s.name);
  if (unready.length > 0) return condition('ContainersReady', false, 'ContainersNotReady', `containers with unready status: ${goList(unready)}`);
  return condition('ContainersReady', true);
}

function readyCondition(view: PodRuntimeView, containersReady: PodCondition, existing: PodCondition[] | undefined): PodCondition {
  if (containersReady.status !== 'True') return { ...containersReady, type: 'Ready' };
  const unready: string[] = [];
  for (const gate of view.spec?.readinessGates ?? []) {
    const found = existing?.find((c) => c.type === gate.conditionType);
    if (!found) unready.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (found.status !== 'True') unready.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${found.status}`);
  }
  if (unready.length > 0) return condition('Ready', false, 'ReadinessGatesNotReady', unready.join(', '));
  return condition('Ready', true);
}

function initializedCondition(view: PodRuntimeView, initStatuses: ContainerStatus[], statuses: ContainerStatus[], phase: GeneratedPodStatus['phase']): PodCondition {
  if (phase === 'Succeeded') return condition('Initialized', true, 'PodCompleted');
  const regularStarted = statuses.some((s) => s.state?.running || s.state?.terminated || s.lastState?.terminated);
  if (regularStarted) return condition('Initialized', true);
  const incomplete = initStatuses.filter((s) => !s.ready).map((s) => s.name);
  if (incomplete.length > 0) return condition('Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: ${goList(incomplete)}`);
  return condition('Initialized', true);
}

/** The status the kubelet would write now, before merging with what the API server holds. */
export function generatePodStatus(view: PodRuntimeView, existingConditions?: PodCondition[]): GeneratedPodStatus {
  const hasInit = view.initContainers.length > 0;
  const defaultWaiting = hasInit ? 'PodInitializing' : 'ContainerCreating';
  const initStatuses = view.initContainers.map((record) => containerStatus(record, view, defaultWaiting));
  const statuses = view.containers.map((record) => containerStatus(record, view, defaultWaiting));
  const phase = podPhase(view.spec, initStatuses, statuses, view.terminal);
  const containersReady = containersReadyCondition(view, statuses, phase);
  const conditions = [
    condition('PodReadyToStartContainers', view.sandboxReady),
    initializedCondition(view, initStatuses, statuses, phase),
    readyCondition(view, containersReady, existingConditions),
    containersReady,
    condition('PodScheduled', true),
  ];
  return {
    phase,
    conditions,
    hostIP: view.hostIP,
    podIP: view.podIP,
    startTime: view.startTime,
    ...(hasInit ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: statuses,
  };
}

/**
 * The status manager's merge: conditions owned by others stay (first), kubelet conditions follow
 * in generated order, and a condition keeps its lastTransitionTime while its status is unchanged.
 * A pod that reached Succeeded or Failed never leaves it.
 */
export function mergePodStatus(old: PodStatus | undefined, generated: GeneratedPodStatus, now: number): WrittenPodStatus {
  const oldConditions = old?.conditions ?? [];
  const conditions: Array<PodCondition | WrittenPodCondition> = oldConditions.filter((c) => !KUBELET_CONDITIONS.has(c.type));
  for (const c of generated.conditions) {
    const previous = oldConditions.find((o) => o.type === c.type);
    const lastTransitionTime = previous && previous.status === c.status && previous.lastTransitionTime ? previous.lastTransitionTime : rfc3339(now);
    conditions.push(sharedConditions.get(c.type, c.status, lastTransitionTime!, c.reason || undefined, c.message || undefined));
  }
  const oldPhase = old?.phase;
  const phase = oldPhase === 'Succeeded' || oldPhase === 'Failed' ? oldPhase : generated.phase;
  const podIP = old?.podIP;
  const podIPs = old?.podIPs;
  const startTime = old?.startTime;
  const keptIP = generated.podIP ?? podIP;
  // Field order as the API server serializes PodStatus.
  const merged: WrittenPodStatus = {
    phase,
    conditions,
    ...(old?.message ? { message: old.message } : {}),
    ...(old?.reason ? { reason: old.reason } : {}),
    hostIP: generated.hostIP,
    hostIPs: sharedHostIPs.get(generated.hostIP, () => [Object.freeze({ ip: generated.hostIP })]) as Array<{ ip: string }>,
    ...(keptIP ? { podIP: keptIP, podIPs: generated.podIP ? [{ ip: generated.podIP }] : podIPs } : {}),
    startTime: startTime ?? rfc3339(generated.startTime),
    ...(generated.initContainerStatuses ? { initContainerStatuses: generated.initContainerStatuses } : {}),
    containerStatuses: generated.containerStatuses,
  };
  // Every other field of the old status (qosClass, nominatedNodeName, …) stays, as a spread of the rest would keep it.
  if (old) {
    const rest = old as Record<string, unknown>;
    const out = merged as Record<string, unknown>;
    for (const field in rest) if (!REGENERATED_STATUS_FIELDS.has(field)) out[field] = rest[field];
  }
  return merged;
}

/** Status fields the merge writes itself. */
const REGENERATED_STATUS_FIELDS = new Set(['phase', 'conditions', 'hostIP', 'hostIPs', 'podIP', 'podIPs', 'startTime', 'initContainerStatuses', 'containerStatuses']);
