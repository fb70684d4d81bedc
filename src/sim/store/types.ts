import type { KubeObject, ResourceKind, StatusCause } from '../../core/k8s';
import type { CustomResourceInfo } from '../apis/apiextensions/crd';

/** How the store keys a custom resource's kind: `<Kind>.<group>`, never a built-in kind (which has no dot). */
export type CustomKindKey = `${string}.${string}`;
/** What the store keys its tables by: a built-in kind, or a custom resource's `<Kind>.<group>`. */
export type StoreKind = ResourceKind | CustomKindKey;

/** How the API server names and scopes each kind it serves. */
export interface ResourceInfo {
  /** The store's key of the kind: `kind` for built-ins. */
  key: StoreKind;
  kind: string;
  /** Plural resource name, e.g. `deployments`. */
  plural: string;
  singular: string;
  group: string; // '' for core
  version: string;
  apiVersion: string; // 'v1' or 'apps/v1'
  namespaced: boolean;
  shortNames: string[];
  /** Kinds with a status subresource ignore `status` on main-resource writes. */
  hasStatus: boolean;
  hasScale: boolean;
  /** Set for the kinds of established CustomResourceDefinitions. */
  custom?: CustomResourceInfo;
}

export function isBuiltin(info: ResourceInfo): info is BuiltinResourceInfo {
  return info.custom === undefined;
}

/** A kind compiled into the simulator. */
export interface BuiltinResourceInfo extends ResourceInfo {
  key: ResourceKind;
  kind: ResourceKind;
  custom?: undefined;
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface WriteOptions {
  /** The field manager recorded in managedFields (`kubectl-client-side-apply`, `kube-journey`, a controller name). */
  fieldManager?: string;
  dryRun?: boolean;
  /**
   * 'status': write only the status subresource (controllers and kubelets).
   * 'binding': the pods/binding subresource, which sets spec.nodeName (without the pod-update
   * validation that forbids changing it) and the PodScheduled condition in one write, recording
   * no managedFields entry.
   */
  subresource?: 'status' | 'binding';
  /** Which managedFields operation to record. */
  operation?: 'Apply' | 'Update';
  /** Filled with admission's warnings (PodSecurity's `would violate …`), sent as `Warning` headers. */
  warnings?: string[];
}

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  dryRun?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  /**
   * Pods bound to a node are deleted gracefully: the store sets deletionTimestamp and the kubelet
   * finishes the deletion with gracePeriodSeconds 0. Defaults to the pod's
   * terminationGracePeriodSeconds (30).
   */
  gracePeriodSeconds?: number;
  /** Who asked, for the internals stream. */
  actor?: string;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface ListResult<T extends KubeObject = KubeObject> {
  items: T[];
  resourceVersion: string;
}

export interface WatchOptions extends ListOptions {
  /** Unset or '0': synthetic ADDED for every current match, then live changes. */
  resourceVersion?: string;
}

/** A committed change, as delivered to in-process watchers. Objects are shared: never mutate them. */
export interface StoreChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  kind: StoreKind;
  object: KubeObject;
  /** The object before the change (MODIFIED and DELETED). */
  previous?: KubeObject;
  resourceVersion: number;
}

export type StatusReason = 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Invalid' | 'BadRequest' | 'Expired' | 'Gone' | 'MethodNotAllowed' | 'UnsupportedMediaType' | 'Forbidden' | 'Unauthorized' | 'InternalError' | '';

/** An error that maps 1:1 to a Kubernetes `Status` response. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[] },
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): KubeObject {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      // StatusReasonUnknown is "" and omitted, as for errors that are not a metav1.Status upstream.
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** Listener for committed changes of one kind, called synchronously after each write. */
export type ChangeListener = (change: StoreChange) => void;

/**
 * The API server's storage semantics, in process. The HTTP API is a thin layer over this, and
 * the simulator's own components (controllers, scheduler, kubelets) use it directly.
 *
 * Ownership: objects passed to create/update are taken over by the store (it assigns metadata
 * on them); objects returned or delivered are shared and must be treated as read-only. Copy
 * before changing (`structuredClone` or spreads).
 */
export interface StoreApi {
  readonly resources: readonly ResourceInfo[];
  resourceInfo(kind: ResourceKind): BuiltinResourceInfo;
  /** The table info of an established CRD's kind, keyed `<Kind>.<group>`. */
  customResourceInfo(key: CustomKindKey): ResourceInfo | undefined;
  /** Every served version of every established CRD's kind. */
  customResources(): readonly ResourceInfo[];
  /** Serves an established CRD's kind in `versions` (its served versions), keeping what is stored. */
  establishCustomResources(crdName: string, versions: readonly CustomResourceInfo[]): void;
  /** Stops serving a deleted CRD's kind, deleting its objects. */
  removeCustomResources(crdName: string): void;
  /** The current global resourceVersion. */
  currentResourceVersion(): number;
  create<T extends KubeObject>(kind: StoreKind, object: T, options?: WriteOptions): T;
  get<T extends KubeObject>(kind: StoreKind, namespace: string | undefined, name: string): T | undefined;
  /** Like get, but throws the apiserver's 404. */
  read<T extends KubeObject>(kind: StoreKind, namespace: string | undefined, name: string): T;
  list<T extends KubeObject>(kind: StoreKind, options?: ListOptions): ListResult<T>;
  /** Replace; a set `metadata.resourceVersion` is a precondition (409 Conflict when stale). */
  update<T extends KubeObject>(kind: StoreKind, object: T, options?: WriteOptions): T;
  /**
   * Read-modify-write without a precondition: `mutate` receives a private deep copy. With
   * `subresource: 'status'` only `status` is copied (and only status is written): do not touch
   * other fields of the copy then.
   */
  mutate<T extends KubeObject>(kind: StoreKind, namespace: string | undefined, name: string, mutate: (copy: T) => void, options?: WriteOptions): T;
  delete(kind: StoreKind, namespace: string | undefined, name: string, options?: DeleteOptions): KubeObject;
  /** In-process watch of every change of one kind, from now on. Returns an unsubscribe function. */
  subscribe(kind: StoreKind, listener: ChangeListener): () => void;
  /** Objects of `kind` whose controller ownerReference points at `ownerUid` (an index, O(children)). */
  ownedBy<T extends KubeObject>(kind: StoreKind, ownerUid: string): T[];
  /** Pods bound to a node (an index, O(pods on the node)). */
  podsOnNode(nodeName: string): KubeObject[];
}
