/**
 * The DaemonSet controller (kubernetes pkg/controller/daemon/daemon_controller.go): one pod per
 * node that the DaemonSet's template may run on (node selector, required node affinity, taints
 * against the template's tolerations plus the daemon tolerations). Pods are created with a
 * `matchFields metadata.name` node affinity and bound by the default scheduler, as upstream does
 * since 1.12; creations go in slow-start batches of at most 250 per sync; rolling updates and
 * revision history are in update.ts.
 *
 * Not simulated: adoption and release of pods or revisions by label (only controller references
 * count). A deleted node wakes every DaemonSet at once (upstream waits for the pod GC to delete the
 * pods bound there, see controllers/podgc).
 */
import type { KubeObject, Node, OwnerReference, Toleration } from '../../../core/k8s';
import { informer, objectKey, splitKey, type SimContext } from '../../context';
import { findUntoleratedTaint } from '../../scheduler/tolerations';
import { anyTermMatches, compileTerm, type CompiledTerm } from '../../scheduler/node-selector';
import { cloneAsJson, deepEqual } from '../../../common/json';
import { ApiError, type StoreChange } from '../../store/types';
import { controllerOf, newControllerRef, SyncError, type PodObject, type PodTemplateSpec } from '../controller-types';
import { recordEvent } from '../controller-events';
import { createPod, deletePod } from '../pod-control';
import { ControllerHistory, POD_REVISION_LABEL } from '../history/controller-history';
import { isPodAvailable, isPodReady } from '../pod-util';
import { ControllerExpectations, ControllerQueue, SLOW_START_INITIAL_BATCH_SIZE, slowStartBatchSizes } from '../work-scheduling';
import { cleanupHistory, constructHistory, rollingUpdate, type DaemonSetControl } from './update';
import {
  allowsSurge,
  createPodTemplate,
  daemonPodTolerations,
  getTargetNodeName,
  getTemplateGeneration,
  isPodUpdated,
  replaceDaemonSetPodNodeNameNodeAffinity,
  type DaemonSetObject,
} from './util/daemonset-util';

export const COMPONENT = 'daemonset-controller';
/** `BurstReplicas`: the most pods created or deleted in one sync. */
export const BURST_REPLICAS = 250;
/** kube-controller-manager's failed-pods back-off: 1 s, doubling, at most 15 min. */
const FAILED_PODS_BACKOFF_INITIAL_MS = 1000;
const FAILED_PODS_BACKOFF_MAX_MS = 15 * 60 * 1000;

type NodeObject = Node & KubeObject;

export interface ShouldRun {
  /** The node should run a daemon pod if it has none. */
  shouldRun: boolean;
  /** A daemon pod already on the node may stay (it tolerates every NoExecute taint). */
  shouldContinueRunning: boolean;
}

/** What `nodeShouldRunDaemonPod` reads from a DaemonSet's template, compiled once per template. */
interface DaemonPodPlacement {
  nodeName: string;
  nodeSelector: [string, string][];
  requiredTerms: CompiledTerm[] | undefined;
  tolerations: Toleration[];
}

function placementOf(template: PodTemplateSpec | undefined): DaemonPodPlacement {
  const spec = template?.spec;
  const required = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return {
    nodeName: spec?.nodeName ?? '',
    nodeSelector: Object.entries(spec?.nodeSelector ?? {}),
    requiredTerms: required ? (required.nodeSelectorTerms ?? []).map(compileTerm) : undefined,
    tolerations: daemonPodTolerations(spec),
  };
}

// Shared answers: the verdict is read for every node on every sync.
const RUN: ShouldRun = Object.freeze({ shouldRun: true, shouldContinueRunning: true });
const DO_NOT_RUN: ShouldRun = Object.freeze({ shouldRun: false, shouldContinueRunning: false });
const ONLY_CONTINUE: ShouldRun = Object.freeze({ shouldRun: false, shouldContinueRunning: true });

const isHardEffect = (effect: string): boolean => effect === 'NoSchedule' || effect === 'NoExecute';
const isNoExecute = (effect: string): boolean => effect === 'NoExecute';

