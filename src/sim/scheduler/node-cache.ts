/**
 * The scheduler's cache (upstream `internal/cache`): every node's NodeInfo in a stable walk order,
 * every placed pod (bound or assumed) by uid, and how many nodes hold each image (ImageLocality's
 * spread). All updates are incremental: O(1) per pod change, O(images) per node change.
 */
import type { Node } from '../../core/k8s';
import type { NodeList } from '../../core/internals';
import { NodeInfo, sameContribution, sameLabels, type PodContribution } from './node-info';
import { NodeTable } from './node-table';
import { PodCountIndex } from './pod-counts';
import { TermGroupIndex } from './term-groups';
import { buildDomains, type TopologyDomains } from './topology-domains';

interface Placement {
  nodeName: string;
  pod: PodContribution;
  /** Placed by this scheduler, binding write not yet observed. */
  assumed: boolean;
}

/** Node lists are numbered across caches, so two simulators' tables never share an id in one stream. */
let nodeListIds = 0;

export class NodeCache {
  /** The filter walk order. Removal swaps the last node into the gap. */
  readonly nodes: NodeInfo[] = [];
  private names: NodeList | undefined;
  /** The walk's numbers, row i mirroring nodes[i]. */
  readonly table = new NodeTable();
  private readonly byName = new Map<string, NodeInfo>();
  private readonly placements = new Map<string, Placement>();
  /** Pods placed on a node the cache does not know (yet): applied when the node arrives. */
  private readonly orphans = new Map<string, Map<string, PodContribution>>();
  private readonly imageNodeCounts = new Map<string, number>();
  private imageEpochCounter = 0;
  /** Per matcher and node row: the placed pods it selects (PodTopologySpread, InterPodAffinity). */
  readonly podCounts = new PodCountIndex(() => this.nodes);
  /** The affinity terms placed pods carry, per node row (InterPodAffinity). */
  readonly termGroups = new TermGroupIndex();
  private readonly domainsByKey = new Map<string, TopologyDomains>();

  /** The node names in walk order, one shared list until the nodes change (see `VerdictTable`). */
  nodeList(): NodeList {
    if (!this.names) this.names = { id: ++nodeListIds, names: Object.freeze(this.nodes.map((node) => node.name)) };
    return this.names;
  }

  get nodeCount(): number {
    return this.nodes.length;
  }

  node(name: string): NodeInfo | undefined {
    return this.byName.get(name);
  }

  /** Changes whenever some node's images are counted in or out, so ImageLocality's spread may have changed. */
  get imageEpoch(): number {
    return this.imageEpochCounter;
  }

  /** How many nodes hold the image (by exact name). */
  imageNodeCount(name: string): number {
    return this.imageNodeCounts.get(name) ?? 0;
  }

  placement(uid: string): Readonly<Placement> | undefined {
    return this.placements.get(uid);
  }

  addNode(node: Node): NodeInfo {
    const name = node.metadata?.name ?? '';
    const existing = this.byName.get(name);
    if (existing) {
      this.updateNode(node);
      return existing;
    }
    const info = new NodeInfo(node);
    info.attach(this.table, this.nodes.length);
    this.nodes.push(info);
    this.names = undefined;
    this.byName.set(name, info);
    this.podCounts.ensure(this.nodes.length);
    this.termGroups.ensure(this.nodes.length);
    this.domainsByKey.clear();
    this.countImages(info, 1);
    const waiting = this.orphans.get(name);
    if (waiting) {
      for (const pod of waiting.values()) this.addToNode(info, pod);
      this.orphans.delete(name);
    }
    return info;
  }

  /** Returns whether anything the filters read changed (allocatable, labels, taints, unschedulable). */
  updateNode(node: Node): boolean {
    const name = node.metadata?.name ?? '';
    const info = this.byName.get(name);
    if (!info) {
      this.addNode(node);
      return true;
    }
    const before = schedulingSignature(info.node);
    // Heartbeats rewrite the node without touching its labels: the domain tables stand.
    if (!sameLabels(info.labels, node.metadata?.labels ?? {})) this.domainsByKey.clear();
    this.countImages(info, -1);
    info.setNode(node);
    this.countImages(info, 1);
    return before !== schedulingSignature(node);
  }

  removeNode(name: string): void {
    const info = this.byName.get(name);
    if (!info) return;
    this.countImages(info, -1);
    for (const pod of info.pods.values()) this.countOut(info.index, pod);
    info.detach();
    this.names = undefined;
    const last = this.nodes.pop()!;
    if (last !== info) {
      const from = last.index;
      last.detach();
      this.nodes[info.index] = last;
      last.attach(this.table, info.index);
      this.podCounts.moveRow(from, info.index);
      this.termGroups.moveRow(from, info.index);
    }
    this.domainsByKey.clear();
    this.byName.delete(name);
    if (info.pods.size > 0) this.orphans.set(name, new Map(info.pods));
  }

  /** Place a pod on a node: bound (seen with nodeName) or assumed (chosen, binding in flight). */
  placePod(nodeName: string, pod: PodContribution, assumed: boolean): void {
    const current = this.placements.get(pod.uid);
    if (current) {
      if (current.nodeName === nodeName && sameContribution(current.pod, pod)) {
        current.assumed = current.assumed && assumed;
        return;
      }
      this.removePod(pod.uid);
    }
    this.placements.set(pod.uid, { nodeName, pod, assumed });
    const info = this.byName.get(nodeName);
    if (info) this.addToNode(info, pod);
    else {
      let waiting = this.orphans.get(nodeName);
      if (!waiting) this.orphans.set(nodeName, (waiting = new Map()));
      waiting.set(pod.uid, pod);
    }
  }

  /** The binding of an assumed pod was observed. */
  confirm(uid: string): void {
    const placement = this.placements.get(uid);
    if (placement) placement.assumed = false;
  }

  removePod(uid: string): Placement | undefined {
    const placement = this.placements.get(uid);
    if (!placement) return undefined;
    this.placements.delete(uid);
    const info = this.byName.get(placement.nodeName);
    if (info) {
      info.removePod(uid);
      this.countOut(info.index, placement.pod);
    } else {
      const waiting = this.orphans.get(placement.nodeName);
      waiting?.delete(uid);
      if (waiting && waiting.size === 0) this.orphans.delete(placement.nodeName);
    }
    return placement;
  }

  /** The values of `key` across the node rows; rebuilt after nodes change. */
  domains(key: string): TopologyDomains {
    let domains = this.domainsByKey.get(key);
    if (!domains) this.domainsByKey.set(key, (domains = buildDomains(key, this.nodes)));
    return domains;
  }

  private addToNode(info: NodeInfo, pod: PodContribution): void {
    info.addPod(pod);
    this.podCounts.podAdded(info.index, pod);
    if (pod.affinityTerms) this.termGroups.add(info.index, pod.affinityTerms);
  }

  private countOut(row: number, pod: PodContribution): void {
    this.podCounts.podRemoved(row, pod);
    if (pod.affinityTerms) this.termGroups.remove(row, pod.affinityTerms);
  }

  private countImages(info: NodeInfo, delta: 1 | -1): void {
    if (info.images.size > 0) this.imageEpochCounter++;
    for (const name of info.images.keys()) {
      const next = (this.imageNodeCounts.get(name) ?? 0) + delta;
      if (next <= 0) this.imageNodeCounts.delete(name);
      else this.imageNodeCounts.set(name, next);
    }
  }
}

function schedulingSignature(node: Node): string {
  return JSON.stringify([node.status?.allocatable, node.metadata?.labels, node.spec?.taints, node.spec?.unschedulable === true]);
}
