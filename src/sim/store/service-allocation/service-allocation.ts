/**
 * ClusterIP and NodePort allocation for Services, as kube-apiserver's Service REST storage does
 * it (pkg/registry/core/service/storage/alloc.go over ipallocator and portallocator): on create a
 * Service of type ClusterIP, NodePort or LoadBalancer gets a free IP of 10.96.0.0/12 (unless it
 * is headless, `clusterIP: None`), NodePort and LoadBalancer get a port of 30000–32767 for each
 * port that has none; a value the user chose must be in range and free. An update keeps what was
 * allocated when the new object leaves it out (`patchAllocatedValues`), so re-applying a manifest
 * does not move the IP.
 *
 * What is taken is learnt from the store's committed changes (`track`), so a create that fails
 * later (validation, AlreadyExists, dry run) leaks nothing and a deleted Service releases its IP
 * and ports: the rollback upstream does by hand comes from committing in one place.
 */
import type { KubeObject, ResourceKind } from '../../../core/k8s';
import type { SeededRandom } from '../../clock';
import type { FieldCause } from '../../apis/field';
import { invalid } from '../../apis/field';
import { invalidMessage } from '../../apis/validation';
import type { Admission } from '../store';
import { ApiError, type StoreApi } from '../types';
import { RangeAllocator, ipRangeOffset, portRangeOffset } from './range-allocator';

export const SERVICE_CLUSTER_IP_RANGE = '10.96.0.0/12';
export const SERVICE_NODE_PORT_RANGE = { base: 30000, size: 2768 };
const NODE_PORT_RANGE_TEXT = '30000-32767';
const NONE = 'None';

interface ServicePort {
  name?: string;
  protocol?: string;
  port?: number;
  nodePort?: number;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: ServicePort[];
  healthCheckNodePort?: number;
  externalTrafficPolicy?: string;
  allocateLoadBalancerNodePorts?: boolean;
}

type ServiceObject = KubeObject & { spec?: ServiceSpec };

function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

function formatIPv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** The type a Service has once defaulted (ClusterIP when unset, as the defaulter sets it). */
export function serviceType(spec: ServiceSpec | undefined): string {
  return spec?.type || 'ClusterIP';
}

function needsClusterIP(spec: ServiceSpec | undefined): boolean {
  return serviceType(spec) !== 'ExternalName';
}

function needsNodePorts(spec: ServiceSpec | undefined): boolean {
  const type = serviceType(spec);
  return type === 'NodePort' || type === 'LoadBalancer';
}

function needsHealthCheckPort(spec: ServiceSpec | undefined): boolean {
  return serviceType(spec) === 'LoadBalancer' && spec?.externalTrafficPolicy === 'Local';
}

/** The IPs and ports a stored Service holds. */
function heldValues(spec: ServiceSpec | undefined): { ips: string[]; ports: number[] } {
  const ips = needsClusterIP(spec) ? (spec?.clusterIPs ?? (spec?.clusterIP ? [spec.clusterIP] : [])).filter((ip) => ip !== NONE) : [];
  const ports: number[] = [];
  if (needsNodePorts(spec)) for (const port of spec?.ports ?? []) if (port.nodePort) ports.push(port.nodePort);
  if (needsHealthCheckPort(spec) && spec?.healthCheckNodePort) ports.push(spec.healthCheckNodePort);
  return { ips, ports };
}

export class ServiceAllocation {
  private readonly base: number;
  private readonly ips: RangeAllocator;
  private readonly nodePorts: RangeAllocator;

  constructor(random: SeededRandom, readonly cidr = SERVICE_CLUSTER_IP_RANGE) {
    const [address, bits] = cidr.split('/');
    const size = 2 ** (32 - Number(bits));
    // The network and broadcast addresses are never handed out: offset 0 is the first host.
    this.base = (parseIPv4(address) ?? 0) + 1;
    const hosts = size - 2;
    this.ips = new RangeAllocator(hosts, ipRangeOffset(hosts), random);
    this.nodePorts = new RangeAllocator(SERVICE_NODE_PORT_RANGE.size, portRangeOffset(SERVICE_NODE_PORT_RANGE.size), random);
  }

