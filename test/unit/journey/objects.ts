/**
 * Compact builders for the objects the journey tests feed the tracer. Timestamps are written the
 * way the API server writes them: whole seconds unless `precise` is asked for.
 */
import type { KubeObject } from '../../../src/core/k8s';

export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0, 250);

/** RFC 3339 at whole seconds (metav1.Time). */
export function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** RFC 3339 with microseconds (metav1.MicroTime). */
export function micro(ms: number): string {
  const micros = String(Math.round((ms - Math.floor(ms)) * 1000)).padStart(3, '0');
  return new Date(Math.floor(ms)).toISOString().replace('Z', `${micros}Z`);
}

export interface Owner {
  kind: string;
  name: string;
  uid: string;
}

let rv = 1000;
export function nextRv(): string {
  return String(++rv);
}

export function deploymentObject(o: {
  name?: string;
  uid?: string;
  created?: number;
  generation?: number;
  replicas?: number;
  status?: Record<string, unknown>;
  image?: string;
  rv?: string;
}): KubeObject {
  return {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: {
      name: o.name ?? 'web',
      namespace: 'default',
      uid: o.uid ?? 'dep-1',
      resourceVersion: o.rv ?? nextRv(),
      generation: o.generation ?? 1,
      creationTimestamp: iso(o.created ?? T0),
      managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'apps/v1', time: iso(o.created ?? T0), fieldsType: 'FieldsV1', fieldsV1: {} }],
    },
    spec: {
      replicas: o.replicas ?? 1,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: o.image ?? 'nginx:1.25' }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    },
    status: o.status ?? {},
  };
}

export function replicaSetObject(o: { name?: string; uid?: string; owner?: Owner; created?: number; replicas?: number; revision?: string; status?: Record<string, unknown>; conditions?: Record<string, unknown>[] }): KubeObject {
  return {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    metadata: {
      name: o.name ?? 'web-5d567cc74c',
      namespace: 'default',
      uid: o.uid ?? 'rs-1',
      resourceVersion: nextRv(),
      generation: 1,
      creationTimestamp: iso(o.created ?? T0),
      annotations: { 'deployment.kubernetes.io/revision': o.revision ?? '1' },
      ownerReferences: o.owner ? [{ apiVersion: 'apps/v1', kind: o.owner.kind, name: o.owner.name, uid: o.owner.uid, controller: true, blockOwnerDeletion: true }] : undefined,
      managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', time: iso(o.created ?? T0), fieldsType: 'FieldsV1', fieldsV1: {} }],
    },
    spec: { replicas: o.replicas ?? 1, selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } },
    status: { ...(o.status ?? { replicas: 0 }), ...(o.conditions ? { conditions: o.conditions } : {}) },
  };
}

export const DEPLOYMENT: Owner = { kind: 'Deployment', name: 'web', uid: 'dep-1' };
export const REPLICA_SET: Owner = { kind: 'ReplicaSet', name: 'web-5d567cc74c', uid: 'rs-1' };

export interface ContainerState {
  name?: string;
  waiting?: { reason: string; message?: string };
  running?: { startedAt: string };
  terminated?: { exitCode: number; reason: string; startedAt?: string; finishedAt: string };
  lastTerminated?: { exitCode: number; reason: string; startedAt?: string; finishedAt: string };
  ready?: boolean;
  restartCount?: number;
}

