/**
 * DaemonSet tests run the whole simulated cluster (store with admission, controllers, scheduler,
 * kubelets), since daemon pods are bound by the scheduler and made ready by the kubelets.
 */
import type { KubeObject, Node, Pod, Taint } from '../../../../src/core/k8s';
import type { DaemonSetObject } from '../../../../src/sim/controllers/daemon/util/daemonset-util';
import { makeNode } from '../../../../src/sim/nodes';
import { Simulator } from '../../../../src/sim/simulator';

export type PodObject = Pod & KubeObject;
export type NodeObject = Node & KubeObject;
type Json = Record<string, unknown>;

export function daemonSet(name: string, mutate: (spec: Json, podSpec: Json) => void = () => undefined, namespace = 'default'): DaemonSetObject {
  const podSpec: Json = { containers: [{ name: 'agent', image: 'nginx:1.25', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] };
  const spec: Json = { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec } };
  mutate(spec, podSpec);
  return { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace }, spec } as unknown as DaemonSetObject;
}

export class Cluster {
  readonly sim: Simulator;
  constructor(nodes = 3) {
    // Zones as a cloud labels them: the affinity tests select nodes by zone.
    this.sim = new Simulator({ nodes, zones: 3, seed: 7 });
  }

  get store() {
    return this.sim.store;
  }

  apply(object: KubeObject): void {
    this.sim.apply(object);
  }

  ds(name: string, namespace = 'default'): DaemonSetObject {
    return this.store.read<DaemonSetObject>('DaemonSet', namespace, name);
  }

  /** The DaemonSet's pods that are not being deleted. */
  pods(name: string, namespace = 'default'): PodObject[] {
    const ds = this.ds(name, namespace);
    return this.store.ownedBy<PodObject>('Pod', ds.metadata?.uid ?? '').filter((pod) => !pod.metadata?.deletionTimestamp);
  }

  /** node name → how many live pods of the DaemonSet are bound there. */
  podsByNode(name: string, namespace = 'default'): Record<string, number> {
    const out: Record<string, number> = {};
    for (const pod of this.pods(name, namespace)) {
      const node = pod.spec?.nodeName ?? '(pending)';
      out[node] = (out[node] ?? 0) + 1;
    }
    return out;
  }

  /** Run until `done` holds; fails with `what` when it does not within `maxMs` of virtual time. */
  runUntil(done: () => boolean, what: string, maxMs = 120_000): void {
    const outcome = this.sim.runUntil(done, maxMs);
    if (outcome !== 'done') throw new Error(`${what}: ${outcome}; pods ${JSON.stringify(this.store.list<PodObject>('Pod').items.map((p) => [p.metadata?.name, p.spec?.nodeName, p.status?.phase]))}`);
  }

  run(ms: number): void {
    this.sim.runUntil(() => false, ms);
  }

  /** Run until the DaemonSet reports `desired` pods, all of them up to date, ready and available. */
  settle(name: string, desired: number, namespace = 'default'): void {
    this.runUntil(() => {
      const ds = this.store.get<DaemonSetObject>('DaemonSet', namespace, name);
      const status = ds?.status;
      return (
        status !== undefined &&
        status.observedGeneration === ds?.metadata?.generation &&
        status.desiredNumberScheduled === desired &&
        status.currentNumberScheduled === desired &&
        (status.updatedNumberScheduled ?? 0) === desired &&
        status.numberReady === desired &&
        (status.numberAvailable ?? 0) === desired &&
        status.numberMisscheduled === 0 &&
        this.pods(name, namespace).length === desired
      );
    }, `${name} did not settle on ${desired} pods`);
  }

  addNode(name: string, options: { taints?: Taint[]; labels?: Record<string, string>; unschedulable?: boolean } = {}): void {
    this.store.create('Node', makeNode(name, { ...options, now: this.sim.clock.now() }), { fieldManager: 'kubelet' });
  }

  updateNode(name: string, change: (node: NodeObject) => void): void {
    this.store.mutate<NodeObject>('Node', undefined, name, change, { fieldManager: 'kubectl' });
  }

  updateTemplate(name: string, change: (podSpec: Json) => void, namespace = 'default'): void {
    this.store.mutate<DaemonSetObject>('DaemonSet', namespace, name, (copy) => change(copy.spec!.template.spec as unknown as Json), { fieldManager: 'kubectl' });
  }

  /** `reason: message` of the events recorded about an object. */
  events(kind: string, name: string): string[] {
    return this.store
      .list<KubeObject & { involvedObject?: { kind?: string; name?: string }; regarding?: { kind?: string; name?: string }; reason?: string; message?: string; note?: string }>('Event')
      .items.filter((e) => (e.involvedObject ?? e.regarding)?.kind === kind && (e.involvedObject ?? e.regarding)?.name === name)
      .map((e) => `${e.reason ?? ''}: ${e.message ?? e.note ?? ''}`);
  }

  /**
   * Watch that no node ever holds two live pods of one DaemonSet (one per node is the controller's
   * contract when it does not surge). Returns the violations seen.
   */
  watchOnePodPerNode(): string[] {
    const violations: string[] = [];
    this.store.subscribe('Pod', (change) => {
      const pod = change.object as PodObject;
      const ref = pod.metadata?.ownerReferences?.find((r) => r.controller && r.kind === 'DaemonSet');
      if (!ref || change.type === 'DELETED' || !pod.spec?.nodeName) return;
      const siblings = this.store.ownedBy<PodObject>('Pod', ref.uid).filter((p) => !p.metadata?.deletionTimestamp && p.spec?.nodeName === pod.spec?.nodeName && !['Succeeded', 'Failed'].includes(p.status?.phase ?? ''));
      if (siblings.length > 1) violations.push(`${ref.name} has ${siblings.length} pods on ${pod.spec.nodeName} at ${this.sim.clock.now()}`);
    });
    return violations;
  }
}

export const CONTROL_PLANE_TAINT: Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
