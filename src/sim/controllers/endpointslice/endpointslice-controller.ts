/**
 * The EndpointSlice controller (pkg/controller/endpointslice and its reconciler in
 * staging/src/k8s.io/endpointslice): for each Service with a selector, EndpointSlices of at most
 * 100 endpoints holding its pods, labelled `kubernetes.io/service-name` and managed by
 * `endpointslice-controller.k8s.io`, owned by the Service (the garbage collector removes them with
 * it). Each endpoint carries the ready/serving/terminating conditions, targetRef, nodeName and the
 * node's zone; the ports come from the Service's, a named targetPort resolved on each pod, and
 * endpoints with different resolved ports live in different slices. A Service without endpoints
 * keeps one placeholder slice with none.
 *
 * Work is proportional to what changed: a pod change marks that pod dirty for the Services that
 * select it, and a sync reconciles only dirty pods against the slices (a new or changed Service
 * reconciles all of its pods), updating only the slices that change, as upstream's reconciler
 * keeps endpoints in place to limit churn.
 */
import { deepEqual } from '../../../common/json';
import type { KubeObject, Node } from '../../../core/k8s';
import { splitKey, type SimContext } from '../../context';
import type { StoreChange } from '../../store/types';
import { isPodReady } from '../pod-util';
import { endpointHostname, endpointPorts, podReference, portsKey, shouldPodBeInEndpoints } from './endpoint-util';
import { ServiceEndpointsController, unlessGoneOrChanged } from './service-pods';
import {
  ENDPOINTSLICE_CONTROLLER_NAME,
  HEADLESS_LABEL,
  MANAGED_BY_LABEL,
  MAX_ENDPOINTS_PER_SLICE,
  SERVICE_NAME_LABEL,
  isHeadless,
  selectorOf,
  serviceKeyOf,
  type EndpointPort,
  type EndpointSliceObject,
  type PodObject,
  type ServiceObject,
  type SliceEndpoint,
} from './service-types';

const COMPONENT = 'endpointslice-controller';
const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** One slice while a sync reconciles it: the stored object (absent for a new one) and its endpoints. */
interface SliceState {
  stored: EndpointSliceObject | undefined;
  ports: EndpointPort[] | null;
  key: string;
  endpoints: SliceEndpoint[];
  changed: boolean;
}

interface DesiredEndpoint {
  endpoint: SliceEndpoint;
  ports: EndpointPort[];
  key: string;
}

/** The labels of a Service's slices (`setEndpointSliceLabels`): the Service's own, plus the controller's. */
export function sliceLabels(service: ServiceObject): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(service.metadata?.labels ?? {})) if (key !== SERVICE_NAME_LABEL && key !== MANAGED_BY_LABEL) labels[key] = value;
  labels[SERVICE_NAME_LABEL] = service.metadata?.name ?? '';
  labels[MANAGED_BY_LABEL] = ENDPOINTSLICE_CONTROLLER_NAME;
  if (isHeadless(service)) labels[HEADLESS_LABEL] = '';
  return labels;
}

export class EndpointSliceController extends ServiceEndpointsController {
  /** Services to reconcile in full (new, changed, or their slices changed by someone else). */
  private readonly fullSync = new Set<string>();

  constructor(ctx: SimContext) {
    super(ctx, COMPONENT);
  }

  protected onService(change: StoreChange): void {
    const service = change.object as ServiceObject;
    const namespace = service.metadata?.namespace ?? 'default';
    const name = service.metadata?.name ?? '';
    const key = serviceKeyOf(namespace, name);
    if (change.type === 'DELETED') {
      this.index.serviceDeleted(namespace, name);
      this.dirtyPods.delete(key);
      return;
    }
    this.index.serviceChanged(service);
    if (!selectorOf(service) && !selectorOf(change.previous as ServiceObject | undefined)) return;
    this.fullSync.add(key);
    this.queue.add(key);
  }


