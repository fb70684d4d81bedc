import type { ResourceKind } from '../../core/k8s';
import type { ResourceInfo } from './types';

function core(kind: ResourceKind, plural: string, namespaced: boolean, shortNames: string[], hasStatus: boolean): ResourceInfo {
  return { kind, plural, singular: kind.toLowerCase(), group: '', version: 'v1', apiVersion: 'v1', namespaced, shortNames, hasStatus, hasScale: false };
}

function apps(kind: ResourceKind, plural: string, shortNames: string[], subresources: { status: boolean; scale: boolean }): ResourceInfo {
  return { kind, plural, singular: kind.toLowerCase(), group: 'apps', version: 'v1', apiVersion: 'apps/v1', namespaced: true, shortNames, hasStatus: subresources.status, hasScale: subresources.scale };
}

function batch(kind: ResourceKind, plural: string, shortNames: string[]): ResourceInfo {
  return { kind, plural, singular: kind.toLowerCase(), group: 'batch', version: 'v1', apiVersion: 'batch/v1', namespaced: true, shortNames, hasStatus: true, hasScale: false };
}

const SCALABLE = { status: true, scale: true };

/** The kinds the simulator serves, with the names and scopes kube-apiserver gives them. */
export const RESOURCES: readonly ResourceInfo[] = [
  core('Namespace', 'namespaces', false, ['ns'], true),
  core('Node', 'nodes', false, ['no'], true),
  core('Pod', 'pods', true, ['po'], true),
  core('Event', 'events', true, ['ev'], false),
  core('ConfigMap', 'configmaps', true, ['cm'], false),
  core('PersistentVolumeClaim', 'persistentvolumeclaims', true, ['pvc'], true),
  { ...core('ReplicationController', 'replicationcontrollers', true, ['rc'], true), hasScale: true },
  apps('Deployment', 'deployments', ['deploy'], SCALABLE),
  apps('ReplicaSet', 'replicasets', ['rs'], SCALABLE),
  apps('StatefulSet', 'statefulsets', ['sts'], SCALABLE),
  apps('DaemonSet', 'daemonsets', ['ds'], { status: true, scale: false }),
  apps('ControllerRevision', 'controllerrevisions', [], { status: false, scale: false }),
  batch('Job', 'jobs', []),
  batch('CronJob', 'cronjobs', ['cj']),
];

const byKind = new Map(RESOURCES.map((r) => [r.kind, r]));

export function resourceInfo(kind: ResourceKind): ResourceInfo {
  const info = byKind.get(kind);
  if (!info) throw new Error(`unknown kind ${kind}`);
  return info;
}

/** `deployments.apps` / `pods`: the qualified resource name used in API error messages. */
export function qualifiedResource(info: ResourceInfo): string {
  return info.group ? `${info.plural}.${info.group}` : info.plural;
}
