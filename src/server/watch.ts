/**
 * Watch streams as kube-apiserver serves them: headers flushed at once (kubectl's rollout status
 * hangs otherwise), one JSON event per line, synthetic ADDED for resourceVersion 0, replay after N,
 * an ERROR event with a 410 Status when N is too old, bookmarks when asked, Table rows when asked
 * (column definitions only in the first event), and `timeoutSeconds` honoured.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../core/k8s';
import { ApiError } from '../sim/store/types';
import { JSON_TYPE, TABLE_TYPE, wantsTable } from './http-util';
import { resourceTable } from './printers/table';
import { toServedVersion } from '../sim/apis/version-conversion';
import { inServedVersion } from '../sim/store/custom-resources';
import type { ResourceHandlerDeps } from './handler-deps';
import type { ResourcePath } from './routing';

/** kube-apiserver's --min-request-timeout (1800 s); watches without timeoutSeconds last 1–2× that. */
const MIN_REQUEST_TIMEOUT_S = 1800;
const BOOKMARK_EVERY_MS = 10_000;

export function serveWatch(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: URLSearchParams, deps: ResourceHandlerDeps): void {
  const { info } = path;
  const asTable = wantsTable(req.headers.accept);
  res.writeHead(200, { 'Content-Type': asTable ? TABLE_TYPE : JSON_TYPE, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();

  let closed = false;
  let sentColumns = false;
  let lastResourceVersion = query.get('resourceVersion') ?? String(deps.store.currentResourceVersion());
  const write = (type: string, object: KubeObject): void => {
    if (closed) return;
    const isObject = type !== 'ERROR' && type !== 'BOOKMARK';
    let payload: unknown = isObject ? inServedVersion(info, toServedVersion(info, object)) : object;
    if (asTable && isObject) {
      const table = resourceTable(info, [object], { now: deps.now(), includeObject: 'Metadata', noHeaders: sentColumns }) as KubeObject;
      table.metadata = { resourceVersion: object.metadata?.resourceVersion };
      sentColumns = true;
      payload = table;
    }
    if (object.metadata?.resourceVersion) lastResourceVersion = object.metadata.resourceVersion;
    res.write(`${JSON.stringify({ type, object: payload })}\n`);
  };

  let unsubscribe: () => void = () => undefined;
  try {
    unsubscribe = deps.store.watch(info.key, {
      namespace: path.namespace,
      labelSelector: query.get('labelSelector') ?? undefined,
      fieldSelector: query.get('fieldSelector') ?? undefined,
      resourceVersion: query.get('resourceVersion') ?? undefined,
    }, write);
  } catch (error) {
    if (error instanceof ApiError) {
      // A bad or expired resourceVersion is reported inside the stream, which then closes.
      res.write(`${JSON.stringify({ type: 'ERROR', object: error.toStatus() })}\n`);
      res.end();
      return;
    }
    throw error;
  }

  const timeoutSeconds = Number(query.get('timeoutSeconds'));
  const lifetimeMs = Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds * 1000 : MIN_REQUEST_TIMEOUT_S * 1000 * (1 + Math.random());
  const timers: NodeJS.Timeout[] = [setTimeout(() => close(), lifetimeMs)];
  if (query.get('allowWatchBookmarks') === 'true') {
    timers.push(
      setInterval(() => {
        write('BOOKMARK', { kind: info.kind, apiVersion: info.apiVersion, metadata: { resourceVersion: String(Math.max(Number(lastResourceVersion) || 0, deps.store.currentResourceVersion())) } });
      }, BOOKMARK_EVERY_MS),
    );
  }
  const close = (): void => {
    if (closed) return;
    closed = true;
    unsubscribe();
    for (const timer of timers) clearTimeout(timer);
    res.end();
  };
  req.on('close', close);
  res.on('error', close);
}
