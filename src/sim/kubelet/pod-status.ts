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
 * Status parts that thousands of pods hold with equal values (a container running since the same
 * second, a node's host IP). The API server keeps objects read-only, so one frozen instance is
 * shared instead of a copy per pod.
 */
class SharedParts<T extends object> {
  private readonly parts = new Map<string, T>();
  // Statuses are written in bursts of pods that started in the same second: the last part found usually fits.
  private lastKey: string | undefined;
  private lastPart: T | undefined;
  constructor(private readonly limit = 4096) {}

  find(key: string): T | undefined {
    if (key === this.lastKey) return this.lastPart;
    const part = this.parts.get(key);
    if (part !== undefined) this.remember(key, part);
    return part;
  }

  add(key: string, part: T): T {
    if (this.parts.size >= this.limit) this.parts.clear();
    this.parts.set(key, Object.freeze(part));
    this.remember(key, part);
    return part;
  }

  private remember(key: string, part: T): void {
    this.lastKey = key;
    this.lastPart = part;
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

type ContainerState = NonNullable<ContainerStatus['state']>;

const sharedConditions = new SharedConditions();
const sharedRunningStates = new SharedParts<ContainerState>();
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
  /** The current instance has a startup probe that has not succeeded yet (`started: false`). */
  startupPending?: boolean;
  /** The spec's volume mounts as container statuses list them, made once (status generation fills it in). */
  mountStatuses?: ContainerStatus['volumeMounts'];
}

/** `status.hostIPs`: made once per node, shared by the statuses of all its pods. */
export type HostIPs = ReadonlyArray<Readonly<{ ip: string }>>;

export function hostIPsOf(hostIP: string): HostIPs {
  return Object.freeze([Object.freeze({ ip: hostIP })]);
}

export interface PodRuntimeView {
  spec: Pod['spec'];
  hostIP: string;
  hostIPs: HostIPs;
  podIP?: string;
  sandboxReady: boolean;
  startTime: number;
  initContainers: readonly ContainerRecord[];
  containers: readonly ContainerRecord[];
  /** The pod will never run containers again (being deleted, or finished for good). */
  terminal: boolean;
}

export interface GeneratedPodStatus {
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  conditions: PodCondition[];
  hostIP: string;
  hostIPs: HostIPs;
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

/** A sidecar: an init container with `restartPolicy: Always`, started in order and kept running beside the containers. */
export function isSidecar(record: ContainerRecord): boolean {
  return record.init && record.spec.restartPolicy === 'Always';
}

/** `kubecontainer.ShouldContainerBeRestarted` for a container that is not running. */
export function shouldRestart(record: ContainerRecord, restartPolicy: string | undefined): boolean {
  const current = record.current;
  if (isRunning(current)) return false;
  if (!hasExited(current)) return true;
  if (isSidecar(record)) return true;
  if (record.init) return current!.exitCode !== 0 && restartPolicy !== 'Never';
  if (restartPolicy === 'Never') return false;
  if (restartPolicy === 'OnFailure') return current!.exitCode !== 0;
  return true;
}

const CONTAINER_STATUS_UNKNOWN: ContainerState = Object.freeze({
  terminated: Object.freeze({ exitCode: 137, reason: 'ContainerStatusUnknown', message: CONTAINER_STATUS_UNKNOWN_MESSAGE }),
});
/** Waiting states without a message (ContainerCreating, PodInitializing), one frozen instance per reason. */
const sharedWaitingStates = new SharedParts<ContainerState>();

function terminatedState(instance: ContainerInstance): ContainerState {
  const exitCode = instance.exitCode ?? 0;
  const reason = instance.reason;
  const startedAt = instance.startedAt !== undefined ? rfc3339(instance.startedAt) : undefined;
  const finishedAt = rfc3339(instance.finishedAt ?? 0);
  const containerID = instance.id;
  const message = instance.message;
  return {
    terminated: message
      ? { exitCode, reason, message, startedAt, finishedAt, containerID }
      : { exitCode, reason, startedAt, finishedAt, containerID },
  };
}

function runningState(startedAtMs: number): ContainerState {
  const startedAt = rfc3339(startedAtMs);
  return sharedRunningStates.find(startedAt) ?? sharedRunningStates.add(startedAt, { running: Object.freeze({ startedAt }) });
}

function waitingState(reason: string, message: string | undefined): ContainerState {
  if (message) return { waiting: { reason, message } };
  return sharedWaitingStates.find(reason) ?? sharedWaitingStates.add(reason, { waiting: Object.freeze({ reason }) });
}

function mountStatuses(mounts: NonNullable<Container['volumeMounts']>): NonNullable<ContainerStatus['volumeMounts']> {
  const statuses = mounts.map((mount) =>
    Object.freeze(mount.readOnly ? { name: mount.name, mountPath: mount.mountPath, readOnly: true, recursiveReadOnly: 'Disabled' } : { name: mount.name, mountPath: mount.mountPath }),
  );
  Object.freeze(statuses);
  return statuses;
}

function containerStatus(record: ContainerRecord, view: PodRuntimeView, defaultWaitingReason: string): ContainerStatus {
  const { spec, current, previous } = record;
  let state: ContainerState;
  let lastState: ContainerStatus['lastState'] = previous && hasExited(previous) ? terminatedState(previous) : NO_LAST_STATE;
  let ready = false;
  let started = false;
  if (current && isRunning(current)) {
    state = runningState(current.startedAt!);
    started = !record.startupPending;
    // A regular init container is ready once it has completed, not while it runs.
    ready = record.init && !isSidecar(record) ? false : record.ready;
  } else if (current && hasExited(current)) {
    state = terminatedState(current);
    if (record.init && !isSidecar(record)) ready = current.exitCode === 0;
  } else {
    state = waitingState(current ? 'ContainerCreating' : defaultWaitingReason, undefined);
  }
  const waiting = record.waiting;
  if (waiting && !view.terminal && shouldRestart(record, view.spec?.restartPolicy)) {
    if (state.terminated) lastState = state;
    state = waitingState(waiting.reason, waiting.message);
    ready = false;
  }
  if (view.terminal && !state.terminated) {
    state = CONTAINER_STATUS_UNKNOWN;
    ready = false;
  }
  // Field order as the API server serializes ContainerStatus; each shape written as one literal.
  const name = spec.name;
  if (!current) return { name, state, lastState, ready, restartCount: 0, image: spec.image ?? '', imageID: '', started };
  const { attempt: restartCount, image, imageId: imageID, id: containerID } = current;
  const mounts = spec.volumeMounts;
  if (!mounts || mounts.length === 0) return { name, state, lastState, ready, restartCount, image, imageID, containerID, started };
  // The spec of a record never changes: its mount statuses are made once and shared by every status written.
  const volumeMounts = (record.mountStatuses ??= mountStatuses(mounts));
  return { name, state, lastState, ready, restartCount, image, imageID, containerID, started, volumeMounts };
}

function containerStatuses(records: readonly ContainerRecord[], view: PodRuntimeView, defaultWaitingReason: string): ContainerStatus[] {
  // map sizes the stored list exactly (a list grown by push keeps room for 16 more).
  return records.map((record) => containerStatus(record, view, defaultWaitingReason));
}

/** `getPhase` (kubelet_pods.go), for regular init containers and containers. */
export function podPhase(spec: Pod['spec'], initStatuses: ContainerStatus[], statuses: ContainerStatus[], terminal: boolean): GeneratedPodStatus['phase'] {
  let pendingInit = 0;
  let failedInit = 0;
  const initSpecs = spec?.initContainers;
  for (let i = 0; i < initStatuses.length; i++) {
    const status = initStatuses[i];
    const state = status.state ?? {};
    // A started sidecar is initialized; its later exits restart it and never fail the pod.
    if (initSpecs?.[i]?.restartPolicy === 'Always') {
      if (!status.started) pendingInit++;
      continue;
    }
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

/** Conditions without a reason or message, one frozen instance per type and status. */
const plainConditions = { True: new Map<string, PodCondition>(), False: new Map<string, PodCondition>() };

function condition(type: string, isTrue: boolean, reason?: string, message?: string): PodCondition {
  const status = isTrue ? 'True' : 'False';
  if (reason) return message ? { type, status, reason, message } : { type, status, reason };
  if (message) return { type, status, message };
  const byType = plainConditions[status];
  let plain = byType.get(type);
  if (!plain) byType.set(type, (plain = Object.freeze({ type, status })));
  return plain;
}

function goList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

/**
 * `<prefix>[a b]` condition messages. The usual single-container message is made once per name:
 * every pod of a Deployment repeats it, and a message seen before is cheaper to compare and share.
 */
class ListMessages {
  private readonly single = new Map<string, string>();
  constructor(private readonly prefix: string) {}

  of(names: string[]): string {
    if (names.length !== 1) return `${this.prefix}${goList(names)}`;
    const name = names[0];
    let message = this.single.get(name);
    if (message === undefined) {
      if (this.single.size >= 4096) this.single.clear();
      this.single.set(name, (message = `${this.prefix}${goList(names)}`));
    }
    return message;
  }
}

const unreadyMessages = new ListMessages('containers with unready status: ');
const incompleteMessages = new ListMessages('containers with incomplete status: ');

/** Names of the statuses that are not ready, or undefined when all are. */
function unreadyNames(statuses: ContainerStatus[]): string[] | undefined {
  let names: string[] | undefined;
  for (const status of statuses) if (!status.ready) (names ??= []).push(status.name);
  return names;
}

function containersReadyCondition(statuses: ContainerStatus[], phase: GeneratedPodStatus['phase']): PodCondition {
  if (phase === 'Succeeded') return condition('ContainersReady', false, 'PodCompleted');
  if (phase === 'Failed') return condition('ContainersReady', false, 'PodFailed');
  const unready = unreadyNames(statuses);
  if (unready) return condition('ContainersReady', false, 'ContainersNotReady', unreadyMessages.of(unready));
  return condition('ContainersReady', true);
}

function readyCondition(view: PodRuntimeView, containersReady: PodCondition, existing: PodCondition[] | undefined): PodCondition {
  if (containersReady.status !== 'True') return condition('Ready', false, containersReady.reason, containersReady.message);
  const gates = view.spec?.readinessGates;
  if (!gates || gates.length === 0) return condition('Ready', true);
  const unready: string[] = [];
  for (const gate of gates) {
    const found = existing?.find((c) => c.type === gate.conditionType);
    if (!found) unready.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (found.status !== 'True') unready.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${found.status}`);
  }
  if (unready.length > 0) return condition('Ready', false, 'ReadinessGatesNotReady', unready.join(', '));
  return condition('Ready', true);
}

function anyStarted(statuses: ContainerStatus[]): boolean {
  for (const status of statuses) if (status.state?.running || status.state?.terminated || status.lastState?.terminated) return true;
  return false;
}

/** Init containers not done yet: a regular one until it has completed, a sidecar until it has started. */
function incompleteInitNames(initStatuses: ContainerStatus[], initSpecs: Container[] | undefined): string[] | undefined {
  let names: string[] | undefined;
  for (let i = 0; i < initStatuses.length; i++) {
    const status = initStatuses[i];
    const done = initSpecs?.[i]?.restartPolicy === 'Always' ? status.started : status.state?.terminated?.exitCode === 0;
    if (!done) (names ??= []).push(status.name);
  }
  return names;
}

function initializedCondition(initStatuses: ContainerStatus[], initSpecs: Container[] | undefined, statuses: ContainerStatus[], phase: GeneratedPodStatus['phase']): PodCondition {
  if (phase === 'Succeeded') return condition('Initialized', true, 'PodCompleted');
  if (anyStarted(statuses)) return condition('Initialized', true);
  const incomplete = incompleteInitNames(initStatuses, initSpecs);
  if (incomplete) return condition('Initialized', false, 'ContainersNotInitialized', incompleteMessages.of(incomplete));
  return condition('Initialized', true);
}

function hasSidecars(view: PodRuntimeView): boolean {
  for (const record of view.initContainers) if (isSidecar(record)) return true;
  return false;
}

/** The sidecars' statuses: ContainersReady and Ready wait for them as for the containers. */
function sidecarStatuses(initStatuses: ContainerStatus[], initSpecs: Container[] | undefined): ContainerStatus[] {
  return initStatuses.filter((_, i) => initSpecs?.[i]?.restartPolicy === 'Always');
}

const NO_STATUSES: ContainerStatus[] = [];
Object.freeze(NO_STATUSES);

/** The status the kubelet would write now, before merging with what the API server holds. */
export function generatePodStatus(view: PodRuntimeView, existingConditions?: PodCondition[]): GeneratedPodStatus {
  const hasInit = view.initContainers.length > 0;
  const defaultWaiting = hasInit ? 'PodInitializing' : 'ContainerCreating';
  const initStatuses = hasInit ? containerStatuses(view.initContainers, view, defaultWaiting) : NO_STATUSES;
  const statuses = containerStatuses(view.containers, view, defaultWaiting);
  const phase = podPhase(view.spec, initStatuses, statuses, view.terminal);
  const containersReady = containersReadyCondition(hasSidecars(view) ? [...sidecarStatuses(initStatuses, view.spec?.initContainers), ...statuses] : statuses, phase);
  const conditions = [
    condition('PodReadyToStartContainers', view.sandboxReady),
    initializedCondition(initStatuses, view.spec?.initContainers, statuses, phase),
    readyCondition(view, containersReady, existingConditions),
    containersReady,
    condition('PodScheduled', true),
  ];
  const generated: GeneratedPodStatus = { phase, conditions, hostIP: view.hostIP, hostIPs: view.hostIPs, podIP: view.podIP, startTime: view.startTime, containerStatuses: statuses };
  if (hasInit) generated.initContainerStatuses = initStatuses;
  return generated;
}

function findCondition(conditions: PodCondition[], type: string): PodCondition | undefined {
  for (const c of conditions) if (c.type === type) return c;
  return undefined;
}

/** The merged conditions: others' first, then the generated ones with lastTransitionTime kept while the status holds. */
function mergeConditions(oldConditions: PodCondition[] | undefined, generated: PodCondition[], now: number): Array<PodCondition | WrittenPodCondition> {
  const conditions: Array<PodCondition | WrittenPodCondition> = [];
  if (oldConditions) for (const c of oldConditions) if (!KUBELET_CONDITIONS.has(c.type)) conditions.push(c);
  for (const c of generated) {
    const previous = oldConditions && findCondition(oldConditions, c.type);
    const lastTransitionTime = previous && previous.status === c.status && previous.lastTransitionTime ? previous.lastTransitionTime : rfc3339(now);
    conditions.push(sharedConditions.get(c.type, c.status, lastTransitionTime, c.reason || undefined, c.message || undefined));
  }
  // The list is stored with the pod: a copy at its exact length, without the room push left for 16 more.
  return conditions.slice();
}

/**
 * The status manager's merge: conditions owned by others stay (first), kubelet conditions follow
 * in generated order, and a condition keeps its lastTransitionTime while its status is unchanged.
 * A pod that reached Succeeded or Failed never leaves it.
 */
export function mergePodStatus(old: PodStatus | undefined, generated: GeneratedPodStatus, now: number): WrittenPodStatus {
  const oldPhase = old?.phase;
  const phase = oldPhase === 'Succeeded' || oldPhase === 'Failed' ? oldPhase : generated.phase;
  // Field order as the API server serializes PodStatus.
  const merged: WrittenPodStatus = { phase, conditions: mergeConditions(old?.conditions, generated.conditions, now) };
  if (old?.message) merged.message = old.message;
  if (old?.reason) merged.reason = old.reason;
  merged.hostIP = generated.hostIP;
  merged.hostIPs = generated.hostIPs as Array<{ ip: string }>;
  const podIP = generated.podIP;
  const keptIP = podIP ?? old?.podIP;
  if (keptIP) {
    merged.podIP = keptIP;
    merged.podIPs = podIP ? [{ ip: podIP }] : old?.podIPs;
  }
  merged.startTime = old?.startTime ?? rfc3339(generated.startTime);
  if (generated.initContainerStatuses) merged.initContainerStatuses = generated.initContainerStatuses;
  merged.containerStatuses = generated.containerStatuses;
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
