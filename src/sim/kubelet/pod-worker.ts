/**
 * One pod on one node, driven the way the kubelet's pod worker drives it (`kubelet.go syncPod`,
 * `kuberuntime_manager.go SyncPod`, `images/image_manager.go`):
 *
 * - A sync first writes the status generated from what the runtime knows, then creates the
 *   sandbox if needed, then starts the containers that should run (one init container at a
 *   time, else every regular container, in spec order): back-off check, image, create, start.
 *   Image pulls and container starts take virtual time, so a sync is a chain of timer steps.
 * - A sync is triggered by the pod's arrival, by PLEG (container started or exited, seen within
 *   the 1 s relist period) and, after a failed sync, by the worker's back-off resync (10–15 s).
 *   Syncs never overlap; a trigger during a sync runs another one after it.
 * - Graceful deletion stops the containers (SIGTERM, SIGKILL after the grace period), writes the
 *   terminal status, then deletes the pod with grace period 0.
 *
 * Which images fail to pull and which commands exit is decided from the manifest alone: see
 * images.ts `pullFailure`, container-behaviour.ts and docs/simulator-failures.md.
 *
 * Per pod this costs a handful of timers and two or three status writes; nothing polls. A worker
 * lives as long as its pod runs (150,000 of them in the big benchmark), so its state stays small.
 */
import type { Container, KubeObject, Pod } from '../../core/k8s';
import type { TimerHandle } from '../clock';
import type { EventOptions, EventSource, SimContext } from '../context';
import { claimMountError } from './claim-volumes';
import { ApiError } from '../store/types';
import { flattened } from '../store/object-utils';
import type { Backoff } from './backoff';
import { assumedExit, assumedRunningReason, exitsOnSigterm, GRACEFUL_STOP_MS, plannedExit, sigtermResponse, unreadableCommandReason, type AssumedExitPlan, type ExitPlan } from './container-behaviour';
import { hookFailureMessage, hookOutcome, type LifecycleHandler } from './lifecycle-hooks';
import { exceedsMemoryLimit, OOM_KILL_MS, OOM_KILLED_EXIT_CODE, OOM_KILLED_REASON } from './memory-limit';
import { formatGoDuration } from './go-duration';
import { defaultPullPolicy, lookupImage, type ImageLookup, type ResolvedImage } from './images';
import {
  generatePodStatus,
  hasExited,
  isRunning,
  isSidecar,
  mergePodStatus,
  shouldRestart,
  type ContainerInstance,
  type ContainerRecord,
  type GeneratedPodStatus,
  type HostIPs,
  type PodRuntimeView,
  type PodStatus,
} from './pod-status';
import type { ContainerRuntime, PullJob, PullOutcome, PullRequester } from './runtime';
import { startProbing, type ProbeHost, type ProbeKind } from './prober';
import { containerConfigError, missingPullSecrets, pullSecretsWarning, volumeSetUpError, type SourceLookup } from './pod-sources';
import { PodVolumeMounts } from './volume-mounts';

/** What a node's kubelet lends to each of its pod workers. */
export interface NodeServices {
  ctx: SimContext;
  nodeName: string;
  hostIP: string;
  hostIPs: HostIPs;
  /** The `source` of this kubelet's events, one instance for all its pods. */
  eventSource: EventSource;
  runtime: ContainerRuntime;
  /** Image pull back-off, keyed `<pod uid>_<image>` as upstream. */
  imageBackoff: Backoff;
  /** Container restart back-off, keyed per pod and container. */
  restartBackoff: Backoff;
  allocatePodIP(uid: string): string;
  releasePodIP(uid: string): void;
  /** Marks an IP a copied pod already holds as in use. */
  reservePodIP(uid: string, ip: string): void;
  /** The worker is finished with its pod (deleted, or gone from the node). */
  forget(uid: string): void;
}

/** The kubelet pod worker's retry period after a failed sync (`backOffPeriod`), jittered by up to 50 %. */
const SYNC_ERROR_BACKOFF_MS = 10_000;
/** PLEG relists containers every second: a change is noticed up to 1 s later. */
const PLEG_RELIST_MS = 1000;
/** An init container whose command the simulator cannot follow completes after about this long. */
const INIT_CONTAINER_RUN_MS = 1000;
/** `minimumGracePeriodInSeconds`: what a container is given after a preStop hook, however long the hook took. */
const MIN_GRACE_AFTER_HOOK_MS = 2000;
const SANDBOX_STOP_MS = 60;

/** Pods meant to finish (a Job's): restartPolicy Never or OnFailure. */
function runsToCompletion(restartPolicy: string | undefined): boolean {
  return restartPolicy === 'Never' || restartPolicy === 'OnFailure';
}

/** A pod as the store holds it. */
export type PodObject = Pod & KubeObject;

/**
 * Event messages and references made from one name (a container's or an image's), each made once
 * per name: every pod of a Deployment repeats them, and a string seen before is cheaper for the
 * recorder to look up.
 */
function madeOncePerName<T>(make: (name: string) => T): (name: string) => T {
  const made = new Map<string, T>();
  return (name) => {
    let value = made.get(name);
    if (value === undefined) {
      if (made.size >= 4096) made.clear();
      made.set(name, (value = make(name)));
    }
    return value;
  };
}

/**
 * The options of the kubelet's events about a container: the fieldPath of
 * kubecontainer.GenerateContainerRef, which `kubectl get events -o wide` shows as SUBOBJECT and
 * which tells a pod's containers apart (each pulling its image is an Event of its own).
 */
const containerEventOptions = madeOncePerName((name): EventOptions => Object.freeze({ fieldPath: flattened(`spec.containers{${name}}`) }));
const initContainerEventOptions = madeOncePerName((name): EventOptions => Object.freeze({ fieldPath: flattened(`spec.initContainers{${name}}`) }));

