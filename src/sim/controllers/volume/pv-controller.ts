/**
 * The PersistentVolume controller (pkg/controller/volume/persistentvolume/pv_controller.go):
 * binds claims to volumes and keeps both phases current.
 *
 * - An unbound claim takes a volume pre-bound to it, else the smallest Available volume of its
 *   class, size, access modes, selector and volume mode. A WaitForFirstConsumer class leaves that
 *   to the scheduler: the claim waits (`WaitForFirstConsumer`) until a pod's node is chosen
 *   (`volume.kubernetes.io/selected-node`).
 * - No fitting volume and a class: provisioning. Every provisioner here is external (kind's
 *   local-path), so the controller names it on the claim and says it waits (`ExternalProvisioning`);
 *   a class that does not exist gives `ProvisioningFailed`. No class: `FailedBinding`.
 * - A volume whose claim is gone is Released; the Delete policy of a provisioned volume is carried
 *   out by its provisioner (local-path-provisioner.ts), Retain keeps it.
 *
 * Upstream also resyncs every 15 s; here a volume turning Available, or a StorageClass created or
 * changed, re-examines the unbound claims, which is when a resync would bind them.
 */
import type { KubeObject } from '../../../core/k8s';
import { informer, objectKey, splitKey, type SimContext } from '../../context';
import { ApiError, type StoreChange } from '../../store/types';
import { recordEvent } from '../controller-events';
import { ControllerQueue } from '../work-scheduling';
import {
  ANN_BETA_STORAGE_CLASS,
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  claimClass,
  defaultStorageClass,
  getStorageClass,
  isDelayBindingMode,
  type ClaimObject,
  type VolumeObject,
} from '../../storage/storage-objects';
import { findBestMatchForClaim, isVolumeBoundToClaim } from '../../storage/volume-matching';

const COMPONENT = 'persistentvolume-controller';

export const WAIT_FOR_FIRST_CONSUMER_MESSAGE = 'waiting for first consumer to be created before binding';
export const NO_CLASS_MESSAGE = 'no persistent volumes available for this claim and no storage class is set';

export function externalProvisioningMessage(provisioner: string): string {
  return `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`;
}

export class PersistentVolumeController {
  private readonly claims: ControllerQueue;
  private readonly volumes: ControllerQueue;
  private unsubscribe: (() => void)[] = [];
  /** Claims whose provisioning was already handed to an external provisioner (one event each, as a sync in flight). */
  private readonly provisioning = new Set<string>();

