/**
 * One node as the scheduler sees it (framework `NodeInfo`): its allocatable resources, what the
 * pods placed on it request (including pods assumed but not yet bound), the host ports they hold
 * and the images present. Kept current incrementally; never rebuilt per cycle.
 */
import type { Node, Taint } from '../../core/k8s';
import type { AffinityTerm } from './affinity-terms';
import { HostPortInfo, type HostPort } from './host-ports';
import type { SelectableNode } from './node-selector';
import { FLAG_HARD_TAINTS, FLAG_PREFER_NO_SCHEDULE_TAINTS, FLAG_UNSCHEDULABLE, FLAG_USED_PORTS, type NodeTable } from './node-table';
import { nodeAllocatable, type NodeAllocatable, type PodResources } from './resources';

/** What one pod adds to its node. */
export interface PodContribution {
  uid: string;
  namespace: string;
  name: string;
  priority: number;
  resources: PodResources;
  hostPorts: readonly HostPort[];
  /** What PodTopologySpread and InterPodAffinity count (see pod-matcher.ts). */
  labels: Readonly<Record<string, string>>;
  terminating: boolean;
  /** The pod's own pod-affinity and anti-affinity terms; undefined for most pods. */
  affinityTerms: readonly AffinityTerm[] | undefined;
}

function sameTerms(a: readonly AffinityTerm[] | undefined, b: readonly AffinityTerm[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].key !== b[i].key) return false;
  return true;
}

export function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

export function sameContribution(a: PodContribution, b: PodContribution): boolean {
  if (a.terminating !== b.terminating || !sameLabels(a.labels, b.labels) || !sameTerms(a.affinityTerms, b.affinityTerms)) return false;
  const ra = a.resources;
  const rb = b.resources;
  if (a.priority !== b.priority || ra.milliCPU !== rb.milliCPU || ra.memory !== rb.memory || ra.ephemeralStorage !== rb.ephemeralStorage) return false;
  if (ra.nonZeroMilliCPU !== rb.nonZeroMilliCPU || ra.nonZeroMemory !== rb.nonZeroMemory) return false;
  if (ra.scalar.length !== rb.scalar.length || a.hostPorts.length !== b.hostPorts.length) return false;
  for (let i = 0; i < ra.scalar.length; i++) if (ra.scalar[i][0] !== rb.scalar[i][0] || ra.scalar[i][1] !== rb.scalar[i][1]) return false;
  for (let i = 0; i < a.hostPorts.length; i++) {
    const pa = a.hostPorts[i];
    const pb = b.hostPorts[i];
    if (pa.ip !== pb.ip || pa.protocol !== pb.protocol || pa.port !== pb.port) return false;
  }
  return true;
}

export class NodeInfo implements SelectableNode {
  node: Node;
  readonly name: string;
  labels: Readonly<Record<string, string>> = {};
  unschedulable = false;
  taints: readonly Taint[] = [];
  /** Taints with effect PreferNoSchedule (the score plugin reads only these). */
  preferNoScheduleTaints: readonly Taint[] = [];
  allocatable!: NodeAllocatable;
  /** Image name → size in bytes, from `status.images`. */
  images = new Map<string, number>();

  requestedMilliCPU = 0;
  requestedMemory = 0;
  requestedEphemeralStorage = 0;
  readonly requestedScalar = new Map<string, number>();
  nonZeroMilliCPU = 0;
  nonZeroMemory = 0;
  readonly pods = new Map<string, PodContribution>();
  readonly usedPorts = new HostPortInfo();
  /** Position in the cache's node list (the order the filter walk follows) and in its table. */
  index = -1;
  private table: NodeTable | undefined;

  constructor(node: Node) {
    this.node = node;
    this.name = node.metadata?.name ?? '';
    this.setNode(node);
  }

  get podCount(): number {
    return this.pods.size;
  }

  /** Mirror this node into `table` at `index` from now on. */
  attach(table: NodeTable, index: number): void {
    this.table = table;
    this.index = index;
    this.sync();
    for (const [name, size] of this.images) table.setImage(name, index, size);
  }

  detach(): void {
    if (this.table) for (const name of this.images.keys()) this.table.setImage(name, this.index, 0);
    this.table = undefined;
  }

  setNode(node: Node): void {
    if (this.table) for (const name of this.images.keys()) this.table.setImage(name, this.index, 0);
    this.node = node;
    this.labels = node.metadata?.labels ?? {};
    this.unschedulable = node.spec?.unschedulable === true;
    this.taints = node.spec?.taints ?? [];
    this.preferNoScheduleTaints = this.taints.filter((t) => t.effect === 'PreferNoSchedule');
    this.allocatable = nodeAllocatable(node);
    const images = new Map<string, number>();
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) images.set(name, image.sizeBytes ?? 0);
    }
    this.images = images;
    if (this.table) {
      for (const [name, size] of images) this.table.setImage(name, this.index, size);
      this.sync();
    }
  }

  addPod(pod: PodContribution): void {
    this.pods.set(pod.uid, pod);
    this.apply(pod, 1);
  }

  removePod(uid: string): PodContribution | undefined {
    const pod = this.pods.get(uid);
    if (!pod) return undefined;
    this.pods.delete(uid);
    this.apply(pod, -1);
    return pod;
  }

  private apply(pod: PodContribution, sign: 1 | -1): void {
    const r = pod.resources;
    this.requestedMilliCPU += sign * r.milliCPU;
    this.requestedMemory += sign * r.memory;
    this.requestedEphemeralStorage += sign * r.ephemeralStorage;
    this.nonZeroMilliCPU += sign * r.nonZeroMilliCPU;
    this.nonZeroMemory += sign * r.nonZeroMemory;
    for (const [name, value] of r.scalar) {
      const next = (this.requestedScalar.get(name) ?? 0) + sign * value;
      if (next === 0) this.requestedScalar.delete(name);
      else this.requestedScalar.set(name, next);
    }
    for (const port of pod.hostPorts) {
      if (sign > 0) this.usedPorts.add(port);
      else this.usedPorts.remove(port);
    }
    this.sync();
  }

  private sync(): void {
    if (!this.table) return;
    const a = this.allocatable;
    let flags = 0;
    if (this.unschedulable) flags |= FLAG_UNSCHEDULABLE;
    if (this.taints.some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')) flags |= FLAG_HARD_TAINTS;
    if (this.preferNoScheduleTaints.length > 0) flags |= FLAG_PREFER_NO_SCHEDULE_TAINTS;
    if (!this.usedPorts.isEmpty()) flags |= FLAG_USED_PORTS;
    this.table.write(this.index, {
      flags,
      allocatableMilliCPU: a.milliCPU,
      allocatableMemory: a.memory,
      allocatableEphemeralStorage: a.ephemeralStorage,
      allocatablePods: a.pods,
      requestedMilliCPU: this.requestedMilliCPU,
      requestedMemory: this.requestedMemory,
      requestedEphemeralStorage: this.requestedEphemeralStorage,
      podCount: this.pods.size,
      nonZeroMilliCPU: this.nonZeroMilliCPU,
      nonZeroMemory: this.nonZeroMemory,
    });
  }
}
