/**
 * Feeds the journey tracer from a cluster: list + watch of Deployments, ReplicaSets, Pods and
 * Events in each traced namespace and of Nodes cluster-wide, plus the simulator's internals
 * stream when the server has one. Each collection is kept alive by its own Reflector (resume,
 * relist on 410, back-off), so one forbidden or failing collection never stops the others; what
 * cannot be watched is listed in `problems()` so that the journey can say what it does not see.
 */
import type { InternalStep } from '../core/internals';
import type { WatchEvent } from '../core/k8s';
import type { JourneySink, TraceableKind } from '../core/journey/types';
import { TRACEABLE_KIND_NAMES } from '../common/traceable-kinds';
import { abortableDelay, type BackoffPolicy } from './backoff';
import { InternalsReader, type InternalsFunction, type InternalsState } from './internals-reader';
import type { ServerClock } from './server-clock';
import { SharedWords } from './shared-words';
import { shareEventWords, withoutFieldSets } from './watched-object';
import { Reflector, type DelayFunction, type ListFunction, type ReflectorStats, type StreamProblem, type WatchFunction } from './reflector';

export type WatchedKind = TraceableKind | 'Event' | 'Node' | 'PersistentVolumeClaim';

/** Every traceable kind, plus the Events about them, the Nodes their pods land on and the claims they mount. */
export const WATCHED_KINDS: readonly WatchedKind[] = [...TRACEABLE_KIND_NAMES, 'Event', 'Node', 'PersistentVolumeClaim'];

interface Collection {
  apiVersion: string;
  /** `/api/v1` or `/apis/apps/v1`. */
  prefix: string;
  resource: string;
  namespaced: boolean;
}

const COLLECTIONS: Record<WatchedKind, Collection> = {
  Deployment: { apiVersion: 'apps/v1', prefix: '/apis/apps/v1', resource: 'deployments', namespaced: true },
  ReplicaSet: { apiVersion: 'apps/v1', prefix: '/apis/apps/v1', resource: 'replicasets', namespaced: true },
  StatefulSet: { apiVersion: 'apps/v1', prefix: '/apis/apps/v1', resource: 'statefulsets', namespaced: true },
  DaemonSet: { apiVersion: 'apps/v1', prefix: '/apis/apps/v1', resource: 'daemonsets', namespaced: true },
  CronJob: { apiVersion: 'batch/v1', prefix: '/apis/batch/v1', resource: 'cronjobs', namespaced: true },
  Job: { apiVersion: 'batch/v1', prefix: '/apis/batch/v1', resource: 'jobs', namespaced: true },
  ReplicationController: { apiVersion: 'v1', prefix: '/api/v1', resource: 'replicationcontrollers', namespaced: true },
  Pod: { apiVersion: 'v1', prefix: '/api/v1', resource: 'pods', namespaced: true },
  Service: { apiVersion: 'v1', prefix: '/api/v1', resource: 'services', namespaced: true },
  EndpointSlice: { apiVersion: 'discovery.k8s.io/v1', prefix: '/apis/discovery.k8s.io/v1', resource: 'endpointslices', namespaced: true },
  Event: { apiVersion: 'v1', prefix: '/api/v1', resource: 'events', namespaced: true },
  Node: { apiVersion: 'v1', prefix: '/api/v1', resource: 'nodes', namespaced: false },
  PersistentVolumeClaim: { apiVersion: 'v1', prefix: '/api/v1', resource: 'persistentvolumeclaims', namespaced: true },
};

export function collectionPath(kind: WatchedKind, namespace?: string): string {
  const c = COLLECTIONS[kind];
  return c.namespaced ? `${c.prefix}/namespaces/${encodeURIComponent(namespace ?? 'default')}/${c.resource}` : `${c.prefix}/${c.resource}`;
}

