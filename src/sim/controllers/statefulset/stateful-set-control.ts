/**
 * `defaultStatefulSetControl` (pkg/controller/statefulset/stateful_set_control.go): one pass over
 * a StatefulSet's pods. OrderedReady ("monotonic") creates pods in ordinal order and stops at the
 * first pod that is not Running, Ready and Available — the next pod is simply not created yet —
 * and deletes in reverse ordinal order, one at a time. Parallel creates and deletes all at once.
 * A rolling update deletes the highest-ordinal pod not at the update revision, down to the
 * partition, waiting for each replacement to be available; OnDelete leaves that to the user.
 *
 * Not simulated: the MaxUnavailableStatefulSet alpha gate (off by default in 1.32: updates go one
 * pod at a time), and adoption of orphan revisions.
 */
import type { SimContext } from '../../context';
import { ApiError } from '../../store/types';
import type { PodObject } from '../controller-types';
import { ControllerHistory, findEqualRevisions, equalRevision, nextRevision, sortControllerRevisions, type ControllerRevisionObject } from '../history/controller-history';
import { AggregateError, COMPONENT, isSyncFailure, StatefulPodControl } from './stateful-pod-control';
import { StatefulSetStatusUpdater } from './stateful-set-status-updater';
import {
  allowsBurst,
  applyRevision,
  byDescendingOrdinal,
  completeRollingUpdate,
  getOrdinal,
  getPodRevision,
  getStartOrdinal,
  getEndOrdinal,
  identityMatches,
  inconsistentStatus,
  isCreated,
  isFailed,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  isUnavailable,
  newRevision,
  newVersionedStatefulSetPod,
  podInOrdinalRange,
  replicasOf,
  storageMatches,
  type StatefulSetObject,
  type StatefulSetStatus,
} from './stateful-set-utils';

/** A step's verdict: stop this pass (`true`), and the error to report. */
type StepResult = { exit: boolean; error?: unknown };

const CONTINUE: StepResult = { exit: false };
const EXIT: StepResult = { exit: true };

export class DefaultStatefulSetControl {
  readonly podControl: StatefulPodControl;
  readonly history: ControllerHistory;
  private readonly statusUpdater: StatefulSetStatusUpdater;

  constructor(private readonly ctx: SimContext) {
    this.podControl = new StatefulPodControl(ctx);
    this.history = new ControllerHistory(ctx.store, COMPONENT);
    this.statusUpdater = new StatefulSetStatusUpdater(ctx.store, COMPONENT);
  }

  /** `UpdateStatefulSet`: the pass, then the revision history limit. Throws what upstream returns as an error. */
  updateStatefulSet(set: StatefulSetObject, pods: PodObject[]): StatefulSetStatus | undefined {
    const revisions = sortControllerRevisions(this.history.listControllerRevisions(set));
    const result = this.performUpdate(set, pods, revisions);
    const historyError = this.truncateHistory(set, pods, revisions, result.currentRevision, result.updateRevision);
    if (result.error !== undefined) throw historyError === undefined ? result.error : new AggregateError([result.error, historyError]);
    if (historyError !== undefined) throw historyError;
    return result.status;
  }

  private performUpdate(
    set: StatefulSetObject,
    pods: PodObject[],
    revisions: ControllerRevisionObject[],
  ): { currentRevision?: ControllerRevisionObject; updateRevision?: ControllerRevisionObject; status?: StatefulSetStatus; error?: unknown } {
    let revisionsOfSet: { current: ControllerRevisionObject; update: ControllerRevisionObject; collisionCount: number };
    try {
      revisionsOfSet = this.getStatefulSetRevisions(set, revisions);
    } catch (error) {
      if (!isSyncFailure(error)) throw error;
      return { error };
    }
    const { current, update, collisionCount } = revisionsOfSet;
    const { status, error } = this.updateStatefulSetPods(set, current, update, collisionCount, pods);
    let statusError: unknown;
    try {
      this.updateStatefulSetStatus(set, status);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      statusError = e;
    }
    return { currentRevision: current, updateRevision: update, status, error: error ?? statusError };
  }

