/**
 * The pod garbage collector's orphan sweep (kubernetes pkg/controller/podgc/gc_controller.go,
 * `gcOrphaned`): pods bound to a node that has been gone for the 40 s quarantine are marked Failed
 * with a DisruptionTarget condition and deleted at once, since no kubelet is left to finish them.
 * Without it a DaemonSet pod on a deleted node would stay forever. The same holds for a pod whose
 * `spec.nodeName` names a node that never existed: it waits Pending for the quarantine, then goes.
 *
 * Not simulated: the sweeps of terminated pods above the threshold and of unscheduled terminating
 * pods; upstream's 20 s scan period (the check runs when the quarantine of a deleted node ends).
 */
import type { KubeObject } from '../../../core/k8s';
import { rfc3339 } from '../../store/object-utils';
import { ApiError, type StoreChange } from '../../store/types';
import type { SimContext } from '../../context';
import type { PodObject } from '../controller-types';

const FIELD_MANAGER = 'PodGC';
/** `quarantineTime`: how long a node must stay missing before its pods are collected. */
export const QUARANTINE_MS = 40_000;

export class PodGCController {
  private unsubscribe: (() => void)[] | undefined;
  /** Missing nodes waiting out their quarantine (upstream's `nodeQueue`): one timer per node. */
  private readonly quarantined = new Set<string>();

  constructor(private readonly ctx: SimContext) {}

  start(): void {
    this.unsubscribe ??= [this.ctx.store.subscribe('Node', (change) => this.onNode(change)), this.ctx.store.subscribe('Pod', (change) => this.onPod(change))];
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe ?? []) unsubscribe();
    this.unsubscribe = undefined;
  }

  private onNode(change: StoreChange): void {
    if (change.type !== 'DELETED') return;
    this.quarantine(change.object.metadata?.name ?? '');
  }

  /** A pod bound to a node the API does not know: the node goes into quarantine. */
  private onPod(change: StoreChange): void {
    if (change.type === 'DELETED') return;
    const nodeName = (change.object as PodObject).spec?.nodeName;
    if (!nodeName || (change.previous as PodObject | undefined)?.spec?.nodeName === nodeName) return;
    if (!this.ctx.store.get('Node', undefined, nodeName)) this.quarantine(nodeName);
  }

  private quarantine(nodeName: string): void {
    if (this.quarantined.has(nodeName)) return;
    this.quarantined.add(nodeName);
    this.ctx.clock.after(QUARANTINE_MS, () => {
      this.quarantined.delete(nodeName);
      this.gcOrphaned(nodeName);
    });
  }

  /** The node is still missing after the quarantine: fail and delete every pod bound to it. */
  private gcOrphaned(nodeName: string): void {
    if (!this.unsubscribe || this.ctx.store.get('Node', undefined, nodeName)) return;
    for (const pod of this.ctx.store.podsOnNode(nodeName) as PodObject[]) {
      try {
        this.markFailedAndDelete(pod);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    }
  }

  /** `markFailedAndDeletePodWithCondition` with reason DeletionByPodGC, then a delete with grace period 0. */
  private markFailedAndDelete(pod: PodObject): void {
    const namespace = pod.metadata?.namespace;
    const name = pod.metadata?.name ?? '';
    const phase = pod.status?.phase;
    if (phase !== 'Succeeded' && phase !== 'Failed') {
      this.ctx.store.mutate<PodObject>('Pod', namespace, name, (copy) => {
        const status = { ...copy.status };
        const condition = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists', lastTransitionTime: rfc3339(this.ctx.clock.now()) };
        status.phase = 'Failed';
        status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'), condition];
        (copy as KubeObject).status = status;
      }, { fieldManager: FIELD_MANAGER, subresource: 'status' });
    }
    this.ctx.store.delete('Pod', namespace, name, { gracePeriodSeconds: 0, actor: FIELD_MANAGER });
  }
}
