/**
 * Every node's kubelet behind one subscription per kind. A real kubelet watches the pods bound
 * to its node (`fieldSelector=spec.nodeName=<node>`); the fleet watches all pods once and routes
 * each change by spec.nodeName, so 5,000 nodes cost one listener, not 5,000 filters per change.
 * Watch deliveries are recorded for bound pods only, as the kubelets' filtered watches see them.
 */
import type { KubeObject, Node } from '../../core/k8s';
import { informer, type SimContext } from '../context';
import type { StoreChange } from '../store/types';
import { NodeKubelet } from './kubelet';
import type { PodObject } from './pod-worker';

function nodeNameOf(object: KubeObject | undefined): string | undefined {
  return (object?.spec as { nodeName?: string } | undefined)?.nodeName || undefined;
}

export class KubeletFleet {
  private readonly kubelets = new Map<string, NodeKubelet>();
  private readonly unsubscribers: Array<() => void> = [];

  constructor(private readonly ctx: SimContext) {}

  /** Subscribe to nodes and pods, and take over the pods already bound to existing nodes. */
  start(): void {
    if (this.unsubscribers.length > 0) return;
    this.unsubscribers.push(informer(this.ctx, 'kubelet', 'Node', (change) => this.nodeChanged(change)));
    this.unsubscribers.push(this.ctx.store.subscribe('Pod', (change) => this.podChanged(change)));
    for (const node of this.ctx.store.list<Node & KubeObject>('Node').items) this.addNode(node);
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    for (const kubelet of this.kubelets.values()) kubelet.stop();
    this.kubelets.clear();
  }

  /** The kubelet of one node, if that node exists. */
  kubelet(nodeName: string): NodeKubelet | undefined {
    return this.kubelets.get(nodeName);
  }

  /** A copied pod bound to one of these nodes, already started there: see NodeKubelet.adopt. */
  adopt(pod: PodObject): void {
    const nodeName = nodeNameOf(pod);
    if (nodeName) this.kubelets.get(nodeName)?.adopt(pod);
  }

  private addNode(node: Node): void {
    const name = node.metadata?.name ?? '';
    if (this.kubelets.has(name)) return;
    const kubelet = new NodeKubelet(this.ctx, node);
    this.kubelets.set(name, kubelet);
    for (const pod of this.ctx.store.podsOnNode(name)) kubelet.podChanged(pod as PodObject);
  }

  private nodeChanged(change: StoreChange): void {
    const node = change.object as Node;
    if (change.type === 'ADDED') this.addNode(node);
    else if (change.type === 'DELETED') {
      const name = node.metadata?.name ?? '';
      this.kubelets.get(name)?.stop();
      this.kubelets.delete(name);
    }
  }

  private podChanged(change: StoreChange): void {
    const nodeName = nodeNameOf(change.object);
    const previousNode = nodeNameOf(change.previous);
    if (previousNode && previousNode !== nodeName) this.kubelets.get(previousNode)?.podDeleted(change.previous!);
    if (!nodeName) return;
    const kubelet = this.kubelets.get(nodeName);
    if (!kubelet) return;
    this.recordDelivery(change);
    if (change.type === 'DELETED') kubelet.podDeleted(change.object);
    else kubelet.podChanged(change.object as PodObject);
  }

  private recordDelivery(change: StoreChange): void {
    if (!this.ctx.internals.recordsWatchDeliveries) return;
    const meta = change.object.metadata ?? {};
    if ((this.ctx.internals.followsObject?.('Pod', change.object) ?? 'all') !== 'all') return;
    this.ctx.internals.record({
      type: 'watchDelivered',
      time: this.ctx.clock.now(),
      component: 'kubelet',
      eventType: change.type === 'MODIFIED' && !nodeNameOf(change.previous) ? 'ADDED' : change.type,
      resourceVersion: String(change.resourceVersion),
      object: { kind: 'Pod', namespace: meta.namespace, name: meta.name ?? '', uid: meta.uid },
    });
  }
}
