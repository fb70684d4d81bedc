/**
 * List + watch of one collection, kept alive the way client-go's reflector does it:
 * - list, then watch from the list's resourceVersion; after a broken connection, watch again from
 *   the last resourceVersion seen (events, bookmarks), so nothing is replayed or missed;
 * - a 410 Expired (the server's history no longer reaches back that far) means relist: the fresh
 *   list is compared with what was known and the differences are delivered as ADDED, MODIFIED and
 *   DELETED, so the consumer ends up with the server's state;
 * - an unreachable server is retried with exponential back-off; a watch the server closes
 *   normally is resumed at once, and again with back-off only while consecutive watches bring
 *   nothing (as client-node 2.x does);
 * - 401/403/404 on a collection are reported as a problem and retried slowly, since RBAC may be
 *   granted or a CRD installed while we wait.
 * The list, watch and delay functions are arguments (as in client-node's ListWatch), so tests
 * drive every path without a server.
 */
import type { KubeObject, WatchEvent } from '../core/k8s';
import { ClusterApiError, describeError, errorFromStatus } from './errors';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';

export interface ListResult {
  resourceVersion: string;
  items: KubeObject[];
}

export type ListFunction = (path: string, signal: AbortSignal) => Promise<ListResult>;

export interface WatchRequest {
  path: string;
  resourceVersion: string;
  signal: AbortSignal;
  /** The server accepted the watch. */
  onOpen(): void;
  /** One line of the stream: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR (with a Status object). */
  onEvent(type: string, object: KubeObject): void;
}

/** Resolves when the stream ends normally (or `signal` aborts it); rejects when it fails. */
export type WatchFunction = (request: WatchRequest) => Promise<void>;

export type DelayFunction = (ms: number, signal: AbortSignal) => Promise<void>;

export type ProblemReason = 'Forbidden' | 'Unauthorized' | 'NotFound' | 'Unreachable';

export interface StreamProblem {
  reason: ProblemReason;
  /** The server's message (`events is forbidden: User "dev" cannot list resource "events" …`) or the connection error. */
  message: string;
  code?: number;
  /** When the problem was first seen, ms. */
  since: number;
}

export interface ReflectorStats {
  lists: number;
  watches: number;
  /** Relists caused by 410 Expired. */
  expired: number;
  /** Failed lists and watches. */
  failures: number;
  /** Delays waited before retrying, in order (ms). */
  delays: number[];
}

export interface ReflectorOptions {
  /** The kind and apiVersion of the collection's items (list items carry neither). */
  kind: string;
  apiVersion: string;
  path: string;
  list: ListFunction;
  watch: WatchFunction;
  delay: DelayFunction;
  backoff?: BackoffPolicy;
  now?: () => number;
  deliver(event: WatchEvent): void;
  onProblem?(problem: StreamProblem | undefined): void;
  /** A watch opened (true) or ended (false). */
  onWatching?(watching: boolean): void;
  /** What of each arriving object (listed or watched) goes any further (default: all of it). */
  prepare?(object: KubeObject): KubeObject;
}

const MAX_RECORDED_DELAYS = 64;

function uidOf(version: string): string {
  return version.slice(0, version.indexOf(' '));
}