/** What the watcher feeds: JourneyTracer has this shape. */
/** The I/O the watcher runs on: the API server (see ClusterConnection.watchIo) or test doubles. */
export interface WatchIo {
  list: ListFunction;
  watch: WatchFunction;
  delay?: DelayFunction;
  /** The simulator's internals stream; leave out to skip it. */
  internals?: InternalsFunction;
}

export interface WatchProblem extends StreamProblem {
  kind: WatchedKind;
  /** For namespaced kinds. */
  namespace?: string;
  path: string;
}

export interface ClusterWatcherOptions {
  sink: JourneySink;
  io: WatchIo;
  namespaces?: readonly string[];
  kinds?: readonly WatchedKind[];
  backoff?: BackoffPolicy;
  /**
   * The server's clock: arrival times are given to the tracer on it, and the internals stream's
   * exact step times refine it. Default: the local clock, taken as the server's.
   */
  clock?: ServerClock;
  /**
   * After a hold, what arrived meanwhile is delivered in slices of about this many ms, the event
   * loop free between them, new arrivals queued behind: a 10,000-pod apply holds tens of thousands
   * of events, which delivered at once would block the extension host for seconds. Default: all
   * at once, before release() returns.
   */
  releaseSliceMs?: number;
}

/** How many deliveries between two looks at the clock while releasing in slices. */
const RELEASE_CLOCK_EVERY = 64;

export interface WatchedCollection {
  kind: WatchedKind;
  namespace?: string;
  path: string;
  resourceVersion: string;
  stats: ReflectorStats;
  problem?: StreamProblem;
}

/** `receivedAt` on the local clock: converted to the server's when delivered, with the estimate known then. */
type Held = { event: WatchEvent; receivedAt: number } | { step: InternalStep };

/** `events in namespace "default"`, `nodes` */
export function problemSubject(problem: WatchProblem): string {
  return `${COLLECTIONS[problem.kind].resource}${problem.namespace !== undefined ? ` in namespace "${problem.namespace}"` : ''}`;
}

/** `cannot watch events in namespace "default": events is forbidden: …` */
export function describeProblem(problem: WatchProblem): string {
  const what = problemSubject(problem);
  switch (problem.reason) {
    case 'Forbidden':
    case 'Unauthorized':
      return `cannot watch ${what}: ${problem.message}`;
    case 'NotFound':
      return `the server does not serve ${what}: ${problem.message}`;
    case 'Unreachable':
      return `lost the watch on ${what}, reconnecting: ${problem.message}`;
  }
}

export class ClusterWatcher {
  private readonly reflectors = new Map<string, { kind: WatchedKind; namespace?: string; reflector: Reflector }>();
  private readonly kinds: readonly WatchedKind[];
  private readonly namespaces = new Set<string>();
  /** The server's clock now (for problem times). */
  private readonly now: () => number;
  private readonly delay: DelayFunction;
  private readonly internalsReader: InternalsReader | undefined;
  private readonly problemListeners: ((problems: WatchProblem[]) => void)[] = [];
  /** Shared by the Events of every namespace. */
  private readonly words = new SharedWords();
  private readonly stepWaiters = new Set<(step: InternalStep) => void>();
  private readonly watchingWaiters = new Set<() => void>();
  /**
   * Per hold that lasts, where it begins in `held`: what arrived before it is none of its business
   * (its objects were not applied yet) and is delivered meanwhile; what arrived after waits.
   */
  private readonly fences = new Map<object, number>();
  /** Arrivals queued behind a hold or a release in slices; delivered ones are cleared at once. */
  private held: (Held | undefined)[] = [];
  /** Deliveries of `held` already made. */
  private releasedCount = 0;
  private releaseScheduled = false;
  private started = false;
  private stopped = false;

