/**
 * The Deployment controller (kubernetes pkg/controller/deployment: deployment_controller.go,
 * sync.go, rolling.go, recreate.go, progress.go): owns one ReplicaSet per pod template, moves
 * replicas from the old ones to the new one as the strategy allows, scales proportionally while a
 * rollout is in flight, prunes history beyond revisionHistoryLimit, and reports status with the
 * Progressing and Available conditions.
 *
 * Not simulated: adoption/release of ReplicaSets by selector (only ReplicaSets whose controller
 * reference names the Deployment are considered) and the deprecated `rollbackTo`.
 */
import type { OwnerReference } from '../../core/k8s';
import { informer, objectKey, splitKey, type SimContext } from '../context';
import { ApiError, type StoreChange } from '../store/types';
import { cloneJson } from '../../common/json';
import { controllerOf, newControllerRef, parseTime, sortedMap, SyncError, type DeploymentCondition, type DeploymentObject, type LabelSelector, type PodObject, type ReplicaSetObject } from './controller-types';
import {
  actualReplicaCount,
  availableReplicaCount,
  calculateStatus,
  compareByCreation,
  compareByRevision,
  compareBySizeNewer,
  compareBySizeOlder,
  DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY,
  deploymentComplete,
  deploymentProgressing,
  deploymentReplicas,
  deploymentTimedOut,
  desiredReplicasAnnotation,
  equalIgnoreHash,
  filterActiveReplicaSets,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  getCondition,
  getProportion,
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  isRecreate,
  isRollingUpdate,
  isSaturated,
  maxRevision,
  maxSurge,
  maxUnavailable,
  newCondition,
  newRSNewReplicas,
  progressDeadlineSeconds,
  Reasons,
  removeCondition,
  REVISION_ANNOTATION,
  replicaCount,
  replicaSetReplicas,
  replicasAnnotationsNeedUpdate,
  revisionHistoryLimit,
  serializedStatus,
  setCondition,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  statusEqual,
} from './deployment-util';
import { computePodTemplateHash } from './pod-template-hash';
import { recordEvent } from './controller-events';
import { ControllerQueue } from './work-scheduling';

const COMPONENT = 'deployment-controller';
/** `maxRetries`: a Deployment whose sync fails this many times in a row is dropped until its next change. */
const MAX_RETRIES = 15;

interface ReplicaSetsOfDeployment {
  newRS: ReplicaSetObject | undefined;
  oldRSs: ReplicaSetObject[];
}

function nameOf(object: { metadata?: { name?: string } }): string {
  return object.metadata?.name ?? '';
}

function uidOf(object: { metadata?: { uid?: string } }): string {
  return object.metadata?.uid ?? '';
}

function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return !!selector && Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}

/** `labelsutil.CloneSelectorAndAddLabel`. */
function selectorWithLabel(selector: LabelSelector | undefined, key: string, value: string): NonNullable<LabelSelector> {
  const out: NonNullable<LabelSelector> = { matchLabels: sortedMap({ ...(selector?.matchLabels ?? {}), [key]: value }) };
  if (selector?.matchExpressions && selector.matchExpressions.length > 0) out.matchExpressions = cloneJson(selector.matchExpressions);
  return out;
}

/**
 * Upstream works on a deep copy of the cached Deployment and writes it back piece by piece. A sync
 * changes only the copy's annotations (the revision) and status, never its spec, so only those are
 * copied: the spec stays the stored one, whose template comparisons with the ReplicaSets are
 * remembered across syncs (see `equalIgnoreHash`).
 */
function workingCopy(stored: DeploymentObject): DeploymentObject {
  const copy: DeploymentObject = { ...stored };
  if (stored.metadata) {
    copy.metadata = { ...stored.metadata };
    if (stored.metadata.annotations) copy.metadata.annotations = { ...stored.metadata.annotations };
  }
  if (stored.status) copy.status = cloneJson(stored.status);
  return copy;
}

function isNamespaceTerminating(error: unknown): boolean {
  return error instanceof ApiError && (error.details?.causes ?? []).some((cause) => cause.reason === 'NamespaceTerminating');
}

