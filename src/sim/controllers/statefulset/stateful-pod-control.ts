/**
 * `StatefulPodControl` (pkg/controller/statefulset/stateful_pod_control.go): creates a set's pods
 * after their claims, keeps their identity and storage, deletes them, and keeps the claims' owner
 * references in line with the retention policy. Every write is an event on the StatefulSet, with
 * upstream's reasons and messages.
 */
import type { SimContext } from '../../context';
import { cloneAsJson } from '../../../common/json';
import { ApiError } from '../../store/types';
import { recordEvent } from '../controller-events';
import { SyncError, type PodObject } from '../controller-types';
import {
  claimOwnerRefsForSetAndPod,
  getOrdinal,
  getPersistentVolumeClaimName,
  getPersistentVolumeClaimRetentionPolicy,
  getPersistentVolumeClaims,
  hasStaleOwnerRef,
  hasUnexpectedController,
  identityMatches,
  isClaimOwnerUpToDate,
  storageMatches,
  updateIdentity,
  updateStorage,
  type ClaimObject,
  type StatefulSetObject,
} from './stateful-set-utils';

export const COMPONENT = 'statefulset-controller';

/** A failure made of several (utilerrors.Aggregate): one message, or `[a, b]`. */
export class AggregateError extends SyncError {
  constructor(readonly errors: readonly unknown[]) {
    super(errors.length === 1 ? messageOf(errors[0]) : `[${errors.map(messageOf).join(', ')}]`);
    this.name = 'AggregateError';
  }
}

