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
 * Per pod this costs a handful of timers and two or three status writes; nothing polls.
 */
import type { Container, KubeObject, Pod } from '../../core/k8s';
import type { TimerHandle } from '../clock';
import type { SimContext } from '../context';
import { ApiError } from '../store/types';
import type { Backoff } from './backoff';
import { exitsOnSigterm, plannedExit, type ExitPlan } from './container-behaviour';
import { formatGoDuration } from './go-duration';
import { defaultPullPolicy, imageId, normalizedImageName, parseImageReference } from './images';
import {
  generatePodStatus,
  hasExited,
  isRunning,
  mergePodStatus,
  shouldRestart,
  type ContainerInstance,
  type ContainerRecord,
  type GeneratedPodStatus,
  type PodRuntimeView,
  type PodStatus,
} from './pod-status';
import type { ContainerRuntime } from './runtime';

/** What a node's kubelet lends to each of its pod workers. */
export interface NodeServices {
  ctx: SimContext;
  nodeName: string;
  hostIP: string;
  runtime: ContainerRuntime;
  /** Image pull back-off, keyed `<pod uid>_<image>` as upstream. */
  imageBackoff: Backoff;
  /** Container restart back-off, keyed per pod and container. */
  restartBackoff: Backoff;
  allocatePodIP(uid: string): string;
  releasePodIP(uid: string): void;
  /** The worker is finished with its pod (deleted, or gone from the node). */
  forget(uid: string): void;
}

/** The kubelet pod worker's retry period after a failed sync (`backOffPeriod`), jittered by up to 50 %. */
const SYNC_ERROR_BACKOFF_MS = 10_000;
/** PLEG relists containers every second: a change is noticed up to 1 s later. */
const PLEG_RELIST_MS = 1000;
/** An init container whose command the simulator cannot follow completes after about this long. */
const INIT_CONTAINER_RUN_MS = 1000;
/** Time for a container that handles SIGTERM to shut down. */
const GRACEFUL_STOP_MS = 150;
const SANDBOX_STOP_MS = 60;
/** A readiness probe's own duration (an HTTP GET or TCP connect to the container). */
const PROBE_MS = 3;

function addRecordFingerprint(parts: unknown[], record: ContainerRecord): void {
  const { current, previous, waiting } = record;
  parts.push(record.ready, current?.id, current?.startedAt, current?.finishedAt, previous?.id, waiting?.reason, waiting?.message);
}

/** A pod as the store holds it. */
export type PodObject = Pod & KubeObject;

type ImageResult = { ok: true; image: string; imageId: string } | { ok: false; reason: string; message: string };

export class PodWorker {
  readonly uid: string;
  private pod: PodObject;
  private readonly initContainers: ContainerRecord[];
  private readonly containers: ContainerRecord[];
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
  /** The pod will never run containers again: container statuses are final. */
  private terminalView = false;
  private lastWritten = '';
  private lastPhase: GeneratedPodStatus['phase'] = 'Pending';

