/**
 * The Endpoints controller (pkg/controller/endpoint/endpoints_controller.go): the legacy
 * Endpoints object of each Service with a selector, named as the Service, its ready pods under
 * `addresses` and the others under `notReadyAddresses` (all under `addresses` with
 * `publishNotReadyAddresses`), subsets grouped by the ports each pod resolves
 * (`RepackSubsets`). A pod that lacks a named targetPort is left out for that port. Terminating
 * pods are left out unless `publishNotReadyAddresses`. Past 1,000 addresses the object is
 * truncated and annotated `endpoints.kubernetes.io/over-capacity: truncated`, as upstream.
 */
import type { KubeObject } from '../../../core/k8s';
import { splitKey, type SimContext } from '../../context';
import type { StoreChange } from '../../store/types';
import { isPodReady } from '../pod-util';
import { endpointHostname, findPort, podReference, portsKey, shouldPodBeInEndpoints } from '../endpointslice/endpoint-util';
import { ServiceEndpointsController, unlessGoneOrChanged } from '../endpointslice/service-pods';
import { HEADLESS_LABEL, isHeadless, selectorOf, serviceKeyOf, type EndpointPort, type PodObject, type ServiceObject } from '../endpointslice/service-types';

const COMPONENT = 'endpoints-controller';
const MAX_CAPACITY = 1000;
const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export type EndpointsObject = KubeObject & { subsets?: EndpointSubset[] };

