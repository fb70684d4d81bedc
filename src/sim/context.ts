/**
 * What every simulated component is given: the store (its API server), the virtual clock, the
 * event recorder and the internals log. Components never reach for globals, so a test can build
 * a context with only the parts it needs.
 */
import type { ComponentName } from '../core/internals';
import type { KubeObject, ResourceKind } from '../core/k8s';
import type { EventRecorder } from './event-recorder';
import type { InternalsLog } from './internals-log';
import type { VirtualClock } from './clock';
import type { StoreApi, StoreChange } from './store/types';

// Components import everything they are given from here.
export type { EventOptions, EventRecorder, EventSource } from './event-recorder';
export type { InternalsLog } from './internals-log';

/** Virtual-time delays, in ms, taken from real clusters (see docs/lifecycle-facts.md, "Timings"). */
export interface Timings {
  /** From a watch event to the controller's sync (informer + work queue latency). */
  controllerReaction: number;
  /** From pod creation to the scheduler's binding (SuccessfulCreate → Scheduled: 12–18 ms). */
  schedulingLatency: number;
  /** From binding to the kubelet starting the pod (Scheduled → Pulling: ~500 ms). */
  kubeletPickup: number;
  /** Image pull time per MB of image (nginx 72 MB in 1.2–6 s). */
  pullMsPerMB: number;
  /** "already present on machine" check. */
  imagePresentCheck: number;
  containerCreate: number;
  containerStart: number;
  /** From containers started to the status write that says Running. */
  statusSync: number;
}

export const defaultTimings: Timings = {
  controllerReaction: 5,
  schedulingLatency: 15,
  kubeletPickup: 500,
  pullMsPerMB: 40,
  imagePresentCheck: 40,
  containerCreate: 120,
  containerStart: 90,
  statusSync: 30,
};

export interface SimContext {
  store: StoreApi;
  clock: VirtualClock;
  events: EventRecorder;
  internals: InternalsLog;
  timings: Timings;
}

/**
 * Subscribe a component to one kind, the way its informer would: every change is delivered
 * synchronously, and (when enabled) the delivery is written to the internals stream.
 */
export function informer(ctx: SimContext, component: ComponentName, kind: ResourceKind, handler: (change: StoreChange) => void, relevant?: (object: KubeObject) => boolean): () => void {
  return ctx.store.subscribe(kind, (change) => {
    // A component that watches every object of a kind but acts on few of them (the Job
    // controller and pods): the others are not handled nor recorded, so a Deployment's pods do
    // not show deliveries to the batch controllers in the internals stream.
    if (relevant && !relevant(change.object)) return;
    if (ctx.internals.recordsWatchDeliveries && (ctx.internals.followsObject?.(kind, change.object) ?? 'all') === 'all') {
      const meta = change.object.metadata ?? {};
      ctx.internals.record({
        type: 'watchDelivered',
        time: ctx.clock.now(),
        component,
        eventType: change.type,
        resourceVersion: String(change.resourceVersion),
        object: { kind, namespace: meta.namespace, name: meta.name ?? '', uid: meta.uid },
      });
    }
    handler(change);
  });
}

/**
 * A controller work queue: keys are deduplicated while waiting, and each is processed once
 * after `delay` of virtual time, as client-go's rate-limited queue does for a fresh key.
 */
export class WorkQueue {
  private readonly waiting = new Set<string>();
  constructor(
    private readonly clock: VirtualClock,
    private readonly process: (key: string) => void,
  ) {}

  add(key: string, delay = 0): void {
    if (this.waiting.has(key)) return;
    this.waiting.add(key);
    this.clock.after(delay, () => {
      this.waiting.delete(key);
      this.process(key);
    });
  }
}

export function objectKey(object: KubeObject): string {
  const meta = object.metadata ?? {};
  return meta.namespace ? `${meta.namespace}/${meta.name}` : (meta.name ?? '');
}

export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: undefined, name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