export function podObject(o: {
  name?: string;
  uid?: string;
  owner?: Owner | null;
  created?: number;
  nodeName?: string;
  phase?: string;
  conditions?: { type: string; status: string; at: number; reason?: string; message?: string; precise?: boolean }[];
  containers?: ContainerState[];
  deletion?: { at: number; grace: number };
  rv?: string;
  statusReason?: string;
  statusMessage?: string;
}): KubeObject {
  const owner = o.owner === null ? undefined : (o.owner ?? REPLICA_SET);
  const metadata: Record<string, unknown> = {
    name: o.name ?? 'web-5d567cc74c-ss4lb',
    namespace: 'default',
    uid: o.uid ?? 'pod-1',
    resourceVersion: o.rv ?? nextRv(),
    creationTimestamp: iso(o.created ?? T0),
  };
  if (owner) metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }];
  else metadata.managedFields = [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', time: iso(o.created ?? T0), fieldsType: 'FieldsV1', fieldsV1: {} }];
  if (o.deletion) {
    metadata.deletionTimestamp = iso(o.deletion.at + o.deletion.grace * 1000);
    metadata.deletionGracePeriodSeconds = o.deletion.grace;
  }
  const status: Record<string, unknown> = { phase: o.phase ?? 'Pending' };
  if (o.statusReason) status.reason = o.statusReason;
  if (o.statusMessage) status.message = o.statusMessage;
  if (o.conditions) {
    status.conditions = o.conditions.map((c) => ({
      type: c.type,
      status: c.status,
      lastProbeTime: null,
      lastTransitionTime: c.precise ? micro(c.at) : iso(c.at),
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
    }));
  }
  if (o.containers) {
    status.containerStatuses = o.containers.map((c) => ({
      name: c.name ?? 'nginx',
      state: c.running ? { running: c.running } : c.terminated ? { terminated: c.terminated } : { waiting: c.waiting ?? { reason: 'ContainerCreating' } },
      lastState: c.lastTerminated ? { terminated: c.lastTerminated } : {},
      ready: c.ready ?? false,
      restartCount: c.restartCount ?? 0,
      image: 'nginx:1.25',
      imageID: '',
    }));
  }
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata,
    spec: { containers: (o.containers ?? [{}]).map((c) => ({ name: c.name ?? 'nginx', image: 'nginx:1.25' })), ...(o.nodeName ? { nodeName: o.nodeName } : {}) },
    status,
  };
}

/** A core/v1 Event as kubelet and controllers write it. */
export function coreEvent(o: {
  about: { kind: string; name: string; uid?: string };
  reason: string;
  message: string;
  type?: string;
  component?: string;
  fieldPath?: string;
  first: number;
  last?: number;
  count?: number;
  name?: string;
}): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: o.name ?? `${o.about.name}.${o.reason.toLowerCase()}${o.fieldPath ?? ''}`, namespace: 'default', uid: `ev-${o.about.name}-${o.reason}`, resourceVersion: nextRv() },
    involvedObject: { kind: o.about.kind, namespace: 'default', name: o.about.name, uid: o.about.uid, ...(o.fieldPath ? { fieldPath: o.fieldPath } : {}) },
    reason: o.reason,
    message: o.message,
    source: { component: o.component ?? 'kubelet', host: 'node-1' },
    firstTimestamp: iso(o.first),
    lastTimestamp: iso(o.last ?? o.first),
    count: o.count ?? 1,
    type: o.type ?? 'Normal',
    eventTime: null,
    reportingComponent: o.component ?? 'kubelet',
    reportingInstance: 'node-1',
  };
}

/** An event recorded through events.k8s.io (the scheduler), as a core/v1 watch delivers it. */
export function schedulerEvent(o: { about: { kind: string; name: string; uid?: string }; reason: string; message: string; type?: string; at: number; series?: { count: number; last: number }; name?: string }): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: o.name ?? `${o.about.name}.sched-${o.reason}`, namespace: 'default', uid: `sev-${o.about.name}-${o.reason}`, resourceVersion: nextRv() },
    involvedObject: { kind: o.about.kind, namespace: 'default', name: o.about.name, uid: o.about.uid },
    reason: o.reason,
    message: o.message,
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    type: o.type ?? 'Normal',
    eventTime: micro(o.at),
    action: o.reason === 'Scheduled' ? 'Binding' : 'Scheduling',
    reportingComponent: 'default-scheduler',
    reportingInstance: 'default-scheduler-control-plane',
    ...(o.series ? { series: { count: o.series.count, lastObservedTime: micro(o.series.last) } } : {}),
  };
}

export const POD_REF = { kind: 'Pod', name: 'web-5d567cc74c-ss4lb', uid: 'pod-1' };
