/**
 * Tracing applies over a cluster connection: the watcher runs before anything is applied (so no
 * change of an applied object is missed), each apply is held against the watch stream until its
 * journey has begun, and callers wait on the tracer for conditions instead of polling.
 */
import type { JourneyTracer, RootSpec } from '../core/journey/tracer';
import type { KubeObject } from '../core/k8s';
import { writeStamp, type ApplyOptions, type ApplyResult } from './apply';
import type { ClusterConnection } from './connection';
import type { BackoffPolicy } from './backoff';
import { ServerClock } from './server-clock';
import type { ClusterWatcher, WatchProblem } from './watcher';
import { isTraceableKind, TRACEABLE_API_VERSIONS } from '../common/traceable-kinds';

/** The journey root an applied object starts, if its kind is one the tracer follows. */
export function journeyRoot(object: KubeObject, defaultNamespace: string): RootSpec | undefined {
  const kind = isTraceableKind(object.kind) && TRACEABLE_API_VERSIONS[object.kind] === object.apiVersion ? object.kind : undefined;
  const name = object.metadata?.name;
  return kind && name ? { kind, namespace: object.metadata?.namespace ?? defaultNamespace, name } : undefined;
}

/** How long an apply waits for its etcd write on the simulator's internals stream. */
const WRITE_STEP_WAIT_MS = 1000;

export interface SessionApplied {
  result: ApplyResult;
  /** The journey begun for this object (Deployments, ReplicaSets and Pods that were applied). */
  journeyId?: string;
}

export interface TraceSessionOptions {
  backoff?: BackoffPolicy;
  /** The server's clock as estimated here (default: a new one over Date.now). */
  clock?: ServerClock;
}

export class ClusterTraceSession {
  readonly watcher: ClusterWatcher;
  readonly clock: ServerClock;

  constructor(
    readonly connection: ClusterConnection,
    readonly tracer: JourneyTracer,
    options: TraceSessionOptions = {},
  ) {
    this.clock = options.clock ?? new ServerClock();
    this.watcher = connection.watcher(tracer, { backoff: options.backoff, clock: this.clock });
  }

  /**
   * Starts watching the namespaces the objects will be applied to (and Nodes), and waits until
   * every collection was listed once or `timeoutMs` passed. Returns whether it synced in time.
   */
  async start(objects: readonly KubeObject[], timeoutMs = 15_000): Promise<boolean> {
    this.watchObjects(objects);
    this.watcher.start();
    return settleWithin(this.watcher.synced(), timeoutMs);
  }

  /** Watch the namespaces of these objects' journeys too (for later applies). */
  watchObjects(objects: readonly KubeObject[]): void {
    for (const object of objects) {
      const root = journeyRoot(object, this.connection.namespace);
      if (root?.namespace) this.watcher.watchNamespace(root.namespace);
    }
  }

  /** Applies the objects in order and begins a journey for each applied root (none in a dry run). */
  async apply(objects: readonly KubeObject[], options: Partial<ApplyOptions> = {}): Promise<SessionApplied[]> {
    this.watchObjects(objects);
    const release = this.watcher.hold();
    try {
      const applied: SessionApplied[] = [];
      for (const object of objects) {
        const result = await this.connection.applyObject(object, options);
        const entry: SessionApplied = { result };
        const root = result.failure || options.dryRun ? undefined : journeyRoot(result.applied ?? object, result.namespace ?? this.connection.namespace);
        await this.learnServerTime(result, options.fieldManager, root !== undefined);
        // The tracer compares the apply with times the server wrote: give it on the server's clock.
        if (root) entry.journeyId = this.tracer.begin(root, this.clock.toServer(result.requestedAt));
        applied.push(entry);
      }
      return applied;
    } finally {
      release();
    }
  }

  /**
   * The write's second-granular stamp bounds the server's clock; on the simulator, the etcd write
   * on the internals stream (ms-exact, sent as the request is answered) pins it down, which is
   * worth a short wait before a journey begins.
   */
  private async learnServerTime(result: ApplyResult, fieldManager: string | undefined, beginsJourney: boolean): Promise<void> {
    const stamp = writeStamp(result, fieldManager);
    if (stamp === undefined || result.answeredAt === undefined) return;
    this.clock.observeWrite(stamp, result.requestedAt, result.answeredAt);
    if (!beginsJourney) return;
    await this.watcher.waitForStep(
      (step) => step.type === 'etcdWrite' && step.object.kind === result.kind && step.object.name === result.name && (step.object.namespace ?? undefined) === result.namespace && step.time >= stamp,
      WRITE_STEP_WAIT_MS,
    );
  }

  /** Resolves true as soon as `condition` holds (checked now and after each tracer change), false after `timeoutMs`. */
  waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value: boolean): void => {
        clearTimeout(timer);
        unsubscribe();
        resolve(value);
      };
      const timer = setTimeout(() => finish(condition()), timeoutMs);
      const unsubscribe = this.tracer.onDidChange(() => {
        if (condition()) finish(true);
      });
    });
  }

  problems(): WatchProblem[] {
    return this.watcher.problems();
  }

  stop(): Promise<void> {
    return this.watcher.stop();
  }
}

/** Whether `promise` settled within `ms`. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
