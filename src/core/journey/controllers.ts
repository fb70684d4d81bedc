/** The controller that acts for each workload kind, as its events name it (`source.component`). */
import type { WorkloadKind } from './digest';
import type { Component } from './types';

export const CONTROLLER_OF: Readonly<Record<WorkloadKind, Component>> = {
  Deployment: 'deployment-controller',
  ReplicaSet: 'replicaset-controller',
  StatefulSet: 'statefulset-controller',
  DaemonSet: 'daemonset-controller',
  CronJob: 'cronjob-controller',
  Job: 'job-controller',
  ReplicationController: 'replication-controller',
  Service: 'endpointslice-controller',
  EndpointSlice: 'endpointslice-controller',
};

/** The controller of a kind that may or may not be a workload (a pod's owner as its reference names it). */
export function controllerOf(kind: string | undefined): Component | undefined {
  return kind !== undefined && Object.hasOwn(CONTROLLER_OF, kind) ? CONTROLLER_OF[kind as WorkloadKind] : undefined;
}
