/**
 * The scheduling queue (upstream `internal/queue`, simplified queueing hints):
 * - activeQ, ordered by PrioritySort: higher `spec.priority` first, then earlier queue timestamp;
 * - unschedulable pods wait until a cluster event may help (node added or changed, a placed pod
 *   deleted) or until they have waited 5 min (checked every 30 s, `flushUnschedulablePodsLeftover`);
 * - a pod moved back before its backoff (1 s doubling to 10 s per attempt) expires waits it out.
 * Every entry into activeQ takes `queueingDelayMs` of virtual time (informer, queue and cycle
 * latency together), so a pod's attempt happens that long after it was queued.
 */
import type { KubeObject, Pod } from '../../core/k8s';
import type { TimerHandle, VirtualClock } from '../clock';
import { Heap } from './heap';
import type { PodSchedulingInfo } from './pod-info';

export type QueueState = 'arriving' | 'active' | 'inFlight' | 'backoff' | 'unschedulable';

export interface QueuedPod {
  readonly uid: string;
  pod: Pod & KubeObject;
  /** Compiled plugin inputs; dropped when the pod changes. */
  info: PodSchedulingInfo | undefined;
  state: QueueState;
  /** Scheduling attempts so far. */
  attempts: number;
  /** PrioritySort's tie-breaker: when the pod was last (re)queued. */
  timestamp: number;
  unschedulableSince: number;
  backoffUntil: number;
  /** Bumped on each state change, so timers set for an older state do nothing. */
  generation: number;
  readonly seq: number;
}

export interface QueueOptions {
  queueingDelayMs: () => number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  maxInUnschedulableMs?: number;
  flushIntervalMs?: number;
}

export const DEFAULT_INITIAL_BACKOFF_MS = 1_000;
export const DEFAULT_MAX_BACKOFF_MS = 10_000;
export const DEFAULT_MAX_IN_UNSCHEDULABLE_MS = 5 * 60_000;
export const DEFAULT_FLUSH_INTERVAL_MS = 30_000;

function priorityOf(qp: QueuedPod): number {
  return qp.pod.spec?.priority ?? 0;
}

function prioritySortLess(a: QueuedPod, b: QueuedPod): boolean {
  const pa = priorityOf(a);
  const pb = priorityOf(b);
  if (pa !== pb) return pa > pb;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
  return a.seq < b.seq;
}

export class SchedulingQueue {
  private readonly pods = new Map<string, QueuedPod>();
  private readonly active = new Heap<QueuedPod>(prioritySortLess);
  private readonly unschedulable = new Set<QueuedPod>();
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxInUnschedulableMs: number;
  private readonly flushIntervalMs: number;
  private readonly startedAt: number;
  private flushTimer: TimerHandle | undefined;
  private moveTimer: TimerHandle | undefined;
  private nextSeq = 0;
  private closed = false;

  constructor(
    private readonly clock: VirtualClock,
    private readonly options: QueueOptions,
    /** Called when a pod enters activeQ. */
    private readonly onActive: () => void,
  ) {
    this.initialBackoffMs = options.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    this.maxInUnschedulableMs = options.maxInUnschedulableMs ?? DEFAULT_MAX_IN_UNSCHEDULABLE_MS;
    this.flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.startedAt = clock.now();
  }

  get size(): number {
    return this.pods.size;
  }

  get unschedulableCount(): number {
    return this.unschedulable.size;
  }

  get(uid: string): QueuedPod | undefined {
    return this.pods.get(uid);
  }

  /** A new pod to schedule. */
  add(pod: Pod & KubeObject): void {
    const uid = pod.metadata?.uid ?? '';
    if (this.pods.has(uid)) return this.update(pod, false);
    const now = this.clock.now();
    const qp: QueuedPod = { uid, pod, info: undefined, state: 'arriving', attempts: 0, timestamp: now, unschedulableSince: 0, backoffUntil: 0, generation: 0, seq: this.nextSeq++ };
    this.pods.set(uid, qp);
    this.enterActive(qp);
  }

  /** The pod changed; `specChanged` (not a status-only write) may make an unschedulable pod fit now. */
  update(pod: Pod & KubeObject, specChanged: boolean): void {
    const qp = this.pods.get(pod.metadata?.uid ?? '');
    if (!qp) return this.add(pod);
    qp.pod = pod;
    if (specChanged) {
      qp.info = undefined;
      if (qp.state === 'unschedulable') this.moveToActiveOrBackoff(qp);
    }
  }