  constructor(private readonly ctx: SimContext) {
    this.claims = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.syncClaimKey(key));
    this.volumes = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.syncVolumeKey(key));
  }

  start(): void {
    this.unsubscribe = [
      informer(this.ctx, COMPONENT, 'PersistentVolumeClaim', (change) => this.onClaim(change)),
      informer(this.ctx, COMPONENT, 'PersistentVolume', (change) => this.onVolume(change)),
      // A default class appearing, or a class created late, concerns the claims still unbound (the next resync's work).
      informer(this.ctx, COMPONENT, 'StorageClass', (change) => this.onStorageClass(change)),
    ];
    for (const claim of this.ctx.store.list<ClaimObject>('PersistentVolumeClaim').items) this.claims.add(objectKey(claim));
    for (const volume of this.ctx.store.list<VolumeObject>('PersistentVolume').items) this.volumes.add(objectKey(volume));
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
  }

  private onClaim(change: StoreChange): void {
    const claim = change.object as ClaimObject;
    if (change.type === 'DELETED') {
      this.provisioning.delete(objectKey(claim));
      if (claim.spec?.volumeName) this.volumes.add(claim.spec.volumeName);
      return;
    }
    this.claims.add(objectKey(claim));
  }

  private onVolume(change: StoreChange): void {
    const volume = change.object as VolumeObject;
    const ref = volume.spec?.claimRef;
    if (ref?.name) this.claims.add(`${ref.namespace ?? 'default'}/${ref.name}`);
    if (change.type === 'DELETED') return;
    this.volumes.add(objectKey(volume));
    const becameAvailable = volume.status?.phase === 'Available' && (change.previous as VolumeObject | undefined)?.status?.phase !== 'Available';
    if (becameAvailable) this.requeueUnboundClaims();
  }

  private onStorageClass(change: StoreChange): void {
    if (change.type === 'DELETED') return;
    this.requeueUnboundClaims();
  }

  private requeueUnboundClaims(): void {
    for (const claim of this.ctx.store.list<ClaimObject>('PersistentVolumeClaim').items) if (!claim.spec?.volumeName) this.claims.add(objectKey(claim));
  }

  private syncClaimKey(key: string): void {
    const { namespace, name } = splitKey(key);
    const claim = this.ctx.store.get<ClaimObject>('PersistentVolumeClaim', namespace, name);
    if (!claim || claim.metadata?.deletionTimestamp) return;
    try {
      if (claim.metadata?.annotations?.[ANN_BIND_COMPLETED] === undefined) this.syncUnboundClaim(claim);
      else this.syncBoundClaim(claim);
      this.claims.forget(key);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.claims.addRateLimited(key);
    }
  }

  private syncVolumeKey(name: string): void {
    const volume = this.ctx.store.get<VolumeObject>('PersistentVolume', undefined, name);
    if (!volume || volume.metadata?.deletionTimestamp) return;
    try {
      this.syncVolume(volume);
      this.volumes.forget(name);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.volumes.addRateLimited(name);
    }
  }

  /** `syncUnboundClaim`. */
  private syncUnboundClaim(claim: ClaimObject): void {
    const volumeName = claim.spec?.volumeName;
    if (!volumeName && this.assignDefaultStorageClass(claim)) return;
    if (!volumeName) {
      const delayBinding = isDelayBindingMode(this.ctx.store, claim);
      const volumes = this.ctx.store.list<VolumeObject>('PersistentVolume').items;
      const volume = findBestMatchForClaim(claim, volumes, delayBinding);
      if (volume) return this.bind(volume, claim);
      if (delayBinding && claim.metadata?.annotations?.[ANN_SELECTED_NODE] === undefined) {
        recordEvent(this.ctx, COMPONENT, claim, 'Normal', 'WaitForFirstConsumer', WAIT_FOR_FIRST_CONSUMER_MESSAGE);
        return this.setClaimPhase(claim, 'Pending');
      }
      if (claimClass(claim) !== '') {
        this.provisionClaim(claim);
        return this.setClaimPhase(claim, 'Pending');
      }
      recordEvent(this.ctx, COMPONENT, claim, 'Normal', 'FailedBinding', NO_CLASS_MESSAGE);
      return this.setClaimPhase(claim, 'Pending');
    }
    const volume = this.ctx.store.get<VolumeObject>('PersistentVolume', undefined, volumeName);
    if (!volume) return this.setClaimPhase(claim, 'Pending');
    if (!volume.spec?.claimRef || isVolumeBoundToClaim(volume, claim)) return this.bind(volume, claim);
    // Pre-bound by the user to a volume another claim holds: it waits.
    recordEvent(this.ctx, COMPONENT, claim, 'Warning', 'FailedBinding', `volume "${volumeName}" already bound to a different claim.`);
    this.setClaimPhase(claim, 'Pending');
  }

  /**
   * `assignDefaultStorageClass` (RetroactiveDefaultStorageClass, GA in 1.28): an unbound claim created
   * without a class while no default class existed gets the default once there is one. The update
   * brings the claim back for binding.
   */
  private assignDefaultStorageClass(claim: ClaimObject): boolean {
    if ((claim.spec?.storageClassName !== undefined && claim.spec.storageClassName !== null) || claim.metadata?.annotations?.[ANN_BETA_STORAGE_CLASS] !== undefined) return false;
    const fallback = defaultStorageClass(this.ctx.store)?.metadata?.name;
    if (!fallback) return false;
    this.ctx.store.mutate<ClaimObject>('PersistentVolumeClaim', claim.metadata?.namespace, claim.metadata?.name ?? '', (copy) => {
      copy.spec = { ...copy.spec, storageClassName: fallback };
    }, { fieldManager: 'kube-controller-manager' });
    return true;
  }

  /** `syncBoundClaim`: a bound claim whose volume vanished is Lost. */
  private syncBoundClaim(claim: ClaimObject): void {
    const volumeName = claim.spec?.volumeName ?? '';
    const volume = volumeName ? this.ctx.store.get<VolumeObject>('PersistentVolume', undefined, volumeName) : undefined;
    if (!volume || (volume.spec?.claimRef && !isVolumeBoundToClaim(volume, claim))) {
      if (claim.status?.phase !== 'Lost') recordEvent(this.ctx, COMPONENT, claim, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
      return this.setClaimPhase(claim, 'Lost');
    }
    if (!volume.spec?.claimRef) return this.bind(volume, claim);
    this.setClaimPhase(claim, 'Bound');
  }

  /**
   * `provisionClaim` for an external provisioner: name it on the claim and wait for its volume.
   * A class that does not exist is `ProvisioningFailed`, every sync.
   */
  private provisionClaim(claim: ClaimObject): void {
    const className = claimClass(claim);
    const storageClass = getStorageClass(this.ctx.store, className);
    if (!storageClass) {
      recordEvent(this.ctx, COMPONENT, claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
      return;
    }
    const key = objectKey(claim);
    if (this.provisioning.has(key)) return;
    this.provisioning.add(key);
    const provisioner = storageClass.provisioner;
    const annotations = claim.metadata?.annotations ?? {};
    if (annotations[ANN_STORAGE_PROVISIONER] !== provisioner || annotations[ANN_BETA_STORAGE_PROVISIONER] !== provisioner) {
      this.ctx.store.mutate<ClaimObject>('PersistentVolumeClaim', claim.metadata?.namespace, claim.metadata?.name ?? '', (copy) => {
        const meta = copy.metadata!;
        meta.annotations = { ...meta.annotations, [ANN_BETA_STORAGE_PROVISIONER]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner };
      }, { fieldManager: 'kube-controller-manager' });
    }
    recordEvent(this.ctx, COMPONENT, claim, 'Normal', 'ExternalProvisioning', externalProvisioningMessage(provisioner));
  }

  /** `bind`: the volume's claimRef and phase, then the claim's volumeName, annotations and status. */
  private bind(volume: VolumeObject, claim: ClaimObject): void {
    const volumeName = volume.metadata?.name ?? '';
    const claimMeta = claim.metadata ?? {};
    const byController = !isVolumeBoundToClaim(volume, claim);
    if (!volume.spec?.claimRef || volume.spec.claimRef.uid !== claimMeta.uid) {
      this.ctx.store.mutate<VolumeObject>('PersistentVolume', undefined, volumeName, (copy) => {
        copy.spec = {
          ...copy.spec,
          claimRef: { kind: 'PersistentVolumeClaim', namespace: claimMeta.namespace, name: claimMeta.name, uid: claimMeta.uid, apiVersion: 'v1', resourceVersion: claimMeta.resourceVersion },
        };
        if (byController) copy.metadata = { ...copy.metadata, annotations: { ...copy.metadata?.annotations, [ANN_BOUND_BY_CONTROLLER]: 'yes' } };
      }, { fieldManager: 'kube-controller-manager' });
    }
    this.setVolumePhase(volumeName, 'Bound');
    const current = this.ctx.store.get<ClaimObject>('PersistentVolumeClaim', claimMeta.namespace, claimMeta.name ?? '');
    if (!current) return;
    const annotations = current.metadata?.annotations ?? {};
    if (current.spec?.volumeName !== volumeName || annotations[ANN_BIND_COMPLETED] === undefined) {
      const setByController = current.spec?.volumeName !== volumeName;
      this.ctx.store.mutate<ClaimObject>('PersistentVolumeClaim', claimMeta.namespace, claimMeta.name ?? '', (copy) => {
        copy.spec = { ...copy.spec, volumeName };
        const extra: Record<string, string> = { [ANN_BIND_COMPLETED]: 'yes' };
        if (setByController) extra[ANN_BOUND_BY_CONTROLLER] = 'yes';
        copy.metadata = { ...copy.metadata, annotations: { ...copy.metadata?.annotations, ...extra } };
      }, { fieldManager: 'kube-controller-manager' });
    }
    const bound = this.ctx.store.get<VolumeObject>('PersistentVolume', undefined, volumeName);
    this.ctx.store.mutate<ClaimObject>('PersistentVolumeClaim', claimMeta.namespace, claimMeta.name ?? '', (copy) => {
      (copy as KubeObject).status = { ...copy.status, phase: 'Bound', accessModes: bound?.spec?.accessModes, capacity: bound?.spec?.capacity };
    }, { subresource: 'status', fieldManager: 'kube-controller-manager' });
    this.provisioning.delete(objectKey(claim));
  }

  /** `syncVolume`: Available without a claim, Bound with its claim, Released when the claim is gone. */
  private syncVolume(volume: VolumeObject): void {
    const name = volume.metadata?.name ?? '';
    const ref = volume.spec?.claimRef;
    if (!ref || !ref.uid) return this.setVolumePhase(name, 'Available');
    const claim = this.ctx.store.get<ClaimObject>('PersistentVolumeClaim', ref.namespace, ref.name ?? '');
    if (!claim || claim.metadata?.uid !== ref.uid) {
      if (volume.status?.phase === 'Released' || volume.status?.phase === 'Failed') return;
      return this.setVolumePhase(name, 'Released');
    }
    if (claim.spec?.volumeName === name) return this.setVolumePhase(name, 'Bound');
    // Bound by the scheduler (a WaitForFirstConsumer static volume): the claim finishes the binding.
    this.claims.add(objectKey(claim));
  }

  private setClaimPhase(claim: ClaimObject, phase: string): void {
    if (claim.status?.phase === phase) return;
    this.ctx.store.mutate<ClaimObject>('PersistentVolumeClaim', claim.metadata?.namespace, claim.metadata?.name ?? '', (copy) => {
      (copy as KubeObject).status = { ...copy.status, phase };
    }, { subresource: 'status', fieldManager: 'kube-controller-manager' });
  }

  private setVolumePhase(name: string, phase: string): void {
    const volume = this.ctx.store.get<VolumeObject>('PersistentVolume', undefined, name);
    if (!volume || volume.status?.phase === phase) return;
    this.ctx.store.mutate<VolumeObject>('PersistentVolume', undefined, name, (copy) => {
      (copy as KubeObject).status = { ...copy.status, phase, lastPhaseTransitionTime: new Date(this.ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    }, { subresource: 'status', fieldManager: 'kube-controller-manager' });
  }
}
