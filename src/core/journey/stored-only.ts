/**
 * The journey of an object nothing in the simulator acts on: it ends at `stored`, complete, with a
 * plain note naming what acts on it in a real cluster. These objects never enter the tracer (it
 * follows workloads and their pods), so they never hold up a trace's exit code.
 *
 * A Secret's values never reach a note: only its key names and decoded sizes do.
 */
import type { KubeObject } from '../k8s';
import { decodedLength } from '../../common/base64';
import { wrap } from './render-text';

export interface StoredOnlyJourney {
  kind: string;
  namespace?: string;
  name: string;
  status: 'complete';
  /** The last (and only) stage after `submitted`. */
  stage: 'stored';
  /** What the object holds, for the kinds where that helps (`1 key: password (20 bytes)`). */
  facts?: string;
  /** What acts on it in a real cluster, and what the simulator does with it. */
  note: string;
}

/** Kinds whose notes say the simulator does nothing with them: nothing here will ever act on them. */
const NOTES: Readonly<Record<string, (object: KubeObject) => string>> = {
  Ingress: () =>
    'Stored. An ingress controller routes traffic for it in a real cluster; none runs in the simulator, as none is installed on a fresh kind cluster, so its ADDRESS stays empty.',
  IngressClass: (object) =>
    `Stored. The ingress controller named in spec.controller (${controllerOf(object)}) handles Ingresses of this class; none runs in the simulator, as on a fresh kind cluster.`,
  NetworkPolicy: () =>
    "Stored. The network plugin enforces it on the selected pods' traffic (kind's kindnet does since kind v0.24); the simulator models no traffic, so it filters nothing.",
  Role: () => rbacNote('its rules take effect through RoleBindings'),
  ClusterRole: () => rbacNote('its rules take effect through RoleBindings and ClusterRoleBindings'),
  RoleBinding: () => rbacNote('it grants its role to its subjects in this namespace'),
  ClusterRoleBinding: () => rbacNote('it grants its ClusterRole to its subjects in every namespace'),
  HorizontalPodAutoscaler: (object) =>
    `Stored. The horizontal-pod-autoscaler controller in kube-controller-manager scales ${scaleTargetOf(object)} from resource metrics; it needs metrics-server, which kind does not install, so on a fresh kind cluster its TARGETS stay <unknown>. The simulator has no metrics and scales nothing.`,
  PodDisruptionBudget: () =>
    'Stored. The eviction API (kubectl drain) refuses evictions that would break it, and the disruption controller in kube-controller-manager keeps its status; nothing in the simulator evicts pods.',
  Lease: () => 'Stored. The component named in spec.holderIdentity renews it (leader election, node heartbeats); nothing else acts on it.',
  CustomResourceDefinition: (object) =>
    `Stored and Established. The API server's apiextensions controllers accept its names, then serve ${definedResourceOf(object)}, as the simulator does; objects of its kind are stored and validated against its schema, and nothing acts on them until an operator for them is installed.`,
};

function definedResourceOf(object: KubeObject): string {
  const spec = object.spec as { group?: unknown; names?: { plural?: unknown } } | undefined;
  return typeof spec?.names?.plural === 'string' && typeof spec.group === 'string' ? `${spec.names.plural}.${spec.group}` : 'its kind';
}

/** How a custom resource came to be served when it was applied. */
export interface CustomResourceContext {
  group: string;
  /** Its CRD was applied from the same file: kubectl maps every object before applying any. */
  crdInSameFile: boolean;
}

function customResourceNote(kind: string, context: CustomResourceContext): string {
  const note = `Stored. A ${kind} is a custom resource: in a real cluster an operator or controller for ${context.group} acts on it, installed with its CustomResourceDefinition; none runs in the simulator, so nothing acts on it here.`;
  if (!context.crdInSameFile) return note;
  return `${note} A single \`kubectl apply -f\` of this file refuses it the first time (kubectl maps every object before applying any, when the CRD is not yet served): apply the CRD first and \`kubectl wait --for condition=established\` for it, as kube-journey did.`;
}