const createdMessage = madeOncePerName((name) => `Created container: ${name}`);
const startedMessage = madeOncePerName((name) => `Started container ${name}`);
const pullingMessage = madeOncePerName((image) => `Pulling image "${image}"`);
const presentMessage = madeOncePerName((image) => `Container image "${image}" already present on machine`);

/** An image the container can run with, resolved from its reference. */
type ImageFound = Extract<ImageLookup, { ok: true }>;
type ImageResult = ImageFound | { ok: false; reason: string; message: string };

/** A pull a worker waits for in its node's queue, with what the worker needs once it ends. */
interface ImagePull extends PullJob {
  readonly record: TrackedRecord;
  readonly lookup: ImageFound;
  /** When the pull was queued: the Pulled event tells how long it waited. */
  readonly requestedAt: number;
}

/**
 * A sync's run through the containers it starts, one after another in spec order. It lives on the
 * worker (syncs never overlap), and a start that ends goes on with `containerStartEnded` instead of
 * a `done` callback handed down every step: while a pull waits in the node's queue, as most pods of
 * a big trace do at once, the pod then costs this record and the pull's job, not a closure chain.
 */
interface ContainerStarts {
  readonly toStart: readonly TrackedRecord[];
  /** The container being started. */
  index: number;
  /** Some container failed to start: the sync ends failed. */
  failed: boolean;
  /** This sync created the sandbox. */
  readonly sandboxCreated: boolean;
}

/**
 * A container record with what the last status write saw of it: the status manager's "unchanged,
 * skip the write" check compares these few fields instead of generating the status.
 */
interface TrackedRecord extends ContainerRecord {
  /**
   * The instance at the last write. Instances are never reused (each attempt is a new one, with
   * a new id) and `previous` only changes together with `current`, so comparing this covers both.
   */
  writtenCurrent: ContainerInstance | undefined;
  /** `recordBits` at the last write; -1 before the first. */
  writtenBits: number;
  writtenWaiting: ContainerRecord['waiting'];
  /** How the kubelet's events about this container refer to it (see `containerEventOptions`). */
  readonly eventOptions: EventOptions;
}

function trackedRecord(spec: Container, init: boolean): TrackedRecord {
  const eventOptions = (init ? initContainerEventOptions : containerEventOptions)(spec.name);
  // Every field set up front: all records share one object shape.
  return { spec, init, current: undefined, previous: undefined, waiting: undefined, ready: false, mountStatuses: undefined, writtenCurrent: undefined, writtenBits: -1, writtenWaiting: undefined, eventOptions };
}

function newInstance(id: string, attempt: number, image: string, imageId: string): ContainerInstance {
  return { id, attempt, image, imageId, startedAt: undefined, finishedAt: undefined, exitCode: undefined, reason: undefined };
}

/**
 * Readiness and the current instance's progress as bits. An instance's start and finish times are
 * set once each, so for the same instance "set or not" tells as much as the times themselves.
 */
function recordBits(record: ContainerRecord): number {
  const current = record.current;
  return (record.ready ? 1 : 0) | (current?.startedAt !== undefined ? 2 : 0) | (current?.finishedAt !== undefined ? 4 : 0) | (record.startupPending ? 8 : 0);
}

function sameWaiting(a: ContainerRecord['waiting'], b: ContainerRecord['waiting']): boolean {
  return a === b || (a !== undefined && b !== undefined && a.reason === b.reason && a.message === b.message);
}

function recordChanged(record: TrackedRecord): boolean {
  return record.current !== record.writtenCurrent || recordBits(record) !== record.writtenBits || !sameWaiting(record.waiting, record.writtenWaiting);
}

function rememberWritten(record: TrackedRecord): void {
  record.writtenCurrent = record.current;
  record.writtenBits = recordBits(record);
  record.writtenWaiting = record.waiting;
}

const NO_RECORDS: readonly TrackedRecord[] = Object.freeze([]);

function trackedRecords(specs: Container[] | undefined, init: boolean): readonly TrackedRecord[] {
  if (!specs || specs.length === 0) return NO_RECORDS;
  return specs.map((spec) => trackedRecord(spec, init));
}

/** A container status as a copied pod's status holds it. */
type ContainerStatusOf = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/** The instance a copied container status describes: running, or exited with its code; none while it waits. */
function adoptedInstance(status: ContainerStatusOf, podStartedAt: number): ContainerInstance | undefined {
  const { running, terminated } = status.state ?? {};
  if (!running && !terminated) return undefined;
  const instance = newInstance(status.containerID ?? '', status.restartCount ?? 0, status.image ?? '', status.imageID ?? '');
  const started = Date.parse((running ?? terminated)?.startedAt ?? '');
  instance.startedAt = Number.isFinite(started) ? started : podStartedAt;
  if (terminated) {
    const finished = Date.parse(terminated.finishedAt ?? '');
    instance.finishedAt = Number.isFinite(finished) ? finished : instance.startedAt;
    instance.exitCode = terminated.exitCode;
    instance.reason = terminated.reason;
  }
  return instance;
}

/**
 * What the kubelet assumed of a container since its last status write: an exit it could not read,
 * a run it keeps going unread, or a pull of an image it cannot know exists.
 */
type UnreportedAssumption =
  | { container: string; exitCode: number; runMs: number; reason: string }
  | { container: string; reason: string; probe?: ProbeKind; hook?: 'postStart' | 'preStop' }
  | { container: string; image: string; reason: string; alreadyPresent?: true };

