/**
 * The DaemonSet controller's updates and history (kubernetes pkg/controller/daemon/update.go):
 * the rolling update within maxUnavailable (delete old pods, the manage loop recreates them) or
 * maxSurge (a new pod beside each old one, the old one deleted once the new one is available),
 * and the ControllerRevisions that record each pod template, named `<daemonset>-<hash>` with the
 * hash as label `controller-revision-hash`, the label the pods carry too.
 */
import type { KubeObject, Node } from '../../../core/k8s';
import type { SimContext } from '../../context';
import { ApiError } from '../../store/types';
import type { ControllerExpectations } from '../work-scheduling';
import { newControllerRef, SyncError, type PodObject } from '../controller-types';
import { isPodAvailable } from '../pod-util';
import { canonicalJson, computePodTemplateHash } from '../pod-template-hash';
import { controllerRevisionName, POD_REVISION_LABEL, templateReplacePatch, type ControllerHistory, type ControllerRevisionObject } from '../history/controller-history';
import { getTemplateGeneration, isPodUpdated, surgeCount, unavailableCount, type DaemonSetObject } from './util/daemonset-util';
import type { ShouldRun } from './daemon-controller';

type NodeObject = Node & KubeObject;

/** What update.go reads and calls on the controller. */
export interface DaemonSetControl {
  readonly ctx: SimContext;
  /** The field manager and event source of its writes. */
  readonly component: 'daemonset-controller';
  readonly history: ControllerHistory;
  readonly expectations: ControllerExpectations;
  nodeShouldRunDaemonPod(node: NodeObject, ds: DaemonSetObject): ShouldRun;
  getNodesToDaemonPods(ds: DaemonSetObject, includeDeletedTerminal: boolean): ReadonlyMap<string, readonly PodObject[]>;
  syncNodes(ds: DaemonSetObject, podsToDelete: readonly PodObject[], nodesNeedingDaemonPods: readonly string[], hash: string): void;
}

/** `findUpdatedPodsOnNode` (with the template generation read once): the node's one new and one old pod, or `ok: false` when it has more of either. */
function findUpdatedPodsOnNode(generation: number | undefined, pods: readonly PodObject[], hash: string): { newPod?: PodObject; oldPod?: PodObject; ok: boolean } {
  let newPod: PodObject | undefined;
  let oldPod: PodObject | undefined;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { newPod, oldPod, ok: true };
}

function hasOldPod(nodeToDaemonPods: ReadonlyMap<string, readonly PodObject[]>, hash: string, generation: number | undefined): boolean {
  for (const pods of nodeToDaemonPods.values()) {
    for (const pod of pods) if (!pod.metadata?.deletionTimestamp && !isPodUpdated(pod, hash, generation)) return true;
  }
  return false;
}

/**
 * `updatedDesiredNodeCounts`: maxSurge, maxUnavailable and the desired count; nodes that should
 * run a pod and have none get an empty entry. Both limits 0 (which validation refuses) means 1
 * unavailable.
 */