  constructor(private readonly options: ClusterWatcherOptions) {
    this.kinds = options.kinds ?? WATCHED_KINDS;
    this.now = options.clock ? () => options.clock!.now() : Date.now;
    this.delay = options.io.delay ?? abortableDelay;
    for (const namespace of options.namespaces ?? []) this.namespaces.add(namespace);
    this.internalsReader = options.io.internals
      ? new InternalsReader({ stream: options.io.internals, delay: this.delay, backoff: options.backoff, deliver: (step) => this.receiveStep(step), onState: () => this.checkWatching() })
      : undefined;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    for (const kind of this.kinds) {
      if (!COLLECTIONS[kind].namespaced) this.add(kind, undefined);
    }
    for (const namespace of this.namespaces) this.addNamespace(namespace);
    this.internalsReader?.start();
  }

  /** Also watch this namespace (idempotent); for journeys applied to a namespace not watched yet. */
  watchNamespace(namespace: string): void {
    if (this.namespaces.has(namespace)) return;
    this.namespaces.add(namespace);
    if (this.started && !this.stopped) this.addNamespace(namespace);
  }

  /**
   * Resolves when every collection has been listed once (or answered that it cannot be) and the
   * internals probe has answered: from then on nothing that happens is missed. Never rejects; an
   * unreachable server keeps it pending, so callers race it with their own deadline.
   */
  async synced(): Promise<void> {
    await Promise.all([...[...this.reflectors.values()].map((r) => r.reflector.synced), this.internalsReader?.probed]);
  }

  /** Whether every collection has an open watch now, and the internals stream too when there is one. */
  isWatching(): boolean {
    for (const { reflector } of this.reflectors.values()) if (!reflector.watching) return false;
    return this.internals !== 'reconnecting' && this.internals !== 'probing';
  }

  /**
   * Resolves when every collection has an open watch at once (after reconnects and relists, the
   * sink has caught up then); false after `timeoutMs`.
   */
  watching(timeoutMs: number): Promise<boolean> {
    if (this.isWatching()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (caughtUp: boolean): void => {
        clearTimeout(timer);
        this.watchingWaiters.delete(check);
        resolve(caughtUp);
      };
      const check = (): void => {
        if (this.isWatching()) finish(true);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.watchingWaiters.add(check);
    });
  }

  /**
   * Holds deliveries to the sink of what arrives from now on until the returned function is called;
   * what arrives meanwhile is delivered then, in order, with its arrival time. What arrived before
   * the hold goes on being delivered while it lasts. Hold around an apply so that `begin` is called
   * before the first watch event of the applied object reaches the tracer, and so that arrival
   * times are put on the server's clock with what the apply taught about it.
   */
  hold(): () => void {
    const token = {};
    this.fences.set(token, this.held.length);
    return () => {
      if (!this.fences.delete(token)) return;
      if (!this.releaseScheduled) this.releaseHeld();
    };
  }

  /** How far `held` may be delivered now: up to the oldest hold that lasts. */
  private get deliverable(): number {
    let limit = this.held.length;
    for (const fence of this.fences.values()) limit = Math.min(limit, fence);
    return limit;
  }

  /** Delivers what was held, in order, up to the oldest hold that lasts; in slices when `releaseSliceMs` is set. */
  private releaseHeld(): void {
    this.releaseScheduled = false;
    const sliceMs = this.options.releaseSliceMs;
    const started = performance.now();
    const queue = this.held;
    let limit = this.deliverable;
    while (this.releasedCount < limit && !this.stopped) {
      const item = queue[this.releasedCount];
      // Delivered items are not kept until the whole queue is: it can hold a whole apply's events.
      queue[this.releasedCount++] = undefined;
      this.forward(item!);
      limit = this.deliverable;
      if (sliceMs !== undefined && this.releasedCount % RELEASE_CLOCK_EVERY === 0 && this.releasedCount < limit && performance.now() - started >= sliceMs) {
        this.releaseScheduled = true;
        setImmediate(() => this.releaseHeld());
        return;
      }
    }
    if (this.stopped || this.releasedCount < this.held.length) return;
    this.held = [];
    this.releasedCount = 0;
    // Every fence lay within what was delivered.
    for (const token of this.fences.keys()) this.fences.set(token, 0);
  }