/** An error of a sync that upstream returns (and retries with back-off); anything else is a bug. */
export function isSyncFailure(error: unknown): boolean {
  return error instanceof ApiError || error instanceof SyncError;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `strings.Title(verb)`. */
function title(verb: string): string {
  return verb.charAt(0).toUpperCase() + verb.slice(1);
}

export class StatefulPodControl {
  constructor(private readonly ctx: SimContext) {}

  /** `CreateStatefulPod`: the claims first, then the pod, then the claims' owner references. */
  createStatefulPod(set: StatefulSetObject, pod: PodObject): void {
    try {
      this.createPersistentVolumeClaims(set, pod);
    } catch (error) {
      this.recordPodEvent('create', set, pod, error);
      throw error;
    }
    try {
      // A copy: the store takes over what it is given, and the caller's pod stays "not yet created".
      this.ctx.store.create<PodObject>('Pod', cloneAsJson(pod), { fieldManager: COMPONENT });
    } catch (error) {
      // An already existing pod is not reported.
      if (!(error instanceof ApiError && error.code === 409)) this.recordPodEvent('create', set, pod, error);
      throw error;
    }
    try {
      this.updatePodClaimForRetentionPolicy(set, pod);
    } catch (error) {
      this.recordPodEvent('update', set, pod, error);
      throw error;
    }
    this.recordPodEvent('create', set, pod);
  }

  /** `UpdateStatefulPod`: restore identity, storage and claim ownership; an event only when the pod was written. */
  updateStatefulPod(set: StatefulSetObject, pod: PodObject): void {
    let consistent = true;
    const copy: PodObject = { ...pod, metadata: { ...pod.metadata }, spec: pod.spec ? { ...pod.spec } : pod.spec };
    if (!identityMatches(set, copy)) {
      updateIdentity(set, copy);
      consistent = false;
    }
    try {
      if (!storageMatches(set, copy)) {
        updateStorage(set, copy);
        consistent = false;
        this.createPersistentVolumeClaims(set, copy);
      }
      if (!this.claimsMatchRetentionPolicy(set, copy)) {
        this.updatePodClaimForRetentionPolicy(set, copy);
        consistent = false;
      }
    } catch (error) {
      this.recordPodEvent('update', set, pod, error);
      throw error;
    }
    if (consistent) return;
    try {
      this.ctx.store.mutate<PodObject>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '', (stored) => {
        stored.metadata!.labels = copy.metadata?.labels;
        stored.spec!.volumes = copy.spec?.volumes;
      }, { fieldManager: COMPONENT });
    } catch (error) {
      this.recordPodEvent('update', set, pod, error);
      throw error;
    }
    this.recordPodEvent('update', set, pod);
  }

  /** `DeleteStatefulPod`. */
  deleteStatefulPod(set: StatefulSetObject, pod: PodObject): void {
    try {
      this.ctx.store.delete('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '', { actor: COMPONENT });
    } catch (error) {
      this.recordPodEvent('delete', set, pod, error);
      throw error;
    }
    this.recordPodEvent('delete', set, pod);
  }

  private getClaim(namespace: string | undefined, name: string): ClaimObject | undefined {
    return this.ctx.store.get<ClaimObject>('PersistentVolumeClaim', namespace, name);
  }

  /** `ClaimsMatchRetentionPolicy`: every existing claim of the pod has the references the policy asks for. */
  claimsMatchRetentionPolicy(set: StatefulSetObject, pod: PodObject): boolean {
    const ordinal = getOrdinal(pod);
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const claim = this.getClaim(set.metadata?.namespace, getPersistentVolumeClaimName(set, template.metadata?.name ?? '', ordinal));
      if (claim && !isClaimOwnerUpToDate(claim, set, pod)) return false;
    }
    return true;
  }

  /** `UpdatePodClaimForRetentionPolicy`: rewrite the owner references of the pod's claims that do not match. */
  updatePodClaimForRetentionPolicy(set: StatefulSetObject, pod: PodObject): void {
    const ordinal = getOrdinal(pod);
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const claimName = getPersistentVolumeClaimName(set, template.metadata?.name ?? '', ordinal);
      const claim = this.getClaim(set.metadata?.namespace, claimName);
      if (!claim) continue;
      if (hasUnexpectedController(claim, set, pod)) {
        recordEvent(this.ctx, COMPONENT, set, 'Warning', 'ConflictingController', `PersistentVolumeClaim ${claimName} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim`);
      }
      if (isClaimOwnerUpToDate(claim, set, pod)) continue;
      const refs = claimOwnerRefsForSetAndPod(claim, set, pod);
      try {
        this.ctx.store.mutate<ClaimObject>('PersistentVolumeClaim', claim.metadata?.namespace, claimName, (copy) => {
          if (refs.length > 0) copy.metadata!.ownerReferences = refs;
          else delete copy.metadata!.ownerReferences;
        }, { fieldManager: COMPONENT });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        throw new SyncError(`could not update claim ${claimName} for delete policy ownerRefs: ${messageOf(error)}`);
      }
    }
  }

  /**
   * `PodClaimIsStale`: with whenScaled Delete, a claim still owned by a previous pod of this
   * ordinal blocks the new pod until the garbage collector removes it.
   */
  podClaimIsStale(set: StatefulSetObject, pod: PodObject): boolean {
    if (getPersistentVolumeClaimRetentionPolicy(set).whenScaled === 'Retain') return false;
    for (const { claim } of getPersistentVolumeClaims(set, getOrdinal(pod))) {
      const existing = this.getClaim(claim.metadata?.namespace, claim.metadata?.name ?? '');
      if (existing && hasStaleOwnerRef(existing, pod, 'Pod')) return true;
    }
    return false;
  }

  /** `createMissingPersistentVolumeClaims`: for a pending pod whose claims were deleted. */
  createMissingPersistentVolumeClaims(set: StatefulSetObject, pod: PodObject): void {
    this.createPersistentVolumeClaims(set, pod);
    try {
      this.updatePodClaimForRetentionPolicy(set, pod);
    } catch (error) {
      this.recordPodEvent('update', set, pod, error);
      throw error;
    }
  }

  /** `createPersistentVolumeClaims`: create each claim of the pod that does not exist yet. */
  private createPersistentVolumeClaims(set: StatefulSetObject, pod: PodObject): void {
    const errors: unknown[] = [];
    for (const { claim } of getPersistentVolumeClaims(set, getOrdinal(pod))) {
      const name = claim.metadata?.name ?? '';
      const existing = this.getClaim(claim.metadata?.namespace, name);
      if (existing) {
        if (existing.metadata?.deletionTimestamp) errors.push(new SyncError(`pvc ${name} is being deleted`));
        continue;
      }
      try {
        this.ctx.store.create<ClaimObject>('PersistentVolumeClaim', claim, { fieldManager: COMPONENT });
        this.recordClaimEvent('create', set, pod, name);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        errors.push(new SyncError(`failed to create PVC ${name}: ${error.message}`));
        if (error.code !== 409) this.recordClaimEvent('create', set, pod, name, error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
  }

  private recordPodEvent(verb: string, set: StatefulSetObject, pod: PodObject, error?: unknown): void {
    const podName = pod.metadata?.name ?? '';
    const setName = set.metadata?.name ?? '';
    if (error === undefined) recordEvent(this.ctx, COMPONENT, set, 'Normal', `Successful${title(verb)}`, `${verb} Pod ${podName} in StatefulSet ${setName} successful`);
    else recordEvent(this.ctx, COMPONENT, set, 'Warning', `Failed${title(verb)}`, `${verb} Pod ${podName} in StatefulSet ${setName} failed error: ${messageOf(error)}`);
  }

  private recordClaimEvent(verb: string, set: StatefulSetObject, pod: PodObject, claimName: string, error?: unknown): void {
    const podName = pod.metadata?.name ?? '';
    const setName = set.metadata?.name ?? '';
    if (error === undefined) recordEvent(this.ctx, COMPONENT, set, 'Normal', `Successful${title(verb)}`, `${verb} Claim ${claimName} Pod ${podName} in StatefulSet ${setName} success`);
    else recordEvent(this.ctx, COMPONENT, set, 'Warning', `Failed${title(verb)}`, `${verb} Claim ${claimName} for Pod ${podName} in StatefulSet ${setName} failed error: ${messageOf(error)}`);
  }
}
