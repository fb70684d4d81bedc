/**
 * The PVC and PV protection controllers (pkg/controller/volume/pvcprotection, pvprotection): a
 * claim being deleted keeps its finalizer while a pod that has not finished uses it; a volume
 * being deleted keeps its finalizer while it is Bound. Once unused, the finalizer goes and the
 * store completes the deletion.
 */
import type { KubeObject, Pod } from '../../../core/k8s';
import { informer, objectKey, splitKey, type SimContext } from '../../context';
import { ApiError, type StoreChange } from '../../store/types';
import { PVC_PROTECTION_FINALIZER, PV_PROTECTION_FINALIZER } from '../../storage/in-use-protection';
import type { ClaimObject, VolumeObject } from '../../storage/storage-objects';
import { ControllerQueue } from '../work-scheduling';

const COMPONENT = 'persistentvolume-controller';

/** Only pods with claims are delivered (and recorded on the internals stream): most pods have none. */
function mountsClaims(object: KubeObject): boolean {
  return ((object as Pod).spec?.volumes ?? []).some((volume) => volume.persistentVolumeClaim !== undefined);
}

function usesClaim(pod: Pod & KubeObject, claimName: string): boolean {
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return false;
  return (pod.spec?.volumes ?? []).some((volume) => volume.persistentVolumeClaim?.claimName === claimName);
}

export class StorageProtectionController {
  private readonly claims: ControllerQueue;
  private readonly volumes: ControllerQueue;
  private unsubscribe: (() => void)[] = [];

  constructor(private readonly ctx: SimContext) {
    this.claims = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.syncClaim(key));
    this.volumes = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.syncVolume(key));
  }

  start(): void {
    this.unsubscribe = [
      informer(this.ctx, COMPONENT, 'PersistentVolumeClaim', (change) => this.onObject(change, this.claims), (object) => !!object.metadata?.deletionTimestamp),
      informer(this.ctx, COMPONENT, 'PersistentVolume', (change) => this.onObject(change, this.volumes), (object) => !!object.metadata?.deletionTimestamp),
      // A pod that finished or went away may free the claims it used.
      informer(this.ctx, COMPONENT, 'Pod', (change) => this.onPod(change), mountsClaims),
    ];
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
  }

  private onObject(change: StoreChange, queue: ControllerQueue): void {
    if (change.type !== 'DELETED') queue.add(objectKey(change.object));
  }

  private onPod(change: StoreChange): void {
    const pod = change.object as Pod & KubeObject;
    if (change.type !== 'DELETED' && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed') return;
    for (const volume of pod.spec?.volumes ?? []) {
      const claimName = volume.persistentVolumeClaim?.claimName;
      if (claimName) this.claims.add(`${pod.metadata?.namespace ?? 'default'}/${claimName}`);
    }
  }

  private syncClaim(key: string): void {
    const { namespace, name } = splitKey(key);
    const claim = this.ctx.store.get<ClaimObject>('PersistentVolumeClaim', namespace, name);
    if (!claim?.metadata?.deletionTimestamp || !(claim.metadata.finalizers ?? []).includes(PVC_PROTECTION_FINALIZER)) return;
    const pods = this.ctx.store.list<Pod & KubeObject>('Pod', { namespace }).items;
    if (pods.some((pod) => usesClaim(pod, name))) return;
    this.removeFinalizer('PersistentVolumeClaim', namespace, name, PVC_PROTECTION_FINALIZER, this.claims, key);
  }

  private syncVolume(name: string): void {
    const volume = this.ctx.store.get<VolumeObject>('PersistentVolume', undefined, name);
    if (!volume?.metadata?.deletionTimestamp || !(volume.metadata.finalizers ?? []).includes(PV_PROTECTION_FINALIZER)) return;
    if (volume.status?.phase === 'Bound') return;
    this.removeFinalizer('PersistentVolume', undefined, name, PV_PROTECTION_FINALIZER, this.volumes, name);
  }

  private removeFinalizer(kind: 'PersistentVolumeClaim' | 'PersistentVolume', namespace: string | undefined, name: string, finalizer: string, queue: ControllerQueue, key: string): void {
    try {
      this.ctx.store.mutate(kind, namespace, name, (copy) => {
        copy.metadata!.finalizers = (copy.metadata!.finalizers ?? []).filter((f) => f !== finalizer);
      }, { fieldManager: 'kube-controller-manager' });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code !== 404) queue.addRateLimited(key);
    }
  }
}
