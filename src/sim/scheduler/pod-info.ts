/**
 * Everything the plugins read from a pod, computed once per pod version (upstream computes the same
 * in PreFilter/PreScore), so the per-node loop only compares numbers.
 */
import type { OwnerReference, Pod, Toleration } from '../../core/k8s';
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { podAffinityTerms, type AffinityTerm } from './affinity-terms';
import { anyTermMatches as anyMatches, compilePreferredTerms, compileTerm, type CompiledTerm, type SelectableNode, type WeightedTerm } from './node-selector';
import { podHostPorts, type HostPort } from './host-ports';
import { computePodResources, type PodResources } from './resources';
import { tolerationsTolerateTaint } from './tolerations';
import type { PodVolumes } from './plugins/volume-binding';

export interface PodSchedulingInfo {
  pod: Pod;
  uid: string;
  namespace: string;
  name: string;
  priority: number;
  resources: PodResources;
  /** True when the pod requests no cpu, memory, ephemeral-storage or scalar resource (only the pod count is checked). */
  requestsNothing: boolean;
  hostPorts: HostPort[];
  tolerations: Toleration[];
  /** Tolerations with effect PreferNoSchedule or empty (TaintToleration's PreScore). */
  preferNoScheduleTolerations: Toleration[];
  toleratesUnschedulable: boolean;
  nodeName: string;
  nodeSelector: [string, string][];
  /** undefined: no required node affinity. */
  requiredTerms: CompiledTerm[] | undefined;
  preferredTerms: WeightedTerm[];
  /** Normalized image names of init and regular containers (ImageLocality). */
  images: string[];
  preemptionPolicyNever: boolean;
  /**
   * The pod's claims as VolumeBinding's PreFilter read them for the current attempt (set by the
   * scheduler before each walk); undefined for a pod without PersistentVolumeClaims.
   */
  volumes?: PodVolumes;
  labels: Readonly<Record<string, string>>;
  topologySpreadConstraints: readonly TopologySpreadConstraint[];
  /** Pod-affinity and anti-affinity terms (InterPodAffinity); undefined for most pods. */
  affinityTerms: readonly AffinityTerm[] | undefined;
  /** The controller owner reference (PodTopologySpread's default constraints use its selector). */
  controller: OwnerReference | undefined;
}

// A module-local copy for the per-node path (see plugins/types.ts on imported bindings).
const anyTermMatches = anyMatches;

export const UNSCHEDULABLE_TAINT = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' } as const;

/** ImageLocality's `normalizedImageName`: an image without a tag gets `:latest`. */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

export function podSchedulingInfo(pod: Pod): PodSchedulingInfo {
  const spec = pod.spec;
  const meta = pod.metadata ?? {};
  const resources = computePodResources(spec);
  const tolerations = spec?.tolerations ?? [];
  const affinity = spec?.affinity?.nodeAffinity;
  const required = affinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const images: string[] = [];
  for (const container of spec?.initContainers ?? []) if (container.image) images.push(normalizedImageName(container.image));
  for (const container of spec?.containers ?? []) if (container.image) images.push(normalizedImageName(container.image));
  return {
    pod,
    uid: meta.uid ?? '',
    namespace: meta.namespace ?? 'default',
    name: meta.name ?? '',
    priority: spec?.priority ?? 0,
    resources,
    requestsNothing: resources.milliCPU === 0 && resources.memory === 0 && resources.ephemeralStorage === 0 && resources.scalar.length === 0,
    hostPorts: podHostPorts(spec),
    tolerations,
    preferNoScheduleTolerations: tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule'),
    toleratesUnschedulable: tolerationsTolerateTaint(tolerations, UNSCHEDULABLE_TAINT),
    nodeName: spec?.nodeName ?? '',
    nodeSelector: Object.entries(spec?.nodeSelector ?? {}),
    requiredTerms: required ? (required.nodeSelectorTerms ?? []).map(compileTerm) : undefined,
    preferredTerms: compilePreferredTerms(affinity?.preferredDuringSchedulingIgnoredDuringExecution),
    images,
    preemptionPolicyNever: spec?.preemptionPolicy === 'Never',
    labels: meta.labels ?? {},
    topologySpreadConstraints: spec?.topologySpreadConstraints ?? [],
    affinityTerms: podAffinityTerms(pod),
    controller: meta.ownerReferences?.find((ref) => ref.controller === true),
  };
}

/** NodeAffinity's required part: nodeSelector and requiredDuringScheduling terms must both match. */
export function matchesRequiredNodeAffinity(pod: PodSchedulingInfo, node: SelectableNode): boolean {
  for (const [key, value] of pod.nodeSelector) if (node.labels[key] !== value) return false;
  return pod.requiredTerms === undefined || anyTermMatches(pod.requiredTerms, node);
}