/**
 * `NodeShouldRunDaemonPod`: the template's node name, node selector and required node affinity
 * must match; an untolerated NoSchedule/NoExecute taint stops new pods, and only an untolerated
 * NoExecute taint evicts a running one.
 */
function shouldRunOn(placement: DaemonPodPlacement, node: NodeObject): ShouldRun {
  const name = node.metadata?.name ?? '';
  if (placement.nodeName !== '' && placement.nodeName !== name) return DO_NOT_RUN;
  const labels = node.metadata?.labels ?? {};
  for (const [key, value] of placement.nodeSelector) if (labels[key] !== value) return DO_NOT_RUN;
  if (placement.requiredTerms !== undefined && !anyTermMatches(placement.requiredTerms, { name, labels })) return DO_NOT_RUN;
  const taints = node.spec?.taints ?? [];
  if (taints.length === 0 || !findUntoleratedTaint(taints, placement.tolerations, isHardEffect)) return RUN;
  return findUntoleratedTaint(taints, placement.tolerations, isNoExecute) ? DO_NOT_RUN : ONLY_CONTINUE;
}

/** `podByCreationTimestampAndPhase`: bound pods first, then oldest first, then by name. */
export function compareDaemonPods(a: PodObject, b: PodObject): number {
  const aBound = Boolean(a.spec?.nodeName);
  const bBound = Boolean(b.spec?.nodeName);
  if (aBound !== bBound) return aBound ? -1 : 1;
  const aTime = a.metadata?.creationTimestamp ?? '';
  const bTime = b.metadata?.creationTimestamp ?? '';
  if (aTime === bTime) return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
  return aTime < bTime ? -1 : 1;
}

/** Neither being deleted nor terminated: the common case, with nothing to do for its node. */
function isRunningDaemonPod(pod: PodObject): boolean {
  return !pod.metadata?.deletionTimestamp && pod.status?.phase !== 'Failed' && pod.status?.phase !== 'Succeeded';
}

function podKey(pod: PodObject): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

function isPodTerminal(pod: PodObject): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** `flowcontrol.Backoff` for failed daemon pods, per DaemonSet generation and node. */
class FailedPodsBackoff {
  private readonly entries = new Map<string, { delay: number; lastUpdate: number }>();

  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && now - entry.lastUpdate < entry.delay;
  }

  next(key: string, now: number): void {
    const entry = this.entries.get(key);
    if (!entry || now - entry.lastUpdate > 2 * FAILED_PODS_BACKOFF_MAX_MS) this.entries.set(key, { delay: FAILED_PODS_BACKOFF_INITIAL_MS, lastUpdate: now });
    else this.entries.set(key, { delay: Math.min(entry.delay * 2, FAILED_PODS_BACKOFF_MAX_MS), lastUpdate: now });
  }

  get(key: string): number {
    return this.entries.get(key)?.delay ?? 0;
  }
}

