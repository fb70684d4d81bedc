/**
 * The StatefulSet controller (pkg/controller/statefulset/stateful_set.go): watches StatefulSets
 * and their pods, and syncs a set through `DefaultStatefulSetControl` whenever either changes.
 * There are no expectations: pod names are fixed by ordinal, so a pod created twice is refused
 * by the API server (AlreadyExists), and the informer here is never behind the store.
 *
 * Not simulated: adoption of orphan pods and revisions that match a set's selector, and release
 * of owned pods that stop matching (only pods whose controller reference names the set count).
 */
import { informer, objectKey, splitKey, type SimContext } from '../../context';
import type { StoreChange } from '../../store/types';
import { controllerOf, type PodObject } from '../controller-types';
import { isPodReady } from '../pod-util';
import { ControllerQueue } from '../work-scheduling';
import { COMPONENT, isSyncFailure } from './stateful-pod-control';
import { DefaultStatefulSetControl } from './stateful-set-control';
import { isMemberOf, replicasOf, type StatefulSetObject } from './stateful-set-utils';

export class StatefulSetController {
  private readonly queue: ControllerQueue;
  readonly control: DefaultStatefulSetControl;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly ctx: SimContext) {
    this.queue = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.processKey(key));
    this.control = new DefaultStatefulSetControl(ctx);
  }

  start(): void {
    this.unsubscribe.push(
      informer(this.ctx, COMPONENT, 'StatefulSet', (change) => this.queue.add(objectKey(change.object))),
      informer(this.ctx, COMPONENT, 'Pod', (change) => this.onPod(change)),
    );
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  /** `addPod` / `updatePod` / `deletePod`: wake the owning set (and the previous owner when it changed). */
  private onPod(change: StoreChange): void {
    const pod = change.object as PodObject;
    const previous = change.previous as PodObject | undefined;
    const set = this.resolveControllerRef(pod);
    const oldSet = previous ? this.resolveControllerRef(previous) : undefined;
    if (oldSet && oldSet.metadata?.uid !== set?.metadata?.uid) this.queue.add(objectKey(oldSet));
    if (!set) return;
    const key = objectKey(set);
    this.queue.add(key);
    // A pod that just became ready turns available after minReadySeconds: look again then.
    const minReady = set.spec?.minReadySeconds ?? 0;
    if (change.type === 'MODIFIED' && minReady > 0 && previous && !isPodReady(previous) && isPodReady(pod)) this.queue.addAfter(key, minReady * 1000 + 1000);
  }

  private resolveControllerRef(pod: PodObject): StatefulSetObject | undefined {
    const ref = controllerOf(pod);
    if (!ref || ref.kind !== 'StatefulSet') return undefined;
    const set = this.ctx.store.get<StatefulSetObject>('StatefulSet', pod.metadata?.namespace, ref.name);
    return set && set.metadata?.uid === ref.uid ? set : undefined;
  }

  /** A failed sync is retried with back-off. */
  private processKey(key: string): void {
    try {
      this.sync(key);
      this.queue.forget(key);
    } catch (error) {
      if (!isSyncFailure(error)) throw error;
      this.queue.addRateLimited(key);
    }
  }

  /** `sync` and `syncStatefulSet`. */
  sync(key: string): void {
    const { namespace, name } = splitKey(key);
    const set = this.ctx.store.get<StatefulSetObject>('StatefulSet', namespace, name);
    if (!set) return;
    const pods = this.getPodsForStatefulSet(set);
    const status = this.control.updateStatefulSet(set, pods);
    const minReady = set.spec?.minReadySeconds ?? 0;
    if (minReady > 0 && status && status.availableReplicas !== replicasOf(set)) this.queue.addAfter(key, minReady * 1000);
  }

  /** `getPodsForStatefulSet`: the pods it controls whose names make them members (`<set>-<ordinal>`). */
  private getPodsForStatefulSet(set: StatefulSetObject): PodObject[] {
    return this.ctx.store.ownedBy<PodObject>('Pod', set.metadata?.uid ?? '').filter((pod) => isMemberOf(set, pod));
  }
}
