/**
 * kube-proxy, one per node (pkg/proxy/iptables/proxier.go), behind one subscription as the kubelet
 * fleet is: every node's kube-proxy watches the same Services and EndpointSlices and syncs its
 * rules through a BoundedFrequencyRunner (`--iptables-min-sync-period`, 1 s), so a change is
 * programmed right away after an idle second, else at the end of that second, together with
 * everything else that changed meanwhile. A sync of the simulated nodes is recorded as one
 * `proxySync` step per Service it reprogrammed: the ready endpoints its traffic now goes to.
 * Headless and ExternalName Services get no rules (nothing to program), as upstream skips them.
 */
import type { KubeObject } from '../../core/k8s';
import { informer, type SimContext } from '../context';
import type { StoreChange } from '../store/types';
import { SERVICE_NAME_LABEL, serviceKeyOf, type EndpointSliceObject, type ServiceObject } from '../controllers/endpointslice/service-types';

const COMPONENT = 'kube-proxy';
/** `--iptables-min-sync-period` default. */
export const MIN_SYNC_PERIOD_MS = 1000;
/** How long one iptables-restore of a small ruleset takes on a kind node. */
export const SYNC_DURATION_MS = 40;

/** What one Service's rules send traffic to, as the proxies last programmed it. */
interface Programmed {
  endpoints: string[];
}

export class KubeProxyFleet {
  private readonly unsubscribers: Array<() => void> = [];
  /** Service key → names of its EndpointSlices. */
  private readonly slicesByService = new Map<string, Set<string>>();
  private readonly programmed = new Map<string, Programmed>();
  private readonly changed = new Set<string>();
  private nodes = 0;
  private lastSyncAt = -Infinity;
  private syncScheduled = false;

  constructor(private readonly ctx: SimContext) {}

  start(): void {
    this.unsubscribers.push(this.ctx.store.subscribe('Node', (change) => this.onNode(change)));
    this.unsubscribers.push(informer(this.ctx, COMPONENT, 'Service', (change) => this.onService(change)));
    this.unsubscribers.push(informer(this.ctx, COMPONENT, 'EndpointSlice', (change) => this.onSlice(change)));
    this.nodes = this.ctx.store.list('Node').items.length;
    for (const slice of this.ctx.store.list('EndpointSlice').items) this.onSlice({ type: 'ADDED', kind: 'EndpointSlice', object: slice, resourceVersion: 0 });
    for (const service of this.ctx.store.list('Service').items) this.onService({ type: 'ADDED', kind: 'Service', object: service, resourceVersion: 0 });
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }

  /** The pods a Service's traffic goes to, as last programmed (undefined: never programmed). */
  endpointsOf(namespace: string, name: string): readonly string[] | undefined {
    return this.programmed.get(serviceKeyOf(namespace, name))?.endpoints;
  }

  private onNode(change: StoreChange): void {
    if (change.type === 'ADDED') this.nodes++;
    else if (change.type === 'DELETED') this.nodes--;
  }

  private onService(change: StoreChange): void {
    const meta = change.object.metadata ?? {};
    this.markChanged(serviceKeyOf(meta.namespace ?? 'default', meta.name ?? ''));
  }

  private onSlice(change: StoreChange): void {
    const meta = change.object.metadata ?? {};
    const service = meta.labels?.[SERVICE_NAME_LABEL] ?? (change.previous?.metadata?.labels?.[SERVICE_NAME_LABEL]);
    if (!service) return;
    const key = serviceKeyOf(meta.namespace ?? 'default', service);
    let slices = this.slicesByService.get(key);
    if (change.type === 'DELETED') slices?.delete(meta.name ?? '');
    else {
      if (!slices) this.slicesByService.set(key, (slices = new Set()));
      slices.add(meta.name ?? '');
    }
    this.markChanged(key);
  }

  private markChanged(key: string): void {
    this.changed.add(key);
    if (this.syncScheduled) return;
    this.syncScheduled = true;
    const now = this.ctx.clock.now();
    const at = Math.max(now + this.ctx.timings.controllerReaction, this.lastSyncAt + MIN_SYNC_PERIOD_MS);
    this.ctx.clock.after(at - now, () => this.syncProxyRules());
  }

  /** `syncProxyRules`: every node writes the rules of the Services that changed. */
  private syncProxyRules(): void {
    this.syncScheduled = false;
    this.lastSyncAt = this.ctx.clock.now();
    const keys = [...this.changed];
    this.changed.clear();
    const results: Array<{ key: string; service: ServiceObject; endpoints: string[]; resourceVersion: string }> = [];
    for (const key of keys) {
      const slash = key.indexOf('/');
      const namespace = key.slice(0, slash);
      const name = key.slice(slash + 1);
      const service = this.ctx.store.get<ServiceObject>('Service', namespace, name);
      if (!service || !programmable(service)) {
        this.programmed.delete(key);
        continue;
      }
      const { endpoints, resourceVersion } = this.readyEndpoints(key, namespace);
      results.push({ key, service, endpoints, resourceVersion });
    }
    if (results.length === 0) return;
    // The rules are in place once iptables-restore returns.
    this.ctx.clock.after(SYNC_DURATION_MS, () => {
      for (const result of results) {
        const previous = this.programmed.get(result.key);
        if (previous && sameList(previous.endpoints, result.endpoints)) continue;
        this.programmed.set(result.key, { endpoints: result.endpoints });
        this.record(result.service, result.endpoints, result.resourceVersion);
      }
    });
  }

  private readyEndpoints(key: string, namespace: string): { endpoints: string[]; resourceVersion: string } {
    const endpoints: string[] = [];
    let newest = 0;
    for (const sliceName of this.slicesByService.get(key) ?? []) {
      const slice = this.ctx.store.get<EndpointSliceObject>('EndpointSlice', namespace, sliceName);
      if (!slice) continue;
      newest = Math.max(newest, Number(slice.metadata?.resourceVersion ?? 0));
      // Traffic goes to ready endpoints; without any, to serving terminating ones (ProxyTerminatingEndpoints).
      for (const endpoint of slice.endpoints ?? []) if (endpoint.conditions.ready !== false) endpoints.push(endpoint.targetRef?.name ?? endpoint.addresses[0]);
    }
    return { endpoints: endpoints.sort(), resourceVersion: String(newest) };
  }

  private record(service: KubeObject, endpoints: string[], resourceVersion: string): void {
    if (this.ctx.internals.recordsSteps === false) return;
    const meta = service.metadata ?? {};
    this.ctx.internals.record({
      type: 'proxySync',
      time: this.ctx.clock.now(),
      component: COMPONENT,
      object: { kind: 'Service', namespace: meta.namespace, name: meta.name ?? '', uid: meta.uid },
      nodes: this.nodes,
      endpoints,
      resourceVersion,
    });
  }
}

function programmable(service: ServiceObject): boolean {
  const type = service.spec?.type ?? 'ClusterIP';
  return type !== 'ExternalName' && service.spec?.clusterIP !== 'None';
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