function ipValue(ip: string): number {
  return ip.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

/** One pod's part of the Endpoints, kept between syncs so an unchanged pod costs nothing and its address object is shared by every version written. */
interface PodEntry {
  address: EndpointAddress;
  ready: boolean;
  ports: EndpointPort[];
  key: string;
  /** The IP as a number: subsets list addresses by IP. */
  order: number;
}

/** The pod's address and the ports it resolves, or undefined when it is not an endpoint of the Service. */
export function podEntry(service: ServiceObject, pod: PodObject): PodEntry | undefined {
  const publishNotReady = !!service.spec?.publishNotReadyAddresses;
  if (!shouldPodBeInEndpoints(pod, publishNotReady)) return undefined;
  const servicePorts = service.spec?.ports ?? [];
  const ports: EndpointPort[] = [];
  for (const servicePort of servicePorts) {
    const port = findPort(pod, servicePort);
    if (port === undefined) continue;
    const endpointPort = { port, protocol: servicePort.protocol ?? 'TCP' } as EndpointPort;
    if (servicePort.name) endpointPort.name = servicePort.name;
    if (servicePort.appProtocol) endpointPort.appProtocol = servicePort.appProtocol;
    ports.push(endpointPort);
  }
  // A headless Service without ports still lists its pods; any other pod with no port is not an endpoint.
  if (ports.length === 0 && !(servicePorts.length === 0 && isHeadless(service))) return undefined;
  const ip = pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip ?? '';
  const address: EndpointAddress = { ip } as EndpointAddress;
  const hostname = endpointHostname(pod, service.metadata?.name ?? '');
  if (hostname) address.hostname = hostname;
  if (pod.spec?.nodeName) address.nodeName = pod.spec.nodeName;
  address.targetRef = podReference(pod);
  return { address, ready: publishNotReady || isPodReady(pod), ports, key: portsKey(ports), order: ipValue(ip) };
}

function sameEntry(a: PodEntry, b: PodEntry): boolean {
  const x = a.address;
  const y = b.address;
  return a.ready === b.ready && a.key === b.key && x.ip === y.ip && x.hostname === y.hostname && x.nodeName === y.nodeName && x.targetRef.uid === y.targetRef.uid;
}

/** The entries grouped into subsets by identical port lists (`RepackSubsets`), addresses by IP; at most 1,000 addresses. */
export function endpointSubsets(entries: Iterable<PodEntry>): { subsets: EndpointSubset[]; truncated: boolean } {
  const groups = new Map<string, { ports: EndpointPort[]; ready: PodEntry[]; notReady: PodEntry[] }>();
  let total = 0;
  let truncated = false;
  for (const entry of entries) {
    if (total >= MAX_CAPACITY) {
      truncated = true;
      break;
    }
    total++;
    let group = groups.get(entry.key);
    if (!group) groups.set(entry.key, (group = { ports: entry.ports, ready: [], notReady: [] }));
    (entry.ready ? group.ready : group.notReady).push(entry);
  }
  const byIP = (a: PodEntry, b: PodEntry): number => a.order - b.order;
  const sorted = (list: PodEntry[]): PodEntry[] => list.sort(byIP);
  const subsets: EndpointSubset[] = [];
  for (const group of groups.values()) {
    const subset: EndpointSubset = {};
    if (group.ready.length > 0) subset.addresses = sorted(group.ready).map((entry) => entry.address);
    if (group.notReady.length > 0) subset.notReadyAddresses = sorted(group.notReady).map((entry) => entry.address);
    if (group.ports.length > 0) subset.ports = group.ports;
    subsets.push(subset);
  }
  return { subsets, truncated };
}

export class EndpointsController extends ServiceEndpointsController {
  /** Service key → pod name → its entry, as last written. */
  private readonly entries = new Map<string, Map<string, PodEntry>>();

  constructor(ctx: SimContext) {
    super(ctx, COMPONENT);
  }

  protected onService(change: StoreChange): void {
    const service = change.object as ServiceObject;
    const namespace = service.metadata?.namespace ?? 'default';
    const name = service.metadata?.name ?? '';
    const key = serviceKeyOf(namespace, name);
    if (change.type === 'DELETED') this.index.serviceDeleted(namespace, name);
    else this.index.serviceChanged(service);
    // A new or changed Service recomputes every pod's entry.
    this.entries.delete(key);
    this.dirtyPods.delete(key);
    if (change.type === 'DELETED' || selectorOf(service) || selectorOf(change.previous as ServiceObject | undefined)) this.queue.add(key);
  }


  /** `syncService`: write the Endpoints the Service's pods give, or delete them with the Service. */
  syncService(key: string): void {
    const { namespace = 'default', name } = splitKey(key);
    const service = this.ctx.store.get<ServiceObject>('Service', namespace, name);
    const existing = this.ctx.store.get<EndpointsObject>('Endpoints', namespace, name);
    if (!service) {
      // Endpoints the controller made go with their Service (they have no owner reference).
      if (existing) unlessGoneOrChanged(() => this.ctx.store.delete('Endpoints', namespace, name, { actor: COMPONENT }));
      return;
    }
    if (!selectorOf(service)) return;
    const dirty = this.takeDirtyPods(key);
    let entries = this.entries.get(key);
    let changed = !entries || !existing;
    if (!entries) {
      entries = new Map();
      this.entries.set(key, entries);
      for (const podName of this.index.podsOf(namespace, name)) this.refreshEntry(service, namespace, podName, entries);
    } else {
      for (const podName of dirty ?? []) changed = this.refreshEntry(service, namespace, podName, entries) || changed;
    }
    if (!changed) return;
    const { subsets, truncated } = endpointSubsets(entries.values());
    const labels: Record<string, string> = { ...service.metadata?.labels };
    if (isHeadless(service)) labels[HEADLESS_LABEL] = '';
    const metadata: EndpointsObject['metadata'] = { ...existing?.metadata, name, namespace, labels: Object.keys(labels).length > 0 ? labels : undefined, annotations: truncated ? { [OVER_CAPACITY_ANNOTATION]: 'truncated' } : undefined };
    const object: EndpointsObject = { metadata };
    if (subsets.length > 0) object.subsets = subsets;
    unlessGoneOrChanged(() => (existing ? this.ctx.store.update('Endpoints', object, { fieldManager: COMPONENT }) : this.ctx.store.create('Endpoints', object, { fieldManager: COMPONENT })));
  }

  /** Recompute one pod's entry; returns whether it changed. */
  private refreshEntry(service: ServiceObject, namespace: string, podName: string, entries: Map<string, PodEntry>): boolean {
    const pod = this.index.podsOf(namespace, service.metadata?.name ?? '').has(podName) ? this.ctx.store.get<PodObject>('Pod', namespace, podName) : undefined;
    const next = pod ? podEntry(service, pod) : undefined;
    const previous = entries.get(podName);
    if (!next) return entries.delete(podName);
    if (previous && sameEntry(previous, next)) return false;
    entries.set(podName, next);
    return true;
  }
}