export class DeploymentController {
  private readonly queue: ControllerQueue;
  private readonly retries = new Map<string, number>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly ctx: SimContext) {
    this.queue = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.processKey(key));
  }

  start(): void {
    this.unsubscribe.push(
      informer(this.ctx, COMPONENT, 'Deployment', (change) => this.queue.add(objectKey(change.object))),
      informer(this.ctx, COMPONENT, 'ReplicaSet', (change) => this.onReplicaSet(change)),
      informer(this.ctx, COMPONENT, 'Pod', (change) => this.onPod(change)),
    );
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  // -------------------------------------------------------------------------------------------
  // Informer handlers

  private onReplicaSet(change: StoreChange): void {
    const rs = change.object as ReplicaSetObject;
    const ref = controllerOf(rs);
    if (change.type === 'MODIFIED' && change.previous) {
      const oldRef = controllerOf(change.previous);
      if (oldRef && oldRef.uid !== ref?.uid) this.enqueueOwner(rs.metadata?.namespace, oldRef);
    }
    this.enqueueOwner(rs.metadata?.namespace, ref);
  }

  /** Recreate waits for the old pods to be gone: a pod deletion may be what it waits for. */
  private onPod(change: StoreChange): void {
    if (change.type !== 'DELETED') return;
    const pod = change.object as PodObject;
    const namespace = pod.metadata?.namespace;
    const rsRef = controllerOf(pod);
    if (rsRef?.kind !== 'ReplicaSet') return;
    const rs = this.ctx.store.get<ReplicaSetObject>('ReplicaSet', namespace, rsRef.name);
    if (!rs || uidOf(rs) !== rsRef.uid) return;
    const d = this.resolveDeployment(namespace, controllerOf(rs));
    if (!d || !isRecreate(d)) return;
    for (const sibling of this.ctx.store.ownedBy<ReplicaSetObject>('ReplicaSet', uidOf(d))) {
      if (this.ctx.store.ownedBy('Pod', uidOf(sibling)).length > 0) return;
    }
    this.queue.add(objectKey(d));
  }

  private enqueueOwner(namespace: string | undefined, ref: OwnerReference | undefined): void {
    const d = this.resolveDeployment(namespace, ref);
    if (d) this.queue.add(objectKey(d));
  }

  private resolveDeployment(namespace: string | undefined, ref: OwnerReference | undefined): DeploymentObject | undefined {
    if (!ref || ref.kind !== 'Deployment') return undefined;
    const d = this.ctx.store.get<DeploymentObject>('Deployment', namespace, ref.name);
    return d && uidOf(d) === ref.uid ? d : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Sync

  private processKey(key: string): void {
    try {
      this.syncDeployment(key);
      this.retries.delete(key);
      this.queue.forget(key);
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof SyncError)) throw error;
      const retries = (this.retries.get(key) ?? 0) + 1;
      if (retries > MAX_RETRIES || isNamespaceTerminating(error)) {
        this.retries.delete(key);
        this.queue.forget(key);
        return;
      }
      this.retries.set(key, retries);
      this.queue.addRateLimited(key);
    }
  }

  /** `syncDeployment`: one reconciliation of the Deployment named by `key` (`namespace/name`). */
  syncDeployment(key: string): void {
    const { namespace, name } = splitKey(key);
    const stored = this.ctx.store.get<DeploymentObject>('Deployment', namespace, name);
    if (!stored) return;
    const d = workingCopy(stored);

    if (isEmptySelector(d.spec?.selector)) {
      recordEvent(this.ctx, COMPONENT, d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) {
        d.status = { ...d.status, observedGeneration: d.metadata?.generation };
        this.updateDeploymentStatus(d);
      }
      return;
    }

    const rsList = this.ctx.store.ownedBy<ReplicaSetObject>('ReplicaSet', uidOf(d));
    if (d.metadata?.deletionTimestamp) {
      this.syncStatusOnly(d, rsList);
      return;
    }
    this.checkPausedConditions(d);
    if (d.spec?.paused) {
      this.syncScaling(d, rsList);
      return;
    }
    if (this.isScalingEvent(d, rsList)) {
      this.syncScaling(d, rsList);
      return;
    }
    if (isRecreate(d)) this.rolloutRecreate(d, rsList);
    else if (isRollingUpdate(d)) this.rolloutRolling(d, rsList);
    else throw new SyncError(`unexpected deployment strategy type: ${d.spec?.strategy?.type}`);
  }

  /** The latest stored version of a ReplicaSet this sync already holds (own writes included). */
  private fresh(rs: ReplicaSetObject | undefined): ReplicaSetObject | undefined {
    if (!rs) return undefined;
    return this.ctx.store.get<ReplicaSetObject>('ReplicaSet', rs.metadata?.namespace, nameOf(rs)) ?? rs;
  }

  private replaceIn(list: ReplicaSetObject[], updated: ReplicaSetObject): void {
    const index = list.findIndex((rs) => uidOf(rs) === uidOf(updated));
    if (index >= 0) list[index] = updated;
  }

  /**
   * Write the working copy's status, and its revision annotation. Upstream does both in one status
   * update (the Deployment status strategy keeps metadata changes other than labels); the
   * simulator's status subresource keeps only `status`, so a changed annotation is written first
   * through the main resource (which leaves `generation` alone, as spec does not change).
   */
  private updateDeploymentStatus(d: DeploymentObject): void {
    const namespace = d.metadata?.namespace;
    const name = nameOf(d);
    const revision = d.metadata?.annotations?.[REVISION_ANNOTATION];
    const stored = this.ctx.store.read<DeploymentObject>('Deployment', namespace, name);
    if (revision !== undefined && stored.metadata?.annotations?.[REVISION_ANNOTATION] !== revision) {
      this.ctx.store.mutate<DeploymentObject>('Deployment', namespace, name, (copy) => {
        const meta = copy.metadata ?? (copy.metadata = {});
        meta.annotations = sortedMap({ ...(meta.annotations ?? {}), [REVISION_ANNOTATION]: revision });
      }, { fieldManager: COMPONENT });
    }
    const status = serializedStatus(d.status ?? {});
    this.ctx.store.mutate<DeploymentObject>('Deployment', namespace, name, (copy) => {
      copy.status = status;
    }, { fieldManager: COMPONENT, subresource: 'status' });
  }

  /** `SetDeploymentRevision`. */
  private setDeploymentRevision(d: DeploymentObject, revision: string): boolean {
    const meta = d.metadata ?? (d.metadata = {});
    const annotations = meta.annotations ?? (meta.annotations = {});
    if (annotations[REVISION_ANNOTATION] === revision) return false;
    annotations[REVISION_ANNOTATION] = revision;
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // sync.go

  /** `getAllReplicaSetsAndSyncRevision`. */
  private getAllReplicaSetsAndSyncRevision(d: DeploymentObject, rsList: ReplicaSetObject[], createIfNotExisted: boolean): ReplicaSetsOfDeployment {
    const { all: oldRSs } = findOldReplicaSets(d, rsList);
    const newRS = this.getNewReplicaSet(d, rsList, oldRSs, createIfNotExisted);
    return { newRS, oldRSs };
  }

  /**
   * `getNewReplicaSet`: the ReplicaSet with the deployment's template, its annotations and revision
   * brought up to date; created (named `<deployment>-<pod-template-hash>`) when missing and asked to.
   */
  private getNewReplicaSet(d: DeploymentObject, rsList: ReplicaSetObject[], oldRSs: ReplicaSetObject[], createIfNotExisted: boolean): ReplicaSetObject | undefined {
    const existing = findNewReplicaSet(d, rsList);
    const newRevision = maxRevision(oldRSs) + 1;

    if (existing) {
      const annotations = { ...(existing.metadata?.annotations ?? {}) };
      const annotationsUpdated = setNewReplicaSetAnnotations(d, annotations, newRevision, true);
      const minReady = d.spec?.minReadySeconds ?? 0;
      if (annotationsUpdated || (existing.spec?.minReadySeconds ?? 0) !== minReady) {
        const updated = this.ctx.store.mutate<ReplicaSetObject>('ReplicaSet', existing.metadata?.namespace, nameOf(existing), (copy) => {
          const meta = copy.metadata ?? (copy.metadata = {});
          meta.annotations = sortedMap(annotations);
          const spec = copy.spec ?? (copy.spec = {} as NonNullable<ReplicaSetObject['spec']>);
          if (minReady) spec.minReadySeconds = minReady;
          else delete spec.minReadySeconds;
        }, { fieldManager: COMPONENT });
        this.replaceIn(rsList, updated);
        return updated;
      }
      let needsUpdate = this.setDeploymentRevision(d, existing.metadata?.annotations?.[REVISION_ANNOTATION] ?? '');
      if (hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')) {
        d.status = d.status ?? {};
        setCondition(d.status, newCondition('Progressing', 'True', Reasons.foundNewRS, `Found new replica set "${nameOf(existing)}"`, this.ctx.clock.now()));
        needsUpdate = true;
      }
      if (needsUpdate) this.updateDeploymentStatus(d);
      return existing;
    }

    if (!createIfNotExisted) return undefined;
    return this.createNewReplicaSet(d, rsList, oldRSs, newRevision);
  }

  private createNewReplicaSet(d: DeploymentObject, rsList: ReplicaSetObject[], oldRSs: ReplicaSetObject[], newRevision: number): ReplicaSetObject {
    const namespace = d.metadata?.namespace;
    const template = cloneJson(d.spec?.template ?? {});
    const hash = computePodTemplateHash(template, d.status?.collisionCount);
    const labels = sortedMap({ ...(template.metadata?.labels ?? {}), [DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY]: hash });
    template.metadata = { ...template.metadata, labels };
    const name = `${nameOf(d)}-${hash}`;
    const minReady = d.spec?.minReadySeconds ?? 0;
    const annotations: Record<string, string> = {};
    const newRS: ReplicaSetObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace, labels: { ...labels }, annotations, ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')] },
      spec: { replicas: 0, ...(minReady ? { minReadySeconds: minReady } : {}), selector: selectorWithLabel(d.spec?.selector, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, hash), template },
    };
    const newReplicasCount = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    newRS.spec!.replicas = newReplicasCount;
    setNewReplicaSetAnnotations(d, annotations, newRevision, false);
    newRS.metadata!.annotations = sortedMap(annotations);

    let created: ReplicaSetObject;
    let alreadyExists = false;
    try {
      created = this.ctx.store.create<ReplicaSetObject>('ReplicaSet', newRS, { fieldManager: COMPONENT });
    } catch (error) {
      if (error instanceof ApiError && error.reason === 'AlreadyExists') {
        const found = this.ctx.store.get<ReplicaSetObject>('ReplicaSet', namespace, name);
        if (!found || controllerOf(found)?.uid !== uidOf(d) || !equalIgnoreHash(d.spec?.template, found.spec?.template)) {
          // A different ReplicaSet holds the name: bump collisionCount so the next hash differs.
          d.status = { ...d.status, collisionCount: (d.status?.collisionCount ?? 0) + 1 };
          this.updateDeploymentStatus(d);
          throw error;
        }
        created = found;
        alreadyExists = true;
      } else {
        if (isNamespaceTerminating(error) || !(error instanceof ApiError)) throw error;
        const message = `Failed to create new replica set "${name}": ${error.message}`;
        if (hasProgressDeadline(d)) {
          d.status = d.status ?? {};
          setCondition(d.status, newCondition('Progressing', 'False', Reasons.failedRSCreate, message, this.ctx.clock.now()));
          this.updateDeploymentStatus(d);
        }
        recordEvent(this.ctx, COMPONENT, d, 'Warning', Reasons.failedRSCreate, message);
        throw error;
      }
    }
    rsList.push(created);
    if (!alreadyExists && newReplicasCount > 0) {
      recordEvent(this.ctx, COMPONENT, d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} from 0 to ${newReplicasCount}`);
    }
    let needsUpdate = this.setDeploymentRevision(d, String(newRevision));
    if (!alreadyExists && hasProgressDeadline(d)) {
      d.status = d.status ?? {};
      setCondition(d.status, newCondition('Progressing', 'True', Reasons.newReplicaSet, `Created new replica set "${name}"`, this.ctx.clock.now()));
      needsUpdate = true;
    }
    if (needsUpdate) this.updateDeploymentStatus(d);
    return created;
  }

  /** `syncStatusOnly`: a Deployment being deleted only gets its status refreshed. */
  private syncStatusOnly(d: DeploymentObject, rsList: ReplicaSetObject[]): void {
    const { newRS, oldRSs } = this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    this.syncDeploymentStatus([...oldRSs, newRS], newRS, d);
  }

  /** `sync`: scaling events and paused deployments. */
  private syncScaling(d: DeploymentObject, rsList: ReplicaSetObject[]): void {
    const { newRS, oldRSs } = this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    this.scale(d, newRS, oldRSs);
    if (d.spec?.paused) this.cleanupDeployment(oldRSs, d);
    this.syncDeploymentStatus([...oldRSs, newRS], newRS, d);
  }

  /** `checkPausedConditions`: Progressing=Unknown DeploymentPaused / DeploymentResumed, so a pause never times out. */
  private checkPausedConditions(d: DeploymentObject): void {
    if (!hasProgressDeadline(d)) return;
    const condition = getCondition(d.status, 'Progressing');
    if (condition?.reason === Reasons.timedOut) return;
    const pausedConditionExists = condition?.reason === Reasons.paused;
    const now = this.ctx.clock.now();
    d.status = d.status ?? {};
    if (d.spec?.paused && !pausedConditionExists) {
      setCondition(d.status, newCondition('Progressing', 'Unknown', Reasons.paused, 'Deployment is paused', now));
    } else if (!d.spec?.paused && pausedConditionExists) {
      setCondition(d.status, newCondition('Progressing', 'Unknown', Reasons.resumed, 'Deployment is resumed', now));
    } else {
      return;
    }
    this.updateDeploymentStatus(d);
  }

  /** `isScalingEvent`: an active ReplicaSet was sized for a different spec.replicas. */
  private isScalingEvent(d: DeploymentObject, rsList: ReplicaSetObject[]): boolean {
    const { newRS, oldRSs } = this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    for (const rs of filterActiveReplicaSets([...oldRSs, newRS])) {
      const desired = desiredReplicasAnnotation(rs);
      if (desired !== undefined && desired !== deploymentReplicas(d)) return true;
    }
    return false;
  }

  /**
   * `scale`: follow a change of spec.replicas. One active ReplicaSet takes it all; a saturated new
   * ReplicaSet lets the old ones go to 0; otherwise the change is spread over the active
   * ReplicaSets in proportion to their size (proportional scaling).
   */
  private scale(d: DeploymentObject, newRS: ReplicaSetObject | undefined, oldRSs: ReplicaSetObject[]): void {
    const replicas = deploymentReplicas(d);
    const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest) {
      if (replicaSetReplicas(activeOrLatest) !== replicas) this.scaleReplicaSetAndRecordEvent(activeOrLatest, replicas, d);
      return;
    }
    if (isSaturated(d, newRS)) {
      for (const old of filterActiveReplicaSets(oldRSs)) this.scaleReplicaSetAndRecordEvent(old, 0, d);
      return;
    }
    if (!isRollingUpdate(d)) return;
    const allRSs = filterActiveReplicaSets([...oldRSs, newRS]);
    const allowedSize = replicas > 0 ? replicas + maxSurge(d) : 0;
    const toAdd = allowedSize - replicaCount(allRSs);
    if (toAdd > 0) allRSs.sort(compareBySizeNewer);
    else if (toAdd < 0) allRSs.sort(compareBySizeOlder);
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of allRSs) {
      if (toAdd !== 0) {
        const proportion = getProportion(rs, d, toAdd, added);
        sizes.set(nameOf(rs), replicaSetReplicas(rs) + proportion);
        added += proportion;
      } else {
        sizes.set(nameOf(rs), replicaSetReplicas(rs));
      }
    }
    allRSs.forEach((rs, index) => {
      if (index === 0 && toAdd !== 0) sizes.set(nameOf(rs), Math.max(0, (sizes.get(nameOf(rs)) ?? 0) + toAdd - added));
      this.scaleReplicaSet(rs, sizes.get(nameOf(rs)) ?? 0, d);
    });
  }

  /** `scaleReplicaSetAndRecordEvent`. */
  private scaleReplicaSetAndRecordEvent(rs: ReplicaSetObject, newScale: number, d: DeploymentObject): { scaled: boolean; rs: ReplicaSetObject } {
    if (replicaSetReplicas(rs) === newScale) return { scaled: false, rs };
    return this.scaleReplicaSet(rs, newScale, d);
  }

  /**
   * `scaleReplicaSet`: write the new size and the replica annotations; a size change is reported as
   * `ScalingReplicaSet "Scaled up|down replica set <rs> from <old> to <new>"`.
   */
  private scaleReplicaSet(rs: ReplicaSetObject, newScale: number, d: DeploymentObject): { scaled: boolean; rs: ReplicaSetObject } {
    const oldScale = replicaSetReplicas(rs);
    const desired = deploymentReplicas(d);
    const max = desired + maxSurge(d);
    const sizeNeedsUpdate = oldScale !== newScale;
    if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, max)) return { scaled: false, rs };
    const updated = this.ctx.store.mutate<ReplicaSetObject>('ReplicaSet', rs.metadata?.namespace, nameOf(rs), (copy) => {
      const meta = copy.metadata ?? (copy.metadata = {});
      const annotations = { ...(meta.annotations ?? {}) };
      setReplicasAnnotations(annotations, desired, max);
      meta.annotations = sortedMap(annotations);
      const spec = copy.spec ?? (copy.spec = {} as NonNullable<ReplicaSetObject['spec']>);
      spec.replicas = newScale;
    }, { fieldManager: COMPONENT });
    if (sizeNeedsUpdate) {
      const direction = oldScale < newScale ? 'up' : 'down';
      recordEvent(this.ctx, COMPONENT, d, 'Normal', 'ScalingReplicaSet', `Scaled ${direction} replica set ${nameOf(rs)} from ${oldScale} to ${newScale}`);
    }
    return { scaled: sizeNeedsUpdate, rs: updated };
  }

  /** `cleanupDeployment`: delete the oldest fully scaled-down ReplicaSets beyond revisionHistoryLimit. */
  private cleanupDeployment(oldRSs: ReplicaSetObject[], d: DeploymentObject): void {
    if (!hasRevisionHistoryLimit(d)) return;
    const cleanable = oldRSs.map((rs) => this.fresh(rs)!).filter((rs) => !rs.metadata?.deletionTimestamp);
    const diff = cleanable.length - revisionHistoryLimit(d);
    if (diff <= 0) return;
    cleanable.sort(compareByRevision);
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i];
      // Only ReplicaSets with nothing left to do may go.
      if ((rs.status?.replicas ?? 0) !== 0 || replicaSetReplicas(rs) !== 0 || (rs.metadata?.generation ?? 0) > (rs.status?.observedGeneration ?? 0) || rs.metadata?.deletionTimestamp) continue;
      try {
        this.ctx.store.delete('ReplicaSet', rs.metadata?.namespace, nameOf(rs), { actor: COMPONENT });
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 404)) throw error;
      }
    }
  }

  /** `syncDeploymentStatus`: write the calculated status when it differs. */
  private syncDeploymentStatus(allRSs: (ReplicaSetObject | undefined)[], newRS: ReplicaSetObject | undefined, d: DeploymentObject): void {
    const current = allRSs.map((rs) => this.fresh(rs));
    const status = calculateStatus(current, this.fresh(newRS), d, this.ctx.clock.now());
    if (statusEqual(d.status, status)) return;
    d.status = status;
    this.updateDeploymentStatus(d);
  }

  // -------------------------------------------------------------------------------------------
  // rolling.go

  /** `rolloutRolling`: scale the new ReplicaSet up within maxSurge, the old ones down within maxUnavailable. */
  private rolloutRolling(d: DeploymentObject, rsList: ReplicaSetObject[]): void {
    const { newRS, oldRSs } = this.getAllReplicaSetsAndSyncRevision(d, rsList, true);
    if (!newRS) throw new SyncError(`deployment ${nameOf(d)} has no new replica set`);
    const allRSs = [...oldRSs, newRS];
    if (this.reconcileNewReplicaSet(allRSs, newRS, d)) {
      this.syncRolloutStatus(allRSs, newRS, d);
      return;
    }
    if (this.reconcileOldReplicaSets(allRSs, filterActiveReplicaSets(oldRSs), newRS, d)) {
      this.syncRolloutStatus(allRSs, newRS, d);
      return;
    }
    if (deploymentComplete(d, d.status ?? {})) this.cleanupDeployment(oldRSs, d);
    this.syncRolloutStatus(allRSs, newRS, d);
  }

  private reconcileNewReplicaSet(allRSs: ReplicaSetObject[], newRS: ReplicaSetObject, d: DeploymentObject): boolean {
    const replicas = deploymentReplicas(d);
    const current = replicaSetReplicas(newRS);
    if (current === replicas) return false;
    if (current > replicas) return this.scaleReplicaSetAndRecordEvent(newRS, replicas, d).scaled;
    return this.scaleReplicaSetAndRecordEvent(newRS, newRSNewReplicas(d, allRSs, newRS), d).scaled;
  }

  private reconcileOldReplicaSets(allRSs: ReplicaSetObject[], oldRSs: ReplicaSetObject[], newRS: ReplicaSetObject, d: DeploymentObject): boolean {
    if (replicaCount(oldRSs) === 0) return false;
    const allPodsCount = replicaCount(allRSs);
    const minAvailable = deploymentReplicas(d) - maxUnavailable(d);
    const newRSUnavailablePodCount = replicaSetReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = allPodsCount - minAvailable - newRSUnavailablePodCount;
    if (maxScaledDown <= 0) return false;
    // Unhealthy old replicas go first: removing them costs no availability.
    const cleanedUp = this.cleanupUnhealthyReplicas(oldRSs, d, maxScaledDown);
    const scaledDown = this.scaleDownOldReplicaSetsForRollingUpdate([...cleanedUp.oldRSs, newRS], cleanedUp.oldRSs, d);
    return cleanedUp.count + scaledDown > 0;
  }

  /** `cleanupUnhealthyReplicas`: scale old ReplicaSets down by their unavailable replicas, oldest first. */
  private cleanupUnhealthyReplicas(oldRSs: ReplicaSetObject[], d: DeploymentObject, maxCleanupCount: number): { oldRSs: ReplicaSetObject[]; count: number } {
    const sorted = [...oldRSs].sort(compareByCreation);
    let total = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (total >= maxCleanupCount) break;
      const rs = sorted[i];
      const replicas = replicaSetReplicas(rs);
      const available = rs.status?.availableReplicas ?? 0;
      if (replicas === 0 || replicas === available) continue;
      const scaledDownCount = Math.min(maxCleanupCount - total, replicas - available);
      const newReplicasCount = replicas - scaledDownCount;
      if (newReplicasCount > replicas) throw new SyncError(`when cleaning up unhealthy replicas, got invalid request to scale down ${rs.metadata?.namespace}/${nameOf(rs)} ${replicas} -> ${newReplicasCount}`);
      sorted[i] = this.scaleReplicaSetAndRecordEvent(rs, newReplicasCount, d).rs;
      total += scaledDownCount;
    }
    return { oldRSs: sorted, count: total };
  }

  /** `scaleDownOldReplicaSetsForRollingUpdate`: scale old ReplicaSets down while availability stays above the minimum. */
  private scaleDownOldReplicaSetsForRollingUpdate(allRSs: ReplicaSetObject[], oldRSs: ReplicaSetObject[], d: DeploymentObject): number {
    const minAvailable = deploymentReplicas(d) - maxUnavailable(d);
    const availablePodCount = availableReplicaCount(allRSs);
    if (availablePodCount <= minAvailable) return 0;
    const sorted = [...oldRSs].sort(compareByCreation);
    const totalScaleDownCount = availablePodCount - minAvailable;
    let total = 0;
    for (const rs of sorted) {
      if (total >= totalScaleDownCount) break;
      const replicas = replicaSetReplicas(rs);
      if (replicas === 0) continue;
      const scaleDownCount = Math.min(replicas, totalScaleDownCount - total);
      const newReplicasCount = replicas - scaleDownCount;
      if (newReplicasCount > replicas) throw new SyncError(`when scaling down old replica set, got invalid request to scale down ${rs.metadata?.namespace}/${nameOf(rs)} ${replicas} -> ${newReplicasCount}`);
      this.scaleReplicaSetAndRecordEvent(rs, newReplicasCount, d);
      total += scaleDownCount;
    }
    return total;
  }

  // -------------------------------------------------------------------------------------------
  // recreate.go

  /** `rolloutRecreate`: all old pods down and gone, then the new ReplicaSet up to full size. */
  private rolloutRecreate(d: DeploymentObject, rsList: ReplicaSetObject[]): void {
    let { newRS, oldRSs } = this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    let allRSs = [...oldRSs, newRS];
    let scaledDown = false;
    for (const rs of filterActiveReplicaSets(oldRSs)) {
      if (this.scaleReplicaSetAndRecordEvent(rs, 0, d).scaled) scaledDown = true;
    }
    if (scaledDown || this.oldPodsRunning(newRS, oldRSs)) {
      this.syncRolloutStatus(allRSs, newRS, d);
      return;
    }
    if (!newRS) {
      ({ newRS, oldRSs } = this.getAllReplicaSetsAndSyncRevision(d, rsList, true));
      allRSs = [...oldRSs, newRS];
    }
    if (newRS) this.scaleReplicaSetAndRecordEvent(newRS, deploymentReplicas(d), d);
    if (deploymentComplete(d, d.status ?? {})) this.cleanupDeployment(oldRSs, d);
    this.syncRolloutStatus(allRSs, newRS, d);
  }

  /** `oldPodsRunning`: old ReplicaSets still report replicas, or own a pod that has not finished. */
  private oldPodsRunning(newRS: ReplicaSetObject | undefined, oldRSs: ReplicaSetObject[]): boolean {
    if (actualReplicaCount(oldRSs.map((rs) => this.fresh(rs))) > 0) return true;
    for (const rs of oldRSs) {
      if (newRS && uidOf(rs) === uidOf(newRS)) continue;
      for (const pod of this.ctx.store.ownedBy<PodObject>('Pod', uidOf(rs))) {
        const phase = pod.status?.phase;
        if (phase !== 'Failed' && phase !== 'Succeeded') return true;
      }
    }
    return false;
  }

  // -------------------------------------------------------------------------------------------
  // progress.go

  /**
   * `syncRolloutStatus`: the status plus the Progressing condition: NewReplicaSetAvailable when
   * complete, ReplicaSetUpdated on any progress, ProgressDeadlineExceeded when no progress was seen
   * for progressDeadlineSeconds (checked on the virtual clock, with a re-sync at the deadline).
   */
  private syncRolloutStatus(allRSs: (ReplicaSetObject | undefined)[], newRS: ReplicaSetObject | undefined, d: DeploymentObject): void {
    const now = this.ctx.clock.now();
    const status = calculateStatus(allRSs.map((rs) => this.fresh(rs)), this.fresh(newRS), d, now);
    if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
    const currentCondition = getCondition(d.status, 'Progressing');
    const isCompleteDeployment = (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && currentCondition?.reason === Reasons.newRSAvailable;
    if (hasProgressDeadline(d) && !isCompleteDeployment) {
      if (deploymentComplete(d, status)) {
        const message = newRS ? `ReplicaSet "${nameOf(newRS)}" has successfully progressed.` : `Deployment "${nameOf(d)}" has successfully progressed.`;
        setCondition(status, newCondition('Progressing', 'True', Reasons.newRSAvailable, message, now));
      } else if (deploymentProgressing(d, status)) {
        const message = newRS ? `ReplicaSet "${nameOf(newRS)}" is progressing.` : `Deployment "${nameOf(d)}" is progressing.`;
        const condition = newCondition('Progressing', 'True', Reasons.replicaSetUpdated, message, now);
        // Progress refreshes lastUpdateTime even when the reason stays the same.
        if (currentCondition) {
          if (currentCondition.status === 'True') condition.lastTransitionTime = currentCondition.lastTransitionTime;
          removeCondition(status, 'Progressing');
        }
        setCondition(status, condition);
      } else if (deploymentTimedOut(d, status, now)) {
        const message = newRS ? `ReplicaSet "${nameOf(newRS)}" has timed out progressing.` : `Deployment "${nameOf(d)}" has timed out progressing.`;
        setCondition(status, newCondition('Progressing', 'False', Reasons.timedOut, message, now));
      }
    }
    // A ReplicaSet's ReplicaFailure (e.g. FailedCreate over quota) surfaces on the Deployment, the new ReplicaSet's first.
    const failure = this.replicaFailure(allRSs, newRS);
    if (failure) setCondition(status, failure);
    else removeCondition(status, 'ReplicaFailure');
    if (statusEqual(d.status, status)) {
      this.requeueStuckDeployment(d, status);
      return;
    }
    d.status = status;
    this.updateDeploymentStatus(d);
  }

  /** `getReplicaFailures` + `ReplicaSetToDeploymentCondition`. */
  private replicaFailure(allRSs: (ReplicaSetObject | undefined)[], newRS: ReplicaSetObject | undefined): DeploymentCondition | undefined {
    for (const rs of [newRS, ...allRSs]) {
      const condition = this.fresh(rs)?.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
      if (condition) {
        return { type: 'ReplicaFailure', status: condition.status, lastUpdateTime: condition.lastTransitionTime, lastTransitionTime: condition.lastTransitionTime, reason: condition.reason, message: condition.message };
      }
    }
    return undefined;
  }

  /** `requeueStuckDeployment`: come back when the progress deadline passes, to notice a timeout. */
  private requeueStuckDeployment(d: DeploymentObject, status: NonNullable<DeploymentObject['status']>): void {
    const condition = getCondition(d.status, 'Progressing');
    if (!hasProgressDeadline(d) || !condition) return;
    if (deploymentComplete(d, status) || condition.reason === Reasons.timedOut) return;
    const lastUpdate = parseTime(condition.lastUpdateTime) ?? 0;
    const after = lastUpdate + progressDeadlineSeconds(d) * 1000 - this.ctx.clock.now();
    // Upstream polls with its rate limiter when under a second is left; the virtual clock is
    // exact, so one re-sync a second after the deadline (upstream's margin) is enough.
    this.queue.addAfter(objectKey(d), Math.max(0, after) + 1000);
  }
}
