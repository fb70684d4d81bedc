/**
 * The kinds whose journeys Kube Journey traces: what a user applies and the objects they own down
 * to pods. One list, read by the tracer, the CLI, the extension, the hover and the protocol's
 * shape guards, so a kind added here is traced everywhere at once.
 */
export const TRACEABLE_KIND_NAMES = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'CronJob', 'Job', 'ReplicationController', 'Pod', 'Service', 'EndpointSlice'] as const;

export type TraceableKind = (typeof TRACEABLE_KIND_NAMES)[number];

export const TRACEABLE_KINDS: ReadonlySet<string> = new Set<string>(TRACEABLE_KIND_NAMES);

export function isTraceableKind(kind: unknown): kind is TraceableKind {
  return typeof kind === 'string' && TRACEABLE_KINDS.has(kind);
}

/** The group/version each traceable kind is served under (a `v1` Deployment is not one). */
export const TRACEABLE_API_VERSIONS: Readonly<Record<TraceableKind, string>> = {
  Deployment: 'apps/v1',
  ReplicaSet: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  CronJob: 'batch/v1',
  Job: 'batch/v1',
  ReplicationController: 'v1',
  Pod: 'v1',
  Service: 'v1',
  EndpointSlice: 'discovery.k8s.io/v1',
};

/** Which kinds may own (control) each traced kind: a pod's owner is one of its workloads, a Job's a CronJob. */
export const TRACEABLE_PARENTS: Readonly<Record<TraceableKind, readonly TraceableKind[]>> = {
  Deployment: [],
  ReplicaSet: ['Deployment'],
  StatefulSet: [],
  DaemonSet: [],
  CronJob: [],
  Job: ['CronJob'],
  ReplicationController: [],
  Pod: ['ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController'],
  Service: [],
  EndpointSlice: ['Service'],
};
