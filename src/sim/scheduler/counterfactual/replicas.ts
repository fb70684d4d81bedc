/**
 * `replicas: 2 instead of 5`: for a Deployment, ReplicaSet, StatefulSet or ReplicationController
 * whose pods do not all fit, how many would be scheduled: the controller's pods already on a node,
 * plus the copies of this pod the nodes that take it now still have room for (pod count, requests,
 * one per node with a host port or a required anti-affinity to its own kind). A pod no node takes
 * and no sibling placed gets no replica suggestion (zero replicas is not a fix).
 */
import type { KubeObject } from '../../../core/k8s';
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { termMatchesPod } from '../affinity-terms';
import type { Candidate, SuggestionInput } from './types';

/** How many more copies of the pod `node` takes, at most `cap`. */
function copiesOn(info: PodSchedulingInfo, node: NodeInfo, onePerNode: boolean, cap: number): number {
  const a = node.allocatable;
  const r = info.resources;
  let copies = Math.min(cap, a.pods - node.podCount);
  if (r.milliCPU > 0) copies = Math.min(copies, Math.floor((a.milliCPU - node.requestedMilliCPU) / r.milliCPU));
  if (r.memory > 0) copies = Math.min(copies, Math.floor((a.memory - node.requestedMemory) / r.memory));
  if (r.ephemeralStorage > 0) copies = Math.min(copies, Math.floor((a.ephemeralStorage - node.requestedEphemeralStorage) / r.ephemeralStorage));
  for (const [name, value] of r.scalar) copies = Math.min(copies, Math.floor(((a.scalar.get(name) ?? 0) - (node.requestedScalar.get(name) ?? 0)) / value));
  if (onePerNode) copies = Math.min(copies, 1);
  return Math.max(0, copies);
}

function keepsOnePerNode(info: PodSchedulingInfo): boolean {
  if (info.hostPorts.length > 0) return true;
  const self = { namespace: info.namespace, labels: info.labels, terminating: false };
  return (info.affinityTerms ?? []).some((term) => term.kind === 'requiredAntiAffinity' && termMatchesPod(term, self, {}));
}

function desiredReplicas(scaled: KubeObject): number {
  const replicas = (scaled.spec as { replicas?: number } | undefined)?.replicas;
  return replicas ?? 1;
}

export function suggestReplicas(input: SuggestionInput): Candidate[] {
  const { owner, probe, masks, prepared, siblings } = input;
  const { controller, scaled } = owner;
  if (!controller || !scaled) return [];
  const desired = desiredReplicas(scaled);
  const used = new Set<string>();
  for (const pod of siblings) if (pod.spec?.nodeName) used.add(pod.spec.nodeName);
  let fitting = siblings.filter((pod) => pod.spec?.nodeName).length;
  const onePerNode = keepsOnePerNode(prepared.info);
  for (let row = 0; row < masks.length && fitting < desired; row++) {
    if (masks[row] !== 0) continue;
    const node = probe.nodes[row];
    const copies = copiesOn(prepared.info, node, onePerNode, desired - fitting);
    if (copies > 0) used.add(node.name);
    fitting += copies;
  }
  if (fitting === 0 || fitting >= desired) return [];
  return [
    {
      kind: 'replicas',
      summary: `replicas: ${fitting} instead of ${desired}`,
      target: { kind: scaled.kind ?? '', namespace: scaled.metadata?.namespace ?? 'default', name: scaled.metadata?.name ?? '' },
      path: 'spec.replicas',
      edits: [{ op: 'set', path: 'spec.replicas', value: fitting }],
      nodes: used.size,
    },
  ];
}
