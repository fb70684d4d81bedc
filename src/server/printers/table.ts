/**
 * The `meta.k8s.io/v1` Table a real API server returns when a client asks for
 * `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` (what `kubectl get` sends). The API
 * server always prints the wide columns; kubectl hides priority-1 columns unless `-o wide`.
 * Rows carry the object as PartialObjectMetadata by default: `kubectl get -A`, `--show-labels`
 * and `--sort-by` depend on it.
 */
import type {
  ClusterRoleBinding,
  ConfigMap,
  ControllerRevision,
  CronJob,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Endpoints,
  HorizontalPodAutoscaler,
  Ingress,
  IngressClass,
  Job,
  KubeObject,
  Lease,
  Namespace,
  NetworkPolicy,
  Node,
  ObjectMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  PriorityClass,
  ReplicaSet,
  ReplicationController,
  ResourceKind,
  ResourceQuota,
  RoleBinding,
  Secret,
  Service,
  ServiceAccount,
  StatefulSet,
  StorageClass,
} from '../../core/k8s';
import { printCronJob, printJob } from './batch';
import { printConfigMap, printNamespace, printNode } from './cluster';
import { COLUMN_DEFINITIONS, SCALE_COLUMNS, type TableColumnDefinition } from './columns';
import { asCoreEvent, printEvent } from './event';
import { printPod } from './pod';
import type { PrintedRow, TableCell, TableRowCondition } from './row';
import { DEFAULT_COLUMNS, printDefault } from './default';
import { printScale } from './scale';
import { printPersistentVolume, printPersistentVolumeClaim, printStorageClass } from './storage';
import { printEndpointSlice, printEndpoints, printIngress, printIngressClass, printNetworkPolicy, printService } from './network';
import { printResourceQuota, printSecret, printServiceAccount } from './config';
import { printHorizontalPodAutoscaler, printLease, printPodDisruptionBudget, printPriorityClass, printRoleBinding } from './policy';
import { resourceInfo } from '../../sim/store/resources';
import { isBuiltin, type ResourceInfo } from '../../sim/store/types';
import type { CustomResourceInfo } from '../../sim/apis/apiextensions/crd';
import { customResourceCells, customResourceColumns } from './custom-resource';
import { printControllerRevision, printDaemonSet, printDeployment, printReplicaSet, printReplicationController, printStatefulSet } from './workloads';

export type { TableColumnDefinition } from './columns';
export type { TableCell, TableRowCondition } from './row';

export const TABLE_CONTENT_TYPE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** `includeObject` query parameter of a Table request (metav1.IncludeObjectPolicy). */
export type IncludeObjectPolicy = 'None' | 'Metadata' | 'Object';

export type PartialObjectMetadata = {
  kind: 'PartialObjectMetadata';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ObjectMeta;
};

export type TableRow = {
  cells: TableCell[];
  conditions?: TableRowCondition[];
  /** PartialObjectMetadata, the full object, or null for `includeObject=None`. */
  object: PartialObjectMetadata | KubeObject | null;
};

/** A type alias (not an interface) so that a Table is assignable to KubeObject for the response writers. */
export type Table = {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  /** Null when headers were not asked for (every watch event after the first). */
  columnDefinitions: readonly TableColumnDefinition[] | null;
  rows: TableRow[];
};

export interface TableOptions {
  /** Virtual "now", ms since the epoch: the reference for AGE, LAST SEEN and "(Xs ago)". */
  now: number;
  /** Defaults to `Metadata`, as the API server does. */
  includeObject?: IncludeObjectPolicy;
  /** Leave out the column definitions (`TableOptions.noHeaders`, set on watch events after the first). */
  noHeaders?: boolean;
  /**
   * `metadata.resourceVersion` of the Table: the list's resourceVersion, or for a single-object
   * GET the object's own. Left out when undefined.
   */
  resourceVersion?: string;
  /** `metadata.continue` of a paged list. */
  continue?: string;
}

function apiVersionOf(kind: ResourceKind): string {
  return resourceInfo(kind).apiVersion;
}

/**
 * Prints `objects` of one kind as a Table. Rows reference the objects' metadata (and, for
 * `includeObject=Object`, the objects themselves) without copying: serialize the Table before the
 * objects change.
 */
export function toTable(kind: ResourceKind, objects: readonly KubeObject[], options: TableOptions): Table {
  return buildTable(columnDefinitions(kind), objects, (object) => printRow(kind, object, options.now), apiVersionOf(kind), kind, options);
}

/** The Table of objects of any served kind, built-in or custom. */
export function resourceTable(info: ResourceInfo, objects: readonly KubeObject[], options: TableOptions): Table {
  return isBuiltin(info) ? toTable(info.kind, objects, options) : customResourceTable(info.custom!, objects, options);
}