  /**
   * `truncateHistory`: delete the oldest revisions that no pod uses and that are neither current
   * nor the update revision, down to revisionHistoryLimit.
   */
  private truncateHistory(set: StatefulSetObject, pods: PodObject[], revisions: ControllerRevisionObject[], current?: ControllerRevisionObject, update?: ControllerRevisionObject): unknown {
    const live = new Set<string>();
    if (current) live.add(current.metadata?.name ?? '');
    if (update) live.add(update.metadata?.name ?? '');
    for (const pod of pods) live.add(getPodRevision(pod));
    const history = revisions.filter((revision) => !live.has(revision.metadata?.name ?? ''));
    const limit = set.spec?.revisionHistoryLimit ?? 10;
    if (limit < 0 || history.length <= limit) return undefined;
    try {
      for (const revision of history.slice(0, history.length - limit)) this.history.deleteControllerRevision(revision);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return error;
    }
    return undefined;
  }

  /**
   * `getStatefulSetRevisions`: the update revision is the set's template now (an existing equal
   * revision is reused, renumbered when it is not the latest: a rollback); the current revision is
   * the one status names, or the update revision for a new set.
   */
  private getStatefulSetRevisions(set: StatefulSetObject, revisions: ControllerRevisionObject[]): { current: ControllerRevisionObject; update: ControllerRevisionObject; collisionCount: number } {
    const collisionCount = { value: set.status?.collisionCount ?? 0 };
    let update = newRevision(set, nextRevision(revisions), collisionCount.value);
    const equal = findEqualRevisions(revisions, update);
    if (equal.length > 0 && equalRevision(revisions[revisions.length - 1], equal[equal.length - 1])) {
      update = revisions[revisions.length - 1];
    } else if (equal.length > 0) {
      update = this.history.updateControllerRevision(equal[equal.length - 1], update.revision);
    } else {
      update = this.history.createControllerRevision(set, update, collisionCount);
    }
    const current = revisions.find((revision) => revision.metadata?.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount: collisionCount.value };
  }

  /** `updateStatus` / `computeReplicaStatus`: the counts over every pod list. */
  private countReplicas(status: StatefulSetStatus, minReadySeconds: number, current: ControllerRevisionObject, update: ControllerRevisionObject, ...podLists: PodObject[][]): void {
    const now = this.ctx.clock.now();
    status.replicas = 0;
    status.readyReplicas = 0;
    status.availableReplicas = 0;
    status.currentReplicas = 0;
    status.updatedReplicas = 0;
    for (const list of podLists) {
      for (const pod of list) {
        if (isCreated(pod)) status.replicas++;
        if (isRunningAndReady(pod)) {
          status.readyReplicas++;
          if (isRunningAndAvailable(pod, minReadySeconds, now)) status.availableReplicas++;
        }
        if (isCreated(pod) && !isTerminating(pod)) {
          const revision = getPodRevision(pod);
          if (revision === current.metadata?.name) status.currentReplicas++;
          if (revision === update.metadata?.name) status.updatedReplicas++;
        }
      }
    }
  }