  /** Mirror the store's Services: what a committed Service holds is taken, a deleted one's is free. */
  track(store: Pick<StoreApi, 'subscribe'>): () => void {
    return store.subscribe('Service', (change) => {
      const uid = change.object.metadata?.uid ?? '';
      if (change.previous) this.releaseAll(change.previous as ServiceObject, uid);
      if (change.type !== 'DELETED') this.claimAll(change.object as ServiceObject, uid);
    });
  }

  /** Wraps `admission` so a Service is allocated on create and keeps its allocation on update. */
  guard(admission: Admission): Admission {
    // Every argument is passed on as it came, whatever else the admission interface carries.
    return {
      applyDefaults: (...args: Parameters<Admission['applyDefaults']>) => {
        admission.applyDefaults(...args);
        const [kind, object, old] = args;
        if (kind === 'Service' && old) this.allocateUpdate(object as ServiceObject, old as ServiceObject);
      },
      prepareForCreate: (kind: ResourceKind, object: KubeObject) => {
        admission.prepareForCreate?.(kind, object);
        if (kind === 'Service') this.allocateCreate(object as ServiceObject);
      },
      validate: (...args: Parameters<Admission['validate']>) => admission.validate(...args),
    };
  }

  /** How many cluster IPs are held (tests, diagnostics). */
  get allocatedIPs(): number {
    return this.ips.size - this.ips.free;
  }

  private claimAll(service: ServiceObject, uid: string): void {
    const held = heldValues(service.spec);
    for (const ip of held.ips) {
      const offset = this.ipOffset(ip);
      if (offset !== undefined) this.ips.claim(offset, uid);
    }
    for (const port of held.ports) this.nodePorts.claim(port - SERVICE_NODE_PORT_RANGE.base, uid);
  }

  private releaseAll(service: ServiceObject, uid: string): void {
    const held = heldValues(service.spec);
    for (const ip of held.ips) {
      const offset = this.ipOffset(ip);
      if (offset !== undefined) this.ips.release(offset, uid);
    }
    for (const port of held.ports) this.nodePorts.release(port - SERVICE_NODE_PORT_RANGE.base, uid);
  }

  private ipOffset(ip: string): number | undefined {
    const value = parseIPv4(ip);
    if (value === undefined) return undefined;
    const offset = value - this.base;
    return offset >= 0 && offset < this.ips.size ? offset : undefined;
  }

  private allocateCreate(service: ServiceObject): void {
    this.allocate(service, undefined);
  }

  /** `patchAllocatedValues`, then whatever the new type or new ports need. */
  private allocateUpdate(service: ServiceObject, old: ServiceObject): void {
    const spec = (service.spec ??= {});
    const oldSpec = old.spec ?? {};
    if (needsClusterIP(oldSpec) && needsClusterIP(spec) && !spec.clusterIP && oldSpec.clusterIP) {
      spec.clusterIP = oldSpec.clusterIP;
      spec.clusterIPs = oldSpec.clusterIPs ?? [oldSpec.clusterIP];
      spec.ipFamilies ??= oldSpec.ipFamilies;
      spec.ipFamilyPolicy ??= oldSpec.ipFamilyPolicy;
    }
    if (needsNodePorts(oldSpec) && needsNodePorts(spec)) {
      const usedByBoth = new Set((spec.ports ?? []).map((port) => port.nodePort).filter((port): port is number => !!port && (oldSpec.ports ?? []).some((old) => old.nodePort === port)));
      const byName = new Map((oldSpec.ports ?? []).map((port) => [port.name ?? '', port.nodePort]));
      for (const port of spec.ports ?? []) {
        const previous = byName.get(port.name ?? '');
        if (!port.nodePort && previous && !usedByBoth.has(previous)) port.nodePort = previous;
      }
    }
    if (needsHealthCheckPort(oldSpec) && needsHealthCheckPort(spec) && !spec.healthCheckNodePort) spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
    this.allocate(service, old.metadata?.uid);
  }