function updatedDesiredNodeCounts(dsc: DaemonSetControl, ds: DaemonSetObject, nodes: readonly NodeObject[], nodeToDaemonPods: Map<string, readonly PodObject[]>): { maxSurge: number; maxUnavailable: number; desired: number } {
  let desired = 0;
  for (const node of nodes) {
    if (!dsc.nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
    desired++;
    const name = node.metadata?.name ?? '';
    if (!nodeToDaemonPods.has(name)) nodeToDaemonPods.set(name, []);
  }
  let maxUnavailable = unavailableCount(ds, desired);
  const maxSurge = surgeCount(ds, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desired };
}

/** `rollingUpdate`: the old pods to delete, or the nodes to surge onto, within the strategy's limits. */
export function rollingUpdate(dsc: DaemonSetControl, ds: DaemonSetObject, nodes: readonly NodeObject[], hash: string): void {
  const generation = getTemplateGeneration(ds);
  const current = dsc.getNodesToDaemonPods(ds, false);
  // Without an old pod both branches below delete and create nothing: skip the per-node work.
  if (!hasOldPod(current, hash, generation)) return;
  const nodeToDaemonPods = new Map(current);
  const { maxSurge, maxUnavailable, desired } = updatedDesiredNodeCounts(dsc, ds, nodes, nodeToDaemonPods);
  const now = dsc.ctx.clock.now();
  const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
  const available = (pod: PodObject): boolean => isPodAvailable(pod, minReadySeconds, now);

  if (maxSurge === 0) {
    // Delete just enough old pods to stay within maxUnavailable; the manage loop creates their replacements.
    let numUnavailable = 0;
    const allowedReplacementPods: PodObject[] = [];
    const candidatePodsToDelete: PodObject[] = [];
    for (const pods of nodeToDaemonPods.values()) {
      const { newPod, oldPod, ok } = findUpdatedPodsOnNode(generation, pods, hash);
      if (!ok || (!oldPod && !newPod) || (oldPod && newPod)) {
        numUnavailable++;
      } else if (newPod) {
        if (!available(newPod)) numUnavailable++;
      } else if (oldPod && !available(oldPod)) {
        allowedReplacementPods.push(oldPod);
        numUnavailable++;
      } else if (oldPod && numUnavailable < maxUnavailable) {
        candidatePodsToDelete.push(oldPod);
      }
    }
    const remaining = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidatePodsToDelete.length);
    dsc.syncNodes(ds, [...allowedReplacementPods, ...candidatePodsToDelete.slice(0, remaining)], [], hash);
    return;
  }

  // Surging: a new pod beside an old one (immediately where the old one is unavailable, else up to
  // maxSurge at a time); an old pod goes once the new one on its node is available.
  const oldPodsToDelete: PodObject[] = [];
  const shouldNotRunPodsToDelete: PodObject[] = [];
  const candidateNewNodes: string[] = [];
  const allowedNewNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  const nodesByName = new Map(nodes.map((node) => [node.metadata?.name ?? '', node]));
  for (const [nodeName, pods] of nodeToDaemonPods) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(generation, pods, hash);
    if (!ok) {
      numSurge++;
      continue;
    }
    if (oldPod ? available(oldPod) : newPod ? available(newPod) : false) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      const node = nodesByName.get(nodeName);
      if (!node) throw new SyncError(`couldn't get node for nodeName "${nodeName}": node "${nodeName}" not found`);
      const shouldRun = dsc.nodeShouldRunDaemonPod(node, ds).shouldRun;
      if (!available(oldPod)) {
        if (!shouldRun) oldPodsToDelete.push(oldPod);
        else allowedNewNodes.push(nodeName);
      } else if (!shouldRun) {
        shouldNotRunPodsToDelete.push(oldPod);
      } else if (numSurge < maxSurge) {
        candidateNewNodes.push(nodeName);
      }
      continue;
    }
    if (!available(newPod)) {
      numSurge++;
      continue;
    }
    oldPodsToDelete.push(oldPod);
  }
  // With surge the owner expects full availability: a pod on a node it should leave goes only once
  // more pods are available than desired.
  const deletable = Math.min(numAvailable - desired, shouldNotRunPodsToDelete.length);
  if (deletable > 0) oldPodsToDelete.push(...shouldNotRunPodsToDelete.slice(0, deletable));
  const remainingSurge = Math.min(Math.max(0, maxSurge - numSurge), candidateNewNodes.length);
  dsc.syncNodes(ds, oldPodsToDelete, [...allowedNewNodes, ...candidateNewNodes.slice(0, remainingSurge)], hash);
}

// ---------------------------------------------------------------------------------------------
// History

/** `Match`: the revision stores the DaemonSet's current template patch. */
function matchesTemplate(patch: string, revision: ControllerRevisionObject): boolean {
  return canonicalJson(revision.data ?? null) === patch;
}

function maxRevision(revisions: readonly ControllerRevisionObject[]): number {
  let max = 0;
  for (const revision of revisions) if (revision.revision > max) max = revision.revision;
  return max;
}

/**
 * `constructHistory`: the revision matching the current template (created when missing, numbered
 * above every other) and the old ones. Duplicates of the current revision are removed after
 * relabelling their pods.
 */
export function constructHistory(dsc: DaemonSetControl, ds: DaemonSetObject): { current: ControllerRevisionObject; old: ControllerRevisionObject[] } {
  const patch = canonicalJson(templateReplacePatch(ds));
  const currentHistories: ControllerRevisionObject[] = [];
  const old: ControllerRevisionObject[] = [];
  for (let revision of dsc.history.listControllerRevisions(ds)) {
    // Revisions from before the label existed get their name as hash.
    if (revision.metadata?.labels?.[POD_REVISION_LABEL] === undefined) {
      const name = revision.metadata?.name ?? '';
      revision = dsc.ctx.store.mutate<ControllerRevisionObject>('ControllerRevision', revision.metadata?.namespace, name, (copy) => {
        copy.metadata = { ...copy.metadata, labels: { ...copy.metadata?.labels, [POD_REVISION_LABEL]: name } };
      }, { fieldManager: dsc.component });
    }
    if (matchesTemplate(patch, revision)) currentHistories.push(revision);
    else old.push(revision);
  }
  const currentRevision = maxRevision(old) + 1;
  if (currentHistories.length === 0) return { current: snapshot(dsc, ds, currentRevision), old };
  const current = dedupCurHistories(dsc, ds, currentHistories);
  return { current: current.revision < currentRevision ? dsc.history.updateControllerRevision(current, currentRevision) : current, old };
}

