/**
 * Service and EndpointSlice stages from state. The API server allocates a Service's ClusterIP
 * (and NodePorts) as it stores it; the EndpointSlice controller adds the pods as they turn ready;
 * kube-proxy programs the nodes (a stage that only the simulator's internals stream can show, see
 * the tracer's `proxySync`). Endpoint stages are shown on the Service, where `kubectl describe
 * service` shows `Endpoints:`, and derived from the slices' endpoints so they hold on a real
 * cluster too.
 */
import type { EndpointDigest, WorkloadDigest } from './digest';
import type { StageDraft } from './records';
import { deriveDeletion, deriveStored, type WorkloadDeriveContext } from './derive-workload';

/** `app=hello,tier=web`, as kubectl prints a selector. */
export function selectorText(selector: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(selector ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

export function deriveService(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext): StageDraft[] {
  const out: StageDraft[] = [];
  deriveStored(prev, next, ctx, out);
  const service = next.service;
  if (service && !ctx.has('ipAllocated')) {
    const type = service.type;
    const ports = service.nodePorts.length > 0 ? `, NodePort ${service.nodePorts.join(', ')}` : '';
    let title: string | undefined;
    if (type === 'ExternalName') title = `ExternalName ${service.externalName ?? ''}: a DNS alias, no ClusterIP and no endpoints`;
    else if (service.clusterIP === 'None') title = 'Headless (clusterIP: None): DNS returns the pods themselves';
    else if (service.clusterIP) title = `ClusterIP ${service.clusterIP} allocated${ports}`;
    if (title) {
      out.push({
        key: 'ipAllocated',
        kind: 'ipAllocated',
        component: 'kube-apiserver',
        title,
        message: type === 'LoadBalancer' ? 'EXTERNAL-IP stays <pending>: no cloud provider gives this cluster a load balancer' : undefined,
        objectTime: next.created,
        fields: service.clusterIP ? [{ path: 'spec.clusterIP', to: service.clusterIP }] : undefined,
      });
    }
  }
  deriveDeletion(prev, next, ctx, out);
  return out;
}

function readyTargets(endpoints: readonly EndpointDigest[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const endpoint of endpoints ?? []) if (endpoint.ready) out.add(endpoint.target);
  return out;
}

/**
 * A slice's stages: its own creation, and on its Service one stage per pod that became a ready
 * endpoint (`forOwner`), so the Service's journey shows endpoints added as pods turn ready.
 */
export function deriveEndpointSlice(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext & { serviceName: string }): { own: StageDraft[]; forOwner: StageDraft[] } {
  const own: StageDraft[] = [];
  const forOwner: StageDraft[] = [];
  if (!prev && !ctx.has('stored#1')) {
    own.push({ key: 'stored#1', kind: 'stored', component: 'endpointslice-controller', title: `Created EndpointSlice ${next.name}`, objectTime: next.created });
  }
  const before = readyTargets(prev?.slice?.endpoints);
  const now = next.slice?.endpoints ?? [];
  const ready = now.filter((endpoint) => endpoint.ready);
  for (const endpoint of ready) {
    if (before.has(endpoint.target)) continue;
    const draft: StageDraft = {
      key: ctx.unique(`endpoint:${endpoint.target}`),
      kind: 'endpointAdded',
      component: 'endpointslice-controller',
      title: `Endpoint ${endpoint.target} ready${endpoint.nodeName ? ` on ${endpoint.nodeName}` : ''} (${ready.length} ready in ${next.name})`,
      fields: [{ path: `endpoints[${endpoint.target}].conditions.ready`, to: 'true' }],
    };
    own.push(draft);
    forOwner.push({ ...draft, key: `endpoint:${endpoint.target}@${next.name}` });
  }
  const nowReady = readyTargets(now);
  for (const target of before) {
    if (nowReady.has(target)) continue;
    const gone = !now.some((endpoint) => endpoint.target === target);
    const draft: StageDraft = {
      key: ctx.unique(`endpointRemoved:${target}`),
      kind: 'endpointRemoved',
      component: 'endpointslice-controller',
      title: gone ? `Endpoint ${target} removed` : `Endpoint ${target} no longer ready`,
      fields: [{ path: `endpoints[${target}].conditions.ready`, from: 'true', to: gone ? undefined : 'false' }],
    };
    own.push(draft);
    forOwner.push({ ...draft, key: `${draft.key}@${next.name}` });
  }
  deriveDeletion(prev, next, ctx, own);
  return { own, forOwner };
}
