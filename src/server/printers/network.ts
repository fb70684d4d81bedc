/**
 * Service, Endpoints, EndpointSlice, Ingress, IngressClass and NetworkPolicy rows: ports of
 * `printService`, `printEndpoints`, `printEndpointSlice`, `printIngress`, `printIngressClass` and
 * `printNetworkPolicy`. The API server prints wide, so LoadBalancer addresses are never clipped.
 */
import type { EndpointSlice, Endpoints, Ingress, IngressClass, NetworkPolicy, Service } from '../../core/k8s';
import type { PrintedRow } from './row';
import { formatLabels, formatLabelSelector } from './selector';
import { ageOf } from './time';

/** How many entries the list cells show before `+ N more...`. */
const LIST_MAX = 3;

interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
}

/** `loadBalancerStatusStringer` with wide=true: sorted, de-duplicated IPs or hostnames. */
function loadBalancerAddresses(ingress: readonly LoadBalancerIngress[] | undefined): string {
  const addresses = new Set<string>();
  for (const entry of ingress ?? []) {
    if (entry.ip) addresses.add(entry.ip);
    else if (entry.hostname) addresses.add(entry.hostname);
  }
  return [...addresses].sort().join(',');
}

/** `getServiceExternalIP`. */
function serviceExternalIP(service: Service): string {
  const spec = service.spec;
  const externalIPs = spec?.externalIPs ?? [];
  switch (spec?.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const balancer = loadBalancerAddresses(service.status?.loadBalancer?.ingress);
      if (externalIPs.length > 0) return [...(balancer ? balancer.split(',') : []), ...externalIPs].join(',');
      return balancer || '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** `makePortString`: `80/TCP`, or `80:30080/TCP` with a node port. */
function servicePorts(service: Service): string {
  return (service.spec?.ports ?? [])
    .map((port) => (port.nodePort ? `${port.port}:${port.nodePort}/${port.protocol ?? ''}` : `${port.port}/${port.protocol ?? ''}`))
    .join(',');
}

export function printService(service: Service, now: number): PrintedRow {
  return {
    cells: [
      service.metadata?.name ?? '',
      service.spec?.type ?? '',
      service.spec?.clusterIPs?.[0] ?? '<none>',
      serviceExternalIP(service),
      servicePorts(service) || '<none>',
      ageOf(service, now),
      formatLabels(service.spec?.selector),
    ],
  };
}

/** `formatEndpoints(endpoints, nil)`: up to three `ip:port` pairs, then `+ N more...`. */
function formatEndpoints(endpoints: Endpoints): string {
  const subsets = endpoints.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const subset of subsets) {
    const addresses = subset.addresses ?? [];
    // Headless Services may have addresses without ports.
    const ports = subset.ports && subset.ports.length > 0 ? subset.ports.map((p) => String(p.port)) : [undefined];
    for (const port of ports) {
      count += addresses.length;
      for (const address of addresses) {
        if (list.length === LIST_MAX) break;
        list.push(port === undefined ? address.ip : joinHostPort(address.ip, port));
      }
    }
  }
  const joined = list.join(',');
  return count > LIST_MAX ? `${joined} + ${count - LIST_MAX} more...` : joined;
}

/** `net.JoinHostPort`: IPv6 addresses in brackets. */
function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export function printEndpoints(endpoints: Endpoints, now: number): PrintedRow {
  return { cells: [endpoints.metadata?.name ?? '', formatEndpoints(endpoints), ageOf(endpoints, now)] };
}

/** `listWithMoreString`: `<unset>` for an empty list. */
function listWithMore(items: readonly string[]): string {
  const joined = items.slice(0, LIST_MAX).join(',');
  if (items.length > LIST_MAX) return `${joined} + ${items.length - LIST_MAX} more...`;
  return joined || '<unset>';
}

export function printEndpointSlice(slice: Partial<EndpointSlice>, now: number): PrintedRow {
  const ports = (slice.ports ?? []).map((port) => (port.port !== undefined ? String(port.port) : (port.name ?? '*')));
  const addresses = (slice.endpoints ?? []).flatMap((endpoint) => endpoint.addresses ?? []);
  return {
    cells: [slice.metadata?.name ?? '', slice.addressType ?? '', listWithMore(ports), listWithMore(addresses), ageOf(slice, now)],
  };
}

/** `formatHosts`: the first three hosts the rules name, `*` when none names a host. */
function ingressHosts(ingress: Ingress): string {
  const rules = ingress.spec?.rules ?? [];
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === LIST_MAX) more = true;
    if (!more && rule.host) hosts.push(rule.host);
  }
  if (hosts.length === 0) return '*';
  const joined = hosts.join(',');
  return more ? `${joined} + ${rules.length - LIST_MAX} more...` : joined;
}

export function printIngress(ingress: Ingress, now: number): PrintedRow {
  return {
    cells: [
      ingress.metadata?.name ?? '',
      ingress.spec?.ingressClassName ?? '<none>',
      ingressHosts(ingress),
      loadBalancerAddresses(ingress.status?.loadBalancer?.ingress),
      (ingress.spec?.tls ?? []).length > 0 ? '80, 443' : '80',
      ageOf(ingress, now),
    ],
  };
}

export function printIngressClass(ingressClass: IngressClass, now: number): PrintedRow {
  const reference = ingressClass.spec?.parameters;
  let parameters = '<none>';
  if (reference) {
    parameters = reference.kind + (reference.apiGroup !== undefined ? `.${reference.apiGroup}` : '') + `/${reference.name}`;
  }
  return { cells: [ingressClass.metadata?.name ?? '', ingressClass.spec?.controller ?? '', parameters, ageOf(ingressClass, now)] };
}

export function printNetworkPolicy(policy: NetworkPolicy, now: number): PrintedRow {
  // podSelector is a struct upstream, never nil: an absent one prints as the empty selector.
  return { cells: [policy.metadata?.name ?? '', formatLabelSelector(policy.spec?.podSelector ?? {}), ageOf(policy, now)] };
}
