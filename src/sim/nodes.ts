/**
 * Worker nodes as a registered kubelet reports them (core/v1 Node): the well-known labels,
 * capacity and allocatable (kube-reserved and the eviction threshold taken off, as managed
 * clusters compute them), the four kubelet conditions, addresses, node info, the pod CIDR the
 * kubelet hands pod IPs out of, and the images already on the machine (used by the scheduler's
 * ImageLocality and by the kubelet's "already present" check).
 */
import type { KubeObject, Node, NodeCondition, Taint } from '../core/k8s';
import { hex64, imageId, imageSizeBytes, normalizedImageName, parseImageReference } from './kubelet/images';
import { rfc3339 } from './store/object-utils';

export type NodeObject = Node & KubeObject;

export interface NodeOptions {
  /** Position in the cluster (0-based): decides IPs, pod CIDR and zone. Default: from a `-<n>` name suffix. */
  index?: number;
  /**
   * Zones spread round-robin over the nodes (`topology.kubernetes.io/zone` and `…/region`, with a
   * cloud instance type). Without them the nodes are labelled as kind labels its nodes: no zone,
   * region or instance type.
   */
  zones?: string[];
  region?: string;
  instanceType?: string;
  /** CPU cores (default 4). */
  cpu?: number;
  /** Memory in GiB (default 16). */
  memoryGiB?: number;
  /** Max pods (default 110). */
  maxPods?: number;
  /** Ephemeral storage in GiB (default 100). */
  ephemeralStorageGiB?: number;
  taints?: Taint[];
  labels?: Record<string, string>;
  unschedulable?: boolean;
  /** Images on the machine besides the node's own system images. */
  images?: string[];
  /** Virtual time of the node's registration (condition timestamps), ms since the epoch. */
  now?: number;
  kubeletVersion?: string;
}

export const DEFAULT_KUBELET_VERSION = 'v1.32.2';
const CONTAINERD_VERSION = 'containerd://1.7.24';
const DEFAULT_INSTANCE_TYPE = 'm5.xlarge';

/** `count` zones of one region, as a cloud names them: us-east-1a, us-east-1b, … */
export function zoneNames(count: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < count; i++) names.push(`us-east-1${i < 26 ? String.fromCharCode(97 + i) : `z${i}`}`);
  return names;
}

/** Images every node has: the pod sandbox, kube-proxy and the CNI daemon (kind's node image preloads these). */
function systemImages(kubeletVersion: string): string[] {
  return ['registry.k8s.io/pause:3.10', `registry.k8s.io/kube-proxy:${kubeletVersion}`, 'docker.io/kindest/kindnetd:v20241212-9f82dd49'];
}

function indexFromName(name: string): number {
  const match = /-(\d+)$/.exec(name);
  return match ? Math.max(0, Number(match[1]) - 1) : 0;
}

/** 172.18.0.0/16 as kind's docker network: node 0 is 172.18.0.2. */
export function nodeInternalIP(index: number): string {
  const host = index + 2;
  return `172.18.${(host >> 8) & 255}.${host & 255}`;
}

/**
 * A /24 per node, starting at 10.244.0.0/24 as kind and flannel do; past 10.255.255.0/24 the
 * blocks continue from 10.0.0.0/24, so up to 65,536 nodes get distinct ranges.
 */
export function nodePodCIDR(index: number): string {
  const block = (244 * 256 + index) % 65_536;
  return `10.${block >> 8}.${block & 255}.0/24`;
}

