/**
 * Which pods each Service selects, kept up to date from pod and Service changes, so a pod's change
 * costs a look at the Services of its namespace and a Service's sync costs its own pods, never a
 * list of every pod (the informers' namespace index and `GetPodServiceMemberships` upstream).
 */
import type { ComponentName } from '../../../core/internals';
import { informer, type SimContext } from '../../context';
import { ApiError, type StoreApi, type StoreChange } from '../../store/types';
import { ControllerQueue } from '../work-scheduling';
import { selectorOf, serviceKeyOf, type PodObject, type ServiceObject } from './service-types';

interface Selection {
  selector: Record<string, string>;
  pods: Set<string>;
}

function matches(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  if (!labels) return false;
  for (const key in selector) if (labels[key] !== selector[key]) return false;
  return true;
}

function sameSelector(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

export class ServicePodIndex {
  /** namespace → Service name → its selector and the names of the pods it selects. */
  private readonly byNamespace = new Map<string, Map<string, Selection>>();

  constructor(private readonly store: Pick<StoreApi, 'list'>) {}

  /** Record a Service's selector; returns whether its selection changed (a new selector rescans its namespace). */
  serviceChanged(service: ServiceObject): boolean {
    const namespace = service.metadata?.namespace ?? 'default';
    const name = service.metadata?.name ?? '';
    const selector = selectorOf(service);
    const services = this.byNamespace.get(namespace);
    const current = services?.get(name);
    if (!selector) return this.serviceDeleted(namespace, name);
    if (current && sameSelector(current.selector, selector)) return false;
    const pods = new Set<string>();
    for (const pod of this.store.list<PodObject>('Pod', { namespace }).items) if (matches(selector, pod.metadata?.labels)) pods.add(pod.metadata?.name ?? '');
    if (services) services.set(name, { selector, pods });
    else this.byNamespace.set(namespace, new Map([[name, { selector, pods }]]));
    return true;
  }

  serviceDeleted(namespace: string, name: string): boolean {
    const services = this.byNamespace.get(namespace);
    if (!services?.delete(name)) return false;
    if (services.size === 0) this.byNamespace.delete(namespace);
    return true;
  }

  /** Record a pod's labels; returns the keys of the Services that selected it before or select it now. */
  podChanged(pod: PodObject, previous: PodObject | undefined, deleted: boolean): string[] {
    const namespace = pod.metadata?.namespace ?? 'default';
    const services = this.byNamespace.get(namespace);
    if (!services) return [];
    const name = pod.metadata?.name ?? '';
    const labels = pod.metadata?.labels;
    const labelsChanged = previous !== undefined && previous.metadata?.labels !== labels;
    const affected: string[] = [];
    for (const [serviceName, selection] of services) {
      const selectedBefore = selection.pods.has(name);
      const selectedNow = !deleted && (labelsChanged || !selectedBefore ? matches(selection.selector, labels) : true);
      if (selectedNow && !selectedBefore) selection.pods.add(name);
      else if (!selectedNow && selectedBefore) selection.pods.delete(name);
      if (selectedNow || selectedBefore) affected.push(serviceKeyOf(namespace, serviceName));
    }
    return affected;
  }

  /** Whether a namespace has a Service with a selector: pods elsewhere concern no endpoint controller. */
  hasServicesIn(namespace: string): boolean {
    return this.byNamespace.has(namespace);
  }

  /** The names of the pods a Service selects (empty when it has no selector). */
  podsOf(namespace: string, name: string): ReadonlySet<string> {
    return this.byNamespace.get(namespace)?.get(name)?.pods ?? new Set();
  }
}

/**
 * A Service's sync waits this many controller reactions (200 ms) after its first queued change.
 * kube-controller-manager's client writes at most 20 requests a second (`--kube-api-qps`), so a
 * real sync of thousands of endpoints takes a while, and the Service's later pod changes queue up
 * and are handled together. Without it every pod turning ready rewrote the whole Endpoints object
 * and its slices: quadratic in a Service's size, 3.1 times the 150,000-pod run's wall time.
 */
const ENDPOINT_SYNC_BATCHING = 40;

/**
 * What both endpoint controllers share: their own index of Services and their pods, a work queue
 * of Service keys, and informers on Services and on the pods of namespaces that have a Service
 * with a selector (the Services that exist already are handed over at start).
 */
export abstract class ServiceEndpointsController {
  protected readonly queue: ControllerQueue;
  protected readonly index: ServicePodIndex;
  /** Service key → names of the pods whose endpoints may have changed since its last sync. */
  protected readonly dirtyPods = new Map<string, Set<string>>();
  private readonly unsubscribers: Array<() => void> = [];

  constructor(
    protected readonly ctx: SimContext,
    private readonly component: ComponentName,
  ) {
    this.index = new ServicePodIndex(ctx.store);
    this.queue = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction * ENDPOINT_SYNC_BATCHING, (key) => this.syncService(key));
  }

  start(): void {
    this.unsubscribers.push(informer(this.ctx, this.component, 'Service', (change) => this.onService(change)));
    this.unsubscribers.push(informer(this.ctx, this.component, 'Pod', (change) => this.onPod(change), (pod) => this.index.hasServicesIn(pod.metadata?.namespace ?? 'default')));
    for (const service of this.ctx.store.list<ServiceObject>('Service').items) this.onService({ type: 'ADDED', kind: 'Service', object: service, resourceVersion: 0 });
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }

  /** A pod change marks the pod dirty for every Service that selected it before or selects it now. */
  protected onPod(change: StoreChange): void {
    const pod = change.object as PodObject;
    const name = pod.metadata?.name ?? '';
    for (const key of this.index.podChanged(pod, change.previous as PodObject | undefined, change.type === 'DELETED')) {
      let dirty = this.dirtyPods.get(key);
      if (!dirty) this.dirtyPods.set(key, (dirty = new Set()));
      dirty.add(name);
      this.queue.add(key);
    }
  }

  /** The pods changed since the Service's last sync, forgotten as they are handed out. */
  protected takeDirtyPods(key: string): Set<string> | undefined {
    const dirty = this.dirtyPods.get(key);
    this.dirtyPods.delete(key);
    return dirty;
  }

  protected abstract onService(change: StoreChange): void;
  abstract syncService(key: string): void;
}

/** A write that fails because the world moved (object gone, changed meanwhile) is dropped: the next change syncs again. */
export function unlessGoneOrChanged(write: () => void): void {
  try {
    write();
  } catch (error) {
    if (!(error instanceof ApiError) || (error.code !== 404 && error.code !== 409)) throw error;
  }
}