/** `dedupCurHistories`: keep the highest-numbered equal revision, move pods to its hash, delete the rest. */
function dedupCurHistories(dsc: DaemonSetControl, ds: DaemonSetObject, histories: readonly ControllerRevisionObject[]): ControllerRevisionObject {
  if (histories.length === 1) return histories[0];
  let keep = histories[0];
  for (const history of histories) if (history.revision >= keep.revision) keep = history;
  const hash = keep.metadata?.labels?.[POD_REVISION_LABEL] ?? '';
  for (const pod of dsc.ctx.store.ownedBy<PodObject>('Pod', ds.metadata?.uid ?? '')) {
    if (pod.metadata?.labels?.[POD_REVISION_LABEL] === hash) continue;
    dsc.ctx.store.mutate<PodObject>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '', (copy) => {
      copy.metadata = { ...copy.metadata, labels: { ...copy.metadata?.labels, [POD_REVISION_LABEL]: hash } };
    }, { fieldManager: dsc.component });
  }
  for (const history of histories) if (history !== keep) dsc.history.deleteControllerRevision(history);
  return keep;
}

/**
 * `snapshot`: a revision named `<daemonset>-<hash of the template and collision count>`. A name
 * taken by a revision of another template bumps `status.collisionCount` and fails the sync, which
 * retries with the new hash.
 */
function snapshot(dsc: DaemonSetControl, ds: DaemonSetObject, revisionNumber: number): ControllerRevisionObject {
  const store = dsc.ctx.store;
  const data = templateReplacePatch(ds);
  const collisionCount = ds.status?.collisionCount;
  const hash = computePodTemplateHash(ds.spec?.template, collisionCount);
  const name = controllerRevisionName(ds.metadata?.name ?? '', hash);
  const revision: ControllerRevisionObject = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: ds.metadata?.namespace,
      labels: { ...ds.spec?.template?.metadata?.labels, [POD_REVISION_LABEL]: hash },
      ...(ds.metadata?.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(ds, 'apps/v1', 'DaemonSet')],
    },
    data: data as ControllerRevisionObject['data'],
    revision: revisionNumber,
  };
  try {
    return store.create('ControllerRevision', revision, { fieldManager: dsc.component });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 409)) throw error;
    const existing = store.read<ControllerRevisionObject>('ControllerRevision', ds.metadata?.namespace, name);
    if (matchesTemplate(canonicalJson(data), existing)) return existing;
    const fresh = store.read<DaemonSetObject>('DaemonSet', ds.metadata?.namespace, ds.metadata?.name ?? '');
    if (fresh.status?.collisionCount !== collisionCount) {
      throw new SyncError(`found a stale collision count (${String(collisionCount)}, expected ${String(fresh.status?.collisionCount)}) of DaemonSet "${ds.metadata?.name ?? ''}" while processing; will retry until it is updated`);
    }
    store.mutate<DaemonSetObject>('DaemonSet', ds.metadata?.namespace, ds.metadata?.name ?? '', (copy) => {
      (copy as KubeObject).status = { ...(copy.status ?? { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 }), collisionCount: (collisionCount ?? 0) + 1 };
    }, { fieldManager: dsc.component, subresource: 'status' });
    throw error;
  }
}

/** `cleanupHistory`: delete the oldest revisions beyond revisionHistoryLimit that no pod still uses. */
export function cleanupHistory(dsc: DaemonSetControl, ds: DaemonSetObject, old: readonly ControllerRevisionObject[]): void {
  const toKeep = ds.spec?.revisionHistoryLimit ?? 10;
  let toKill = old.length - toKeep;
  if (toKill <= 0) return;
  const liveHashes = new Set<string>();
  for (const pods of dsc.getNodesToDaemonPods(ds, true).values()) {
    for (const pod of pods) {
      const hash = pod.metadata?.labels?.[POD_REVISION_LABEL];
      if (hash) liveHashes.add(hash);
    }
  }
  for (const history of [...old].sort((a, b) => a.revision - b.revision)) {
    if (toKill <= 0) break;
    if (liveHashes.has(history.metadata?.labels?.[POD_REVISION_LABEL] ?? '')) continue;
    dsc.history.deleteControllerRevision(history);
    toKill--;
  }
}
