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

/** Each pod's address with the ports it resolves, grouped into subsets by identical port lists. */
export function endpointSubsets(service: ServiceObject, pods: readonly PodObject[]): { subsets: EndpointSubset[]; truncated: boolean } {
  const publishNotReady = !!service.spec?.publishNotReadyAddresses;
  const servicePorts = service.spec?.ports ?? [];
  const groups = new Map<string, { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }>();
  let total = 0;
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address: EndpointAddress = { ip: pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip ?? '' } as EndpointAddress;
    const hostname = endpointHostname(pod, service.metadata?.name ?? '');
    if (hostname) address.hostname = hostname;
    if (pod.spec?.nodeName) address.nodeName = pod.spec.nodeName;
    address.targetRef = podReference(pod);
    const ports: EndpointPort[] = [];
    for (const servicePort of servicePorts) {
      const port = findPort(pod, servicePort);
      if (port === undefined) continue;
      const endpointPort: EndpointPort = { name: servicePort.name || undefined, port, protocol: servicePort.protocol ?? 'TCP' };
      if (!endpointPort.name) delete endpointPort.name;
      if (servicePort.appProtocol) endpointPort.appProtocol = servicePort.appProtocol;
      ports.push(endpointPort);
    }
    // A headless Service without ports still lists its pods; any other pod with no port is not an endpoint.
    if (ports.length === 0 && !(servicePorts.length === 0 && isHeadless(service))) continue;
    const key = portsKey(ports);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { ports, ready: [], notReady: [] }));
    if (total >= MAX_CAPACITY) return { subsets: toSubsets(groups), truncated: true };
    total++;
    if (publishNotReady || isPodReady(pod)) group.ready.push(address);
    else group.notReady.push(address);
  }
  return { subsets: toSubsets(groups), truncated: false };
}

function toSubsets(groups: Map<string, { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }>): EndpointSubset[] {
  const byIP = (a: EndpointAddress, b: EndpointAddress): number => ipValue(a.ip) - ipValue(b.ip);
  const subsets: EndpointSubset[] = [];
  for (const group of groups.values()) {
    if (group.ready.length === 0 && group.notReady.length === 0) continue;
    const subset: EndpointSubset = {};
    if (group.ready.length > 0) subset.addresses = group.ready.sort(byIP);
    if (group.notReady.length > 0) subset.notReadyAddresses = group.notReady.sort(byIP);
    if (group.ports.length > 0) subset.ports = group.ports;
    subsets.push(subset);
  }
  return subsets;
}

export class EndpointsController extends ServiceEndpointsController {
  constructor(ctx: SimContext) {
    super(ctx, COMPONENT);
  }

  protected onService(change: StoreChange): void {
    const service = change.object as ServiceObject;
    const namespace = service.metadata?.namespace ?? 'default';
    const name = service.metadata?.name ?? '';
    if (change.type === 'DELETED') this.index.serviceDeleted(namespace, name);
    else this.index.serviceChanged(service);
    if (change.type === 'DELETED' || selectorOf(service) || selectorOf(change.previous as ServiceObject | undefined)) this.queue.add(serviceKeyOf(namespace, name));
  }

  protected onPod(change: StoreChange): void {
    for (const key of this.index.podChanged(change.object as PodObject, change.previous as PodObject | undefined, change.type === 'DELETED')) this.queue.add(key);
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
    const pods: PodObject[] = [];
    for (const podName of this.index.podsOf(namespace, name)) {
      const pod = this.ctx.store.get<PodObject>('Pod', namespace, podName);
      if (pod) pods.push(pod);
    }
    const { subsets, truncated } = endpointSubsets(service, pods);
    const labels: Record<string, string> = { ...service.metadata?.labels };
    if (isHeadless(service)) labels[HEADLESS_LABEL] = '';
    const annotations: Record<string, string> | undefined = truncated ? { [OVER_CAPACITY_ANNOTATION]: 'truncated' } : undefined;
    const apply = (object: EndpointsObject): void => {
      const meta = (object.metadata ??= {});
      meta.labels = Object.keys(labels).length > 0 ? labels : undefined;
      meta.annotations = annotations;
      if (subsets.length > 0) object.subsets = subsets;
      else delete object.subsets;
    };
    if (!existing) {
      const created: EndpointsObject = { metadata: { name, namespace } };
      apply(created);
      unlessGoneOrChanged(() => this.ctx.store.create('Endpoints', created, { fieldManager: COMPONENT }));
    } else {
      unlessGoneOrChanged(() => this.ctx.store.mutate<EndpointsObject>('Endpoints', namespace, name, apply, { fieldManager: COMPONENT }));
    }
  }

}