export class PodWorker implements PullRequester<ImagePull> {
  readonly uid: string;
  private pod: PodObject;
  private readonly initContainers: readonly TrackedRecord[];
  private readonly containers: readonly TrackedRecord[];
  private readonly startTime: number;
  private sandboxReady = false;
  private podIP: string | undefined;
  private syncing = false;
  /** Virtual time a trigger that arrived during a sync asked for. */
  private pendingSyncAt = Infinity;
  private syncTimer: TimerHandle | undefined;
  private syncDueAt = Infinity;
  private terminating = false;
  /** Reached Succeeded/Failed or deletion finished: no more syncs. */
  private finished = false;
  private gone = false;
  /** Exits and runs assumed since the last status write (see `assumedExit`), reported with the next one; pulls are reported at once. */
  private unreportedAssumptions: UnreportedAssumption[] | undefined;
  /** The pod will never run containers again: container statuses are final. */
  private terminalView = false;
  /** `podBits` at the last status write; -1 before the first. */
  private writtenPodBits = -1;
  /** `gateStatuses` at the last status write. */
  private writtenGates: string | undefined;
  private lastPhase: GeneratedPodStatus['phase'] = 'Pending';
  /** Every volume is set up (checked once; mounted volumes stay mounted). */
  private volumesMounted = false;
  /** The volume manager's work for this pod while some volume cannot be set up. */
  private volumeMounts: PodVolumeMounts | undefined;
  /** The running sync's container starts, once it has come to them. */
  private starts: ContainerStarts | undefined;

  /**
   * `adopted`: the pod was started by the kubelet of the cluster it was copied from (a twin): its
   * sandbox, IP and containers are taken from its status instead of being created again, and a
   * pod whose containers all run is left alone until something changes it.
   */
  constructor(
    private readonly node: NodeServices,
    pod: PodObject,
    adopted = false,
  ) {
    this.pod = pod;
    this.uid = pod.metadata?.uid ?? '';
    const spec = pod.spec;
    this.initContainers = trackedRecords(spec?.initContainers, true);
    this.containers = trackedRecords(spec?.containers, false);
    const ctx = node.ctx;
    const startedAt = adopted ? Date.parse(pod.status?.startTime ?? '') : NaN;
    this.startTime = Number.isFinite(startedAt) ? startedAt : ctx.clock.now();
    const running = adopted && this.adoptStatus(pod);
    if (!running) this.requestSync(ctx.clock.random.around(ctx.timings.controllerReaction));
    if (pod.metadata?.deletionTimestamp) this.terminate();
  }

  /**
   * Takes the sandbox, the pod IP and each container's instance from a copied pod's status, and
   * counts that status as written; returns whether every container that should run is running.
   */
  private adoptStatus(pod: PodObject): boolean {
    const status = pod.status;
    if (status?.podIP) {
      this.podIP = status.podIP;
      this.node.reservePodIP(this.uid, status.podIP);
    }
    this.sandboxReady = status?.phase === 'Running' || status?.podIP !== undefined;
    const adoptRecords = (records: readonly TrackedRecord[], statuses: readonly ContainerStatusOf[] | undefined): void => {
      for (const record of records) {
        const found = statuses?.find((s) => s.name === record.spec.name);
        if (!found) continue;
        record.current = adoptedInstance(found, Date.parse(status?.startTime ?? '') || this.ctx.clock.now());
        record.ready = found.ready === true;
        record.startupPending = found.started === false;
      }
    };
    adoptRecords(this.initContainers, status?.initContainerStatuses);
    adoptRecords(this.containers, status?.containerStatuses);
    this.rememberWritten(this.gateStatuses());
    this.lastPhase = (status?.phase as GeneratedPodStatus['phase'] | undefined) ?? 'Pending';
    return this.sandboxReady && this.containersToStart().length === 0;
  }

  /**
   * The probe workers' view of this pod worker (see prober.ts), made when a container with a
   * probe starts: a field initializer made its ten closures for every pod, probed or not.
   */
  private probeHostMade: ProbeHost | undefined;

  private probeHost(): ProbeHost {
    return (this.probeHostMade ??= this.newProbeHost());
  }

  private newProbeHost(): ProbeHost {
    return {
      now: () => this.ctx.clock.now(),
      after: (ms, run) => {
        this.ctx.clock.after(ms, run);
      },
      aborted: () => this.aborted(),
      podIP: () => this.podIP ?? '',
      podStartTime: () => this.startTime,
      firstProbeDelay: () => this.ctx.timings.statusSync,
      containerEvent: (record, type, reason, message) => this.containerEvent(record as TrackedRecord, type, reason, message),
      statusChanged: () => {
        this.writeStatus();
      },
      kill: (record, instance, graceMs) => this.killForProbe(record as TrackedRecord, instance, graceMs),
      assume: (record, probe, reason) => {
        // Nothing to write for a probe that passes: reported at once, against the pod version it ran at.
        (this.unreportedAssumptions ??= []).push({ container: record.spec.name, reason, probe });
        this.reportAssumptions();
      },
    };
  }

  /** A failed liveness or startup probe: stop the instance within the grace period; the next sync restarts it. */
  private killForProbe(record: TrackedRecord, instance: ContainerInstance, graceMs: number): void {
    this.killContainer(record, instance, graceMs, () => {
      if (!this.aborted() && record.current === instance) this.requestSync(this.plegDelay());
    });
  }

  /**
   * `killContainer`: the preStop hook if any (within the grace period), then SIGTERM, then
   * SIGKILL when the rest of the grace period ends. `stopped` runs once the instance has exited.
   */
  private killContainer(record: TrackedRecord, instance: ContainerInstance, graceMs: number, stopped: () => void): void {
    const preStop = record.spec.lifecycle?.preStop;
    if (preStop && graceMs > 0) this.runPreStop(record, instance, preStop, graceMs, stopped);
    else this.signalStop(record, instance, graceMs, stopped);
  }