  /** `processReplica`: bring the replica with index `i` into being and in line; `exit` stops an ordered pass. */
  private processReplica(set: StatefulSetObject, updateSet: StatefulSetObject, monotonic: boolean, replicas: PodObject[], i: number): StepResult {
    const replica = replicas[i];
    const minReadySeconds = set.spec?.minReadySeconds ?? 0;
    try {
      // A failed or succeeded pod is deleted, and recreated once it is gone.
      if (isFailed(replica) || isSucceeded(replica)) {
        if (!replica.metadata?.deletionTimestamp) this.podControl.deleteStatefulPod(set, replica);
        return EXIT;
      }
      if (!isCreated(replica)) {
        // A claim still owned by a previous pod of this ordinal: wait for it to be collected.
        if (this.podControl.podClaimIsStale(set, replica)) return EXIT;
        this.podControl.createStatefulPod(set, replica);
        if (monotonic) return EXIT;
      }
      if (isPending(replica)) this.podControl.createMissingPersistentVolumeClaims(set, replica);
      // OrderedReady: a terminating, unready or unavailable pod blocks every pod after it.
      if (isTerminating(replica) && monotonic) return EXIT;
      if (!isRunningAndReady(replica) && monotonic) return EXIT;
      if (!isRunningAndAvailable(replica, minReadySeconds, this.ctx.clock.now()) && monotonic) return EXIT;
      let retentionMatch = true;
      try {
        retentionMatch = this.podControl.claimsMatchRetentionPolicy(updateSet, replica);
      } catch {
        retentionMatch = true;
      }
      if (identityMatches(set, replica) && storageMatches(set, replica) && retentionMatch) return CONTINUE;
      this.podControl.updateStatefulPod(updateSet, replica);
      return CONTINUE;
    } catch (error) {
      if (!isSyncFailure(error)) throw error;
      return { exit: true, error };
    }
  }

