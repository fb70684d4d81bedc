/** Builders for scheduler tests: nodes and pods with just the fields the plugins read. */
import type { Container, KubeObject, Node, Pod, Taint, Toleration } from '../../../src/core/k8s';
import { NodeCache } from '../../../src/sim/scheduler/node-cache';
import type { NodeInfo } from '../../../src/sim/scheduler/node-info';
import { podSchedulingInfo, type PodSchedulingInfo } from '../../../src/sim/scheduler/pod-info';
import { computePodResources } from '../../../src/sim/scheduler/resources';
import { podHostPorts } from '../../../src/sim/scheduler/host-ports';
import { podAffinityTerms } from '../../../src/sim/scheduler/affinity-terms';

export type NodeObject = Node & KubeObject;
export type PodObject = Pod & KubeObject;

export interface NodeSpec {
  name: string;
  cpu?: string;
  memory?: string;
  pods?: string;
  ephemeralStorage?: string;
  extended?: Record<string, string>;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
}

export function makeNode(spec: NodeSpec): NodeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: spec.name, labels: { 'kubernetes.io/hostname': spec.name, ...spec.labels } },
    spec: { ...(spec.taints ? { taints: spec.taints } : {}), ...(spec.unschedulable ? { unschedulable: true } : {}) },
    status: {
      allocatable: { cpu: spec.cpu ?? '4', memory: spec.memory ?? '8Gi', pods: spec.pods ?? '110', 'ephemeral-storage': spec.ephemeralStorage ?? '100Gi', ...spec.extended },
      capacity: { cpu: spec.cpu ?? '4', memory: spec.memory ?? '8Gi', pods: spec.pods ?? '110' },
      ...(spec.images ? { images: spec.images } : {}),
    },
  };
}

export interface PodSpecInput {
  name: string;
  namespace?: string;
  uid?: string;
  cpu?: string;
  memory?: string;
  ephemeralStorage?: string;
  extended?: Record<string, string>;
  image?: string;
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  hostPort?: { port: number; ip?: string; protocol?: string };
  priority?: number;
  preemptionPolicy?: string;
  schedulerName?: string;
  affinity?: NonNullable<Pod['spec']>['affinity'];
  containers?: Container[];
  initContainers?: Container[];
  overhead?: Record<string, string>;
  labels?: Record<string, string>;
  topologySpreadConstraints?: NonNullable<Pod['spec']>['topologySpreadConstraints'];
  schedulingGates?: { name: string }[];
  terminating?: boolean;
}

let uidCounter = 0;

export function makePod(input: PodSpecInput): PodObject {
  const requests: Record<string, string> = {};
  if (input.cpu) requests.cpu = input.cpu;
  if (input.memory) requests.memory = input.memory;
  if (input.ephemeralStorage) requests['ephemeral-storage'] = input.ephemeralStorage;
  Object.assign(requests, input.extended);
  const container: Container = {
    name: 'app',
    image: input.image ?? 'nginx:1.25',
    ...(Object.keys(requests).length > 0 ? { resources: { requests } } : {}),
    ...(input.hostPort ? { ports: [{ containerPort: 80, hostPort: input.hostPort.port, hostIP: input.hostPort.ip, protocol: input.hostPort.protocol }] } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: input.name,
      namespace: input.namespace ?? 'default',
      uid: input.uid ?? `uid-${input.name}-${++uidCounter}`,
      ...(input.labels ? { labels: input.labels } : {}),
      ...(input.terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      containers: input.containers ?? [container],
      ...(input.initContainers ? { initContainers: input.initContainers } : {}),
      ...(input.overhead ? { overhead: input.overhead } : {}),
      ...(input.nodeName ? { nodeName: input.nodeName } : {}),
      ...(input.nodeSelector ? { nodeSelector: input.nodeSelector } : {}),
      ...(input.tolerations ? { tolerations: input.tolerations } : {}),
      ...(input.priority !== undefined ? { priority: input.priority } : {}),
      ...(input.preemptionPolicy ? { preemptionPolicy: input.preemptionPolicy } : {}),
      ...(input.schedulerName ? { schedulerName: input.schedulerName } : {}),
      ...(input.affinity ? { affinity: input.affinity } : {}),
      ...(input.topologySpreadConstraints ? { topologySpreadConstraints: input.topologySpreadConstraints } : {}),
      ...(input.schedulingGates ? { schedulingGates: input.schedulingGates } : {}),
    },
  };
}

export function info(input: PodSpecInput): PodSchedulingInfo {
  return podSchedulingInfo(makePod(input));
}

/** A cache holding `nodes`, with `placed` pods bound to their `nodeName`. */
export function cacheWith(nodes: NodeSpec[], placed: PodSpecInput[] = []): NodeCache {
  const cache = new NodeCache();
  for (const node of nodes) cache.addNode(makeNode(node));
  for (const input of placed) {
    const pod = makePod(input);
    const meta = pod.metadata!;
    cache.placePod(input.nodeName!, { uid: meta.uid!, namespace: meta.namespace!, name: meta.name!, priority: input.priority ?? 0, resources: computePodResources(pod.spec), hostPorts: podHostPorts(pod.spec), labels: meta.labels ?? {}, terminating: input.terminating === true, affinityTerms: podAffinityTerms(pod) }, false);
  }
  return cache;
}

export function nodeOf(cache: NodeCache, name: string): NodeInfo {
  const node = cache.node(name);
  if (!node) throw new Error(`no node ${name}`);
  return node;
}
