/**
 * `GET /api/v1/namespaces/<ns>/pods/<name>/log`: what `kubectl logs` reads, with `container`,
 * `previous`, `timestamps`, `follow`, `tailLines`, `sinceSeconds` and `limitBytes`. The lines come
 * from the script model (src/sim/kubelet/container-logs.ts), timed by the virtual clock; errors
 * are the kubelet's and the API server's (`container "c" in pod "p" is waiting to start: …`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Container, ContainerStatus, KubeObject, Pod } from '../core/k8s';
import { ApiError } from '../sim/store/types';
import { containerLogLines, type LogLine } from '../sim/kubelet/container-logs';
import type { ResourceHandlerDeps } from './handler-deps';
import type { ResourcePath } from './routing';

type Query = URLSearchParams;

/** How often a followed log looks for new lines (real time): the virtual clock moves in between. */
const FOLLOW_POLL_MS = 200;

interface Instance {
  startedAt: number;
  finishedAt?: number;
}

function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/** The container the request names, or the only (or annotated default) one. */
function pickContainer(pod: Pod & KubeObject, requested: string | null): { container: Container; init: boolean } {
  const name = pod.metadata?.name ?? '';
  const regular = pod.spec?.containers ?? [];
  const init = pod.spec?.initContainers ?? [];
  const wanted = requested ?? pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] ?? (regular.length === 1 ? regular[0].name : undefined);
  if (wanted === undefined) {
    const names = [...regular, ...init].map((c) => c.name).join(' ');
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${names}]`);
  }
  const found = regular.find((c) => c.name === wanted);
  if (found) return { container: found, init: false };
  const foundInit = init.find((c) => c.name === wanted);
  if (foundInit) return { container: foundInit, init: true };
  const valid = regular.map((c) => c.name).join(' ');
  const initNames = init.map((c) => c.name).join(' ');
  throw badRequest(`container ${wanted} is not valid for pod ${name}${valid ? `, choose one of: [${valid}]` : ''}${initNames ? ` or one of the init containers: [${initNames}]` : ''}`);
}

function instanceOf(pod: Pod & KubeObject, container: Container, init: boolean, previous: boolean): Instance {
  const statuses: ContainerStatus[] = (init ? pod.status?.initContainerStatuses : pod.status?.containerStatuses) ?? [];
  const status = statuses.find((s) => s.name === container.name);
  const name = pod.metadata?.name ?? '';
  if (previous) {
    const last = status?.lastState?.terminated;
    if (!last?.startedAt) throw badRequest(`previous terminated container "${container.name}" in pod "${name}" not found`);
    return { startedAt: Date.parse(last.startedAt), finishedAt: last.finishedAt ? Date.parse(last.finishedAt) : undefined };
  }
  const running = status?.state?.running;
  if (running?.startedAt) return { startedAt: Date.parse(running.startedAt) };
  const terminated = status?.state?.terminated;
  if (terminated?.startedAt) return { startedAt: Date.parse(terminated.startedAt), finishedAt: terminated.finishedAt ? Date.parse(terminated.finishedAt) : undefined };
  const reason = status?.state?.waiting?.reason ?? (pod.spec?.nodeName ? 'ContainerCreating' : 'PodInitializing');
  throw badRequest(`container "${container.name}" in pod "${name}" is waiting to start: ${reason}`);
}

/** The environment a process sees: the kubelet's defaults, the container's literal values and field references. */
function environmentOf(pod: Pod & KubeObject, container: Container): Map<string, string> {
  const env = new Map<string, string>([
    ['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    ['HOSTNAME', pod.spec?.hostname ?? pod.metadata?.name ?? ''],
    ['KUBERNETES_SERVICE_HOST', '10.96.0.1'],
    ['KUBERNETES_SERVICE_PORT', '443'],
    ['KUBERNETES_SERVICE_PORT_HTTPS', '443'],
    ['KUBERNETES_PORT', 'tcp://10.96.0.1:443'],
  ]);
  const fields: Record<string, string | undefined> = {
    'metadata.name': pod.metadata?.name,
    'metadata.namespace': pod.metadata?.namespace,
    'metadata.uid': pod.metadata?.uid,
    'spec.nodeName': pod.spec?.nodeName,
    'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.podIP': pod.status?.podIP,
    'status.hostIP': pod.status?.hostIP,
  };
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env.set(variable.name, variable.value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => env.get(name) ?? whole));
    else if (variable.valueFrom?.fieldRef) env.set(variable.name, fields[variable.valueFrom.fieldRef.fieldPath] ?? '');
  }
  return env;
}

function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

function formatLine(line: LogLine, timestamps: boolean): string {
  return timestamps ? `${rfc3339Nano(line.time)} ${line.text}\n` : `${line.text}\n`;
}

function nonNegativeInteger(query: Query, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw badRequest(`${name}: Invalid value: ${raw}: must be greater than or equal to 0`);
  return value;
}

export function handlePodLog(req: IncomingMessage, res: ServerResponse, path: ResourcePath, query: Query, deps: ResourceHandlerDeps): void {
  const pod = deps.store.read('Pod', path.namespace, path.name ?? '') as Pod & KubeObject;
  const { container, init } = pickContainer(pod, query.get('container'));
  const previous = query.get('previous') === 'true';
  const instance = instanceOf(pod, container, init, previous);
  const timestamps = query.get('timestamps') === 'true';
  const tailLines = nonNegativeInteger(query, 'tailLines');
  const sinceSeconds = nonNegativeInteger(query, 'sinceSeconds');
  const limitBytes = nonNegativeInteger(query, 'limitBytes');
  const sinceTime = query.get('sinceTime');
  const since = sinceSeconds !== undefined ? deps.now() - sinceSeconds * 1000 : sinceTime ? Date.parse(sinceTime) : -Infinity;
  const context = { podName: pod.metadata?.name ?? '', env: environmentOf(pod, container), startedAt: instance.startedAt };
  const linesUntil = (until: number): LogLine[] => containerLogLines(container, context, until).filter((line) => line.time >= since);

  let lines = linesUntil(instance.finishedAt ?? deps.now());
  if (tailLines !== undefined) lines = lines.slice(Math.max(0, lines.length - tailLines));
  let body = lines.map((line) => formatLine(line, timestamps)).join('');
  if (limitBytes !== undefined) body = Buffer.from(body).subarray(0, limitBytes).toString();
  const follow = query.get('follow') === 'true' && !previous && instance.finishedAt === undefined;
  if (!follow) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
  res.write(body);
  let sent = linesUntil(deps.now()).length;
  const timer = setInterval(() => {
    const current = deps.store.get<Pod & KubeObject>('Pod', path.namespace, path.name ?? '');
    const ended = !current || current.metadata?.uid !== pod.metadata?.uid || isFinished(current, container.name, init, instance.startedAt);
    const all = linesUntil(deps.now());
    for (const line of all.slice(sent)) res.write(formatLine(line, timestamps));
    sent = all.length;
    if (ended) stop();
  }, FOLLOW_POLL_MS);
  const stop = (): void => {
    clearInterval(timer);
    if (!res.writableEnded) res.end();
  };
  req.on('close', stop);
}

/** Whether the followed instance has ended: its status shows it terminated (or a later instance). */
function isFinished(pod: Pod & KubeObject, containerName: string, init: boolean, startedAt: number): boolean {
  const statuses = (init ? pod.status?.initContainerStatuses : pod.status?.containerStatuses) ?? [];
  const status = statuses.find((s) => s.name === containerName);
  const running = status?.state?.running?.startedAt;
  return !running || Date.parse(running) !== startedAt;
}
