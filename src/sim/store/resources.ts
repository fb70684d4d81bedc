import type { ResourceKind } from '../../core/k8s';
import type { BuiltinResourceInfo, ResourceInfo } from './types';

interface Shape {
  namespaced: boolean;
  shortNames?: string[];
  status?: boolean;
  scale?: boolean;
}

function resource(groupVersion: string, kind: ResourceKind, plural: string, shape: Shape): BuiltinResourceInfo {
  const slash = groupVersion.indexOf('/');
  const group = slash < 0 ? '' : groupVersion.slice(0, slash);
  const version = slash < 0 ? groupVersion : groupVersion.slice(slash + 1);
  return {
    key: kind,
    kind,
    plural,
    singular: kind.toLowerCase(),
    group,
    version,
    apiVersion: groupVersion,
    namespaced: shape.namespaced,
    shortNames: shape.shortNames ?? [],
    hasStatus: shape.status ?? false,
    hasScale: shape.scale ?? false,
  };
}

const NAMESPACED = { namespaced: true };
const CLUSTER = { namespaced: false };

/** The kinds the simulator serves, with the names, scopes and subresources kube-apiserver 1.32 gives them. */
export const RESOURCES: readonly BuiltinResourceInfo[] = [
  resource('v1', 'Namespace', 'namespaces', { ...CLUSTER, shortNames: ['ns'], status: true }),
  resource('v1', 'Node', 'nodes', { ...CLUSTER, shortNames: ['no'], status: true }),
  resource('v1', 'Pod', 'pods', { ...NAMESPACED, shortNames: ['po'], status: true }),
  resource('v1', 'Event', 'events', { ...NAMESPACED, shortNames: ['ev'] }),
  resource('v1', 'ConfigMap', 'configmaps', { ...NAMESPACED, shortNames: ['cm'] }),
  resource('v1', 'Secret', 'secrets', NAMESPACED),
  resource('v1', 'ServiceAccount', 'serviceaccounts', { ...NAMESPACED, shortNames: ['sa'] }),
  resource('v1', 'Service', 'services', { ...NAMESPACED, shortNames: ['svc'], status: true }),
  resource('v1', 'Endpoints', 'endpoints', { ...NAMESPACED, shortNames: ['ep'] }),
  resource('v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', { ...NAMESPACED, shortNames: ['pvc'], status: true }),
  resource('v1', 'PersistentVolume', 'persistentvolumes', { ...CLUSTER, shortNames: ['pv'], status: true }),
  resource('v1', 'ResourceQuota', 'resourcequotas', { ...NAMESPACED, shortNames: ['quota'], status: true }),
  resource('v1', 'LimitRange', 'limitranges', { ...NAMESPACED, shortNames: ['limits'] }),
  resource('v1', 'ReplicationController', 'replicationcontrollers', { ...NAMESPACED, shortNames: ['rc'], status: true, scale: true }),
  resource('apps/v1', 'Deployment', 'deployments', { ...NAMESPACED, shortNames: ['deploy'], status: true, scale: true }),
  resource('apps/v1', 'ReplicaSet', 'replicasets', { ...NAMESPACED, shortNames: ['rs'], status: true, scale: true }),
  resource('apps/v1', 'StatefulSet', 'statefulsets', { ...NAMESPACED, shortNames: ['sts'], status: true, scale: true }),
  resource('apps/v1', 'DaemonSet', 'daemonsets', { ...NAMESPACED, shortNames: ['ds'], status: true }),
  resource('apps/v1', 'ControllerRevision', 'controllerrevisions', NAMESPACED),
  resource('batch/v1', 'Job', 'jobs', { ...NAMESPACED, status: true }),
  resource('batch/v1', 'CronJob', 'cronjobs', { ...NAMESPACED, shortNames: ['cj'], status: true }),
  resource('autoscaling/v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', { ...NAMESPACED, shortNames: ['hpa'], status: true }),
  resource('policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets', { ...NAMESPACED, shortNames: ['pdb'], status: true }),
  resource('discovery.k8s.io/v1', 'EndpointSlice', 'endpointslices', NAMESPACED),
  resource('networking.k8s.io/v1', 'Ingress', 'ingresses', { ...NAMESPACED, shortNames: ['ing'], status: true }),
  resource('networking.k8s.io/v1', 'IngressClass', 'ingressclasses', CLUSTER),
  resource('networking.k8s.io/v1', 'NetworkPolicy', 'networkpolicies', { ...NAMESPACED, shortNames: ['netpol'] }),
  resource('rbac.authorization.k8s.io/v1', 'Role', 'roles', NAMESPACED),
  resource('rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings', NAMESPACED),
  resource('rbac.authorization.k8s.io/v1', 'ClusterRole', 'clusterroles', CLUSTER),
  resource('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'clusterrolebindings', CLUSTER),
  resource('storage.k8s.io/v1', 'StorageClass', 'storageclasses', { ...CLUSTER, shortNames: ['sc'] }),
  resource('scheduling.k8s.io/v1', 'PriorityClass', 'priorityclasses', { ...CLUSTER, shortNames: ['pc'] }),
  resource('coordination.k8s.io/v1', 'Lease', 'leases', NAMESPACED),
  resource('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'customresourcedefinitions', { ...CLUSTER, shortNames: ['crd', 'crds'], status: true }),
];

/**
 * Versions served besides each kind's storage version above: the same objects, converted to and
 * from it (src/sim/apis/version-conversion.ts). Each group's preferred version is its storage one.
 */
export const OTHER_SERVED_VERSIONS: readonly ResourceInfo[] = [
  resource('autoscaling/v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', { ...NAMESPACED, shortNames: ['hpa'], status: true }),
];

/** Every group-version-resource the API server answers. */
export const SERVED_RESOURCES: readonly ResourceInfo[] = [...RESOURCES, ...OTHER_SERVED_VERSIONS];

const byKind = new Map(RESOURCES.map((r) => [r.kind, r]));

export function resourceInfo(kind: ResourceKind): BuiltinResourceInfo {
  const info = byKind.get(kind);
  if (!info) throw new Error(`unknown kind ${kind}`);
  return info;
}

/** Whether `info` is the version its kind is stored in (no conversion needed). */
export function isStorageVersion(info: ResourceInfo): boolean {
  // A custom resource is kept in its CRD's storage version and answered in the requested one (see custom-resources.ts).
  return info.custom !== undefined || resourceInfo(info.kind as ResourceKind).apiVersion === info.apiVersion;
}

/** `deployments.apps` / `pods`: the qualified resource name used in API error messages. */
export function qualifiedResource(info: ResourceInfo): string {
  return info.group ? `${info.plural}.${info.group}` : info.plural;
}
