/** The Service, Endpoints and EndpointSlice shapes the endpoint controllers and kube-proxy read and write. */
import type { KubeObject, ObjectReference } from '../../../core/k8s';
import type { PodObject } from '../controller-types';

export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
}

export type ServiceObject = KubeObject & {
  spec?: {
    type?: string;
    selector?: Record<string, string> | null;
    clusterIP?: string;
    clusterIPs?: string[];
    ports?: ServicePort[];
    publishNotReadyAddresses?: boolean;
    externalName?: string;
  };
};

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  hostname?: string;
  nodeName?: string;
  targetRef: ObjectReference;
  zone?: string;
}

export type EndpointSliceObject = KubeObject & {
  addressType: string;
  endpoints: SliceEndpoint[] | null;
  ports: EndpointPort[] | null;
};

export type { PodObject };

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const ENDPOINTSLICE_CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
/** Upstream's `maxEndpointsPerSlice` default (kube-controller-manager --max-endpoints-per-slice). */
export const MAX_ENDPOINTS_PER_SLICE = 100;

export function serviceKeyOf(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** A Service the endpoint controllers manage: one with a non-empty selector. */
export function selectorOf(service: ServiceObject | undefined): Record<string, string> | undefined {
  const selector = service?.spec?.selector;
  return selector && Object.keys(selector).length > 0 ? selector : undefined;
}

export function isHeadless(service: ServiceObject): boolean {
  return service.spec?.clusterIP === 'None';
}