  /** Whether an arrival must queue: a hold lasts, or what was held is still being delivered. */
  private get queueing(): boolean {
    return this.fences.size > 0 || this.held.length > 0;
  }

  /**
   * Resolves true when an internals step matching `predicate` arrives (held or not), false after
   * `timeoutMs` or at once when the server has no internals stream.
   */
  waitForStep(predicate: (step: InternalStep) => boolean, timeoutMs: number): Promise<boolean> {
    if (this.internals !== 'streaming' && this.internals !== 'reconnecting') return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (found: boolean): void => {
        clearTimeout(timer);
        this.stepWaiters.delete(waiter);
        resolve(found);
      };
      const waiter = (step: InternalStep): void => {
        if (predicate(step)) finish(true);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.stepWaiters.add(waiter);
    });
  }

  /** Collections that cannot be watched right now, and why. */
  problems(): WatchProblem[] {
    const out: WatchProblem[] = [];
    for (const { kind, namespace, reflector } of this.reflectors.values()) {
      const problem = reflector.currentProblem;
      if (problem) out.push({ ...problem, kind, namespace, path: reflector.path });
    }
    return out;
  }

  onProblemsChanged(listener: (problems: WatchProblem[]) => void): () => void {
    this.problemListeners.push(listener);
    return () => {
      const index = this.problemListeners.indexOf(listener);
      if (index >= 0) this.problemListeners.splice(index, 1);
    };
  }

  /** Whether the simulator's internals stream is being read (`absent` on a real cluster). */
  get internals(): InternalsState {
    return this.internalsReader?.state ?? 'absent';
  }

  collections(): WatchedCollection[] {
    return [...this.reflectors.values()].map(({ kind, namespace, reflector }) => ({
      kind,
      namespace,
      path: reflector.path,
      resourceVersion: reflector.lastResourceVersion,
      stats: reflector.stats,
      problem: reflector.currentProblem,
    }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...[...this.reflectors.values()].map((r) => r.reflector.stop()), this.internalsReader?.stop()]);
  }

  private addNamespace(namespace: string): void {
    for (const kind of this.kinds) {
      if (COLLECTIONS[kind].namespaced) this.add(kind, namespace);
    }
  }

  private add(kind: WatchedKind, namespace: string | undefined): void {
    const path = collectionPath(kind, namespace);
    if (this.reflectors.has(path)) return;
    const reflector = new Reflector({
      kind,
      apiVersion: COLLECTIONS[kind].apiVersion,
      path,
      list: this.options.io.list,
      watch: this.options.io.watch,
      delay: this.delay,
      backoff: this.options.backoff,
      now: this.now,
      deliver: (event) => this.receiveEvent(event),
      onProblem: () => this.notifyProblems(),
      onWatching: () => this.checkWatching(),
      prepare: kind === 'Event' ? (event) => shareEventWords(withoutFieldSets(event), this.words) : withoutFieldSets,
    });
    this.reflectors.set(path, { kind, namespace, reflector });
    reflector.start();
  }

  private checkWatching(): void {
    for (const check of [...this.watchingWaiters]) check();
  }

  private receiveEvent(event: WatchEvent): void {
    const item = { event, receivedAt: Date.now() };
    if (this.queueing) this.held.push(item);
    else this.forward(item);
  }

  private receiveStep(step: InternalStep): void {
    this.options.clock?.observeExact(step.time);
    for (const waiter of [...this.stepWaiters]) waiter(step);
    if (this.queueing) this.held.push({ step });
    else this.forward({ step });
  }

  private forward(item: Held): void {
    if ('step' in item) this.options.sink.ingestInternal(item.step);
    else this.options.sink.ingest(item.event, this.options.clock ? this.options.clock.toServer(item.receivedAt) : item.receivedAt);
  }

  private notifyProblems(): void {
    if (this.problemListeners.length === 0) return;
    const problems = this.problems();
    for (const listener of this.problemListeners.slice()) listener(problems);
  }
}