  private allocate(service: ServiceObject, ownUid: string | undefined): void {
    const spec = (service.spec ??= {});
    const name = service.metadata?.name ?? '';
    if (!needsClusterIP(spec)) {
      // An ExternalName Service has no cluster IP (the defaulter leaves clusterIP unset for it).
      return;
    }
    this.allocateClusterIP(spec, name, ownUid);
    if (needsNodePorts(spec)) this.allocateNodePorts(spec, name, ownUid);
  }

  private allocateClusterIP(spec: ServiceSpec, name: string, ownUid: string | undefined): void {
    if (!spec.clusterIP && spec.clusterIPs?.length) spec.clusterIP = spec.clusterIPs[0];
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
    if (spec.clusterIP === NONE) {
      spec.clusterIPs = [NONE];
      return;
    }
    if (!spec.clusterIP) {
      const offset = this.ips.next();
      if (offset === undefined) throw this.invalid(name, [invalid('spec.clusterIPs', '[]string{}', 'failed to allocate a serviceIP: range is full')]);
      spec.clusterIP = formatIPv4(this.base + offset);
      spec.clusterIPs = [spec.clusterIP];
      return;
    }
    spec.clusterIPs ??= [spec.clusterIP];
    const ip = spec.clusterIP;
    const shown = `[]string{${spec.clusterIPs.map((value) => JSON.stringify(value)).join(', ')}}`;
    const offset = this.ipOffset(ip);
    if (offset === undefined) {
      if (parseIPv4(ip) === undefined) return; // Not an IP at all: validation names it.
      throw this.invalid(name, [invalid('spec.clusterIPs', shown, `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`)]);
    }
    const holder = this.ips.holder(offset);
    if (holder !== undefined && holder !== ownUid) {
      throw this.invalid(name, [invalid('spec.clusterIPs', shown, `failed to allocate IP ${ip}: provided IP is already allocated`)]);
    }
  }

  private allocateNodePorts(spec: ServiceSpec, name: string, ownUid: string | undefined): void {
    const ports = spec.ports ?? [];
    const chosen = new Set<number>();
    const causes: FieldCause[] = [];
    ports.forEach((port, index) => {
      if (!port.nodePort) return;
      const offset = port.nodePort - SERVICE_NODE_PORT_RANGE.base;
      const field = `spec.ports[${index}].nodePort`;
      if (offset < 0 || offset >= SERVICE_NODE_PORT_RANGE.size) {
        causes.push(invalid(field, String(port.nodePort), `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE_TEXT}`));
        return;
      }
      const holder = this.nodePorts.holder(offset);
      if (holder !== undefined && holder !== ownUid) {
        causes.push(invalid(field, String(port.nodePort), 'provided port is already allocated'));
        return;
      }
      chosen.add(offset);
    });
    if (causes.length > 0) throw this.invalid(name, causes.slice(0, 1));
    // `allocateLoadBalancerNodePorts: false` keeps a LoadBalancer without node ports it was not given.
    if (serviceType(spec) === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === false) return;
    for (const port of ports) {
      if (port.nodePort) continue;
      // Ports of one Service sharing a port number on different protocols share the node port.
      const sibling = ports.find((other) => other !== port && other.port === port.port && other.nodePort);
      if (sibling?.nodePort) {
        port.nodePort = sibling.nodePort;
        continue;
      }
      const offset = this.nodePorts.next(chosen);
      if (offset === undefined) throw this.invalid(name, [invalid('spec.ports', '[]', 'failed to allocate a nodePort: range is full')]);
      chosen.add(offset);
      port.nodePort = SERVICE_NODE_PORT_RANGE.base + offset;
    }
    if (needsHealthCheckPort(spec) && !spec.healthCheckNodePort) {
      const offset = this.nodePorts.next(chosen);
      if (offset !== undefined) spec.healthCheckNodePort = SERVICE_NODE_PORT_RANGE.base + offset;
    }
  }

  private invalid(name: string, causes: FieldCause[]): ApiError {
    return new ApiError(422, 'Invalid', invalidMessage('Service', name, causes), { name, group: '', kind: 'Service', causes });
  }
}