function uuidFrom(text: string): string {
  const hex = hex64(text);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface NodeImageEntry {
  names: string[];
  sizeBytes: number;
}

const entryCache = new Map<string, NodeImageEntry | null>();

function nodeImageEntry(image: string): NodeImageEntry | null {
  let entry = entryCache.get(image);
  if (entry === undefined) {
    const parsed = parseImageReference(image);
    const ref = parsed.ok ? parsed.reference : undefined;
    entry = ref ? { names: ref.digest ? [imageId(ref)] : [imageId(ref), normalizedImageName(ref)], sizeBytes: imageSizeBytes(ref) } : null;
    if (entryCache.size > 1000) entryCache.clear();
    entryCache.set(image, entry);
  }
  return entry;
}

/** Node status image entries, largest first: `[repo@sha256:…, repo:tag]` with the image size. */
export function nodeImageEntries(images: string[]): NodeImageEntry[] {
  const entries: NodeImageEntry[] = [];
  for (const image of images) {
    const entry = nodeImageEntry(image);
    // Each node gets its own objects: the store takes ownership of what it is given.
    if (entry) entries.push({ names: [...entry.names], sizeBytes: entry.sizeBytes });
  }
  return entries.sort((a, b) => b.sizeBytes - a.sizeBytes);
}

/**
 * Allocatable as EKS computes it: CPU reserves 6 % of the first core, 1 % of the second, 0.5 % of
 * the third and fourth, 0.25 % of the rest; memory reserves 255 MiB + 11 MiB per pod, plus the
 * 100 MiB hard eviction threshold; ephemeral storage keeps 10 % for eviction.
 */
function allocatable(cpu: number, memoryKi: number, maxPods: number, storageKi: number): Record<string, string> {
  const shares = [0.06, 0.01, 0.005, 0.005];
  let reservedMilli = 0;
  for (let core = 0; core < cpu; core++) reservedMilli += 1000 * (shares[core] ?? 0.0025);
  const reservedMemoryKi = (255 + 11 * maxPods + 100) * 1024;
  return {
    cpu: `${Math.round(cpu * 1000 - reservedMilli)}m`,
    'ephemeral-storage': String(Math.floor(storageKi * 1024 * 0.9)),
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: `${memoryKi - reservedMemoryKi}Ki`,
    pods: String(maxPods),
  };
}

function nodeCondition(type: string, status: 'True' | 'False', reason: string, message: string, time: string): NodeCondition {
  return { type, status, lastHeartbeatTime: time, lastTransitionTime: time, reason, message };
}

export function makeNode(name: string, options: NodeOptions = {}): NodeObject {
  const index = options.index ?? indexFromName(name);
  const zones = options.zones ?? [];
  const topology: Record<string, string> = {};
  if (zones.length > 0) {
    const zone = zones[index % zones.length];
    const instanceType = options.instanceType ?? DEFAULT_INSTANCE_TYPE;
    topology['beta.kubernetes.io/instance-type'] = instanceType;
    topology['node.kubernetes.io/instance-type'] = instanceType;
    topology['topology.kubernetes.io/region'] = options.region ?? zone.replace(/-?[a-z]$/, '');
    topology['topology.kubernetes.io/zone'] = zone;
  } else if (options.instanceType) {
    topology['beta.kubernetes.io/instance-type'] = options.instanceType;
    topology['node.kubernetes.io/instance-type'] = options.instanceType;
  }
  const kubeletVersion = options.kubeletVersion ?? DEFAULT_KUBELET_VERSION;
  const cpu = options.cpu ?? 4;
  const maxPods = options.maxPods ?? 110;
  // Capacity is what the kernel reports: a little under the nominal size.
  const memoryKi = Math.round((options.memoryGiB ?? 16) * 1024 * 1024 * 0.977);
  const storageKi = Math.round((options.ephemeralStorageGiB ?? 100) * 1024 * 1024 * 0.98);
  const time = rfc3339(options.now ?? Date.UTC(2026, 0, 1, 12, 0, 0));
  const podCIDR = nodePodCIDR(index);
  const spec: NonNullable<Node['spec']> = { podCIDR, podCIDRs: [podCIDR], providerID: `kind://docker/kind/${name}` };
  if (options.taints && options.taints.length > 0) spec.taints = options.taints;
  if (options.unschedulable) spec.unschedulable = true;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        ...topology,
        ...options.labels,
      },
      annotations: {
        'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec,
    status: {
      addresses: [
        { type: 'InternalIP', address: nodeInternalIP(index) },
        { type: 'Hostname', address: name },
      ],
      allocatable: allocatable(cpu, memoryKi, maxPods, storageKi),
      capacity: {
        cpu: String(cpu),
        'ephemeral-storage': `${storageKi}Ki`,
        'hugepages-1Gi': '0',
        'hugepages-2Mi': '0',
        memory: `${memoryKi}Ki`,
        pods: String(maxPods),
      },
      conditions: [
        nodeCondition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', time),
        nodeCondition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', time),
        nodeCondition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', time),
        nodeCondition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', time),
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images: nodeImageEntries([...systemImages(kubeletVersion), ...(options.images ?? [])]),
      nodeInfo: {
        architecture: 'amd64',
        bootID: uuidFrom(`boot/${name}`),
        containerRuntimeVersion: CONTAINERD_VERSION,
        kernelVersion: '6.8.0-1021-aws',
        kubeProxyVersion: '',
        kubeletVersion,
        machineID: hex64(`machine/${name}`).slice(0, 32),
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        systemUUID: uuidFrom(`system/${name}`),
      },
      runtimeHandlers: [
        { name: 'runc', features: { recursiveReadOnlyMounts: true } },
        { name: '', features: { recursiveReadOnlyMounts: true } },
      ],
    },
  };
}

/** `count` nodes named `node-1` … `node-<count>`, zones (if any) spread round-robin. */
export function makeNodes(count: number, options: Omit<NodeOptions, 'index'> = {}): NodeObject[] {
  const nodes: NodeObject[] = [];
  for (let i = 0; i < count; i++) nodes.push(makeNode(`node-${i + 1}`, { ...options, index: i }));
  return nodes;
}