  private runPreStop(record: TrackedRecord, instance: ContainerInstance, preStop: LifecycleHandler, graceMs: number, stopped: () => void): void {
    const clock = this.ctx.clock;
    const hook = hookOutcome(preStop, record.spec, this.podIP ?? '', clock.now() - (instance.startedAt ?? clock.now()));
    // A hook that stops the main process (`nginx -s quit`) lasts at least until the process is gone.
    const quitMs = hook.stopsMainProcess ? this.jittered(GRACEFUL_STOP_MS) : 0;
    const hookMs = Math.min(hook.runMs === Infinity ? Infinity : Math.max(quitMs, this.jittered(hook.runMs)), graceMs);
    const cutOff = hook.runMs === Infinity || hookMs === graceMs;
    if (hook.assumed !== undefined) (this.unreportedAssumptions ??= []).push({ container: record.spec.name, reason: hook.assumed, hook: 'preStop' });
    if (hook.stopsMainProcess) {
      clock.after(Math.min(quitMs, graceMs), () => {
        if (!this.gone && isRunning(instance)) this.containerExited(record, instance, 0);
      });
    }
    // The hook's exec dies with the container: one cut off by the grace period fails then.
    const failed = hook.error !== undefined || (cutOff && !hook.stopsMainProcess);
    clock.after(hookMs, () => {
      if (this.gone) return;
      if (failed && !cutOff) this.containerEvent(record, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
      const remainingMs = Math.max(MIN_GRACE_AFTER_HOOK_MS, graceMs - Math.floor(hookMs / 1000) * 1000);
      this.signalStop(record, instance, remainingMs, () => {
        if (failed && cutOff) this.containerEvent(record, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
        stopped();
      });
    });
  }

  /** SIGTERM, and SIGKILL (exit code 137) once `graceMs` have passed if the process is still running. */
  private signalStop(record: TrackedRecord, instance: ContainerInstance, graceMs: number, stopped: () => void): void {
    if (!isRunning(instance)) {
      stopped();
      return;
    }
    const response = sigtermResponse(record.spec);
    const exitMs = response === undefined ? Infinity : this.jittered(response.withinMs);
    this.ctx.clock.after(Math.min(exitMs, graceMs), () => {
      if (this.gone) return;
      if (isRunning(instance)) this.containerExited(record, instance, exitMs <= graceMs ? response!.exitCode : 137);
      stopped();
    });
  }

  private get ctx(): SimContext {
    return this.node.ctx;
  }

  private get namespace(): string {
    return this.pod.metadata?.namespace ?? 'default';
  }

  private get name(): string {
    return this.pod.metadata?.name ?? '';
  }

  /** `format.Pod`: `name_namespace(uid)`, as kubelet messages print a pod. */
  private get podDescription(): string {
    return `${this.name}_${this.namespace}(${this.uid})`;
  }

  /** The pod object changed on the API server (our own status writes included). */
  update(pod: PodObject): void {
    this.pod = pod;
    if (pod.metadata?.deletionTimestamp && !this.terminating) this.terminate();
  }

  /** The pod is gone from the API server, or from this node: drop everything. */
  remove(): void {
    if (this.gone) return;
    this.gone = true;
    this.finished = true;
    this.ctx.clock.cancel(this.syncTimer);
    this.volumeMounts?.stop();
    this.node.releasePodIP(this.uid);
    this.forgetBackoffs(this.initContainers);
    this.forgetBackoffs(this.containers);
    this.node.forget(this.uid);
  }

  private forgetBackoffs(records: readonly TrackedRecord[]): void {
    for (const record of records) {
      this.node.restartBackoff.delete(this.restartKey(record));
      this.node.imageBackoff.delete(this.imageKey(record.spec));
    }
  }

  // ------------------------------------------------------------------------------------------
  // Sync triggers

  private requestSync(delayMs: number): void {
    if (this.finished || this.terminating) return;
    const clock = this.ctx.clock;
    const at = clock.now() + Math.max(0, delayMs);
    if (this.syncing) {
      this.pendingSyncAt = Math.min(this.pendingSyncAt, at);
      return;
    }
    if (at >= this.syncDueAt) return;
    clock.cancel(this.syncTimer);
    this.syncDueAt = at;
    this.syncTimer = clock.after(at - clock.now(), () => {
      this.syncTimer = undefined;
      this.syncDueAt = Infinity;
      this.sync();
    });
  }

  private plegDelay(): number {
    return this.ctx.clock.random.int(1, PLEG_RELIST_MS);
  }

  private jittered(ms: number): number {
    return this.ctx.clock.random.around(ms);
  }

  /** Whether a step of an in-flight sync must stop (the pod is being deleted or is gone). */
  private aborted(): boolean {
    return this.terminating || this.gone;
  }

  // ------------------------------------------------------------------------------------------
  // syncPod

  private sync(): void {
    if (this.finished || this.aborted()) return;
    this.syncing = true;
    const phase = this.writeStatus();
    if (!phase) return;
    if (phase === 'Succeeded' || phase === 'Failed') {
      this.syncing = false;
      this.finishTerminalPod();
      return;
    }
    if (!this.volumesMounted && !this.mountVolumes()) {
      // WaitForAttachAndMount: the sync waits; the volume manager resumes it once everything is mounted.
      this.syncing = false;
      return;
    }
    if (this.pod.spec?.imagePullSecrets?.length) this.warnMissingPullSecrets();
    const toStart = this.containersToStart();
    if (this.sandboxReady) return this.startContainers(toStart, false);
    // WaitForAttachAndMount: the pod's claims are mounted before its sandbox exists.
    const mountError = claimMountError(this.ctx.store, this.pod);
    if (mountError === undefined) return this.createSandbox(toStart);
    this.event('Warning', 'FailedMount', mountError);
    this.completeSync(true, false);
  }

  /** Objects of the pod's namespace, as the kubelet's ConfigMap and Secret managers serve them. */
  private sourceLookup(): SourceLookup {
    const store = this.ctx.store;
    const namespace = this.namespace;
    return { configMap: (name) => store.get('ConfigMap', namespace, name), secret: (name) => store.get('Secret', namespace, name) };
  }

  /** Whether every volume is set up; if not, the volume manager keeps trying and resumes the sync. */
  private mountVolumes(): boolean {
    if (!this.volumeMounts) {
      // Nearly every pod mounts at once: only one that waits gets the volume manager's retry state.
      const lookup = this.sourceLookup();
      if (!this.pod.spec?.volumes?.some((volume) => volumeSetUpError(volume, lookup) !== undefined)) {
        this.volumesMounted = true;
        return true;
      }
    }
    this.volumeMounts ??= new PodVolumeMounts(
      {
        clock: this.ctx.clock,
        lookup: this.sourceLookup(),
        failedMount: (message) => this.event('Warning', 'FailedMount', message),
        mounted: (delayMs) => this.requestSync(delayMs),
      },
      this.pod.spec?.volumes,
    );
    if (!this.volumeMounts.ready()) return false;
    this.volumeMounts = undefined;
    this.volumesMounted = true;
    return true;
  }

  private warnMissingPullSecrets(): void {
    const missing = missingPullSecrets(this.pod.spec, this.sourceLookup());
    if (missing.length > 0) this.event('Warning', 'FailedToRetrieveImagePullSecret', pullSecretsWarning(missing));
  }

  /** Start `toStart` one after another, in spec order, then end the sync. */
  private startContainers(toStart: readonly TrackedRecord[], sandboxCreated: boolean): void {
    this.starts = { toStart, index: 0, failed: false, sandboxCreated };
    this.startNextContainer();
  }

  /** Start the sync's next container, or end the sync once every one has had its try. */
  private startNextContainer(): void {
    if (this.aborted()) return;
    const starts = this.starts!;
    if (starts.index >= starts.toStart.length) {
      this.starts = undefined;
      this.completeSync(starts.failed, starts.sandboxCreated);
      return;
    }
    this.startContainer(starts.toStart[starts.index]);
  }

  /** The current container's start is over: it runs (`ok`), or it failed. On to the next one. */
  private containerStartEnded(ok: boolean): void {
    const starts = this.starts!;
    if (!ok) starts.failed = true;
    starts.index++;
    this.startNextContainer();
  }

  private completeSync(failed: boolean, sandboxCreated: boolean): void {
    this.syncing = false;
    if (this.aborted()) return;
    const pending = this.pendingSyncAt;
    this.pendingSyncAt = Infinity;
    if (pending !== Infinity) this.requestSync(pending - this.ctx.clock.now());
    if (failed) {
      // PLEG reports the new sandbox soon after a failed first sync; otherwise the worker retries later.
      if (sandboxCreated) this.requestSync(this.plegDelay());
      this.requestSync(SYNC_ERROR_BACKOFF_MS * (1 + this.ctx.clock.random.next() * 0.5));
    }
  }

  /** `computePodActions`, reduced: the next init container, or every regular container that should run. */
  private containersToStart(): readonly TrackedRecord[] {
    const restartPolicy = this.pod.spec?.restartPolicy;
    let sidecarsToRestart: TrackedRecord[] | undefined;
    for (const record of this.initContainers) {
      const current = record.current;
      if (isSidecar(record)) {
        // Started in order like any init container; once initialized, restarted whenever it exits.
        if (isRunning(current)) continue;
        if (!current?.startedAt) return [record];
        (sidecarsToRestart ??= []).push(record);
        continue;
      }
      if (hasExited(current) && current!.exitCode === 0) continue;
      if (isRunning(current)) return NO_RECORDS;
      if (hasExited(current) && restartPolicy === 'Never') return NO_RECORDS;
      return [record];
    }
    let toStart: TrackedRecord[] | undefined = sidecarsToRestart;
    for (const record of this.containers) {
      if (!isRunning(record.current) && shouldRestart(record, restartPolicy)) (toStart ??= []).push(record);
    }
    return toStart ?? NO_RECORDS;
  }

  private createSandbox(toStart: readonly TrackedRecord[]): void {
    const timings = this.ctx.timings;
    const sandboxMs = Math.max(0, timings.kubeletPickup - timings.controllerReaction - timings.imagePresentCheck);
    this.ctx.clock.after(this.jittered(sandboxMs), () => {
      if (this.aborted()) return;
      this.sandboxReady = true;
      this.podIP ??= this.node.allocatePodIP(this.uid);
      this.startContainers(toStart, true);
    });
  }

  // ------------------------------------------------------------------------------------------
  // Containers

  private restartKey(record: ContainerRecord): string {
    return `${this.uid}/${record.init ? 'init/' : ''}${record.spec.name}`;
  }

  private imageKey(container: Container): string {
    return `${this.uid}_${container.image ?? ''}`;
  }

  /** An event about the pod as a whole (FailedMount, FailedToRetrieveImagePullSecret). */
  private event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.events.record(this.pod, type, reason, message, this.node.eventSource);
  }

  /** An event about one of the pod's containers: the kubelet's `recordContainerEvent`, against the container's reference. */
  private containerEvent(record: TrackedRecord, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.events.record(this.pod, type, reason, message, this.node.eventSource, record.eventOptions);
  }

  /**
   * `startContainer` with the restart back-off check before it (`doBackOff`). Each step of a start
   * ends it with `containerStartEnded`, or stops when the pod is deleted (see `ContainerStarts`).
   */
  private startContainer(record: TrackedRecord): void {
    const clock = this.ctx.clock;
    const previous = record.current;
    if (previous && hasExited(previous)) {
      const key = this.restartKey(record);
      const backoff = this.node.restartBackoff;
      if (backoff.isInBackOffSince(key, previous.finishedAt!, clock.now())) {
        const name = record.spec.name;
        this.containerEvent(record, 'Warning', 'BackOff', `Back-off restarting failed container ${name} in pod ${this.podDescription}`);
        record.waiting = {
          reason: 'CrashLoopBackOff',
          message: `back-off ${formatGoDuration(backoff.get(key))} restarting failed container=${name} pod=${this.podDescription}`,
        };
        this.containerStartEnded(false);
        return;
      }
      backoff.next(key, previous.finishedAt!, clock.now());
    }
    this.ensureImage(record);
  }

  /** `ensureImage` is done: create the container with the image, or fail the start. */
  private imageEnsured(record: TrackedRecord, image: ImageResult): void {
    if (this.aborted()) return;
    if (!image.ok) {
      this.containerEvent(record, 'Warning', 'Failed', `Error: ${image.reason}`);
      record.waiting = { reason: image.reason, message: image.message };
      this.containerStartEnded(false);
      return;
    }
    // generateContainerConfig: the environment is made after the image is there, before the container is created.
    const configError = containerConfigError(record.spec, this.namespace, this.sourceLookup());
    if (configError !== undefined) {
      this.containerEvent(record, 'Warning', 'Failed', `Error: ${configError}`);
      record.waiting = { reason: 'CreateContainerConfigError', message: configError };
      this.containerStartEnded(false);
      return;
    }
    this.ctx.clock.after(this.jittered(this.ctx.timings.containerCreate), () => this.createContainer(record, image));
  }

  /** The runtime creates the container (a new instance, the old one kept as lastState), then starts it. */
  private createContainer(record: TrackedRecord, image: ImageFound): void {
    if (this.aborted()) return;
    const name = record.spec.name;
    // Only this chain replaces `current`, and syncs never overlap: it is still the instance the start began with.
    const previous = record.current;
    const attempt = previous ? previous.attempt + 1 : 0;
    if (previous && hasExited(previous)) record.previous = previous;
    const instance = newInstance(this.node.runtime.containerId(this.uid, name, attempt), attempt, image.image.name, image.image.id);
    record.current = instance;
    this.containerEvent(record, 'Normal', 'Created', createdMessage(name));
    this.ctx.clock.after(this.jittered(this.ctx.timings.containerStart), () => this.containerStarted(record, instance));
  }

  private containerStarted(record: TrackedRecord, instance: ContainerInstance): void {
    if (this.aborted()) return;
    instance.startedAt = this.ctx.clock.now();
    record.waiting = undefined;
    const spec = record.spec;
    record.ready = !spec.readinessProbe && !spec.startupProbe;
    record.startupPending = false;
    this.containerEvent(record, 'Normal', 'Started', startedMessage(spec.name));
    const postStart = spec.lifecycle?.postStart;
    if (postStart) this.runPostStart(record, instance, postStart);
    else this.containerRunning(record, instance);
  }

  /** The container runs (its postStart hook, if any, done): its exit, its probes, the next sync. */
  private containerRunning(record: TrackedRecord, instance: ContainerInstance): void {
    const spec = record.spec;
    const probed = (!record.init || isSidecar(record)) && (spec.readinessProbe || spec.livenessProbe || spec.startupProbe);
    this.scheduleExit(record, instance);
    if (probed) startProbing(this.probeHost(), record, instance, this.gracePeriodMs());
    this.requestSync(this.jittered(this.ctx.timings.statusSync));
    this.containerStartEnded(true);
  }

  /**
   * The postStart hook runs right after the start and holds the sync (the container is not shown
   * running until it is done); a failed hook gets the container killed and its start failed with
   * `PostStartHookError`.
   */
  private runPostStart(record: TrackedRecord, instance: ContainerInstance, postStart: LifecycleHandler): void {
    const hook = hookOutcome(postStart, record.spec, this.podIP ?? '', 0);
    const graceMs = (this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
    // A hook that never ends holds the container until it is deleted.
    if (hook.runMs === Infinity) return;
    this.ctx.clock.after(this.jittered(hook.runMs), () => {
      if (this.aborted() || !isRunning(instance)) return;
      if (hook.assumed !== undefined) (this.unreportedAssumptions ??= []).push({ container: record.spec.name, reason: hook.assumed, hook: 'postStart' });
      if (hook.error === undefined) {
        this.containerRunning(record, instance);
        return;
      }
      const message = hookFailureMessage(postStart, record.spec.name, this.podDescription, hook.error);
      this.containerEvent(record, 'Warning', 'FailedPostStartHook', message);
      this.containerEvent(record, 'Normal', 'Killing', 'FailedPostStartHook');
      this.killContainer(record, instance, graceMs, () => {
        if (this.aborted()) return;
        record.waiting = { reason: 'PostStartHookError', message };
        this.containerStartEnded(false);
      });
    });
  }

  /** `EnsureImageExists`: pull policy, pull back-off, the pull itself and its events; then `imageEnsured`. */
  private ensureImage(record: TrackedRecord): void {
    const image = record.spec.image ?? '';
    const lookup = lookupImage(image);
    if (!lookup.ok) {
      const message = `Failed to apply default image tag "${image}": couldn't parse image name "${image}": ${lookup.error}`;
      this.containerEvent(record, 'Warning', 'InspectFailed', message);
      this.imageEnsured(record, { ok: false, reason: 'InvalidImageName', message });
      return;
    }
    const policy = record.spec.imagePullPolicy ?? defaultPullPolicy(image);
    this.ctx.clock.after(this.jittered(this.ctx.timings.imagePresentCheck), () => {
      if (this.aborted()) return;
      const present = this.node.runtime.hasImage(lookup.image);
      if (policy === 'Never' || (policy === 'IfNotPresent' && present)) {
        if (present) {
          this.containerEvent(record, 'Normal', 'Pulled', presentMessage(image));
          // Present only because an earlier pull was assumed to succeed: this container depends on that assumption too.
          if (this.node.runtime.hasAssumedImage(lookup.image)) this.assumePull(record, lookup.image, true);
          this.imageEnsured(record, lookup);
        } else {
          const message = `Container image "${image}" is not present with pull policy of Never`;
          this.containerEvent(record, 'Warning', 'ErrImageNeverPull', message);
          this.imageEnsured(record, { ok: false, reason: 'ErrImageNeverPull', message });
        }
        return;
      }
      this.pullImage(record, lookup);
    });
  }

  /** Pull back-off, else a pull through the runtime's queue, with the events the kubelet records. */
  private pullImage(record: TrackedRecord, lookup: ImageFound): void {
    const image = record.spec.image ?? '';
    const now = this.ctx.clock.now();
    if (this.node.imageBackoff.isInBackOffSinceUpdate(this.imageKey(record.spec), now)) {
      const message = `Back-off pulling image "${image}"`;
      this.containerEvent(record, 'Normal', 'BackOff', message);
      this.imageEnsured(record, { ok: false, reason: 'ImagePullBackOff', message });
      return;
    }
    this.containerEvent(record, 'Normal', 'Pulling', pullingMessage(image));
    const pull: ImagePull = { image: lookup.image, requester: this, record, lookup, requestedAt: now };
    this.node.runtime.pull(pull);
  }

  /** The runtime is done with a pull `pullImage` queued. */
  imagePulled(pull: ImagePull, outcome: PullOutcome): void {
    if (this.aborted()) return;
    const { record, lookup } = pull;
    const image = record.spec.image ?? '';
    const now = this.ctx.clock.now();
    if (!outcome.ok) {
      this.containerEvent(record, 'Warning', 'Failed', `Failed to pull image "${image}": ${outcome.error}`);
      this.node.imageBackoff.next(this.imageKey(record.spec), now, now);
      this.imageEnsured(record, { ok: false, reason: 'ErrImagePull', message: outcome.error });
      return;
    }
    const waited = formatGoDuration(now - pull.requestedAt);
    this.containerEvent(record, 'Normal', 'Pulled', `Successfully pulled image "${image}" in ${formatGoDuration(outcome.pullMs)} (${waited} including waiting). Image size: ${outcome.sizeBytes} bytes.`);
    this.assumePull(record, lookup.image);
    this.imageEnsured(record, lookup);
  }

  /** A pull that succeeded, or an image found on the node, whose existence the simulator only assumes: reported at once, against the pod version of now. */
  private assumePull(record: TrackedRecord, image: ResolvedImage, alreadyPresent = false): void {
    if (image.assumedPull === undefined) return;
    const assumption = { container: record.spec.name, image: image.name, reason: image.assumedPull };
    (this.unreportedAssumptions ??= []).push(alreadyPresent ? { ...assumption, alreadyPresent } : assumption);
    this.reportAssumptions();
  }

  private scheduleExit(record: ContainerRecord, instance: ContainerInstance): void {
    if (record.spec.resources?.limits?.memory !== undefined && exceedsMemoryLimit(record.spec)) {
      this.ctx.clock.after(this.jittered(OOM_KILL_MS), () => {
        if (this.gone || record.current !== instance || !isRunning(instance)) return;
        this.containerExited(record, instance, OOM_KILLED_EXIT_CODE, OOM_KILLED_REASON);
        if (!this.terminating) this.requestSync(this.plegDelay());
      });
      return;
    }
    let plan: ExitPlan | undefined = plannedExit(record.spec);
    let assumed: AssumedExitPlan | undefined;
    const sidecar = isSidecar(record);
    if (!plan && record.init && !sidecar) {
      // An init container must end for the pod to go on: one the simulator cannot read is assumed to.
      assumed = { exitCode: 0, runMs: INIT_CONTAINER_RUN_MS, reason: unreadableCommandReason(record.spec) };
      plan = { exitCode: 0, runMs: this.jittered(INIT_CONTAINER_RUN_MS) };
    }
    if (!plan && !sidecar && runsToCompletion(this.pod.spec?.restartPolicy) && (assumed = assumedExit(record.spec))) {
      plan = { exitCode: assumed.exitCode, runMs: this.jittered(assumed.runMs) };
    }
    if (!plan) {
      const reason = record.init && !sidecar ? undefined : assumedRunningReason(record.spec);
      if (reason !== undefined && record.previous === undefined) (this.unreportedAssumptions ??= []).push({ container: record.spec.name, reason });
      return;
    }
    // Even `exit 1` takes the process a few milliseconds.
    const runMs = Math.max(plan.runMs, this.jittered(20));
    const exitCode = plan.exitCode;
    this.ctx.clock.after(runMs, () => {
      if (this.gone || record.current !== instance || !isRunning(instance)) return;
      this.containerExited(record, instance, exitCode);
      if (assumed) (this.unreportedAssumptions ??= []).push({ container: record.spec.name, exitCode, runMs, reason: assumed.reason });
      if (!this.terminating) this.requestSync(this.plegDelay());
    });
  }

  private containerExited(record: ContainerRecord, instance: ContainerInstance, exitCode: number, reason = exitCode === 0 ? 'Completed' : 'Error'): void {
    instance.finishedAt = this.ctx.clock.now();
    instance.exitCode = exitCode;
    instance.reason = reason;
    record.ready = record.init && exitCode === 0;
  }

  /**
   * When the readiness probe first succeeds. The prober probes right after the status manager
   * sees the container running (a manual trigger) and then every periodSeconds from when the pod
   * was added; no result counts before initialDelaySeconds, and successThreshold successes in a
   * row are needed.
   */

  // ------------------------------------------------------------------------------------------
  // Status

  private view(): PodRuntimeView {
    return {
      spec: this.pod.spec,
      hostIP: this.node.hostIP,
      hostIPs: this.node.hostIPs,
      podIP: this.podIP,
      sandboxReady: this.sandboxReady,
      startTime: this.startTime,
      initContainers: this.initContainers,
      containers: this.containers,
      terminal: this.terminalView,
    };
  }

  /** The pod-level state the status is generated from, as bits (the pod IP, once set, never changes). */
  private podBits(): number {
    return (this.sandboxReady ? 1 : 0) | (this.terminalView ? 2 : 0) | (this.podIP !== undefined ? 4 : 0);
  }

  /** The statuses of the readiness gates' conditions, as one string; undefined for the many pods without gates. */
  private gateStatuses(): string | undefined {
    const gates = this.pod.spec?.readinessGates;
    if (!gates || gates.length === 0) return undefined;
    const conditions = this.pod.status?.conditions;
    return gates.map((gate) => `${gate.conditionType}=${conditions?.find((c) => c.type === gate.conditionType)?.status}`).join('|');
  }

  /** Whether anything the generated status depends on changed since the last write. */
  private statusChanged(gates: string | undefined): boolean {
    if (this.podBits() !== this.writtenPodBits || gates !== this.writtenGates) return true;
    for (const record of this.initContainers) if (recordChanged(record)) return true;
    for (const record of this.containers) if (recordChanged(record)) return true;
    return false;
  }

  private rememberWritten(gates: string | undefined): void {
    this.writtenPodBits = this.podBits();
    this.writtenGates = gates;
    for (const record of this.initContainers) rememberWritten(record);
    for (const record of this.containers) rememberWritten(record);
  }

  /** The status manager: write the generated status when it differs from the last write. */
  private writeStatus(): GeneratedPodStatus['phase'] | undefined {
    const gates = this.gateStatuses();
    if (!this.statusChanged(gates)) return this.lastPhase;
    const generated = generatePodStatus(this.view(), this.pod.status?.conditions);
    this.rememberWritten(gates);
    this.lastPhase = generated.phase;
    const store = this.ctx.store;
    const current = store.get<PodObject>('Pod', this.namespace, this.name);
    if (!current || current.metadata?.uid !== this.uid) {
      this.remove();
      return undefined;
    }
    // A whole new status without a resourceVersion precondition, as the status manager's patch:
    // no copy of the old status is needed, the merge reads it.
    const status = mergePodStatus(current.status, generated, this.ctx.clock.now());
    const request: PodObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: this.name, namespace: this.namespace }, status: status as PodStatus };
    try {
      this.pod = store.update<PodObject>('Pod', request, { fieldManager: 'kubelet', subresource: 'status' });
      if (this.unreportedAssumptions) this.reportAssumptions();
      return generated.phase;
    } catch (error) {
      if (error instanceof ApiError && error.code === 404) {
        this.remove();
        return undefined;
      }
      throw error;
    }
  }

