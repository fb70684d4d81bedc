/**
 * One connection to a Kubernetes API server, a real cluster or the simulator alike: the kubeconfig
 * context, the request machinery, discovery, server-side apply, and the list/watch I/O the
 * watcher runs on.
 */
import { nodeListResolver } from '../common/verdict-table';
import type { KubeConfig } from '@kubernetes/client-node';
import type { InternalStep } from '../core/internals';
import type { KubeObject } from '../core/k8s';
import { ManifestApplier, type ApplyOptions, type ApplyResult } from './apply';
import { abortableDelay } from './backoff';
import { ResourceMapper } from './discovery';
import { ClusterHttp } from './http';
import { INTERNALS_STREAM_PATH, type InternalsFunction } from './internals-reader';
import { loadKubeconfig, type ContextInfo, type KubeconfigSource } from './kubeconfig';
import type { ListFunction, WatchFunction } from './reflector';
import type { JourneySink } from '../core/journey/types';
import { stepSharer } from './step-sharing';
import { ClusterWatcher, type ClusterWatcherOptions, type WatchIo } from './watcher';

export interface ServerVersion {
  major?: string;
  minor?: string;
  gitVersion?: string;
  platform?: string;
}

const LIST_PAGE_SIZE = 500;
/** kubectl's reflector asks for 5–10 minutes; the server closes then and the watch resumes. */
const WATCH_TIMEOUT_S = [300, 600] as const;

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    // As client-node's Watch: a line that is not JSON is skipped.
    return undefined;
  }
}

export class ClusterConnection {
  readonly http: ClusterHttp;
  readonly resources: ResourceMapper;
  private readonly applier: ManifestApplier;

  constructor(
    readonly kubeConfig: KubeConfig,
    /** The context in use (name, cluster, namespace, credential kind; never the credential). */
    readonly context: ContextInfo,
    readonly server: string,
  ) {
    this.http = new ClusterHttp(kubeConfig, server);
    this.resources = new ResourceMapper(this.http);
    this.applier = new ManifestApplier(this.http, this.resources);
  }

  /** From the kubeconfig kubectl would use (KUBECONFIG, ~/.kube/config) or an explicit file, and a context. No request is made. */
  static open(source: KubeconfigSource = {}): ClusterConnection {
    const loaded = loadKubeconfig(source);
    return new ClusterConnection(loaded.kubeConfig, loaded.context, loaded.server);
  }

  /** The namespace of namespaced objects that name none. */
  get namespace(): string {
    return this.context.namespace;
  }

  /** GET /version: the first request, which tells whether the server can be reached at all. */
  async serverVersion(timeoutMs = 10_000): Promise<ServerVersion> {
    return (await this.http.json('GET', '/version', { timeoutMs })).body as ServerVersion;
  }

  /** Server-side apply of each object in order; see ManifestApplier. */
  apply(objects: readonly KubeObject[], options: Partial<ApplyOptions> = {}, onResult?: (result: ApplyResult, index: number) => void): Promise<ApplyResult[]> {
    return this.applier.applyAll(objects, { defaultNamespace: this.namespace, ...options }, onResult);
  }

  /** Server-side apply of one object; see ManifestApplier. */
  applyObject(object: KubeObject, options: Partial<ApplyOptions> = {}): Promise<ApplyResult> {
    return this.applier.apply(object, { defaultNamespace: this.namespace, ...options });
  }

  /** A watcher feeding `sink` over this connection (not started). */
  watcher(sink: JourneySink, options: Omit<ClusterWatcherOptions, 'sink' | 'io'> = {}): ClusterWatcher {
    return new ClusterWatcher({ ...options, sink, io: this.watchIo() });
  }

  /** The list, watch, delay and internals functions over this connection. */
  watchIo(): WatchIo {
    return { list: this.list, watch: this.watch, delay: abortableDelay, internals: this.internals };
  }

  readonly list: ListFunction = async (path, signal) => {
    const items: KubeObject[] = [];
    let resourceVersion = '';
    let next: string | undefined;
    do {
      const { body } = await this.http.json('GET', path, { query: { limit: LIST_PAGE_SIZE, continue: next }, signal });
      const page = body as { metadata?: { resourceVersion?: string; continue?: string }; items?: KubeObject[] };
      items.push(...(page.items ?? []));
      // Every page of a paginated list is a view of the first page's snapshot.
      resourceVersion ||= page.metadata?.resourceVersion ?? '';
      next = page.metadata?.continue || undefined;
    } while (next);
    return { resourceVersion, items };
  };

  readonly watch: WatchFunction = (request) =>
    this.http.stream(request.path, {
      query: {
        watch: 'true',
        resourceVersion: request.resourceVersion || undefined,
        allowWatchBookmarks: 'true',
        timeoutSeconds: WATCH_TIMEOUT_S[0] + Math.floor(Math.random() * (WATCH_TIMEOUT_S[1] - WATCH_TIMEOUT_S[0])),
      },
      signal: request.signal,
      onOpen: request.onOpen,
      onLine: (line) => {
        const event = parseLine(line) as { type?: unknown; object?: unknown } | undefined;
        if (event && typeof event.type === 'string' && event.object && typeof event.object === 'object') request.onEvent(event.type, event.object as KubeObject);
      },
    });

  readonly internals: InternalsFunction = (request) => {
    const resolveNodeLists = nodeListResolver();
    const share = stepSharer();
    return this.http.stream(INTERNALS_STREAM_PATH, {
      query: { since: request.since },
      signal: request.signal,
      onOpen: request.onOpen,
      onLine: (line) => {
        const entry = parseLine(line) as { seq?: unknown; step?: unknown } | undefined;
        if (!entry || typeof entry.seq !== 'number' || !entry.step || typeof entry.step !== 'object') return;
        resolveNodeLists(entry.step);
        request.onStep(entry.seq, share(entry.step as InternalStep));
      },
    });
  };
}