function keyOf(object: KubeObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/** What is known of an object between relists, in one string: `uid resourceVersion` (neither holds a space). */
function versionOf(object: KubeObject): string {
  return `${object.metadata?.uid ?? ''} ${object.metadata?.resourceVersion ?? ''}`;
}

export class Reflector {
  readonly stats: ReflectorStats = { lists: 0, watches: 0, expired: 0, failures: 0, delays: [] };
  /** Resolves once listed and watching (or once the server answered that the collection cannot be watched). */
  readonly synced: Promise<void>;
  /**
   * `namespace/name` → `uid resourceVersion` of each object listed or watched: what a relist
   * compares. Not the objects: a 10,000-pod journey would keep every pod whole here, beside the
   * tracer's own record of it.
   */
  private readonly known = new Map<string, string>();
  private readonly prepare: (object: KubeObject) => KubeObject;
  private readonly controller = new AbortController();
  private readonly policy: BackoffPolicy;
  private readonly now: () => number;
  private resourceVersion = '';
  /** Consecutive attempts that brought nothing; the back-off exponent. */
  private failures = 0;
  private problem: StreamProblem | undefined;
  private markSynced: () => void = () => undefined;
  private running: Promise<void> | undefined;
  private watchOpen = false;

  constructor(private readonly options: ReflectorOptions) {
    this.policy = options.backoff ?? DEFAULT_BACKOFF;
    this.now = options.now ?? Date.now;
    this.prepare = options.prepare ?? ((object) => object);
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
  }

  get path(): string {
    return this.options.path;
  }

  /** The resourceVersion the next watch resumes from. */
  get lastResourceVersion(): string {
    return this.resourceVersion;
  }

  get currentProblem(): StreamProblem | undefined {
    return this.problem;
  }

  /** Whether a watch is open now: everything up to now has been delivered. */
  get watching(): boolean {
    return this.watchOpen;
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const signal = this.controller.signal;
    let needList = true;
    while (!signal.aborted) {
      if (needList) {
        try {
          const result = await this.options.list(this.options.path, signal);
          if (signal.aborted) return;
          this.stats.lists++;
          this.replace(result.items);
          this.resourceVersion = result.resourceVersion;
          needList = false;
          this.setProblem(undefined);
        } catch (error) {
          if (signal.aborted) return;
          const next = this.afterFailure(error);
          await this.wait(next.delay);
          continue;
        }
      }
      const outcome = await this.watchOnce(signal);
      if (signal.aborted) return;
      let delay: number;
      if (outcome.sawEvent) this.failures = 0;
      if (outcome.expired) {
        this.stats.expired++;
        needList = true;
        delay = this.quietDelay();
      } else if (outcome.error !== undefined) {
        const next = this.afterFailure(outcome.error);
        needList = next.relist;
        delay = next.delay;
      } else {
        delay = this.quietDelay();
      }
      await this.wait(delay);
    }
  }

  private async watchOnce(signal: AbortSignal): Promise<{ sawEvent: boolean; expired: boolean; error?: unknown }> {
    const watchController = new AbortController();
    const stopWatch = (): void => watchController.abort();
    signal.addEventListener('abort', stopWatch, { once: true });
    let sawEvent = false;
    let expired = false;
    let error: unknown;
    this.stats.watches++;
    const onEvent = (type: string, object: KubeObject): void => {
      if (watchController.signal.aborted) return;
      if (type === 'ERROR') {
        const status = errorFromStatus(object, 500);
        if (status.code === 410) expired = true;
        else error = status;
        watchController.abort();
        return;
      }
      const rv = object?.metadata?.resourceVersion;
      if (type === 'BOOKMARK') {
        sawEvent = true;
        if (rv) this.resourceVersion = rv;
        return;
      }
      if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
      sawEvent = true;
      if (rv) this.resourceVersion = rv;
      this.apply(type, this.complete(object));
    };
    try {
      await this.options.watch({ path: this.options.path, resourceVersion: this.resourceVersion, signal: watchController.signal, onOpen: () => this.opened(), onEvent });
    } catch (thrown) {
      if (!watchController.signal.aborted) error = thrown;
    } finally {
      signal.removeEventListener('abort', stopWatch);
      this.setWatching(false);
    }
    return { sawEvent, expired, error };
  }

  /** A watch event: remembered for relists, then delivered (duplicates of what is known are dropped). */
  private apply(type: WatchEvent['type'], object: KubeObject): void {
    const key = keyOf(object);
    if (type === 'DELETED') {
      this.known.delete(key);
    } else {
      const version = versionOf(object);
      if (this.known.get(key) === version) return;
      this.known.set(key, version);
    }
    this.options.deliver({ type, object });
  }

  /** A (re)list: deliver what changed since the objects known before. */
  private replace(items: readonly KubeObject[]): void {
    const seen = new Set<string>();
    for (const item of items) {
      const object = this.complete(item);
      const key = keyOf(object);
      seen.add(key);
      const previous = this.known.get(key);
      const version = versionOf(object);
      this.known.set(key, version);
      if (previous === undefined) {
        this.options.deliver({ type: 'ADDED', object });
      } else if (uidOf(previous) !== (object.metadata?.uid ?? '')) {
        this.options.deliver({ type: 'DELETED', object: this.identity(key, previous) });
        this.options.deliver({ type: 'ADDED', object });
      } else if (previous !== version) {
        this.options.deliver({ type: 'MODIFIED', object });
      }
    }
    for (const [key, previous] of this.known) {
      if (seen.has(key)) continue;
      this.known.delete(key);
      this.options.deliver({ type: 'DELETED', object: this.identity(key, previous) });
    }
  }

  /**
   * A relist's DELETED of an object it no longer finds: its identity only. As client-go's
   * DeletedFinalStateUnknown says, its final state is not known; the tracer has its own record of
   * the states it saw (and ignores an Event's DELETED, its expiry).
   */
  private identity(key: string, version: string): KubeObject {
    const slash = key.indexOf('/');
    const space = version.indexOf(' ');
    const namespace = key.slice(0, slash);
    const uid = version.slice(0, space);
    const resourceVersion = version.slice(space + 1);
    return {
      kind: this.options.kind,
      apiVersion: this.options.apiVersion,
      metadata: { name: key.slice(slash + 1), ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) },
    };
  }

  /** List items carry no kind or apiVersion; the tracer and later consumers want both. */
  private complete(received: KubeObject): KubeObject {
    const object = this.prepare(received);
    if (object.kind && object.apiVersion) return object;
    return { ...object, kind: object.kind ?? this.options.kind, apiVersion: object.apiVersion ?? this.options.apiVersion };
  }

  /** A watch is open: from now on every change arrives as it happens. */
  private opened(): void {
    this.setProblem(undefined);
    this.markSynced();
    this.setWatching(true);
  }

  private setWatching(open: boolean): void {
    if (this.watchOpen === open) return;
    this.watchOpen = open;
    this.options.onWatching?.(open);
  }

  private afterFailure(error: unknown): { delay: number; relist: boolean } {
    this.stats.failures++;
    if (error instanceof ClusterApiError) {
      if (error.code === 410) {
        this.stats.expired++;
        return { delay: this.quietDelay(), relist: true };
      }
      if (error.code === 401 || error.code === 403 || error.code === 404) {
        const reason: ProblemReason = error.code === 401 ? 'Unauthorized' : error.code === 403 ? 'Forbidden' : 'NotFound';
        this.setProblem({ reason, message: error.message, code: error.code, since: this.now() });
        // Nothing to wait for: the collection answered. The journey goes on without it.
        this.markSynced();
        return { delay: this.policy.maxMs, relist: true };
      }
    }
    this.setProblem({ reason: 'Unreachable', message: describeError(error), code: error instanceof ClusterApiError ? error.code : undefined, since: this.now() });
    return { delay: backoffDelay(this.policy, this.failures++), relist: false };
  }

  /** After a normal close or a 410: at once the first time, with back-off while nothing comes. */
  private quietDelay(): number {
    const delay = this.failures === 0 ? 0 : backoffDelay(this.policy, this.failures - 1);
    this.failures++;
    return delay;
  }

  private async wait(ms: number): Promise<void> {
    if (this.stats.delays.length < MAX_RECORDED_DELAYS) this.stats.delays.push(ms);
    await this.options.delay(ms, this.controller.signal);
  }

  private setProblem(problem: StreamProblem | undefined): void {
    if (!problem && !this.problem) return;
    if (problem && this.problem && problem.reason === this.problem.reason && problem.message === this.problem.message) return;
    this.problem = problem && this.problem?.reason === problem.reason ? { ...problem, since: this.problem.since } : problem;
    this.options.onProblem?.(this.problem);
  }
}