/** Kinds that pods or admission read: the note says what reads them, and nothing about the simulator. */
const READ_BY: Readonly<Record<string, string>> = {
  Secret: "The kubelet reads it for the pods that reference it (env, envFrom, volumes, imagePullSecrets); it is not part of a pod's journey until one does.",
  ConfigMap: "The kubelet reads it for the pods that reference it (env, envFrom, volumes); it is not part of a pod's journey until one does.",
  ServiceAccount: 'Pods that name it in spec.serviceAccountName run with its identity; the kubelet mounts a token for it.',
  ResourceQuota: 'The ResourceQuota admission plugin checks every create in its namespace against it; the resource-quota controller keeps its status.used.',
  LimitRange: 'The LimitRanger admission plugin applies its defaults and bounds to the pods created in its namespace after it.',
  PriorityClass: 'The Priority admission plugin gives its value to pods that name it in spec.priorityClassName; the scheduler preempts lower-priority pods for them.',
  Namespace: 'Objects can now be created in it.',
};

function rbacNote(effect: string): string {
  return `Stored. The API server's RBAC authorizer reads it on every request: ${effect}. The simulator does not authorize requests (every client acts as cluster-admin), so it changes nothing here.`;
}

function controllerOf(object: KubeObject): string {
  const spec = object.spec as { controller?: unknown } | undefined;
  return typeof spec?.controller === 'string' ? spec.controller : '';
}

function scaleTargetOf(object: KubeObject): string {
  const reference = (object.spec as { scaleTargetRef?: { kind?: unknown; name?: unknown } } | undefined)?.scaleTargetRef;
  const kind = typeof reference?.kind === 'string' ? reference.kind : '';
  return kind ? `${kind}/${String(reference?.name ?? '')} between minReplicas and maxReplicas` : 'its scale target';
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Key names and decoded sizes of a Secret's data, never the values. */
function secretFacts(object: KubeObject): string {
  const data = (object.data ?? {}) as Record<string, unknown>;
  const keys = Object.keys(data).sort();
  const sizes = keys.map((key) => `${key} (${plural(decodedLength(String(data[key] ?? '')).bytes ?? 0, 'byte')})`);
  return keys.length === 0 ? 'no data' : `${plural(keys.length, 'key')}: ${sizes.join(', ')}`;
}

function configMapFacts(object: KubeObject): string {
  const keys = [...Object.keys((object.data ?? {}) as object), ...Object.keys((object.binaryData ?? {}) as object)].sort();
  return keys.length === 0 ? 'no data' : `${plural(keys.length, 'key')}: ${keys.join(', ')}`;
}

/** The stored-only journey of an applied object (`custom` for a custom resource), or undefined for kinds the simulator acts on. */
export function storedOnlyJourney(object: KubeObject, custom?: CustomResourceContext): StoredOnlyJourney | undefined {
  const kind = object.kind ?? '';
  const note = custom ? customResourceNote(kind, custom) : (NOTES[kind]?.(object) ?? (READ_BY[kind] ? `Stored. ${READ_BY[kind]}` : undefined));
  if (note === undefined) return undefined;
  const journey: StoredOnlyJourney = { kind, name: object.metadata?.name ?? '', status: 'complete', stage: 'stored', note };
  if (object.metadata?.namespace) journey.namespace = object.metadata.namespace;
  if (kind === 'Secret') journey.facts = secretFacts(object);
  else if (kind === 'ConfigMap') journey.facts = configMapFacts(object);
  return journey;
}

/** The CLI's text for them: one block each, shaped like a journey's object line and its last stage. */
export function renderStoredOnly(journeys: readonly StoredOnlyJourney[], width = 100): string {
  return journeys
    .map((journey) => {
      const where = journey.namespace ? `${journey.namespace}/${journey.name}` : journey.name;
      const head = `${journey.kind} ${where}  [${journey.status}]${journey.facts ? `  ${journey.facts}` : ''}`;
      const body = wrap(journey.note, width - 2).map((line) => `  ${line}`);
      return [head, ...body].join('\n');
    })
    .join('\n\n');
}
