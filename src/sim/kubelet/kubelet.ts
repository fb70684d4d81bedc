/**
 * The kubelet of one node: its pod workers, its container runtime, its back-off state, the pod
 * IPs it hands out from the node's podCIDR (host-local IPAM: sequential, skipping addresses in
 * use), and the node status it reports (the images on the node, written at the next node status
 * update, every 10 s, when they changed).
 */
import { flattened } from '../store/object-utils';
import type { KubeObject, Node } from '../../core/k8s';
import type { TimerHandle } from '../clock';
import type { SimContext } from '../context';
import { Backoff } from './backoff';
import { hostIPsOf } from './pod-status';
import { PodWorker, type NodeServices, type PodObject } from './pod-worker';
import { ContainerRuntime, type NodeImage } from './runtime';

/** The kubelet's `nodeStatusUpdateFrequency`. */
export const NODE_STATUS_UPDATE_MS = 10_000;
const FIRST_HOST = 2;
const LAST_HOST = 254;

function internalIP(node: Node): string {
  return node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
}

/** The first three octets of the node's pod CIDR (`10.244.3.0/24` → `10.244.3.`). */
function podNetworkPrefix(node: Node): string {
  const cidr = node.spec?.podCIDR ?? node.spec?.podCIDRs?.[0];
  const match = cidr ? /^(\d+\.\d+\.\d+\.)\d+\//.exec(cidr) : null;
  return match ? match[1] : '10.244.0.';
}

export class NodeKubelet {
  readonly name: string;
  readonly runtime: ContainerRuntime;
  private readonly workers = new Map<string, PodWorker>();
  private readonly services: NodeServices;
  private readonly ipsInUse = new Map<number, string>();
  private readonly ipByPod = new Map<string, number>();
  private lastHost = FIRST_HOST - 1;
  private readonly prefix: string;
  private imagesTimer: TimerHandle | undefined;
  /** Where in the 10 s node status period this node's updates fall. */
  private readonly statusPhaseMs: number;

  constructor(
    private readonly ctx: SimContext,
    node: Node,
  ) {
    this.name = node.metadata?.name ?? '';
    this.prefix = podNetworkPrefix(node);
    this.statusPhaseMs = ctx.clock.random.int(0, NODE_STATUS_UPDATE_MS - 1);
    const images: NodeImage[] = (node.status?.images ?? []).map((image) => ({ names: image.names ?? [], sizeBytes: image.sizeBytes ?? 0 }));
    this.runtime = new ContainerRuntime(ctx.clock, ctx.timings, images, () => this.imagesChanged());
    const hostIP = internalIP(node);
    this.services = {
      ctx,
      nodeName: this.name,
      hostIP,
      hostIPs: hostIPsOf(hostIP),
      eventSource: Object.freeze({ component: 'kubelet', host: this.name }),
      runtime: this.runtime,
      imageBackoff: new Backoff(),
      restartBackoff: new Backoff(),
      allocatePodIP: (uid) => this.allocatePodIP(uid),
      releasePodIP: (uid) => this.releasePodIP(uid),
      reservePodIP: (uid, ip) => this.reservePodIP(uid, ip),
      forget: (uid) => this.workers.delete(uid),
    };
  }

  /** Pods this kubelet is running (or finishing). */
  get podCount(): number {
    return this.workers.size;
  }

  /** A pod bound to this node was added or changed on the API server. */
  podChanged(pod: PodObject): void {
    const uid = pod.metadata?.uid ?? '';
    const worker = this.workers.get(uid);
    if (worker) {
      worker.update(pod);
      return;
    }
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    // A pod some kubelet already started (before this simulator component existed) is not adopted.
    if (pod.status?.startTime) return;
    this.workers.set(uid, new PodWorker(this.services, pod));
  }

  /**
   * A pod another kubelet started, copied into a twin: looked after from its reported state (see
   * PodWorker's `adopted`), without starting its containers again.
   */
  adopt(pod: PodObject): void {
    const uid = pod.metadata?.uid ?? '';
    if (this.workers.has(uid)) return;
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    this.workers.set(uid, new PodWorker(this.services, pod, true));
  }

  podDeleted(pod: KubeObject): void {
    this.workers.get(pod.metadata?.uid ?? '')?.remove();
  }

  /** The node is gone: its pods stop being looked after. */
  stop(): void {
    for (const worker of [...this.workers.values()]) worker.remove();
    this.ctx.clock.cancel(this.imagesTimer);
  }

  private allocatePodIP(uid: string): string {
    const span = LAST_HOST - FIRST_HOST + 1;
    let host = this.lastHost;
    for (let tries = 0; tries < span; tries++) {
      host = host >= LAST_HOST ? FIRST_HOST : host + 1;
      if (!this.ipsInUse.has(host)) break;
    }
    this.lastHost = host;
    this.ipsInUse.set(host, uid);
    this.ipByPod.set(uid, host);
    return flattened(`${this.prefix}${host}`);
  }

  private reservePodIP(uid: string, ip: string): void {
    if (!ip.startsWith(this.prefix)) return;
    const host = Number(ip.slice(this.prefix.length));
    if (!Number.isInteger(host) || host < FIRST_HOST || host > LAST_HOST) return;
    this.ipsInUse.set(host, uid);
    this.ipByPod.set(uid, host);
  }

  private releasePodIP(uid: string): void {
    const host = this.ipByPod.get(uid);
    if (host === undefined) return;
    this.ipByPod.delete(uid);
    if (this.ipsInUse.get(host) === uid) this.ipsInUse.delete(host);
  }

  private imagesChanged(): void {
    if (this.imagesTimer) return;
    const now = this.ctx.clock.now();
    const sincePhase = (now - this.statusPhaseMs) % NODE_STATUS_UPDATE_MS;
    const wait = NODE_STATUS_UPDATE_MS - ((sincePhase + NODE_STATUS_UPDATE_MS) % NODE_STATUS_UPDATE_MS);
    this.imagesTimer = this.ctx.clock.after(wait, () => {
      this.imagesTimer = undefined;
      this.writeNodeImages();
    });
  }

  private writeNodeImages(): void {
    const images = this.runtime.nodeImages();
    const store = this.ctx.store;
    const node = store.get<Node & KubeObject>('Node', undefined, this.name);
    if (!node) return;
    // The status with new images in one write: what mutate would store, without its deep copy of the status replaced here.
    const request: Node & KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: this.name }, status: { ...node.status, images } };
    store.update<Node & KubeObject>('Node', request, { fieldManager: 'kubelet', subresource: 'status' });
  }
}
