/**
 * The DaemonSet helpers of pkg/controller/daemon/util/daemonset_util.go: the tolerations every
 * daemon pod gets, the pod template with its revision labels, surge and unavailability counts,
 * and the `matchFields metadata.name` node affinity that pins a daemon pod to its node while the
 * default scheduler binds it.
 */
import type { Affinity, NodeSelectorTerm } from 'kubernetes-types/core/v1';
import type { DaemonSet, KubeObject, PodSpec, Toleration } from '../../../../core/k8s';
import { POD_REVISION_LABEL } from '../../history/controller-history';
import type { PodObject, PodTemplateSpec } from '../../controller-types';
import { valueFromIntOrPercent } from '../../deployment-util';
import { DAEMONSET_TEMPLATE_GENERATION_ANNOTATION } from '../../../store/defaults';

export type DaemonSetObject = DaemonSet & KubeObject;

/** `extensions.DaemonSetTemplateGenerationKey`: the pod label holding the template generation. */
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** `metav1.ObjectNameField`. */
export const OBJECT_NAME_FIELD = 'metadata.name';

/** The tolerations `AddOrUpdateDaemonPodTolerations` adds, in its order; the last only for hostNetwork pods. */
const DAEMON_POD_TOLERATIONS: readonly Toleration[] = Object.freeze([
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
].map((t) => Object.freeze(t)));
const NETWORK_UNAVAILABLE_TOLERATION: Toleration = Object.freeze({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });

/** `Toleration.MatchToleration`: same key, operator, value and effect. */
function matchToleration(a: Toleration, b: Toleration): boolean {
  return (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') && (a.effect ?? '') === (b.effect ?? '');
}

/** `v1helper.AddOrUpdateTolerationInPodSpec`: replaces a matching toleration, or appends. */
function addOrUpdateToleration(tolerations: Toleration[], toleration: Toleration): Toleration[] {
  const index = tolerations.findIndex((existing) => matchToleration(existing, toleration));
  if (index < 0) return [...tolerations, toleration];
  const updated = [...tolerations];
  updated[index] = toleration;
  return updated;
}

/** `AddOrUpdateDaemonPodTolerations`: daemon pods survive node problems and cordoning. */
export function daemonPodTolerations(spec: PodSpec | undefined): Toleration[] {
  let tolerations = spec?.tolerations ?? [];
  for (const toleration of DAEMON_POD_TOLERATIONS) tolerations = addOrUpdateToleration(tolerations, toleration);
  if (spec?.hostNetwork) tolerations = addOrUpdateToleration(tolerations, NETWORK_UNAVAILABLE_TOLERATION);
  return tolerations;
}

/** `GetTemplateGeneration`: the deprecated annotation's value, undefined when absent or not a number. */
export function getTemplateGeneration(ds: DaemonSetObject): number | undefined {
  const annotation = ds.metadata?.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION];
  if (annotation === undefined || !/^[+-]?\d+$/.test(annotation)) return undefined;
  return Number(annotation);
}

/** `CreatePodTemplate`: the template with the daemon tolerations, the generation label and the revision hash label. */
export function createPodTemplate(template: PodTemplateSpec, generation: number | undefined, hash: string): PodTemplateSpec {
  const labels: Record<string, string> = { ...template.metadata?.labels };
  if (generation !== undefined) labels[POD_TEMPLATE_GENERATION_LABEL] = String(generation);
  if (hash.length > 0) labels[POD_REVISION_LABEL] = hash;
  const spec = { ...(template.spec ?? { containers: [] }) };
  spec.tolerations = daemonPodTolerations(template.spec);
  return { ...template, metadata: { ...template.metadata, labels }, spec };
}

/** `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes one term naming `nodeName`. */
export function replaceDaemonSetPodNodeNameNodeAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
  const terms: NodeSelectorTerm[] = [{ matchFields: [{ key: OBJECT_NAME_FIELD, operator: 'In', values: [nodeName] }] }];
  const nodeAffinity = affinity?.nodeAffinity;
  const required = nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return { ...affinity, nodeAffinity: { ...nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { ...required, nodeSelectorTerms: terms } } };
}

/** `GetTargetNodeName`: spec.nodeName, or the node a pending daemon pod's matchFields names. */
export function getTargetNodeName(pod: PodObject): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const requirement of term.matchFields ?? []) {
      if (requirement.key === OBJECT_NAME_FIELD && requirement.operator === 'In') return requirement.values?.length === 1 ? requirement.values[0] : undefined;
    }
  }
  return undefined;
}

/** `IsPodUpdated`: the pod carries the current revision hash or the current template generation. */
export function isPodUpdated(pod: PodObject, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata?.labels;
  if (hash.length > 0 && labels?.[POD_REVISION_LABEL] === hash) return true;
  return generation !== undefined && labels?.[POD_TEMPLATE_GENERATION_LABEL] === String(generation);
}

/** `SurgeCount`: 0 unless RollingUpdate with maxSurge set; percentages of `numberToSchedule` round up. */
export function surgeCount(ds: DaemonSetObject, numberToSchedule: number): number {
  const strategy = ds.spec?.updateStrategy;
  if (strategy?.type !== 'RollingUpdate' || strategy.rollingUpdate?.maxSurge === undefined) return 0;
  return valueFromIntOrPercent(strategy.rollingUpdate.maxSurge, numberToSchedule, true);
}

/** `UnavailableCount`: 0 unless RollingUpdate; percentages of `numberToSchedule` round up. */
export function unavailableCount(ds: DaemonSetObject, numberToSchedule: number): number {
  const strategy = ds.spec?.updateStrategy;
  if (strategy?.type !== 'RollingUpdate' || !strategy.rollingUpdate) return 0;
  return valueFromIntOrPercent(strategy.rollingUpdate.maxUnavailable ?? 0, numberToSchedule, true);
}

/** `AllowsSurge`: more than one pod per node may run during an update. */
export function allowsSurge(ds: DaemonSetObject): boolean {
  try {
    return surgeCount(ds, 1) > 0;
  } catch {
    return false;
  }
}
