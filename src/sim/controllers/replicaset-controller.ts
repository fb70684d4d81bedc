/**
 * The ReplicaSet controller (kubernetes pkg/controller/replicaset/replica_set.go): keeps as many
 * active pods as a ReplicaSet asks for, creating them from its template in slow-start batches of
 * at most 500 per sync and deleting the cheapest ones first, and reports the pod counts in
 * `status`. The same controller serves ReplicationControllers, as upstream's
 * pkg/controller/replication is an adapter over it: their pods carry a `v1` ReplicationController
 * owner reference and their events come from `replication-controller`. The selector matters only
 * to claim pods, not for counting, since pods are found by their controller reference.
 *
 * `claimPods` is ported for the pods that can change hands: an active orphan whose labels match a
 * selector is adopted, and an owned pod whose labels stop matching is released. Orphans are
 * tracked as they appear rather than found by listing every pod on each sync.
 */
import type { ComponentName } from '../../core/internals';
import type { KubeObject, OwnerReference } from '../../core/k8s';
import { informer, objectKey, splitKey, type SimContext } from '../context';
import { cloneAsJson, deepEqual } from '../../common/json';
import { rfc3339 } from '../store/object-utils';
import { labelSelectorMatches } from '../store/selectors';
import { ApiError, type StoreChange } from '../store/types';
import { controllerOf, newControllerRef, SyncError, type PodObject, type ReplicaSetCondition, type ReplicaSetObject, type ReplicaSetStatus } from './controller-types';
import { createPod, deletePod, errorMessage } from './pod-control';
import { podsToDelete } from './pod-deletion-order';
import { isPodActive, isPodAvailable, isPodReady, podAvailableAt } from './pod-util';
import { ReplicaSetPodTally, type PodCounts } from './replicaset-pod-tally';
import { ControllerExpectations, ControllerQueue, slowStartBatch, SLOW_START_INITIAL_BATCH_SIZE } from './work-scheduling';

/** The kind a controller instance manages: ReplicaSets, or ReplicationControllers through the same code. */
export interface ReplicatedKind {
  kind: 'ReplicaSet' | 'ReplicationController';
  apiVersion: string;
  component: ComponentName;
}

export const REPLICA_SETS: ReplicatedKind = { kind: 'ReplicaSet', apiVersion: 'apps/v1', component: 'replicaset-controller' };
export const REPLICATION_CONTROLLERS: ReplicatedKind = { kind: 'ReplicationController', apiVersion: 'v1', component: 'replication-controller' };

/** `replicaset.BurstReplicas`: the most pods created or deleted in one sync. */
export const BURST_REPLICAS = 500;

function replicasOf(rs: ReplicaSetObject): number {
  return rs.spec?.replicas ?? 1;
}

function podKey(pod: PodObject): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** `getPodsPrefix`: `<name>-`, or the bare name when the dash would make an invalid pod name. */
function generateNamePrefix(rsName: string): string {
  const prefix = `${rsName}-`;
  return prefix.length <= 253 ? prefix : rsName;
}