  delete(uid: string): void {
    const qp = this.pods.get(uid);
    if (!qp) return;
    this.pods.delete(uid);
    this.unschedulable.delete(qp);
    qp.generation++;
    this.syncFlushTimer();
  }

  /** The next pod to attempt, marked in flight; undefined when activeQ is empty. */
  pop(): QueuedPod | undefined {
    for (;;) {
      const qp = this.active.pop();
      if (!qp) return undefined;
      if (qp.state !== 'active' || this.pods.get(qp.uid) !== qp) continue;
      this.setState(qp, 'inFlight');
      return qp;
    }
  }

  /** The attempt found no node: park the pod until an event may help. */
  markUnschedulable(qp: QueuedPod): void {
    if (this.pods.get(qp.uid) !== qp) return;
    const now = this.clock.now();
    qp.timestamp = now;
    qp.unschedulableSince = now;
    qp.backoffUntil = now + this.backoffDuration(qp.attempts);
    this.setState(qp, 'unschedulable');
    this.unschedulable.add(qp);
    this.syncFlushTimer();
  }

  /** The attempt failed for another reason (binding error): retry after the backoff. */
  markFailed(qp: QueuedPod): void {
    if (this.pods.get(qp.uid) !== qp) return;
    const now = this.clock.now();
    qp.timestamp = now;
    qp.backoffUntil = now + this.backoffDuration(qp.attempts);
    this.moveToActiveOrBackoff(qp);
  }

  /**
   * A cluster event that may make parked pods schedulable (`MoveAllToActiveOrBackoffQueue`). The
   * move runs once per instant however many events arrive in it: deleting 150,000 pods must not
   * walk the parked pods 150,000 times.
   */
  moveAllToActiveOrBackoff(): void {
    if (this.unschedulable.size === 0 || this.moveTimer || this.closed) return;
    this.moveTimer = this.clock.after(0, () => {
      this.moveTimer = undefined;
      for (const qp of [...this.unschedulable]) this.moveToActiveOrBackoff(qp);
    });
  }

  close(): void {
    this.closed = true;
    this.clock.cancel(this.flushTimer);
    this.clock.cancel(this.moveTimer);
    this.flushTimer = undefined;
    this.moveTimer = undefined;
  }

  /** `calculateBackoffDuration`: initial × 2^(attempts−1), capped. */
  backoffDuration(attempts: number): number {
    if (attempts === 0) return 0;
    let duration = this.initialBackoffMs;
    for (let i = 1; i < attempts; i++) {
      if (duration > this.maxBackoffMs - duration) return this.maxBackoffMs;
      duration += duration;
    }
    return duration;
  }

  private moveToActiveOrBackoff(qp: QueuedPod): void {
    this.unschedulable.delete(qp);
    this.syncFlushTimer();
    const now = this.clock.now();
    if (qp.backoffUntil > now) {
      const generation = this.setState(qp, 'backoff');
      this.clock.after(qp.backoffUntil - now, () => {
        if (qp.generation === generation && this.pods.get(qp.uid) === qp) this.enterActive(qp);
      });
    } else {
      this.enterActive(qp);
    }
  }

  private enterActive(qp: QueuedPod): void {
    const generation = this.setState(qp, 'arriving');
    this.clock.after(this.options.queueingDelayMs(), () => {
      if (this.closed || qp.generation !== generation || this.pods.get(qp.uid) !== qp) return;
      this.setState(qp, 'active');
      this.active.push(qp);
      this.onActive();
    });
  }

  private setState(qp: QueuedPod, state: QueueState): number {
    qp.state = state;
    return ++qp.generation;
  }

  /** The leftover flush runs only while pods are parked, so an idle scheduler leaves no timers behind. */
  private syncFlushTimer(): void {
    if (this.unschedulable.size === 0 || this.closed) {
      this.clock.cancel(this.flushTimer);
      this.flushTimer = undefined;
      return;
    }
    if (this.flushTimer) return;
    const now = this.clock.now();
    const sinceStart = now - this.startedAt;
    const delay = this.flushIntervalMs - (sinceStart % this.flushIntervalMs);
    this.flushTimer = this.clock.after(delay, () => {
      this.flushTimer = undefined;
      this.flushLeftover();
      this.syncFlushTimer();
    });
  }

  private flushLeftover(): void {
    const now = this.clock.now();
    for (const qp of [...this.unschedulable]) {
      if (now - qp.unschedulableSince > this.maxInUnschedulableMs) this.moveToActiveOrBackoff(qp);
    }
  }
}
