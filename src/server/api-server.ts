/**
 * The simulator's Kubernetes-compatible HTTP API: loopback only, TLS with a per-run certificate,
 * bearer-token authenticated.
 * A thin layer over the simulator's store; the clock driver is caught up before each request so
 * the answer reflects the virtual "now", and poked after each write so controllers react.
 */
import { nodeListsOnce } from '../common/verdict-table';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { InternalStep } from '../core/internals';
import type { KubeObject, Pod } from '../core/k8s';
import { INTERNALS_API, type FitSuggestionsResponse } from '../protocol/simulator-server';
import type { Simulator } from '../sim/simulator';
import type { PacedDriver } from '../sim/driver';
import { ApiError } from '../sim/store/types';
import {
  SERVER_VERSION,
  aggregatedDiscovery,
  apiGroup,
  apiResourceList,
  legacyApiGroupList,
  legacyApiVersions,
  openApiDocumentFor,
  openApiIndex,
  openApiV2Document,
  OPENAPI_V2_PROTOBUF,
  wantsAggregated,
} from './discovery';
import { sendError, sendJson } from './http-util';
import type { ResourceHandlerDeps } from './handler-deps';
import { handleResource } from './resource-handlers';
import { parseResourcePath } from './routing';

/** Where the simulator's internals stream (etcd writes, watch deliveries, scheduler verdicts) is served. */
export const INTERNALS_PATH = '/apis/internals.kube-journey.dev/v1alpha1/steps';

/** `…/namespaces/{namespace}/pods/{name}/fits`: a pod's fit suggestions (see fitSuggestionsOf). */
const FITS_PATH = new RegExp(`^${INTERNALS_API}/namespaces/([^/]+)/pods/([^/]+)/fits$`);

export interface ApiServerOptions {
  simulator: Simulator;
  driver?: PacedDriver;
  token: string;
  /** 0 picks a free port. */
  port?: number;
  /** The server's certificate and key (PEM); see tls.ts. */
  certPem: string;
  keyPem: string;
}

export interface RunningApiServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startApiServer(options: ApiServerOptions): Promise<RunningApiServer> {
  const { simulator, driver, token } = options;
  const deps: ResourceHandlerDeps = {
    store: simulator.store,
    now: () => simulator.clock.now(),
    afterWrite: () => driver?.poke(),
  };
  const sockets = new Set<import('node:net').Socket>();

  const server: Server = createServer({ cert: options.certPem, key: options.keyPem }, (req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, error));
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const pathname = url.pathname.replace(/\/+$/, '') || '/';
    if (pathname === '/healthz' || pathname === '/livez' || pathname === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (!authorized(req, token)) {
      sendJson(res, 401, new ApiError(401, 'Unauthorized', 'Unauthorized').toStatus());
      return;
    }
    driver?.catchUp();
    const accept = req.headers.accept ?? '';
    const get = req.method === 'GET';

    if (get && pathname === '/version') return sendJson(res, 200, SERVER_VERSION);
    if (get && (pathname === '/api' || pathname === '/apis')) {
      const which = pathname === '/api' ? 'api' : 'apis';
      const aggregated = wantsAggregated(accept);
      if (aggregated) {
        return sendJson(res, 200, aggregatedDiscovery(which, aggregated, simulator.store.customResources()), `application/json;g=apidiscovery.k8s.io;v=${aggregated};as=APIGroupDiscoveryList`);
      }
      return sendJson(res, 200, which === 'api' ? legacyApiVersions(`127.0.0.1:${(server.address() as AddressInfo).port}`) : legacyApiGroupList(simulator.store.customResources()));
    }
    if (get && pathname === '/api/v1') return sendJson(res, 200, apiResourceList('', 'v1'));
    if (get && /^\/apis\/[^/]+$/.test(pathname)) {
      const group = apiGroup(pathname.split('/')[2], simulator.store.customResources());
      if (group) return sendJson(res, 200, group);
    }
    if (get && /^\/apis\/[^/]+\/[^/]+$/.test(pathname)) {
      const [, , group, version] = pathname.split('/');
      const list = apiResourceList(group, version, simulator.store.customResources());
      if (list) return sendJson(res, 200, list);
    }
    if (get && pathname === '/openapi/v2') {
      res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF, 'Content-Length': openApiV2Document.length });
      res.end(openApiV2Document);
      return;
    }
    if (get && pathname === '/openapi/v3') return sendJson(res, 200, openApiIndex(simulator.store.customResources()));
    if (get && pathname.startsWith('/openapi/v3/')) {
      const doc = openApiDocumentFor(pathname.slice('/openapi/v3/'.length), simulator.store.customResources());
      if (doc) {
        const cacheable = url.searchParams.get('hash') === doc.hash;
        return sendJson(res, 200, doc.body, 'application/json', cacheable ? { 'Cache-Control': 'public, immutable', ETag: `"${doc.hash}"` } : {});
      }
    }
    if (get && pathname === INTERNALS_PATH) return serveInternals(req, res, simulator);
    const fits = get ? FITS_PATH.exec(pathname) : null;
    if (fits) return sendJson(res, 200, fitSuggestionsOf(simulator, decodeURIComponent(fits[1]), decodeURIComponent(fits[2])));

    const parsed = parseResourcePath(pathname, simulator.store.customResources());
    if (parsed.type === 'resource') return handleResource(req, res, parsed.path, url.searchParams, deps);
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The scheduler's suggestions for one pod, computed on the simulator's current state; 404 for a pod that does not exist. */
function fitSuggestionsOf(simulator: Simulator, namespace: string, name: string): FitSuggestionsResponse {
  const pod = simulator.store.read<Pod & KubeObject>('Pod', namespace, name);
  const node = pod.spec?.nodeName;
  const fits = node ? { computedAt: simulator.clock.now(), totalNodes: simulator.components.scheduler.nodeCount, suggestions: [] } : simulator.components.scheduler.suggestFits(pod);
  return {
    kind: 'FitSuggestions',
    apiVersion: 'internals.kube-journey.dev/v1alpha1',
    pod: { namespace, name, uid: pod.metadata?.uid ?? '' },
    ...(node ? { node } : {}),
    fits,
  };
}

/**
 * The internals stream: NDJSON of InternalStep, first the retained steps (after `?since=<n>`,
 * counting from the first step ever recorded), then live ones. Not part of the Kubernetes API;
 * the cluster connection reads it only when talking to the simulator.
 */
function serveInternals(req: IncomingMessage, res: ServerResponse, simulator: Simulator): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  const since = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('since') ?? '0');
  const { steps, dropped } = simulator.internals.snapshot();
  let sequence = dropped;
  const replacer = nodeListsOnce();
  const send = (step: InternalStep): void => {
    sequence++;
    // Only attempts carry node lists; a replacer slows every other step down for nothing.
    if (sequence > since) res.write(`${JSON.stringify({ seq: sequence, step }, step.type === 'schedulingCycle' ? replacer : undefined)}\n`);
  };
  for (const step of steps) send(step);
  const stop = simulator.internals.onStep(send);
  req.on('close', stop);
}