export class ReplicaSetController {
  private readonly queue: ControllerQueue;
  private readonly expectations: ControllerExpectations;
  private readonly tally = new ReplicaSetPodTally();
  /** ReplicaSet uid → its pod template labels, for the fully-labeled count. */
  private readonly templateLabels = new Map<string, Record<string, string> | undefined>();
  private readonly seeded = new Set<string>();
  /** Template labels → the frozen copy pods get. */
  private readonly podLabels = new WeakMap<Record<string, string>, Record<string, string>>();
  /** ReplicaSet uid → the frozen ownerReferences its pods get. */
  private readonly podOwnerReferences = new Map<string, OwnerReference[]>();
  /** ReplicaSet uid → its queue key (see `keyOf`). */
  private readonly keys = new Map<string, string>();
  /** Active pods without a controller reference, by pod key: candidates for adoption. */
  private readonly orphans = new Set<string>();
  /** Controller key → keys of its pods whose labels changed, to release if they no longer match. */
  private readonly relabeled = new Map<string, Set<string>>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly ctx: SimContext,
    private readonly managed: ReplicatedKind = REPLICA_SETS,
  ) {
    this.queue = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.processKey(key));
    this.expectations = new ControllerExpectations(ctx.clock);
  }

  start(): void {
    this.unsubscribe.push(
      informer(this.ctx, this.managed.component, this.managed.kind, (change) => this.onReplicaSet(change)),
      informer(this.ctx, this.managed.component, 'Pod', (change) => this.onPod(change)),
    );
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  // -------------------------------------------------------------------------------------------
  // Informer handlers

  private onReplicaSet(change: StoreChange): void {
    const rs = change.object as ReplicaSetObject;
    const uid = rs.metadata?.uid ?? '';
    const key = this.keyOf(rs);
    if (change.type === 'DELETED') {
      this.templateLabels.delete(uid);
      this.podOwnerReferences.delete(uid);
      this.keys.delete(uid);
      this.seeded.delete(uid);
      this.expectations.delete(key);
    } else {
      const labels = rs.spec?.template?.metadata?.labels;
      const known = this.templateLabels.has(uid);
      if (!known || !deepEqual(this.templateLabels.get(uid), labels)) {
        this.templateLabels.set(uid, labels);
        if (known) this.seed(rs);
      }
    }
    this.queue.add(key);
  }

  private onPod(change: StoreChange): void {
    const pod = change.object as PodObject;
    const previous = change.previous as PodObject | undefined;
    const ref = change.type === 'DELETED' ? undefined : controllerOf(pod);
    if (ref && ref.kind !== this.managed.kind && controllerOf(previous)?.kind !== this.managed.kind) {
      // Another kind of controller's pod: it matters here only if it was an orphan until now.
      if (this.orphans.size > 0) this.orphans.delete(podKey(pod));
      return;
    }
    this.tally.observe(pod.metadata?.uid ?? podKey(pod), change.type === 'DELETED' ? undefined : pod, ref?.kind === this.managed.kind ? ref.uid : undefined, ref ? this.labelsOfOwner(pod, ref) : undefined);

    this.trackOrphan(pod, change.type === 'DELETED' ? undefined : ref);
    if (change.type === 'DELETED') {
      this.podGone(pod);
      return;
    }
    if (change.type === 'ADDED') {
      if (pod.metadata?.deletionTimestamp) {
        this.podGone(pod);
        return;
      }
      const rs = this.resolveControllerRef(pod.metadata?.namespace, ref);
      if (!rs) return;
      const key = this.keyOf(rs);
      this.expectations.creationObserved(key);
      this.queue.add(key);
      return;
    }
    const oldRef = previous ? controllerOf(previous) : undefined;
    if (pod.metadata?.deletionTimestamp) {
      // A graceful deletion: the pod stops counting now, as upstream treats it as deleted.
      this.podGone(pod);
      if (previous && oldRef?.uid !== ref?.uid) this.podGone(previous);
      return;
    }
    if (oldRef && oldRef.uid !== ref?.uid) {
      const oldRS = this.resolveControllerRef(previous?.metadata?.namespace, oldRef);
      if (oldRS) this.queue.add(this.keyOf(oldRS));
    }
    const rs = this.resolveControllerRef(pod.metadata?.namespace, ref);
    if (!rs) return;
    const key = this.keyOf(rs);
    if (previous && previous.metadata?.labels !== pod.metadata?.labels && !deepEqual(previous.metadata?.labels, pod.metadata?.labels)) this.markRelabeled(key, pod);
    this.queue.add(key);
    const minReady = rs.spec?.minReadySeconds ?? 0;
    if (minReady > 0 && previous && !isPodReady(previous) && isPodReady(pod)) this.queue.addAfter(key, minReady * 1000 + 1000);
  }

  /** `deletePod`: a pod that is gone or going satisfies a deletion expectation and wakes its owner. */
  private podGone(pod: PodObject): void {
    const rs = this.resolveControllerRef(pod.metadata?.namespace, controllerOf(pod));
    if (!rs) return;
    const key = this.keyOf(rs);
    this.expectations.deletionObserved(key, podKey(pod));
    this.queue.add(key);
  }

  /**
   * Keeps `orphans` current and wakes the controllers whose selector an orphan matches
   * (`addPod`/`updatePod` with no controller reference: `getPodReplicaSets`).
   */
  private trackOrphan(pod: PodObject, ref: OwnerReference | undefined): void {
    if (ref || pod.metadata?.deletionTimestamp || !isPodActive(pod)) {
      if (this.orphans.size > 0) this.orphans.delete(podKey(pod));
      return;
    }
    this.orphans.add(podKey(pod));
    for (const controller of this.ctx.store.list<ReplicaSetObject>(this.managed.kind, { namespace: pod.metadata?.namespace }).items) {
      if (this.selects(controller, pod)) this.queue.add(this.keyOf(controller));
    }
  }

  private markRelabeled(key: string, pod: PodObject): void {
    let pods = this.relabeled.get(key);
    if (!pods) this.relabeled.set(key, (pods = new Set()));
    pods.add(podKey(pod));
  }

  /** Whether the controller's selector matches the pod's labels: a label selector, or an RC's equality map. */
  private selects(controller: ReplicaSetObject, pod: PodObject): boolean {
    const labels = pod.metadata?.labels;
    if (this.managed.kind === 'ReplicaSet') return labelSelectorMatches(controller.spec?.selector, labels);
    const selector = (controller.spec as { selector?: Record<string, string> } | undefined)?.selector ?? {};
    const keys = Object.keys(selector);
    return keys.length > 0 && labels !== undefined && keys.every((k) => Object.prototype.hasOwnProperty.call(labels, k) && labels[k] === selector[k]);
  }

  /**
   * `namespace/name`, made once per ReplicaSet (a uid's name never changes). Every pod change
   * queues its owner: a key string seen before is already flat and hashed for the queue's and
   * the expectations' lookups, where a new one would be built, flattened and hashed each time.
   */
  private keyOf(rs: ReplicaSetObject): string {
    const uid = rs.metadata?.uid;
    if (!uid) return objectKey(rs);
    let key = this.keys.get(uid);
    if (key === undefined) this.keys.set(uid, (key = objectKey(rs)));
    return key;
  }

  private resolveControllerRef(namespace: string | undefined, ref: OwnerReference | undefined): ReplicaSetObject | undefined {
    if (!ref || ref.kind !== this.managed.kind) return undefined;
    const rs = this.ctx.store.get<ReplicaSetObject>(this.managed.kind, namespace, ref.name);
    return rs && rs.metadata?.uid === ref.uid ? rs : undefined;
  }

  private labelsOfOwner(pod: PodObject, ref: OwnerReference): Record<string, string> | undefined {
    if (this.templateLabels.has(ref.uid)) return this.templateLabels.get(ref.uid);
    return this.resolveControllerRef(pod.metadata?.namespace, ref)?.spec?.template?.metadata?.labels;
  }

  /** Count a ReplicaSet's existing pods: when it was created before this controller started, or its template labels changed. */
  private seed(rs: ReplicaSetObject): void {
    const uid = rs.metadata?.uid ?? '';
    const labels = rs.spec?.template?.metadata?.labels;
    for (const pod of this.ctx.store.ownedBy<PodObject>('Pod', uid)) this.tally.observe(pod.metadata?.uid ?? podKey(pod), pod, uid, labels);
    this.seeded.add(uid);
  }

  // -------------------------------------------------------------------------------------------
  // Sync

  /** A failed sync is retried with back-off, without limit (unlike the deployment controller). */
  private processKey(key: string): void {
    try {
      this.syncReplicaSet(key);
      this.queue.forget(key);
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof SyncError)) throw error;
      this.queue.addRateLimited(key);
    }
  }

  /** `syncReplicaSet`: one reconciliation of the ReplicaSet named by `key` (`namespace/name`). */
  syncReplicaSet(key: string): void {
    const { namespace, name } = splitKey(key);
    const rs = this.ctx.store.get<ReplicaSetObject>(this.managed.kind, namespace, name);
    if (!rs) {
      this.expectations.delete(key);
      return;
    }
    const uid = rs.metadata?.uid ?? '';
    if (!this.seeded.has(uid)) {
      this.templateLabels.set(uid, rs.spec?.template?.metadata?.labels);
      this.seed(rs);
    }
    const needsSync = this.expectations.satisfied(key);
    this.claimPods(rs, key);
    const counts = this.tally.counts(uid);
    const availability = this.availability(rs, counts);

    let manageError: unknown;
    if (needsSync && !rs.metadata?.deletionTimestamp) {
      try {
        this.manageReplicas(rs, key, counts.active);
      } catch (error) {
        if (!(error instanceof ApiError || error instanceof SyncError)) throw error;
        manageError = error;
      }
    }

    const status = this.calculateStatus(rs, counts, availability.available, manageError);
    this.updateStatus(rs, status);
    if (manageError !== undefined) throw manageError;
    if (availability.nextAvailableAt !== undefined) this.queue.addAfter(key, availability.nextAvailableAt - this.ctx.clock.now());
  }

  /**
   * Available pods, and when the next ready-but-not-yet-available pod turns available (with
   * minReadySeconds; upstream re-syncs after minReadySeconds for the same purpose).
   */
  private availability(rs: ReplicaSetObject, counts: PodCounts): { available: number; nextAvailableAt?: number } {
    const minReady = rs.spec?.minReadySeconds ?? 0;
    if (minReady === 0 || counts.ready === 0) return { available: counts.ready };
    const now = this.ctx.clock.now();
    let available = 0;
    let next: number | undefined;
    for (const pod of this.ctx.store.ownedBy<PodObject>('Pod', rs.metadata?.uid ?? '')) {
      if (!isPodActive(pod)) continue;
      if (isPodAvailable(pod, minReady, now)) available++;
      else {
        const at = podAvailableAt(pod, minReady);
        // Available once strictly later than ready + minReadySeconds.
        if (at !== undefined && (next === undefined || at + 1 < next)) next = at + 1;
      }
    }
    return { available, nextAvailableAt: next };
  }

  /**
   * `claimPods` (ControllerRefManager.ClaimPods) for the pods that can change hands: matching
   * active orphans are adopted, and relabeled pods that no longer match are released, unless the
   * controller is being deleted. The pod informer sees each change at once, so the counts taken
   * after this include it.
   */
  private claimPods(rs: ReplicaSetObject, key: string): void {
    const relabeled = this.relabeled.get(key);
    this.relabeled.delete(key);
    if (rs.metadata?.deletionTimestamp) return;
    const namespace = rs.metadata?.namespace ?? '';
    const uid = rs.metadata?.uid ?? '';
    for (const podName of relabeled ?? []) {
      const pod = this.ctx.store.get<PodObject>('Pod', namespace, splitKey(podName).name);
      if (!pod || controllerOf(pod)?.uid !== uid || !isPodActive(pod) || this.selects(rs, pod)) continue;
      this.patchOwnerReferences(pod, (refs) => refs.filter((ref) => ref.uid !== uid));
    }
    if (this.orphans.size === 0) return;
    const prefix = `${namespace}/`;
    for (const orphan of [...this.orphans]) {
      if (!orphan.startsWith(prefix)) continue;
      const pod = this.ctx.store.get<PodObject>('Pod', namespace, orphan.slice(prefix.length));
      if (!pod || controllerOf(pod) || pod.metadata?.deletionTimestamp || !isPodActive(pod) || !this.selects(rs, pod)) continue;
      const controllerRef = newControllerRef(rs, this.managed.apiVersion, this.managed.kind);
      this.patchOwnerReferences(pod, (refs) => [...refs.filter((ref) => ref.uid !== uid), controllerRef]);
    }
  }

  /** The adopt and release patches of the pod's ownerReferences; a pod gone meanwhile is skipped, as upstream ignores NotFound. */
  private patchOwnerReferences(pod: PodObject, change: (refs: OwnerReference[]) => OwnerReference[]): void {
    try {
      this.ctx.store.mutate<PodObject>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '', (copy) => {
        const refs = change(copy.metadata?.ownerReferences ?? []);
        if (refs.length > 0) copy.metadata!.ownerReferences = refs;
        else delete copy.metadata!.ownerReferences;
      }, { fieldManager: this.managed.component });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    }
  }

  /** `manageReplicas`: create or delete pods to close the gap between active pods and spec.replicas. */
  private manageReplicas(rs: ReplicaSetObject, key: string, activePods: number): void {
    const diff = activePods - replicasOf(rs);
    if (diff < 0) {
      const toCreate = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expectCreations(key, toCreate);
      const result = slowStartBatch(toCreate, SLOW_START_INITIAL_BATCH_SIZE, () => this.createPodFromTemplate(rs));
      // Creations never attempted will never be observed.
      for (let i = result.successes; i < toCreate; i++) this.expectations.creationObserved(key);
      if (result.error !== undefined) throw result.error;
      return;
    }
    if (diff > 0) {
      const toDelete = Math.min(diff, BURST_REPLICAS);
      const uid = rs.metadata?.uid ?? '';
      const active = this.ctx.store.ownedBy<PodObject>('Pod', uid).filter(isPodActive);
      const victims = podsToDelete(active, this.relatedPods(rs), toDelete, this.ctx.clock.now());
      this.expectations.expectDeletions(key, victims.map(podKey));
      let firstError: unknown;
      for (const pod of victims) {
        const error = deletePod(this.ctx, this.managed.component, rs, pod);
        if (error === undefined) continue;
        this.expectations.deletionObserved(key, podKey(pod));
        if (!(error instanceof ApiError && error.code === 404)) firstError ??= error;
      }
      if (firstError !== undefined) throw firstError;
    }
  }

  /** `getIndirectlyRelatedPods`: pods of every ReplicaSet with the same controller (the deployment's other ReplicaSets). */
  private relatedPods(rs: ReplicaSetObject): PodObject[] {
    const owner = controllerOf(rs);
    if (!owner) return this.ctx.store.ownedBy<PodObject>('Pod', rs.metadata?.uid ?? '');
    const pods: PodObject[] = [];
    for (const sibling of this.ctx.store.ownedBy<ReplicaSetObject>(this.managed.kind, owner.uid)) {
      for (const pod of this.ctx.store.ownedBy<PodObject>('Pod', sibling.metadata?.uid ?? '')) pods.push(pod);
    }
    return pods;
  }

  /** `RealPodControl.CreatePods` with `GetPodFromTemplate`. */
  private createPodFromTemplate(rs: ReplicaSetObject): void {
    const template = rs.spec?.template ?? {};
    const labels = template.metadata?.labels;
    if (!labels || Object.keys(labels).length === 0) throw new SyncError('unable to create pods, no labels');
    const metadata: NonNullable<KubeObject['metadata']> = {
      generateName: generateNamePrefix(rs.metadata?.name ?? ''),
      namespace: rs.metadata?.namespace,
      labels: this.sharedLabels(labels),
      ownerReferences: this.sharedOwnerReferences(rs),
    };
    if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
    if (template.metadata?.finalizers) metadata.finalizers = [...template.metadata.finalizers];
    // A JSON copy of the template's spec, as GetPodFromTemplate's deep copy, sharing the template's strings.
    const pod: PodObject = { apiVersion: 'v1', kind: 'Pod', metadata, spec: cloneAsJson(template.spec ?? ({} as NonNullable<PodObject['spec']>)) };
    createPod(this.ctx, this.managed.component, rs, pod);
  }

  /**
   * The labels and controller reference every pod of a ReplicaSet carries: one frozen instance
   * per ReplicaSet instead of a copy per pod (stored objects are read-only).
   */
  private sharedLabels(labels: Record<string, string>): Record<string, string> {
    let shared = this.podLabels.get(labels);
    if (!shared) this.podLabels.set(labels, (shared = Object.freeze({ ...labels })));
    return shared;
  }

  private sharedOwnerReferences(rs: ReplicaSetObject): OwnerReference[] {
    const uid = rs.metadata?.uid ?? '';
    let refs = this.podOwnerReferences.get(uid);
    if (!refs || refs[0].name !== (rs.metadata?.name ?? '')) {
      refs = Object.freeze([Object.freeze(newControllerRef(rs, this.managed.apiVersion, this.managed.kind))]) as OwnerReference[];
      this.podOwnerReferences.set(uid, refs);
    }
    return refs;
  }

  /** `calculateStatus`, from the counts taken before this sync created or deleted anything. */
  private calculateStatus(rs: ReplicaSetObject, counts: PodCounts, available: number, manageError: unknown): ReplicaSetStatus {
    let conditions = rs.status?.conditions;
    const failure = conditions?.find((c) => c.type === 'ReplicaFailure');
    if (manageError !== undefined && !failure) {
      const diff = counts.active - replicasOf(rs);
      const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
      const condition: ReplicaSetCondition = { type: 'ReplicaFailure', status: 'True', lastTransitionTime: rfc3339(this.ctx.clock.now()), reason, message: errorMessage(manageError) };
      conditions = [...(conditions ?? []), condition];
    } else if (manageError === undefined && failure) {
      conditions = conditions!.filter((c) => c.type !== 'ReplicaFailure');
    }
    // Field order and omissions as the API serializes ReplicaSetStatus (`replicas` is not omitempty).
    const status: ReplicaSetStatus = { replicas: counts.active };
    if (counts.fullyLabeled) status.fullyLabeledReplicas = counts.fullyLabeled;
    if (counts.ready) status.readyReplicas = counts.ready;
    if (available) status.availableReplicas = available;
    if (rs.status?.observedGeneration) status.observedGeneration = rs.status.observedGeneration;
    if (conditions && conditions.length > 0) status.conditions = conditions;
    return status;
  }

  /** `updateReplicaSetStatus`: write only when a count, a condition or the observed generation changed. */
  private updateStatus(rs: ReplicaSetObject, status: ReplicaSetStatus): void {
    const current: Partial<ReplicaSetStatus> = rs.status ?? {};
    const generation = rs.metadata?.generation;
    if (
      (current.replicas ?? 0) === status.replicas &&
      (current.fullyLabeledReplicas ?? 0) === (status.fullyLabeledReplicas ?? 0) &&
      (current.readyReplicas ?? 0) === (status.readyReplicas ?? 0) &&
      (current.availableReplicas ?? 0) === (status.availableReplicas ?? 0) &&
      generation === current.observedGeneration &&
      deepEqual(current.conditions, status.conditions)
    ) {
      return;
    }
    const next: ReplicaSetStatus = { ...status, observedGeneration: generation };
    const ordered: ReplicaSetStatus = { replicas: next.replicas, fullyLabeledReplicas: next.fullyLabeledReplicas, readyReplicas: next.readyReplicas, availableReplicas: next.availableReplicas, observedGeneration: next.observedGeneration, conditions: next.conditions };
    for (const field of Object.keys(ordered) as (keyof ReplicaSetStatus)[]) if (ordered[field] === undefined) delete ordered[field];
    this.ctx.store.mutate<ReplicaSetObject>(this.managed.kind, rs.metadata?.namespace, rs.metadata?.name ?? '', (copy) => {
      (copy as KubeObject).status = ordered;
    }, { fieldManager: this.managed.component, subresource: 'status' });
  }
}