  /** `processCondemned`: delete a pod beyond the ordinal range; ordered deletion waits for the others to be healthy. */
  private processCondemned(set: StatefulSetObject, firstUnhealthyPod: PodObject | undefined, monotonic: boolean, condemned: PodObject[], i: number): StepResult {
    const pod = condemned[i];
    const minReadySeconds = set.spec?.minReadySeconds ?? 0;
    if (isTerminating(pod)) return monotonic ? EXIT : CONTINUE;
    if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthyPod) return EXIT;
    if (!isRunningAndAvailable(pod, minReadySeconds, this.ctx.clock.now()) && monotonic && pod !== firstUnhealthyPod) return EXIT;
    try {
      this.podControl.deleteStatefulPod(set, pod);
    } catch (error) {
      if (!isSyncFailure(error)) throw error;
      return { exit: true, error };
    }
    return EXIT;
  }

  /**
   * `runForAll`: ordered, stop at the first step that says so; parallel, every step in slow-start
   * batches (1, 2, 4, …) until a batch has an error.
   */
  private runForAll(pods: PodObject[], step: (i: number) => StepResult, monotonic: boolean): StepResult {
    if (monotonic) {
      for (let i = 0; i < pods.length; i++) {
        const result = step(i);
        if (result.exit || result.error !== undefined) return { exit: true, error: result.error };
      }
      return CONTINUE;
    }
    let next = 0;
    for (let batch = Math.min(pods.length, 1); batch > 0; batch = Math.min(2 * batch, pods.length - next)) {
      const errors: unknown[] = [];
      for (let k = 0; k < batch; k++) {
        const result = step(next++);
        if (result.error !== undefined) errors.push(result.error);
      }
      if (errors.length > 0) return { exit: true, error: new AggregateError(errors) };
    }
    return CONTINUE;
  }

  /** `updateStatefulSet` (the inner one): create, fix, delete and update pods; returns the status to write. */
  private updateStatefulSetPods(
    set: StatefulSetObject,
    currentRevision: ControllerRevisionObject,
    updateRevision: ControllerRevisionObject,
    collisionCount: number,
    pods: PodObject[],
  ): { status: StatefulSetStatus; error?: unknown } {
    const currentSet = applyRevision(set, currentRevision);
    const updateSet = applyRevision(set, updateRevision);
    const minReadySeconds = set.spec?.minReadySeconds ?? 0;
    const now = this.ctx.clock.now();
    const status: StatefulSetStatus = {
      observedGeneration: set.metadata?.generation,
      replicas: 0,
      currentRevision: currentRevision.metadata?.name,
      updateRevision: updateRevision.metadata?.name,
      collisionCount,
    };
    this.countReplicas(status, minReadySeconds, currentRevision, updateRevision, pods);

    const start = getStartOrdinal(set);
    const end = getEndOrdinal(set);
    const replicas: (PodObject | undefined)[] = new Array(Math.max(0, replicasOf(set))).fill(undefined);
    const condemned: PodObject[] = [];
    for (const pod of pods) {
      if (podInOrdinalRange(pod, set)) replicas[getOrdinal(pod) - start] = pod;
      else if (getOrdinal(pod) >= 0) condemned.push(pod);
    }
    for (let ordinal = start; ordinal <= end; ordinal++) {
      if (!replicas[ordinal - start]) replicas[ordinal - start] = newVersionedStatefulSetPod(currentSet, updateSet, currentRevision.metadata?.name ?? '', updateRevision.metadata?.name ?? '', ordinal);
    }
    const fullReplicas = replicas as PodObject[];
    condemned.sort(byDescendingOrdinal);

    let firstUnavailablePod: PodObject | undefined;
    for (const pod of fullReplicas) if (!firstUnavailablePod && isUnavailable(pod, minReadySeconds, now)) firstUnavailablePod = pod;
    for (let i = condemned.length - 1; i >= 0; i--) if (!firstUnavailablePod && isUnavailable(condemned[i], minReadySeconds, now)) firstUnavailablePod = condemned[i];

    if (set.metadata?.deletionTimestamp) return { status };

    const monotonic = !allowsBurst(set);
    const recount = (): void => this.countReplicas(status, minReadySeconds, currentRevision, updateRevision, fullReplicas, condemned);

    let result = this.runForAll(fullReplicas, (i) => this.processReplica(set, updateSet, monotonic, fullReplicas, i), monotonic);
    if (result.exit || result.error !== undefined) {
      recount();
      return { status, error: result.error };
    }

    // Condemned pods' claims get the owner references whenScaled asks for before the pods go.
    result = this.runForAll(condemned, (i) => {
      try {
        if (!this.podControl.claimsMatchRetentionPolicy(updateSet, condemned[i])) this.podControl.updatePodClaimForRetentionPolicy(updateSet, condemned[i]);
        return CONTINUE;
      } catch (error) {
        if (!isSyncFailure(error)) throw error;
        return { exit: true, error };
      }
    }, monotonic);
    if (result.exit || result.error !== undefined) {
      recount();
      return { status, error: result.error };
    }

    result = this.runForAll(condemned, (i) => this.processCondemned(set, firstUnavailablePod, monotonic, condemned, i), monotonic);
    if (result.exit || result.error !== undefined) {
      recount();
      return { status, error: result.error };
    }
    recount();

    if (set.spec?.updateStrategy?.type === 'OnDelete') return { status };

    const updateMin = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let target = fullReplicas.length - 1; target >= updateMin; target--) {
      const pod = fullReplicas[target];
      if (getPodRevision(pod) !== updateRevision.metadata?.name && !isTerminating(pod)) {
        let error: unknown;
        try {
          this.podControl.deleteStatefulPod(set, pod);
        } catch (e) {
          if (!isSyncFailure(e)) throw e;
          if (!(e instanceof ApiError && e.code === 404)) error = e;
        }
        status.currentReplicas = (status.currentReplicas ?? 0) - 1;
        return { status, error };
      }
      if (isUnavailable(pod, minReadySeconds, now)) return { status };
    }
    return { status };
  }

  /** `updateStatefulSetStatus`: complete a finished rolling update, and write only a changed status. */
  private updateStatefulSetStatus(set: StatefulSetObject, status: StatefulSetStatus): void {
    completeRollingUpdate(set, status);
    if (!inconsistentStatus(set, status)) return;
    this.statusUpdater.updateStatefulSetStatus(set, status);
  }
}