  constructor(
    private readonly node: NodeServices,
    pod: PodObject,
  ) {
    this.pod = pod;
    this.uid = pod.metadata?.uid ?? '';
    const spec = pod.spec;
    this.initContainers = (spec?.initContainers ?? []).map((c) => ({ spec: c, init: true, ready: false }));
    this.containers = (spec?.containers ?? []).map((c) => ({ spec: c, init: false, ready: false }));
    const ctx = node.ctx;
    this.startTime = ctx.clock.now();
    this.requestSync(ctx.clock.random.around(ctx.timings.controllerReaction));
    if (pod.metadata?.deletionTimestamp) this.terminate();
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
    this.node.releasePodIP(this.uid);
    for (const record of [...this.initContainers, ...this.containers]) {
      this.node.restartBackoff.delete(this.restartKey(record));
      this.node.imageBackoff.delete(this.imageKey(record.spec));
    }
    this.node.forget(this.uid);
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
    const toStart = this.containersToStart();
    const sandboxWasReady = this.sandboxReady;
    this.ensureSandbox(() => {
      let failed = false;
      const startAt = (index: number): void => {
        if (this.aborted()) return;
        if (index >= toStart.length) {
          this.completeSync(failed, !sandboxWasReady);
          return;
        }
        this.startContainer(toStart[index], (ok) => {
          if (!ok) failed = true;
          startAt(index + 1);
        });
      };
      startAt(0);
    });
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
  private containersToStart(): ContainerRecord[] {
    const restartPolicy = this.pod.spec?.restartPolicy;
    for (const record of this.initContainers) {
      const current = record.current;
      if (hasExited(current) && current!.exitCode === 0) continue;
      if (isRunning(current)) return [];
      if (hasExited(current) && restartPolicy === 'Never') return [];
      return [record];
    }
    return this.containers.filter((record) => !isRunning(record.current) && shouldRestart(record, restartPolicy));
  }

  private ensureSandbox(next: () => void): void {
    if (this.sandboxReady) {
      next();
      return;
    }
    const timings = this.ctx.timings;
    const sandboxMs = Math.max(0, timings.kubeletPickup - timings.controllerReaction - timings.imagePresentCheck);
    this.ctx.clock.after(this.jittered(sandboxMs), () => {
      if (this.aborted()) return;
      this.sandboxReady = true;
      this.podIP ??= this.node.allocatePodIP(this.uid);
      next();
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

  private event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.events.record(this.pod, type, reason, message, { component: 'kubelet', host: this.node.nodeName });
  }

  /** `startContainer` with the restart back-off check before it (`doBackOff`). */
  private startContainer(record: ContainerRecord, done: (ok: boolean) => void): void {
    const clock = this.ctx.clock;
    const name = record.spec.name;
    const previous = record.current;
    if (previous && hasExited(previous)) {
      const key = this.restartKey(record);
      const backoff = this.node.restartBackoff;
      if (backoff.isInBackOffSince(key, previous.finishedAt!, clock.now())) {
        this.event('Warning', 'BackOff', `Back-off restarting failed container ${name} in pod ${this.podDescription}`);
        record.waiting = {
          reason: 'CrashLoopBackOff',
          message: `back-off ${formatGoDuration(backoff.get(key))} restarting failed container=${name} pod=${this.podDescription}`,
        };
        done(false);
        return;
      }
      backoff.next(key, previous.finishedAt!, clock.now());
    }
    this.ensureImage(record.spec, (image) => {
      if (this.aborted()) return;
      if (!image.ok) {
        this.event('Warning', 'Failed', `Error: ${image.reason}`);
        record.waiting = { reason: image.reason, message: image.message };
        done(false);
        return;
      }
      clock.after(this.jittered(this.ctx.timings.containerCreate), () => {
        if (this.aborted()) return;
        const attempt = previous ? previous.attempt + 1 : 0;
        if (previous && hasExited(previous)) record.previous = previous;
        const instance: ContainerInstance = { id: this.node.runtime.containerId(this.uid, name, attempt), attempt, image: image.image, imageId: image.imageId };
        record.current = instance;
        this.event('Normal', 'Created', `Created container: ${name}`);
        clock.after(this.jittered(this.ctx.timings.containerStart), () => {
          if (this.aborted()) return;
          instance.startedAt = clock.now();
          record.waiting = undefined;
          record.ready = !record.spec.readinessProbe || record.init;
          this.event('Normal', 'Started', `Started container ${name}`);
          this.scheduleExit(record, instance);
          this.scheduleReadiness(record, instance);
          this.requestSync(this.jittered(this.ctx.timings.statusSync));
          done(true);
        });
      });
    });
  }

  /** `EnsureImageExists`: pull policy, pull back-off, the pull itself and its events. */
  private ensureImage(container: Container, done: (result: ImageResult) => void): void {
    const image = container.image ?? '';
    const parsed = parseImageReference(image);
    if (!parsed.ok) {
      const message = `Failed to apply default image tag "${image}": couldn't parse image name "${image}": ${parsed.error}`;
      this.event('Warning', 'InspectFailed', message);
      done({ ok: false, reason: 'InvalidImageName', message });
      return;
    }
    const ref = parsed.reference;
    const success: ImageResult = { ok: true, image: normalizedImageName(ref), imageId: imageId(ref) };
    const policy = container.imagePullPolicy ?? defaultPullPolicy(image);
    const clock = this.ctx.clock;
    clock.after(this.jittered(this.ctx.timings.imagePresentCheck), () => {
      if (this.aborted()) return;
      const present = this.node.runtime.hasImage(ref);
      if (policy === 'Never' || (policy === 'IfNotPresent' && present)) {
        if (present) {
          this.event('Normal', 'Pulled', `Container image "${image}" already present on machine`);
          done(success);
        } else {
          const message = `Container image "${image}" is not present with pull policy of Never`;
          this.event('Warning', 'ErrImageNeverPull', message);
          done({ ok: false, reason: 'ErrImageNeverPull', message });
        }
        return;
      }
      const key = this.imageKey(container);
      const backoff = this.node.imageBackoff;
      if (backoff.isInBackOffSinceUpdate(key, clock.now())) {
        const message = `Back-off pulling image "${image}"`;
        this.event('Normal', 'BackOff', message);
        done({ ok: false, reason: 'ImagePullBackOff', message });
        return;
      }
      this.event('Normal', 'Pulling', `Pulling image "${image}"`);
      const requestedAt = clock.now();
      this.node.runtime.pull(ref, (outcome) => {
        if (this.aborted()) return;
        if (!outcome.ok) {
          this.event('Warning', 'Failed', `Failed to pull image "${image}": ${outcome.error}`);
          backoff.next(key, clock.now(), clock.now());
          done({ ok: false, reason: 'ErrImagePull', message: outcome.error });
          return;
        }
        const waited = formatGoDuration(clock.now() - requestedAt);
        this.event('Normal', 'Pulled', `Successfully pulled image "${image}" in ${formatGoDuration(outcome.pullMs)} (${waited} including waiting). Image size: ${outcome.sizeBytes} bytes.`);
        done(success);
      });
    });
  }

  private scheduleExit(record: ContainerRecord, instance: ContainerInstance): void {
    let plan: ExitPlan | undefined = plannedExit(record.spec);
    if (!plan && record.init) plan = { exitCode: 0, runMs: this.jittered(INIT_CONTAINER_RUN_MS) };
    if (!plan) return;
    // Even `exit 1` takes the process a few milliseconds.
    const runMs = Math.max(plan.runMs, this.jittered(20));
    const exitCode = plan.exitCode;
    this.ctx.clock.after(runMs, () => {
      if (this.gone || record.current !== instance || !isRunning(instance)) return;
      this.containerExited(record, instance, exitCode);
      if (!this.terminating) this.requestSync(this.plegDelay());
    });
  }

  private containerExited(record: ContainerRecord, instance: ContainerInstance, exitCode: number): void {
    instance.finishedAt = this.ctx.clock.now();
    instance.exitCode = exitCode;
    instance.reason = exitCode === 0 ? 'Completed' : 'Error';
    record.ready = record.init && exitCode === 0;
  }

  /**
   * When the readiness probe first succeeds. The prober probes right after the status manager
   * sees the container running (a manual trigger) and then every periodSeconds from when the pod
   * was added; no result counts before initialDelaySeconds, and successThreshold successes in a
   * row are needed.
   */
  private scheduleReadiness(record: ContainerRecord, instance: ContainerInstance): void {
    const probe = record.spec.readinessProbe;
    if (!probe || record.init) return;
    const startedAt = instance.startedAt!;
    const periodMs = (probe.periodSeconds ?? 10) * 1000;
    const initialDelayMs = (probe.initialDelaySeconds ?? 0) * 1000;
    const triggeredAt = startedAt + this.ctx.timings.statusSync;
    let firstSuccess: number;
    if (triggeredAt - startedAt >= initialDelayMs) firstSuccess = triggeredAt;
    else {
      const earliest = startedAt + initialDelayMs;
      const ticks = Math.ceil((earliest - this.startTime) / periodMs);
      firstSuccess = this.startTime + Math.max(0, ticks) * periodMs;
    }
    const readyAt = firstSuccess + ((probe.successThreshold ?? 1) - 1) * periodMs + PROBE_MS;
    this.ctx.clock.after(readyAt - this.ctx.clock.now(), () => {
      if (this.aborted() || record.current !== instance || !isRunning(instance)) return;
      record.ready = true;
      this.writeStatus();
    });
  }

  // ------------------------------------------------------------------------------------------
  // Status

  private view(): PodRuntimeView {
    return {
      spec: this.pod.spec,
      hostIP: this.node.hostIP,
      podIP: this.podIP,
      sandboxReady: this.sandboxReady,
      startTime: this.startTime,
      initContainers: this.initContainers,
      containers: this.containers,
      terminal: this.terminalView,
    };
  }

  /**
   * Everything the generated status depends on, as one string: comparing it is far cheaper than
   * generating the status (the status manager's "unchanged, skip the write" check).
   */
  private fingerprint(): string {
    const parts: unknown[] = [this.sandboxReady, this.podIP, this.terminalView];
    for (const record of this.initContainers) addRecordFingerprint(parts, record);
    for (const record of this.containers) addRecordFingerprint(parts, record);
    const gates = this.pod.spec?.readinessGates;
    if (gates) {
      for (const gate of gates) parts.push(`${gate.conditionType}=${this.pod.status?.conditions?.find((c) => c.type === gate.conditionType)?.status}`);
    }
    // One joined string, kept until the next write: a concatenated one would be kept as its ~15 pieces.
    return parts.join('|');
  }


  /** The status manager: write the generated status when it differs from the last write. */
  private writeStatus(): GeneratedPodStatus['phase'] | undefined {
    const fingerprint = this.fingerprint();
    if (fingerprint === this.lastWritten) return this.lastPhase;
    const generated = generatePodStatus(this.view(), this.pod.status?.conditions);
    this.lastWritten = fingerprint;
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
      return generated.phase;
    } catch (error) {
      if (error instanceof ApiError && error.code === 404) {
        this.remove();
        return undefined;
      }
      throw error;
    }
  }

  /** Succeeded or Failed on its own: the kubelet stops the sandbox and reports it. */
  private finishTerminalPod(): void {
    this.finished = true;
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
    this.syncTimer = undefined;
    this.syncDueAt = Infinity;
    clock.after(this.jittered(this.ctx.timings.controllerReaction), () => {
      if (this.gone) return;
      const running = [...this.initContainers, ...this.containers].filter((record) => isRunning(record.current));
      let stopping = running.length;
      if (stopping === 0) {
        this.finishDeletion();
        return;
      }
      const graceMs = this.gracePeriodMs();
      for (const record of running) {
        const instance = record.current!;
        this.event('Normal', 'Killing', `Stopping container ${record.spec.name}`);
        const graceful = exitsOnSigterm(record.spec);
        const stopMs = graceful ? Math.min(graceMs, this.jittered(GRACEFUL_STOP_MS)) : graceMs;
        clock.after(stopMs, () => {
          if (this.gone) return;
          if (isRunning(instance)) this.containerExited(record, instance, graceful ? 0 : 137);
          if (--stopping === 0) this.finishDeletion();
        });
      }
    });
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
