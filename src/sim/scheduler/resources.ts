/**
 * Resource arithmetic as the scheduler does it (component-helpers `PodRequests`, framework
 * `Resource`): a pod requests the sum of its containers, or more when an init container needs
 * more (restartable "sidecar" init containers add to the sum), plus the RuntimeClass overhead.
 */
import type { Node, PodSpec } from '../../core/k8s';
import { quantityMilliValue, quantityValue } from './quantity';

/** The defaults the scoring plugins substitute for a missing cpu/memory request (`schedutil.DefaultMilliCPURequest`, `DefaultMemoryRequest`). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export interface PodResources {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  /** Extended resources, hugepages and other scalar resources the pod requests (non-zero only). */
  scalar: readonly (readonly [string, number])[];
  /** cpu/memory with the non-zero defaults applied per container, for scoring. */
  nonZeroMilliCPU: number;
  nonZeroMemory: number;
}

export interface NodeAllocatable {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  pods: number;
  scalar: ReadonlyMap<string, number>;
}

/** `schedutil.IsScalarResourceName`: extended (`vendor/x`), prefixed native (`*.kubernetes.io/x`), hugepages, attachable volumes. */
export function isScalarResourceName(name: string): boolean {
  return name.includes('/') || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-');
}

type Amounts = Map<string, number>;
type ResourceList = Record<string, string | number> | undefined;

function amountOf(name: string, quantity: string | number): number {
  return name === 'cpu' ? quantityMilliValue(quantity) : quantityValue(quantity);
}

function toAmounts(list: ResourceList, nonMissingDefaults: boolean): Amounts {
  const out: Amounts = new Map();
  if (list) for (const name in list) out.set(name, amountOf(name, list[name]));
  if (nonMissingDefaults) {
    if (!out.has('cpu')) out.set('cpu', DEFAULT_MILLI_CPU_REQUEST);
    if (!out.has('memory')) out.set('memory', DEFAULT_MEMORY_REQUEST);
  }
  return out;
}

function add(into: Amounts, from: Amounts): void {
  for (const [name, value] of from) into.set(name, (into.get(name) ?? 0) + value);
}

function maxInto(into: Amounts, from: Amounts): void {
  for (const [name, value] of from) {
    const current = into.get(name);
    if (current === undefined || value > current) into.set(name, value);
  }
}

/** component-helpers `PodRequests` (without pod-level resources or in-place resize). */
function podRequestAmounts(spec: PodSpec, nonMissingDefaults: boolean): Amounts {
  const requests: Amounts = new Map();
  for (const container of spec.containers ?? []) add(requests, toAmounts(container.resources?.requests, nonMissingDefaults));
  const restartableInit: Amounts = new Map();
  const initMax: Amounts = new Map();
  for (const container of spec.initContainers ?? []) {
    const own = toAmounts(container.resources?.requests, nonMissingDefaults);
    let effective: Amounts;
    if (container.restartPolicy === 'Always') {
      add(requests, own);
      add(restartableInit, own);
      effective = restartableInit;
    } else {
      effective = new Map(own);
      add(effective, restartableInit);
    }
    maxInto(initMax, effective);
  }
  maxInto(requests, initMax);
  if (spec.overhead) add(requests, toAmounts(spec.overhead, false));
  return requests;
}

/** The common shape (regular containers only, no overhead) without the general machinery: this runs for every pod. */
function simplePodResources(spec: PodSpec): PodResources | undefined {
  let milliCPU = 0;
  let memory = 0;
  let ephemeralStorage = 0;
  let nonZeroMilliCPU = 0;
  let nonZeroMemory = 0;
  for (const container of spec.containers ?? []) {
    const requests = container.resources?.requests;
    let cpu: number | undefined;
    let mem: number | undefined;
    if (requests) {
      for (const name in requests) {
        if (name === 'cpu') cpu = quantityMilliValue(requests[name]);
        else if (name === 'memory') mem = quantityValue(requests[name]);
        else if (name === 'ephemeral-storage') ephemeralStorage += quantityValue(requests[name]);
        else if (isScalarResourceName(name)) return undefined;
      }
    }
    milliCPU += cpu ?? 0;
    memory += mem ?? 0;
    nonZeroMilliCPU += cpu ?? DEFAULT_MILLI_CPU_REQUEST;
    nonZeroMemory += mem ?? DEFAULT_MEMORY_REQUEST;
  }
  return { milliCPU, memory, ephemeralStorage, scalar: [], nonZeroMilliCPU, nonZeroMemory };
}

export function computePodResources(spec: PodSpec | undefined): PodResources {
  if (!spec) return { milliCPU: 0, memory: 0, ephemeralStorage: 0, scalar: [], nonZeroMilliCPU: DEFAULT_MILLI_CPU_REQUEST, nonZeroMemory: DEFAULT_MEMORY_REQUEST };
  if (!spec.initContainers?.length && !spec.overhead) {
    const simple = simplePodResources(spec);
    if (simple) return simple;
  }
  const requests = podRequestAmounts(spec, false);
  const nonZero = podRequestAmounts(spec, true);
  const scalar: [string, number][] = [];
  for (const [name, value] of requests) if (value !== 0 && isScalarResourceName(name)) scalar.push([name, value]);
  return {
    milliCPU: requests.get('cpu') ?? 0,
    memory: requests.get('memory') ?? 0,
    ephemeralStorage: requests.get('ephemeral-storage') ?? 0,
    scalar,
    nonZeroMilliCPU: nonZero.get('cpu') ?? 0,
    nonZeroMemory: nonZero.get('memory') ?? 0,
  };
}

export function nodeAllocatable(node: Node): NodeAllocatable {
  const list = node.status?.allocatable ?? {};
  const scalar = new Map<string, number>();
  for (const name in list) if (isScalarResourceName(name)) scalar.set(name, quantityValue(list[name]));
  return {
    milliCPU: quantityMilliValue(list.cpu),
    memory: quantityValue(list.memory),
    ephemeralStorage: quantityValue(list['ephemeral-storage']),
    pods: quantityValue(list.pods),
    scalar,
  };
}