  /** The assumptions this status write was the first to report (or a pull or probe reports at once), as steps naming its resourceVersion. */
  private reportAssumptions(): void {
    const meta = this.pod.metadata ?? {};
    const assumptions = this.unreportedAssumptions ?? [];
    this.unreportedAssumptions = undefined;
    for (const assumption of assumptions) {
      const common = {
        time: this.ctx.clock.now(),
        component: 'kubelet' as const,
        object: { kind: 'Pod' as const, namespace: this.namespace, name: this.name, uid: this.uid },
        resourceVersion: meta.resourceVersion ?? '',
      };
      if ('exitCode' in assumption) this.ctx.internals.record({ type: 'assumedExit', ...common, ...assumption });
      else if ('image' in assumption) this.ctx.internals.record({ type: 'assumedPull', ...common, ...assumption });
      else this.ctx.internals.record({ type: 'assumedRunning', ...common, ...assumption });
    }
  }

  /** Succeeded or Failed on its own: the kubelet stops the sandbox and reports it. */
  private finishTerminalPod(): void {
    this.finished = true;
    const sidecars = this.initContainers.filter((record) => isSidecar(record) && isRunning(record.current));
    if (sidecars.length > 0) {
      // The containers are done: the kubelet stops the sidecars, in reverse order, before the sandbox.
      for (const record of [...sidecars].reverse()) {
        this.containerEvent(record, 'Normal', 'Killing', `Stopping container ${record.spec.name}`);
        this.containerExited(record, record.current!, exitsOnSigterm(record.spec) ? 0 : 137);
      }
    }
    this.ctx.clock.after(this.jittered(SANDBOX_STOP_MS), () => {
      if (this.gone) return;
      this.sandboxReady = false;
      this.terminalView = true;
      this.writeStatus();
      this.node.releasePodIP(this.uid);
    });
  }