  /** `syncService`: reconcile the Service's slices with the endpoints its pods give. */
  syncService(key: string): void {
    const { namespace = 'default', name } = splitKey(key);
    const full = this.fullSync.delete(key);
    const dirty = this.takeDirtyPods(key);
    const service = this.ctx.store.get<ServiceObject>('Service', namespace, name);
    if (!service) return;
    const uid = service.metadata?.uid ?? '';
    const stored = this.ctx.store.ownedBy<EndpointSliceObject>('EndpointSlice', uid).filter((slice) => slice.metadata?.labels?.[MANAGED_BY_LABEL] === ENDPOINTSLICE_CONTROLLER_NAME);
    if (!selectorOf(service)) {
      for (const slice of stored) this.deleteSlice(slice);
      return;
    }
    const states: SliceState[] = stored.map((slice) => ({ stored: slice, ports: slice.ports, key: portsKey(slice.ports), endpoints: slice.endpoints ?? [], changed: false }));
    // Where the candidates' endpoints are now: every endpoint on a full sync, else only the changed pods' (a lookup per endpoint, no copy).
    const located = new Map<string, { state: SliceState; endpoint: SliceEndpoint }>();
    const changedPods = dirty ?? new Set<string>();
    for (const state of states) {
      for (const endpoint of state.endpoints) {
        const podName = endpoint.targetRef.name ?? '';
        if (full || changedPods.has(podName)) located.set(podName, { state, endpoint });
      }
    }
    const candidates = full ? new Set([...this.index.podsOf(namespace, name), ...located.keys()]) : changedPods;
    const placing: DesiredEndpoint[] = [];
    for (const podName of candidates) {
      const desired = this.desiredEndpoint(service, namespace, podName);
      const where = located.get(podName);
      if (where) {
        if (desired && desired.key === where.state.key && deepEqual(desired.endpoint, where.endpoint)) continue;
        where.state.endpoints = where.state.endpoints.filter((endpoint) => endpoint !== where.endpoint);
        where.state.changed = true;
      }
      if (desired) placing.push(desired);
    }
    for (const desired of placing) this.place(desired, states);
    const labels = sliceLabels(service);
    const total = states.reduce((sum, state) => sum + state.endpoints.length, 0);
    let placeholderKept = false;
    for (const state of states) {
      const empty = state.endpoints.length === 0;
      if (empty && (total > 0 || placeholderKept)) {
        if (state.stored) this.deleteSlice(state.stored);
        continue;
      }
      if (empty) {
        placeholderKept = true;
        if (state.ports !== null) {
          state.ports = null;
          state.changed = true;
        }
      }
      if (!state.stored) this.createSlice(service, labels, state);
      else if (state.changed || !deepEqual(state.stored.metadata?.labels, labels)) this.updateSlice(state.stored, labels, state);
    }
    if (states.length === 0) this.createSlice(service, labels, { stored: undefined, ports: null, key: '', endpoints: [], changed: true });
  }

  /** The endpoint a pod gives the Service now (`podToEndpoint`), or undefined when it gives none. */
  private desiredEndpoint(service: ServiceObject, namespace: string, podName: string): DesiredEndpoint | undefined {
    if (!this.index.podsOf(namespace, service.metadata?.name ?? '').has(podName)) return undefined;
    const pod = this.ctx.store.get<PodObject>('Pod', namespace, podName);
    if (!pod || !shouldPodBeInEndpoints(pod, true)) return undefined;
    const serving = isPodReady(pod);
    const terminating = !!pod.metadata?.deletionTimestamp;
    const ready = !!service.spec?.publishNotReadyAddresses || (serving && !terminating);
    const endpoint: SliceEndpoint = { addresses: [pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip ?? ''], conditions: { ready, serving, terminating } } as SliceEndpoint;
    const hostname = endpointHostname(pod, service.metadata?.name ?? '');
    if (hostname) endpoint.hostname = hostname;
    endpoint.targetRef = podReference(pod);
    const nodeName = pod.spec?.nodeName;
    if (nodeName) {
      endpoint.nodeName = nodeName;
      const zone = this.ctx.store.get<Node & KubeObject>('Node', undefined, nodeName)?.metadata?.labels?.[ZONE_LABEL];
      if (zone) endpoint.zone = zone;
    }
    const ports = endpointPorts(service.spec?.ports ?? [], pod);
    return { endpoint, ports, key: portsKey(ports) };
  }

  /** A slice with the same ports and room, else a new one (`reconcileByPortMapping`). */
  private place(desired: DesiredEndpoint, states: SliceState[]): void {
    let target = states.find((state) => state.key === desired.key && state.ports !== null && state.endpoints.length < MAX_ENDPOINTS_PER_SLICE);
    // An empty placeholder takes the first endpoints rather than leaving a slice behind.
    target ??= states.find((state) => state.endpoints.length === 0);
    if (!target) {
      target = { stored: undefined, ports: desired.ports, key: desired.key, endpoints: [], changed: true };
      states.push(target);
    }
    if (target.key !== desired.key || target.ports === null) {
      target.ports = desired.ports;
      target.key = desired.key;
    }
    target.endpoints = [...target.endpoints, desired.endpoint];
    target.changed = true;
  }

  private createSlice(service: ServiceObject, labels: Record<string, string>, state: SliceState): void {
    const meta = service.metadata ?? {};
    const slice: EndpointSliceObject = {
      metadata: {
        generateName: `${meta.name}-`,
        namespace: meta.namespace,
        labels,
        ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: meta.name ?? '', uid: meta.uid ?? '', controller: true, blockOwnerDeletion: true }],
      },
      addressType: 'IPv4',
      endpoints: state.endpoints,
      ports: state.ports,
    };
    unlessGoneOrChanged(() => this.ctx.store.create('EndpointSlice', slice as KubeObject, { fieldManager: COMPONENT }));
  }

  private updateSlice(slice: EndpointSliceObject, labels: Record<string, string>, state: SliceState): void {
    unlessGoneOrChanged(() =>
      this.ctx.store.mutate<EndpointSliceObject>('EndpointSlice', slice.metadata?.namespace, slice.metadata?.name ?? '', (copy) => {
        (copy.metadata ??= {}).labels = labels;
        copy.endpoints = state.endpoints;
        copy.ports = state.ports;
      }, { fieldManager: COMPONENT }),
    );
  }

  private deleteSlice(slice: EndpointSliceObject): void {
    unlessGoneOrChanged(() => this.ctx.store.delete('EndpointSlice', slice.metadata?.namespace, slice.metadata?.name ?? '', { actor: COMPONENT }));
  }

}