/** The Table of custom resources, with their CRD version's printer columns. */
export function customResourceTable(info: CustomResourceInfo, objects: readonly KubeObject[], options: TableOptions): Table {
  return buildTable(customResourceColumns(info), objects, (object) => ({ cells: customResourceCells(info, object, options.now) }), info.apiVersion, info.kind, options);
}

/** The Table of an autoscaling/v1 Scale (`kubectl get <kind> <name> --subresource=scale`). */
export function scaleToTable(scale: KubeObject, options: TableOptions): Table {
  return buildTable(SCALE_COLUMNS, [scale], (object) => printScale(object, options.now), 'autoscaling/v1', 'Scale', options);
}

function buildTable(columns: readonly TableColumnDefinition[], objects: readonly KubeObject[], print: (object: KubeObject) => PrintedRow, apiVersion: string, kind: string, options: TableOptions): Table {
  const includeObject = options.includeObject ?? 'Metadata';
  const rows: TableRow[] = new Array(objects.length);
  for (let i = 0; i < objects.length; i++) {
    const object = objects[i];
    const printed = print(object);
    const row: TableRow = { cells: printed.cells, object: rowObject(apiVersion, kind, object, includeObject) };
    if (printed.conditions) row.conditions = printed.conditions;
    rows[i] = row;
  }
  const metadata: Table['metadata'] = {};
  if (options.resourceVersion !== undefined) metadata.resourceVersion = options.resourceVersion;
  if (options.continue) metadata.continue = options.continue;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: options.noHeaders ? null : columns,
    rows,
  };
}

/** The column definitions the API server sends for `kind` (all priorities). */
export function columnDefinitions(kind: ResourceKind): readonly TableColumnDefinition[] {
  return COLUMN_DEFINITIONS[kind] ?? DEFAULT_COLUMNS;
}

function printRow(kind: ResourceKind, object: KubeObject, now: number): PrintedRow {
  switch (kind) {
    case 'Pod':
      return printPod(object as Pod, now);
    case 'Deployment':
      return printDeployment(object as Deployment, now);
    case 'ReplicaSet':
      return printReplicaSet(object as ReplicaSet, now);
    case 'Event':
      return printEvent(asCoreEvent(object), now);
    case 'Node':
      return printNode(object as Node, now);
    case 'Namespace':
      return printNamespace(object as Namespace, now);
    case 'ConfigMap':
      return printConfigMap(object as ConfigMap, now);
    case 'ReplicationController':
      return printReplicationController(object as ReplicationController, now);
    case 'StatefulSet':
      return printStatefulSet(object as StatefulSet, now);
    case 'DaemonSet':
      return printDaemonSet(object as DaemonSet, now);
    case 'ControllerRevision':
      return printControllerRevision(object as Partial<ControllerRevision>, now);
    case 'Job':
      return printJob(object as Job, now);
    case 'CronJob':
      return printCronJob(object as CronJob, now);
    case 'PersistentVolumeClaim':
      return printPersistentVolumeClaim(object as PersistentVolumeClaim, now);
    case 'PersistentVolume':
      return printPersistentVolume(object as PersistentVolume, now);
    case 'StorageClass':
      return printStorageClass(object as Partial<StorageClass>, now);
    case 'Service':
      return printService(object as Service, now);
    case 'Endpoints':
      return printEndpoints(object as Endpoints, now);
    case 'EndpointSlice':
      return printEndpointSlice(object as Partial<EndpointSlice>, now);
    case 'Ingress':
      return printIngress(object as Ingress, now);
    case 'IngressClass':
      return printIngressClass(object as IngressClass, now);
    case 'NetworkPolicy':
      return printNetworkPolicy(object as NetworkPolicy, now);
    case 'Secret':
      return printSecret(object as Secret, now);
    case 'ServiceAccount':
      return printServiceAccount(object as ServiceAccount, now);
    case 'ResourceQuota':
      return printResourceQuota(object as ResourceQuota, now);
    case 'HorizontalPodAutoscaler':
      return printHorizontalPodAutoscaler(object as HorizontalPodAutoscaler, now);
    case 'PodDisruptionBudget':
      return printPodDisruptionBudget(object as PodDisruptionBudget, now);
    case 'PriorityClass':
      return printPriorityClass(object as Partial<PriorityClass>, now);
    case 'Lease':
      return printLease(object as Lease, now);
    case 'RoleBinding':
      return printRoleBinding(object as Partial<RoleBinding>, now);
    case 'ClusterRoleBinding':
      return printRoleBinding(object as Partial<ClusterRoleBinding>, now);
    default:
      return printDefault(object, now);
  }
}

function rowObject(apiVersion: string, kind: string, object: KubeObject, policy: IncludeObjectPolicy): TableRow['object'] {
  switch (policy) {
    case 'None':
      return null;
    case 'Object':
      // List items may lack apiVersion/kind; the API server's encoder always sets them.
      return object.apiVersion && object.kind ? object : { ...object, apiVersion: object.apiVersion || apiVersion, kind };
    case 'Metadata':
      return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata ?? {} };
  }
}