  // ------------------------------------------------------------------------------------------
  // Graceful deletion

  private gracePeriodMs(): number {
    const seconds = this.pod.metadata?.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30;
    return seconds * 1000;
  }

  private terminate(): void {
    if (this.terminating || this.gone) return;
    this.terminating = true;
    this.syncing = false;
    const clock = this.ctx.clock;
    clock.cancel(this.syncTimer);
    this.volumeMounts?.stop();
    this.syncTimer = undefined;
    this.syncDueAt = Infinity;
    clock.after(this.jittered(this.ctx.timings.controllerReaction), () => {
      if (this.gone) return;
      const running = (records: readonly TrackedRecord[]): TrackedRecord[] => records.filter((record) => isRunning(record.current));
      const graceMs = this.gracePeriodMs();
      // The containers stop first; the sidecars, in reverse order, once they have (the KEP-753 order).
      const sidecars = running(this.initContainers).filter(isSidecar).reverse();
      const others = [...running(this.initContainers).filter((record) => !isSidecar(record)), ...running(this.containers)];
      this.stopContainers(others, graceMs, () => this.stopContainers(sidecars, graceMs, () => this.finishDeletion()));
    });
  }

  /** Stops `records` together within the grace period, then calls `done`. */
  private stopContainers(records: readonly TrackedRecord[], graceMs: number, done: () => void): void {
    let stopping = records.length;
    if (stopping === 0) {
      done();
      return;
    }
    for (const record of records) {
      this.containerEvent(record, 'Normal', 'Killing', `Stopping container ${record.spec.name}`);
      this.killContainer(record, record.current!, graceMs, () => {
        if (--stopping === 0) done();
      });
    }
  }

  /** All containers stopped: stop the sandbox, write the final status, delete the pod for good. */
  private finishDeletion(): void {
    const clock = this.ctx.clock;
    clock.after(this.jittered(SANDBOX_STOP_MS), () => {
      if (this.gone) return;
      this.sandboxReady = false;
      this.terminalView = true;
      this.finished = true;
      if (!this.writeStatus()) return;
      this.node.releasePodIP(this.uid);
      clock.after(this.jittered(this.ctx.timings.statusSync), () => {
        if (this.gone) return;
        try {
          this.ctx.store.delete('Pod', this.namespace, this.name, { gracePeriodSeconds: 0, preconditions: { uid: this.uid }, actor: 'kubelet' });
        } catch (error) {
          if (!(error instanceof ApiError && (error.code === 404 || error.code === 409))) throw error;
        }
        this.remove();
      });
    });
  }
}
