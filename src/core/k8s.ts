/**
 * The Kubernetes object shapes Kube Journey reads and writes. They come from the
 * `kubernetes-types` package (generated from the Kubernetes OpenAPI), re-exported under
 * short names so the rest of the code never spells out the package paths.
 */
import type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { Event, Namespace, Node, Pod, ConfigMap, PersistentVolumeClaim, ReplicationController, Container, Probe, PodSpec, PodCondition, ContainerStatus, Taint, Toleration, NodeCondition, ObjectReference } from 'kubernetes-types/core/v1';
import type { ObjectMeta, OwnerReference, Status, StatusCause, LabelSelector, LabelSelectorRequirement, ManagedFieldsEntry } from 'kubernetes-types/meta/v1';

export type {
  Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision, Job, CronJob, PersistentVolumeClaim, ReplicationController, Event, Namespace, Node, Pod, ConfigMap, Container, Probe, PodSpec, PodCondition, ContainerStatus,
  Taint, Toleration, NodeCondition, ObjectMeta, OwnerReference, Status, StatusCause, LabelSelector, LabelSelectorRequirement,
  ManagedFieldsEntry,
};
export type { ObjectReference };

/** Any Kubernetes object: what the store keeps and what a watch delivers. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** The kinds the simulator serves and the tracer follows. */
export type ResourceKind =
  | 'Namespace'
  | 'Node'
  | 'Pod'
  | 'Event'
  | 'ConfigMap'
  | 'PersistentVolumeClaim'
  | 'ReplicationController'
  | 'Deployment'
  | 'ReplicaSet'
  | 'StatefulSet'
  | 'DaemonSet'
  | 'ControllerRevision'
  | 'Job'
  | 'CronJob'
  | 'Secret'
  | 'ServiceAccount'
  | 'Service'
  | 'Endpoints'
  | 'PersistentVolume'
  | 'ResourceQuota'
  | 'LimitRange'
  | 'HorizontalPodAutoscaler'
  | 'PodDisruptionBudget'
  | 'EndpointSlice'
  | 'Ingress'
  | 'IngressClass'
  | 'NetworkPolicy'
  | 'Role'
  | 'RoleBinding'
  | 'ClusterRole'
  | 'ClusterRoleBinding'
  | 'StorageClass'
  | 'PriorityClass'
  | 'Lease'
  | 'CustomResourceDefinition';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change seen on a watch, in the shape a real API server streams it. */
export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

export type { Service, ServicePort, Endpoints, Secret, ServiceAccount, PersistentVolume, ResourceQuota, LimitRange } from 'kubernetes-types/core/v1';
export type { EndpointSlice } from 'kubernetes-types/discovery/v1';
export type { Ingress, IngressClass, NetworkPolicy } from 'kubernetes-types/networking/v1';
export type { Role, RoleBinding, ClusterRole, ClusterRoleBinding, Subject } from 'kubernetes-types/rbac/v1';
export type { HorizontalPodAutoscaler, MetricSpec, MetricStatus } from 'kubernetes-types/autoscaling/v2';
export type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
export type { StorageClass } from 'kubernetes-types/storage/v1';
export type { PriorityClass } from 'kubernetes-types/scheduling/v1';
export type { Lease } from 'kubernetes-types/coordination/v1';
