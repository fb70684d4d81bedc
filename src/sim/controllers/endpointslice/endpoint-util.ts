/**
 * What both endpoint controllers ask of a pod (staging/src/k8s.io/endpointslice/util and
 * pkg/api/v1/pod/util.go): whether it belongs in a Service's endpoints at all, and which
 * container port each Service port reaches on it.
 */
import type { EndpointPort, PodObject, ServicePort } from './service-types';

/** `ShouldPodBeInEndpoints`: not terminal, has an IP, and not terminating unless terminating pods are included. */
export function shouldPodBeInEndpoints(pod: PodObject, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP && !pod.status?.podIPs?.length) return false;
  return includeTerminating || !pod.metadata?.deletionTimestamp;
}

/**
 * `podutil.FindPort`: a numeric targetPort is taken as is (unset: the Service port, as the
 * defaulter sets it), a named one is looked up among the containers' ports of the same protocol.
 */
export function findPort(pod: PodObject, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort;
  if (typeof target === 'number' && target > 0) return target;
  if (typeof target !== 'string' || target === '') return servicePort.port;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = servicePort.protocol ?? 'TCP';
  for (const container of pod.spec?.containers ?? []) {
    for (const port of container.ports ?? []) if (port.name === target && (port.protocol ?? 'TCP') === protocol) return port.containerPort;
  }
  return undefined;
}

/** The endpoint ports of one pod: a Service port whose named targetPort the pod lacks is left out (`getEndpointPorts`). */
export function endpointPorts(servicePorts: readonly ServicePort[], pod: PodObject): EndpointPort[] {
  const ports: EndpointPort[] = [];
  for (const servicePort of servicePorts) {
    const port = findPort(pod, servicePort);
    if (port === undefined) continue;
    const endpointPort: EndpointPort = { name: servicePort.name ?? '', port, protocol: servicePort.protocol ?? 'TCP' };
    if (servicePort.appProtocol) endpointPort.appProtocol = servicePort.appProtocol;
    ports.push(endpointPort);
  }
  return ports;
}

export function portsKey(ports: readonly EndpointPort[] | null): string {
  return ports ? ports.map((port) => `${port.name}/${port.port}/${port.protocol}/${port.appProtocol ?? ''}`).join(',') : '';
}

export function podReference(pod: PodObject): { kind: 'Pod'; namespace: string; name: string; uid: string } {
  const meta = pod.metadata ?? {};
  return { kind: 'Pod', namespace: meta.namespace ?? 'default', name: meta.name ?? '', uid: meta.uid ?? '' };
}

/** The pod's hostname in the Service's DNS, when it asks for one (`spec.hostname` with `spec.subdomain` naming the Service). */
export function endpointHostname(pod: PodObject, serviceName: string): string | undefined {
  return pod.spec?.hostname && pod.spec.subdomain === serviceName ? pod.spec.hostname : undefined;
}