export class DaemonSetsController implements DaemonSetControl {
  readonly component = COMPONENT;
  readonly history: ControllerHistory;
  private readonly queue: ControllerQueue;
  readonly expectations: ControllerExpectations;
  private readonly failedPodsBackoff = new FailedPodsBackoff();
  /** DaemonSet uid → its template and what placement reads from it. */
  private readonly placements = new Map<string, { template: PodTemplateSpec | undefined; placement: DaemonPodPlacement }>();
  /** DaemonSet uid → a count of changes to its pods, so `getNodesToDaemonPods` can reuse its last answer. */
  private readonly podVersions = new Map<string, number>();
  private readonly nodeToDaemonPodsCache = new Map<string, { version: number; includeDeletedTerminal: boolean; byNode: ReadonlyMap<string, readonly PodObject[]> }>();
  /** DaemonSet uid → the frozen ownerReferences its pods get. */
  private readonly podOwnerReferences = new Map<string, OwnerReference[]>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(readonly ctx: SimContext) {
    this.queue = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.processKey(key));
    this.expectations = new ControllerExpectations(ctx.clock);
    this.history = new ControllerHistory(ctx.store, COMPONENT);
  }

  start(): void {
    this.unsubscribe.push(
      informer(this.ctx, COMPONENT, 'DaemonSet', (change) => this.onDaemonSet(change)),
      informer(this.ctx, COMPONENT, 'ControllerRevision', (change) => this.onHistory(change)),
      informer(this.ctx, COMPONENT, 'Pod', (change) => this.onPod(change)),
      informer(this.ctx, COMPONENT, 'Node', (change) => this.onNode(change)),
    );
    for (const ds of this.daemonSets()) this.queue.add(objectKey(ds));
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  // -------------------------------------------------------------------------------------------
  // Informer handlers

  private daemonSets(): DaemonSetObject[] {
    return this.ctx.store.list<DaemonSetObject>('DaemonSet').items;
  }

  private onDaemonSet(change: StoreChange): void {
    const ds = change.object as DaemonSetObject;
    const key = objectKey(ds);
    if (change.type === 'DELETED') {
      const uid = ds.metadata?.uid ?? '';
      this.placements.delete(uid);
      this.podOwnerReferences.delete(uid);
      this.podVersions.delete(uid);
      this.nodeToDaemonPodsCache.delete(uid);
      this.expectations.delete(key);
    }
    this.queue.add(key);
  }

  /** `addHistory` / `updateHistory` / `deleteHistory`: a revision's owner re-syncs (a new one with a controller ref needs nothing). */
  private onHistory(change: StoreChange): void {
    if (change.type === 'ADDED' && !change.object.metadata?.deletionTimestamp) return;
    const previousRef = controllerOf(change.previous);
    const ref = controllerOf(change.object);
    if (previousRef && previousRef.uid !== ref?.uid) this.enqueueOwner(change.previous?.metadata?.namespace, previousRef);
    this.enqueueOwner(change.object.metadata?.namespace, ref);
  }

  private onPod(change: StoreChange): void {
    const pod = change.object as PodObject;
    const previous = change.previous as PodObject | undefined;
    this.podChanged(controllerOf(pod));
    if (previous) this.podChanged(controllerOf(previous));
    if (change.type === 'DELETED' || pod.metadata?.deletionTimestamp) {
      this.podGone(pod);
      return;
    }
    const ref = controllerOf(pod);
    if (change.type === 'ADDED') {
      const ds = this.resolveControllerRef(pod.metadata?.namespace, ref);
      if (!ds) return;
      const key = objectKey(ds);
      this.expectations.creationObserved(key);
      this.queue.add(key);
      return;
    }
    const oldRef = controllerOf(previous);
    if (oldRef && oldRef.uid !== ref?.uid) this.enqueueOwner(previous?.metadata?.namespace, oldRef);
    const ds = this.resolveControllerRef(pod.metadata?.namespace, ref);
    if (!ds) return;
    const key = objectKey(ds);
    this.queue.add(key);
    const minReady = ds.spec?.minReadySeconds ?? 0;
    // One more second, as upstream, against rounding in AddAfter.
    if (minReady > 0 && previous && !isPodReady(previous) && isPodReady(pod)) this.queue.addAfter(key, minReady * 1000 + 1000);
  }

  private podChanged(ref: OwnerReference | undefined): void {
    if (ref?.kind === 'DaemonSet') this.podVersions.set(ref.uid, (this.podVersions.get(ref.uid) ?? 0) + 1);
  }

  /** `deletePod`: a pod that is gone or going satisfies a deletion expectation and wakes its owner. */
  private podGone(pod: PodObject): void {
    const ds = this.resolveControllerRef(pod.metadata?.namespace, controllerOf(pod));
    if (!ds) return;
    const key = objectKey(ds);
    this.expectations.deletionObserved(key, podKey(pod));
    this.queue.add(key);
  }

  /**
   * `addNode` / `updateNode`: a new node wakes the DaemonSets that should run on it; a changed one
   * those whose verdict changed (condition-only changes are ignored). A deleted node wakes every
   * DaemonSet (upstream waits for the pod GC's deletions instead).
   */
  private onNode(change: StoreChange): void {
    const node = change.object as NodeObject;
    const previous = change.previous as NodeObject | undefined;
    if (change.type === 'MODIFIED' && previous && this.shouldIgnoreNodeUpdate(previous, node)) return;
    for (const ds of this.daemonSets()) {
      const now = this.nodeShouldRunDaemonPod(node, ds);
      if (change.type === 'DELETED') this.queue.add(objectKey(ds));
      else if (change.type === 'ADDED' || !previous) {
        if (now.shouldRun) this.queue.add(objectKey(ds));
      } else {
        const before = this.nodeShouldRunDaemonPod(previous, ds);
        if (before.shouldRun !== now.shouldRun || before.shouldContinueRunning !== now.shouldContinueRunning) this.queue.add(objectKey(ds));
      }
    }
  }

  /** `shouldIgnoreNodeUpdate`: the same true conditions and nothing else changed but status. */
  private shouldIgnoreNodeUpdate(previous: NodeObject, node: NodeObject): boolean {
    const trueTypes = (n: NodeObject): string => (n.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type).sort().join(',');
    if (trueTypes(previous) !== trueTypes(node)) return false;
    return previous.spec === node.spec || deepEqual(previous.spec, node.spec) ? deepEqual(previous.metadata?.labels, node.metadata?.labels) : false;
  }

  private enqueueOwner(namespace: string | undefined, ref: OwnerReference | undefined): void {
    const ds = this.resolveControllerRef(namespace, ref);
    if (ds) this.queue.add(objectKey(ds));
  }

  private resolveControllerRef(namespace: string | undefined, ref: OwnerReference | undefined): DaemonSetObject | undefined {
    if (!ref || ref.kind !== 'DaemonSet') return undefined;
    const ds = this.ctx.store.get<DaemonSetObject>('DaemonSet', namespace, ref.name);
    return ds && ds.metadata?.uid === ref.uid ? ds : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Placement

  /** `NodeShouldRunDaemonPod`, with the template's selector, affinity and tolerations compiled once. */
  nodeShouldRunDaemonPod(node: NodeObject, ds: DaemonSetObject): ShouldRun {
    const uid = ds.metadata?.uid ?? '';
    const template = ds.spec?.template;
    let cached = this.placements.get(uid);
    if (!cached || cached.template !== template) this.placements.set(uid, (cached = { template, placement: placementOf(template) }));
    return shouldRunOn(cached.placement, node);
  }

  /**
   * `getNodesToDaemonPods`: the DaemonSet's pods by the node they run on or are pinned to. Read-only:
   * the answer is reused until one of the DaemonSet's pods changes (a sync reads it up to three times).
   */
  getNodesToDaemonPods(ds: DaemonSetObject, includeDeletedTerminal: boolean): ReadonlyMap<string, readonly PodObject[]> {
    const uid = ds.metadata?.uid ?? '';
    const version = this.podVersions.get(uid) ?? 0;
    const cached = this.nodeToDaemonPodsCache.get(uid);
    if (cached && cached.version === version && cached.includeDeletedTerminal === includeDeletedTerminal) return cached.byNode;
    const byNode = new Map<string, PodObject[]>();
    for (const pod of this.ctx.store.ownedBy<PodObject>('Pod', ds.metadata?.uid ?? '')) {
      if (!includeDeletedTerminal && isPodTerminal(pod) && pod.metadata?.deletionTimestamp) continue;
      const nodeName = getTargetNodeName(pod);
      if (nodeName === undefined) continue;
      const pods = byNode.get(nodeName);
      if (pods) pods.push(pod);
      else byNode.set(nodeName, [pod]);
    }
    this.nodeToDaemonPodsCache.set(uid, { version, includeDeletedTerminal, byNode });
    return byNode;
  }

  // -------------------------------------------------------------------------------------------
  // Sync

  /** A failed sync is retried with back-off, without limit. */
  private processKey(key: string): void {
    try {
      this.syncDaemonSet(key);
      this.queue.forget(key);
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof SyncError)) throw error;
      this.queue.addRateLimited(key);
    }
  }

  /** `syncDaemonSet`: one reconciliation of the DaemonSet named by `key` (`namespace/name`). */
  syncDaemonSet(key: string): void {
    const { namespace, name } = splitKey(key);
    const ds = this.ctx.store.get<DaemonSetObject>('DaemonSet', namespace, name);
    if (!ds) {
      this.expectations.delete(key);
      return;
    }
    const nodes = this.ctx.store.list<NodeObject>('Node').items;
    const selector = ds.spec?.selector;
    if (selector && Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0) {
      recordEvent(this.ctx, COMPONENT, ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
      return;
    }
    // The revisions of a DaemonSet being deleted may be gone already: its status cannot be trusted.
    if (ds.metadata?.deletionTimestamp) return;
    const { current, old } = constructHistory(this, ds);
    const hash = current.metadata?.labels?.[POD_REVISION_LABEL] ?? '';
    if (!this.expectations.satisfied(key)) {
      this.updateDaemonSetStatus(ds, nodes, hash, false);
      return;
    }
    let updateError: unknown;
    try {
      this.updateDaemonSet(ds, nodes, hash, key, old);
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof SyncError)) throw error;
      updateError = error;
    }
    this.updateDaemonSetStatus(ds, nodes, hash, true);
    if (updateError !== undefined) throw updateError;
  }

  private updateDaemonSet(ds: DaemonSetObject, nodes: NodeObject[], hash: string, key: string, old: ReturnType<typeof constructHistory>['old']): void {
    this.manage(ds, nodes, hash);
    if (this.expectations.satisfied(key) && ds.spec?.updateStrategy?.type === 'RollingUpdate') rollingUpdate(this, ds, nodes, hash);
    cleanupHistory(this, ds, old);
  }

  /** `manage`: create the missing daemon pods and delete the ones that should not be where they are. */
  private manage(ds: DaemonSetObject, nodes: NodeObject[], hash: string): void {
    const nodeToDaemonPods = this.getNodesToDaemonPods(ds, false);
    const nodesNeedingDaemonPods: string[] = [];
    const podsToDelete: PodObject[] = [];
    const surge = allowsSurge(ds);
    for (const node of nodes) this.podsShouldBeOnNode(node, nodeToDaemonPods, ds, hash, surge, nodesNeedingDaemonPods, podsToDelete);
    // Pending pods pinned to a node that no longer exists: nothing else would ever remove them.
    for (const [nodeName, pods] of nodeToDaemonPods) {
      for (const pod of pods) if (!pod.spec?.nodeName && !this.ctx.store.get('Node', undefined, nodeName)) podsToDelete.push(pod);
    }
    this.syncNodes(ds, podsToDelete, nodesNeedingDaemonPods, hash);
  }

  /** `podsShouldBeOnNode`: what to create on and delete from one node. */
  private podsShouldBeOnNode(node: NodeObject, nodeToDaemonPods: ReadonlyMap<string, readonly PodObject[]>, ds: DaemonSetObject, hash: string, surge: boolean, create: string[], remove: PodObject[]): void {
    const nodeName = node.metadata?.name ?? '';
    const { shouldRun, shouldContinueRunning } = this.nodeShouldRunDaemonPod(node, ds);
    const daemonPods = nodeToDaemonPods.get(nodeName);
    if (shouldRun && !daemonPods) {
      create.push(nodeName);
      return;
    }
    if (shouldContinueRunning && !surge && daemonPods?.length === 1 && isRunningDaemonPod(daemonPods[0])) return;
    if (!shouldContinueRunning) {
      for (const pod of daemonPods ?? []) if (!pod.metadata?.deletionTimestamp) remove.push(pod);
      return;
    }
    const running: PodObject[] = [];
    for (const pod of daemonPods ?? []) {
      if (pod.metadata?.deletionTimestamp) continue;
      if (pod.status?.phase === 'Failed') {
        // The kubelet may keep rejecting the pod: back off before killing it again.
        const backoffKey = `${ds.metadata?.uid ?? ''}/${ds.status?.observedGeneration ?? 0}/${nodeName}`;
        const now = this.ctx.clock.now();
        if (this.failedPodsBackoff.isInBackOffSinceUpdate(backoffKey, now)) {
          this.queue.addAfter(objectKey(ds), this.failedPodsBackoff.get(backoffKey));
          continue;
        }
        this.failedPodsBackoff.next(backoffKey, now);
        recordEvent(this.ctx, COMPONENT, ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} on node ${nodeName}, will try to kill it`);
        remove.push(pod);
      } else if (pod.status?.phase === 'Succeeded') {
        recordEvent(this.ctx, COMPONENT, ds, 'Normal', 'SucceededDaemonPod', `Found succeeded daemon pod ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} on node ${nodeName}, will try to delete it`);
        remove.push(pod);
      } else running.push(pod);
    }
    if (!surge) {
      // More than one pod on the node: keep the oldest.
      if (running.length > 1) for (const pod of running.sort(compareDaemonPods).slice(1)) remove.push(pod);
      return;
    }
    if (running.length <= 1) {
      if (running.length === 0 && shouldRun) create.push(nodeName);
      return;
    }
    // Surging: an old and a new pod may share the node until the new one is available.
    let oldestNew: PodObject | undefined;
    let oldestOld: PodObject | undefined;
    for (const pod of running.sort(compareDaemonPods)) {
      if (pod.metadata?.labels?.[POD_REVISION_LABEL] === hash) {
        if (!oldestNew) {
          oldestNew = pod;
          continue;
        }
      } else if (!oldestOld) {
        oldestOld = pod;
        continue;
      }
      remove.push(pod);
    }
    if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ds.spec?.minReadySeconds ?? 0, this.ctx.clock.now()))) remove.push(oldestOld);
  }

  /**
   * `syncNodes`: delete `podsToDelete` and create a pod for each of `nodesNeedingDaemonPods`, each
   * list capped at the burst size; creations in slow-start batches, stopping after a batch with a
   * failure.
   */
  syncNodes(ds: DaemonSetObject, podsToDelete: readonly PodObject[], nodesNeedingDaemonPods: readonly string[], hash: string): void {
    const key = objectKey(ds);
    const createDiff = Math.min(nodesNeedingDaemonPods.length, BURST_REPLICAS);
    const victims = podsToDelete.slice(0, BURST_REPLICAS);
    this.expectations.expect(key, createDiff, victims.map(podKey));
    const template = createPodTemplate(ds.spec?.template ?? {}, getTemplateGeneration(ds), hash);
    const errors: unknown[] = [];
    let position = 0;
    for (const batch of slowStartBatchSizes(createDiff, SLOW_START_INITIAL_BATCH_SIZE)) {
      const errorCount = errors.length;
      for (let i = position; i < position + batch; i++) {
        try {
          this.createDaemonPod(ds, template, nodesNeedingDaemonPods[i]);
        } catch (error) {
          if (!(error instanceof ApiError || error instanceof SyncError)) throw error;
          this.expectations.creationObserved(key);
          errors.push(error);
        }
      }
      position += batch;
      if (errors.length > errorCount) {
        // Creations never attempted will never be observed.
        for (let i = position; i < createDiff; i++) this.expectations.creationObserved(key);
        break;
      }
    }
    for (const pod of victims) {
      const error = deletePod(this.ctx, COMPONENT, ds, pod);
      if (error === undefined) continue;
      this.expectations.deletionObserved(key, podKey(pod));
      if (!(error instanceof ApiError && error.code === 404)) errors.push(error);
    }
    if (errors.length > 0) throw errors[0];
  }

  /** `RealPodControl.CreatePods` with the template pinned to `nodeName`. */
  private createDaemonPod(ds: DaemonSetObject, template: PodTemplateSpec, nodeName: string): void {
    const spec = cloneAsJson(template.spec ?? ({ containers: [] } as NonNullable<PodTemplateSpec['spec']>));
    spec.affinity = replaceDaemonSetPodNodeNameNodeAffinity(spec.affinity, nodeName);
    const metadata: NonNullable<KubeObject['metadata']> = {
      generateName: `${ds.metadata?.name ?? ''}-`,
      namespace: ds.metadata?.namespace,
      labels: { ...template.metadata?.labels },
      ownerReferences: this.sharedOwnerReferences(ds),
    };
    if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
    if (template.metadata?.finalizers) metadata.finalizers = [...template.metadata.finalizers];
    createPod(this.ctx, COMPONENT, ds, { apiVersion: 'v1', kind: 'Pod', metadata, spec });
  }

  private sharedOwnerReferences(ds: DaemonSetObject): OwnerReference[] {
    const uid = ds.metadata?.uid ?? '';
    let refs = this.podOwnerReferences.get(uid);
    if (!refs) {
      refs = Object.freeze([Object.freeze(newControllerRef(ds, 'apps/v1', 'DaemonSet'))]) as OwnerReference[];
      this.podOwnerReferences.set(uid, refs);
    }
    return refs;
  }

  /** `updateDaemonSetStatus`: the counts over the nodes, written when one of them or the observed generation changed. */
  private updateDaemonSetStatus(ds: DaemonSetObject, nodes: readonly NodeObject[], hash: string, updateObservedGeneration: boolean): void {
    const nodeToDaemonPods = this.getNodesToDaemonPods(ds, false);
    const now = this.ctx.clock.now();
    const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
    const generation = getTemplateGeneration(ds);
    let desired = 0;
    let current = 0;
    let misscheduled = 0;
    let ready = 0;
    let updated = 0;
    let available = 0;
    for (const node of nodes) {
      const { shouldRun } = this.nodeShouldRunDaemonPod(node, ds);
      const pods = nodeToDaemonPods.get(node.metadata?.name ?? '');
      if (!shouldRun) {
        if (pods) misscheduled++;
        continue;
      }
      desired++;
      if (!pods) continue;
      current++;
      const pod = pods.length === 1 ? pods[0] : [...pods].sort(compareDaemonPods)[0];
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, minReadySeconds, now)) available++;
      }
      if (isPodUpdated(pod, hash, generation)) updated++;
    }
    this.storeDaemonSetStatus(ds, { desired, current, misscheduled, ready, updated, available, unavailable: desired - available }, updateObservedGeneration);
    if (minReadySeconds > 0 && ready !== available) this.queue.addAfter(objectKey(ds), minReadySeconds * 1000);
  }

  private storeDaemonSetStatus(ds: DaemonSetObject, counts: { desired: number; current: number; misscheduled: number; ready: number; updated: number; available: number; unavailable: number }, updateObservedGeneration: boolean): void {
    const status = ds.status;
    const generation = ds.metadata?.generation ?? 0;
    if (
      (status?.desiredNumberScheduled ?? 0) === counts.desired &&
      (status?.currentNumberScheduled ?? 0) === counts.current &&
      (status?.numberMisscheduled ?? 0) === counts.misscheduled &&
      (status?.numberReady ?? 0) === counts.ready &&
      (status?.updatedNumberScheduled ?? 0) === counts.updated &&
      (status?.numberAvailable ?? 0) === counts.available &&
      (status?.numberUnavailable ?? 0) === counts.unavailable &&
      (status?.observedGeneration ?? 0) >= generation
    ) {
      return;
    }
    const observedGeneration = updateObservedGeneration ? generation : status?.observedGeneration;
    // Field order and omissions as the API serializes DaemonSetStatus.
    const next: NonNullable<DaemonSetObject['status']> = {
      currentNumberScheduled: counts.current,
      numberMisscheduled: counts.misscheduled,
      desiredNumberScheduled: counts.desired,
      numberReady: counts.ready,
    };
    if (observedGeneration) next.observedGeneration = observedGeneration;
    if (counts.updated) next.updatedNumberScheduled = counts.updated;
    if (counts.available) next.numberAvailable = counts.available;
    if (counts.unavailable) next.numberUnavailable = counts.unavailable;
    if (status?.collisionCount !== undefined) next.collisionCount = status.collisionCount;
    if (status?.conditions) next.conditions = status.conditions;
    this.ctx.store.mutate<DaemonSetObject>('DaemonSet', ds.metadata?.namespace, ds.metadata?.name ?? '', (copy) => {
      (copy as KubeObject).status = next;
    }, { fieldManager: COMPONENT, subresource: 'status' });
  }
}
