/**
 * `requests.cpu ≤ 3920m`: the largest request of one container that lets the pod fit on a node
 * every other filter passes, with its other resources (pod count, the other of cpu and memory,
 * ephemeral storage, extended resources) fitting there already. The container changed is the one
 * asking the most; the pod total (init containers, sidecars and overhead included) is recomputed
 * for each value tried, as NodeResourcesFit adds it up.
 */
import type { PodSpec } from '../../../core/k8s';
import { insufficientResources } from '../plugins/node-resources-fit';
import { computePodResources } from '../resources';
import { quantityMilliValue, quantityValue } from '../quantity';
import { F_RESOURCES, rowsBlockedOnlyBy } from './probe';
import type { Candidate, SuggestionInput } from './types';

type ResourceName = 'cpu' | 'memory';

const MI = 1024 * 1024;

/** The request as NodeResourcesFit counts it: cpu in millicores, memory in bytes. */
function amount(resource: ResourceName, spec: PodSpec): number {
  const totals = computePodResources(spec);
  return resource === 'cpu' ? totals.milliCPU : totals.memory;
}

function withRequest(spec: PodSpec, container: number, resource: ResourceName, quantity: string): PodSpec {
  const containers = (spec.containers ?? []).map((c, i) => (i === container ? { ...c, resources: { ...c.resources, requests: { ...c.resources?.requests, [resource]: quantity } } } : c));
  return { ...spec, containers };
}

/** A quantity no larger than `value` (millicores or bytes), in the unit people write. */
export function quantityAtMost(resource: ResourceName, value: number): string {
  if (resource === 'cpu') return value % 1000 === 0 ? String(value / 1000) : `${value}m`;
  if (value >= MI) {
    const mi = Math.floor(value / MI);
    return mi % 1024 === 0 ? `${mi / 1024}Gi` : `${mi}Mi`;
  }
  return value >= 1024 ? `${Math.floor(value / 1024)}Ki` : String(value);
}

function requestOf(resource: ResourceName, requests: Record<string, string | number> | undefined): number {
  const quantity = requests?.[resource];
  if (quantity === undefined) return 0;
  return resource === 'cpu' ? quantityMilliValue(quantity) : quantityValue(quantity);
}

/** The largest container value (in the resource's unit) keeping the pod's total within `room`, or -1. */
function largestFitting(spec: PodSpec, container: number, resource: ResourceName, room: number): number {
  const format = (value: number): string => (resource === 'cpu' ? `${value}m` : String(value));
  if (amount(resource, withRequest(spec, container, resource, format(0))) > room) return -1;
  let low = 0;
  let high = room;
  while (low < high) {
    const mid = Math.floor((low + high + 1) / 2);
    if (amount(resource, withRequest(spec, container, resource, format(mid))) <= room) low = mid;
    else high = mid - 1;
  }
  return low;
}

function suggestResource(input: SuggestionInput, resource: ResourceName): Candidate[] {
  const { probe, prepared, masks, pod } = input;
  const spec: PodSpec = pod.spec ?? { containers: [] };
  const only = `Insufficient ${resource}`;
  const nodes = probe.nodes;
  let room = -1;
  for (const row of rowsBlockedOnlyBy(masks, F_RESOURCES)) {
    const node = nodes[row];
    const reasons = insufficientResources(prepared.info, node);
    if (reasons.length !== 1 || reasons[0] !== only) continue;
    const free = resource === 'cpu' ? node.allocatable.milliCPU - node.requestedMilliCPU : node.allocatable.memory - node.requestedMemory;
    room = Math.max(room, free);
  }
  if (room < 0) return [];
  const containers = spec.containers ?? [];
  let container = -1;
  let most = -1;
  containers.forEach((c, i) => {
    const request = requestOf(resource, c.resources?.requests);
    if (request > most) {
      most = request;
      container = i;
    }
  });
  if (container < 0) return [];
  const largest = largestFitting(spec, container, resource, room);
  if (largest < 0) return [];
  const value = quantityAtMost(resource, largest);
  const path = `spec.containers[${container}].resources.requests.${resource}`;
  const which = containers.length > 1 ? ` of ${containers[container].name}` : '';
  return [{ kind: resource, summary: `requests.${resource}${which} ≤ ${value}`, path, edits: [{ op: 'set', path, value }] }];
}

export function suggestRequests(input: SuggestionInput): Candidate[] {
  return [...suggestResource(input, 'cpu'), ...suggestResource(input, 'memory')];
}
