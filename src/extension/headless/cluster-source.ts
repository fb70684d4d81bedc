/**
 * The JourneySource over src/cluster. src/cluster pulls in @kubernetes/client-node, which is
 * large, so it is imported on first use: in the extension bundle that import is a require of the
 * separate dist/cluster.js (see esbuild.mjs), so activation neither parses nor runs it.
 */
import type { ApplyResult } from '../../cluster/apply';
import { toDisposable } from './disposable';
import { fitSuggestionsPath, type FitSuggestionsResponse } from '../../protocol/simulator-server';
import type { ApplyOutcome, ConnectOptions, ContextSummary, JourneySource, TargetConnection } from './journey-source';

/** What an apply held is handed to the tracer in slices this long, so the editor stays responsive meanwhile. */
const RELEASE_SLICE_MS = 10;

/** Type-only imports above are erased; this is the only runtime reference to src/cluster. */
function clusterModules() {
  return import('../../cluster/for-extension');
}

export const clusterSource: JourneySource = {
  async listContexts(kubeconfig?: string): Promise<ContextSummary[]> {
    const { listContexts } = await clusterModules();
    return listContexts(kubeconfig ? { kubeconfig } : {}).map((c) => ({ name: c.name, cluster: c.cluster, server: c.server, user: c.user, namespace: c.namespace, current: c.current }));
  },

  async connect(options: ConnectOptions): Promise<TargetConnection> {
    const { ClusterConnection, describeProblem } = await clusterModules();
    const connection = ClusterConnection.open({ kubeconfig: options.kubeconfig || undefined, context: options.context });
    const watcher = connection.watcher(options.sink, { namespaces: [connection.namespace], releaseSliceMs: RELEASE_SLICE_MS });
    watcher.start();
    /**
     * Applies made while the caller holds: each holds the watch from its request until the turn
     * after it resolved, when its caller has begun the journey; what arrived before flows on to the
     * tracer meanwhile. One hold of the watch across a 100-Deployment apply kept every event of all
     * its pods parsed in the extension host until the last apply (300 MiB at 10,000 pods).
     */
    let callerHolds = 0;
    const holdForApply = (): (() => void) => {
      if (callerHolds === 0) return () => undefined;
      const release = watcher.hold();
      // After the continuations of the apply's promise (the caller's begin), before any later I/O.
      return () => setImmediate(release);
    };
    return {
      context: connection.context.name,
      server: connection.server,
      namespace: connection.namespace,
      probe: async () => {
        await connection.serverVersion();
      },
      apply: async (objects, fieldManager, onResult, source) => {
        const release = holdForApply();
        try {
          const results = await connection.apply(objects, { fieldManager, source }, (result, index) => onResult(toOutcome(result), index));
          return results.map(toOutcome);
        } finally {
          release();
        }
      },
      watchNamespace: (namespace) => watcher.watchNamespace(namespace),
      hold: () => {
        callerHolds++;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          callerHolds--;
        };
      },
      problems: () => watcher.problems().map(describeProblem),
      onProblemsChanged: (listener) => toDisposable(watcher.onProblemsChanged((problems) => listener(problems.map(describeProblem)))),
      fitSuggestions: async (namespace, name) => {
        try {
          const { body } = await connection.http.json('GET', fitSuggestionsPath(namespace, name), { timeoutMs: 10_000 });
          const response = body as Partial<FitSuggestionsResponse>;
          return response.kind === 'FitSuggestions' ? (response as FitSuggestionsResponse) : undefined;
        } catch (error) {
          // Not the simulator (or the pod is gone): nothing to suggest.
          if (error instanceof Error && 'code' in error && [401, 403, 404].includes((error as { code: number }).code)) return undefined;
          throw error;
        }
      },
      dispose: () => {
        void watcher.stop();
      },
    };
  },
};

function toOutcome(result: ApplyResult): ApplyOutcome {
  return {
    display: result.display,
    kind: result.kind,
    name: result.name,
    namespace: result.namespace,
    requestedAt: result.requestedAt,
    action: result.action,
    failure: result.failure && {
      message: result.failure.message,
      fromServer: result.failure.fromServer,
      code: result.failure.code,
      reason: result.failure.reason,
      causes: result.failure.causes.map((c) => ({ field: c.field, path: c.path, message: c.message })),
    },
  };
}
