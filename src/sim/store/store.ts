/**
 * The simulator's API server storage: one in-memory map per kind, one global resourceVersion
 * counter (as etcd's revision), watch history per kind for resuming watches, and the indexes the
 * controllers need at scale (controller → owned objects, node → pods). Graceful pod deletion and
 * the finalizers a delete's propagationPolicy asks for live here, because they are API-server-side
 * semantics every client relies on; the garbage collector that acts on them is a controller
 * (src/sim/controllers/garbage-collector.ts).
 */
import type { KubeObject, ObjectMeta, OwnerReference, ResourceKind } from '../../core/k8s';
import type { VirtualClock } from '../clock';
import type { InternalsLog } from '../internals-log';
import { cloneJson, deepEqual } from '../../common/json';
import { rfc3339 } from './object-utils';
import { ManagedFieldStamps } from './managed-fields';
import { namespaceDeletionRefusal } from '../admission/namespace-lifecycle';
import { RESOURCES, qualifiedResource, resourceInfo } from './resources';
import { admitCustomResource } from '../apis/apiextensions/custom-resource-admission';
import type { CustomResourceInfo } from '../apis/apiextensions/crd';
import { type CustomTableInfo, customTableInfo } from './custom-resources';
import { parseFieldSelector, parseLabelSelector, type ObjectPredicate } from './selectors';
import {
  ApiError,
  type BuiltinResourceInfo,
  type ChangeListener,
  type CustomKindKey,
  isBuiltin,
  type DeleteOptions,
  type ListOptions,
  type ListResult,
  type ResourceInfo,
  type StoreApi,
  type StoreChange,
  type StoreKind,
  type WatchOptions,
  type WriteOptions,
} from './types';

/** Kinds outside apps and batch whose registry starts generation at 1 (PrepareForCreate). */
const GENERATION_TRACKING_KINDS: ReadonlySet<string> = new Set(['PodDisruptionBudget', 'NetworkPolicy', 'CustomResourceDefinition']);

/** Defaulting and validation, injected so the store stays small and each can be tested alone. */
export interface Admission {
  /** Defaults, then mutating admission, which may throw its refusal; `warnings` collects what the client is warned of. */
  applyDefaults(kind: ResourceKind, object: KubeObject, old?: KubeObject, warnings?: string[]): void;
  /** Server-set state of a new object (a pod's status: Pending and its QoS class). Create only. */
  prepareForCreate?(kind: ResourceKind, object: KubeObject): void;
  /** Returns the 422 (or other) error for an invalid object, or the validating admission's refusal, or undefined. */
  validate(kind: ResourceKind, object: KubeObject, old: KubeObject | undefined, warnings?: string[]): ApiError | undefined;
}

export interface StoreOptions {
  clock: VirtualClock;
  internals: InternalsLog;
  admission?: Admission;
  /** Changes kept per kind for watches that resume from a resourceVersion (etcd compaction window). */
  historyPerKind?: number;
  /** Virtual delay before the namespace controller empties a deleted namespace. */
  namespaceCleanupDelayMs?: number;
}

const GENERATE_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const VARIANT_CODES = Array.from('89ab', (c) => c.charCodeAt(0));
const HEX_DIGIT = -1;
const VARIANT_DIGIT = -2;
/** xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: a random hex digit, the variant digit, or a fixed character code. */
const UUID_LAYOUT = Array.from('xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx', (c) => (c === 'x' ? HEX_DIGIT : c === 'V' ? VARIANT_DIGIT : c.charCodeAt(0)));
const noAdmission: Admission = { applyDefaults: () => undefined, validate: () => undefined };

/** A fixed-capacity ring of changes, oldest overwritten first. */
class ChangeHistory {
  private readonly ring: StoreChange[];
  private start = 0;
  private size = 0;
  constructor(private readonly capacity: number) {
    this.ring = new Array<StoreChange>(capacity);
  }
  push(change: StoreChange): void {
    const index = (this.start + this.size) % this.capacity;
    this.ring[index] = change;
    if (this.size < this.capacity) this.size++;
    else this.start = (this.start + 1) % this.capacity;
  }
  /** The lowest resourceVersion from which a watch can still resume, or undefined when nothing was ever dropped. */
  oldestResumable(): number | undefined {
    return this.size === this.capacity ? this.ring[this.start].resourceVersion - 1 : undefined;
  }
  since(resourceVersion: number): StoreChange[] {
    const out: StoreChange[] = [];
    // Binary search would do; changes are in rv order. A linear scan from the end is cheap for recent resumes.
    let i = this.size - 1;
    while (i >= 0 && this.ring[(this.start + i) % this.capacity].resourceVersion > resourceVersion) i--;
    for (let j = i + 1; j < this.size; j++) out.push(this.ring[(this.start + j) % this.capacity]);
    return out;
  }
}

interface KindTable {
  info: ResourceInfo;
  /**
   * uid → slot, in creation order (the order lists return). Events are the exception: hundreds of
   * thousands at scale and never controlled by anything, they are found by name only.
   */
  objects: Map<string, Slot>;
  indexesEveryUid: boolean;
  /** namespace ('' when cluster-scoped) → name → slot. Keyed by the strings objects already hold, so a lookup builds no key. */
  byName: Map<string, Map<string, Slot>>;
  /** Replaced, never changed in place, so a commit can call the listeners it started with. */
  listeners: readonly ChangeListener[];
  history: ChangeHistory;
  /** ownerUid → uids of objects of this kind with a controller reference to it. */
  byController: Map<string, Set<string>>;
}

/**
 * Where the current version of one object is kept. Both indexes point at the slot, so a write
 * replaces one field instead of updating two large maps.
 */
interface Slot {
  object: KubeObject;
}

function lookupSlot(table: KindTable, namespace: string | undefined, name: string): Slot | undefined {
  return table.byName.get(namespace ?? '')?.get(name);
}

/** Every object of a table, namespace by namespace. */
function* everySlot(table: KindTable): Iterable<Slot> {
  for (const names of table.byName.values()) yield* names.values();
}

function lookup(table: KindTable, namespace: string | undefined, name: string): KubeObject | undefined {
  return table.byName.get(namespace ?? '')?.get(name)?.object;
}

function uidOf(object: KubeObject): string {
  return object.metadata?.uid ?? '';
}

/** Whether two ownerReference lists index the same way (same owners, same controller flags). */
function sameOwners(a: readonly OwnerReference[], b: readonly OwnerReference[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].uid !== b[i].uid || !a[i].controller !== !b[i].controller) return false;
  return true;
}

/** ObjectMeta as the server writes it (kubernetes-types marks server-set fields read-only for clients). */
type ServerMeta = { -readonly [K in keyof ObjectMeta]: ObjectMeta[K] };

function metaOf(object: KubeObject): ServerMeta {
  if (!object.metadata) object.metadata = {};
  return object.metadata as ServerMeta;
}

/**
 * `{ ...object }` for the store's objects. Spreading objects of the many shapes the store holds
 * makes V8 give up on its fast path (a runtime call per spread, one of the costliest lines of a
 * write); a for…in copy stays fast and yields the same keys in the same order.
 */
function shallowCopy<T extends object>(object: T): T {
  const source = object as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key in source) copy[key] = source[key];
  return copy as T;
}

/** `{ ...copy, [field]: value }` on a copy the caller owns: an existing field keeps its place. */
function withField<T extends object>(copy: T, field: string, value: unknown): T {
  (copy as Record<string, unknown>)[field] = value;
  return copy;
}

/** Metadata fields every write stamps anew; a write that changes nothing else is a no-op. */
function isWriteStamp(field: string): boolean {
  return field === 'managedFields' || field === 'resourceVersion';
}

function metadataEqualButWriteStamps(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let defined = 0;
  for (const field in a) {
    const value = a[field];
    if (value === undefined || isWriteStamp(field)) continue;
    defined++;
    if (!deepEqual(value, b[field])) return false;
  }
  for (const field in b) if (b[field] !== undefined && !isWriteStamp(field)) defined--;
  return defined === 0;
}

/** deepEqual of two versions of an object, ignoring metadata.managedFields and metadata.resourceVersion. */
function equalButWriteStamps(a: KubeObject, b: KubeObject): boolean {
  const aRec = a as Record<string, unknown>;
  const bRec = b as Record<string, unknown>;
  let defined = 0;
  for (const field in aRec) {
    const value = aRec[field];
    if (value === undefined) continue;
    defined++;
    if (field === 'metadata') {
      if (!metadataEqualButWriteStamps(value as Record<string, unknown>, (bRec.metadata ?? {}) as Record<string, unknown>)) return false;
    } else if (!deepEqual(value, bRec[field])) return false;
  }
  for (const field in bRec) if (bRec[field] !== undefined) defined--;
  return defined === 0;
}

export class MemoryStore implements StoreApi {
  readonly resources = RESOURCES;
  private revision = 0;
  private readonly tables = new Map<StoreKind, KindTable>();
  /** node name → uids of the pods bound to it. */
  private readonly podsByNode = new Map<string, Set<string>>();
  private readonly clock: VirtualClock;
  private readonly internals: InternalsLog;
  private readonly admission: Admission;
  private readonly namespaceCleanupDelayMs: number;
  private readonly stamps = new ManagedFieldStamps();
  private readonly uidCodes = new Array<number>(36).fill(0);
  private readonly historyPerKind: number;
  private readonly customByCrd = new Map<string, CustomTableInfo[]>();
  private servedCustom: readonly CustomTableInfo[] = [];

  constructor(options: StoreOptions) {
    this.clock = options.clock;
    this.internals = options.internals;
    this.admission = options.admission ?? noAdmission;
    this.namespaceCleanupDelayMs = options.namespaceCleanupDelayMs ?? 20;
    this.historyPerKind = options.historyPerKind ?? 50_000;
    for (const info of RESOURCES) this.tables.set(info.key, this.newTable(info));
  }

  private newTable(info: ResourceInfo): KindTable {
    return { info, objects: new Map(), indexesEveryUid: info.kind !== 'Event', byName: new Map(), listeners: [], history: new ChangeHistory(this.historyPerKind), byController: new Map() };
  }

  resourceInfo(kind: ResourceKind): BuiltinResourceInfo {
    return resourceInfo(kind);
  }

  customResourceInfo(key: CustomKindKey): ResourceInfo | undefined {
    return this.tables.get(key)?.info;
  }

  /** Every served version of every established CRD's kind, as routing and discovery look them up. */
  customResources(): readonly CustomTableInfo[] {
    return this.servedCustom;
  }

  /**
   * Serves the kind of an established CRD (its served versions), keeping the objects already
   * stored when the CRD changes. Objects are stored in the storage version.
   */
  establishCustomResources(crdName: string, versions: readonly CustomResourceInfo[]): void {
    const infos = versions.map(customTableInfo);
    const storage = infos.find((info) => info.custom.storage) ?? infos[0];
    if (!storage) return this.removeCustomResources(crdName);
    this.customByCrd.set(crdName, infos);
    const table = this.tables.get(storage.key);
    if (table) table.info = storage;
    else this.tables.set(storage.key, this.newTable(storage));
    this.servedCustom = [...this.customByCrd.values()].flat();
  }

  /** Stops serving a deleted CRD's kind, deleting its objects first as upstream's customresourcecleanup finalizer does. */
  removeCustomResources(crdName: string): void {
    const infos = this.customByCrd.get(crdName);
    if (!infos) return;
    this.customByCrd.delete(crdName);
    this.servedCustom = [...this.customByCrd.values()].flat();
    const key = infos[0].key;
    const table = this.tables.get(key);
    if (!table) return;
    for (const object of this.list(key).items) this.commit(table, 'DELETED', object, object, 'customresourcecleanup');
    this.tables.delete(key);
  }

  currentResourceVersion(): number {
    return this.revision;
  }

  private table(kind: StoreKind): KindTable {
    const table = this.tables.get(kind);
    if (!table) throw new ApiError(404, 'NotFound', `the server could not find the requested resource (kind ${kind})`);
    return table;
  }

  private notFound(info: ResourceInfo, name: string): ApiError {
    return new ApiError(404, 'NotFound', `${qualifiedResource(info)} "${name}" not found`, { name, group: info.group, kind: info.plural });
  }

  private namespaceOf(info: ResourceInfo, object: KubeObject): string | undefined {
    if (!info.namespaced) return undefined;
    return object.metadata?.namespace || 'default';
  }

  // ----------------------------------------------------------------------------------------
  // Reads

  get<T extends KubeObject>(kind: StoreKind, namespace: string | undefined, name: string): T | undefined {
    const table = this.table(kind);
    return lookup(table, table.info.namespaced ? namespace || 'default' : undefined, name) as T | undefined;
  }

  read<T extends KubeObject>(kind: StoreKind, namespace: string | undefined, name: string): T {
    const object = this.get<T>(kind, namespace, name);
    if (!object) throw this.notFound(this.table(kind).info, name);
    return object;
  }

  list<T extends KubeObject>(kind: StoreKind, options: ListOptions = {}): ListResult<T> {
    const table = this.table(kind);
    const matches = this.predicate(options);
    const items: T[] = [];
    // One namespace's objects keep their creation order there too.
    const slots = options.namespace && table.info.namespaced ? table.byName.get(options.namespace)?.values() ?? [] : table.indexesEveryUid ? table.objects.values() : everySlot(table);
    for (const { object } of slots) if (matches(object)) items.push(object as T);
    return { items, resourceVersion: String(this.revision) };
  }

  private predicate(options: ListOptions): ObjectPredicate {
    const byLabel = parseLabelSelector(options.labelSelector);
    const byField = parseFieldSelector(options.fieldSelector);
    return (object) => byLabel(object) && byField(object);
  }

  ownedBy<T extends KubeObject>(kind: StoreKind, ownerUid: string): T[] {
    const table = this.table(kind);
    const uids = table.byController.get(ownerUid);
    if (!uids) return [];
    const out: T[] = [];
    for (const uid of uids) {
      const slot = table.objects.get(uid);
      if (slot) out.push(slot.object as T);
    }
    return out;
  }

  podsOnNode(nodeName: string): KubeObject[] {
    const uids = this.podsByNode.get(nodeName);
    if (!uids) return [];
    const pods = this.table('Pod').objects;
    const out: KubeObject[] = [];
    for (const uid of uids) {
      const slot = pods.get(uid);
      if (slot) out.push(slot.object);
    }
    return out;
  }

  // ----------------------------------------------------------------------------------------
  // Writes

  create<T extends KubeObject>(kind: StoreKind, input: T, options: WriteOptions = {}): T {
    const object: KubeObject = input;
    const table = this.table(kind);
    const info = table.info;
    const meta = metaOf(object);
    const namespace = this.namespaceOf(info, object);
    if (info.namespaced) {
      meta.namespace = namespace;
      if (!lookup(this.tables.get('Namespace')!, undefined, namespace!)) {
        throw new ApiError(404, 'NotFound', `namespaces "${namespace}" not found`, { name: namespace, kind: 'namespaces' });
      }
    } else {
      delete meta.namespace;
    }
    object.apiVersion = info.apiVersion;
    object.kind = info.kind;
    if (!meta.name && meta.generateName) meta.name = this.generateName(table, namespace, meta.generateName);
    // The uid is set before the strategies run, as FillObjectMetaSystemFields does before Validate:
    // a Job's generated selector names it.
    meta.uid = this.newUid();
    const invalid = this.admit(info, object, undefined, options.warnings, true);
    if (invalid) throw invalid;
    const name = meta.name ?? '';
    if (lookup(table, namespace, name)) {
      throw new ApiError(409, 'AlreadyExists', `${qualifiedResource(info)} "${name}" already exists`, { name, group: info.group, kind: info.plural });
    }
    const now = this.clock.now();
    meta.creationTimestamp = rfc3339(now);
    // Deleting a property an object has makes V8 store it as a slow dictionary: only delete what is set.
    if (meta.deletionTimestamp !== undefined) delete meta.deletionTimestamp;
    if (meta.resourceVersion !== undefined) delete meta.resourceVersion;
    if (info.group === 'apps' || info.group === 'batch' || info.custom || GENERATION_TRACKING_KINDS.has(info.kind)) meta.generation = 1;
    if (options.fieldManager) {
      meta.managedFields = this.stamps.forCreate({ manager: options.fieldManager, operation: options.operation ?? 'Update', apiVersion: info.apiVersion, time: rfc3339(now) });
    }
    if (kind === 'Namespace') {
      object.status = { phase: 'Active' };
      object.spec = { finalizers: ['kubernetes'] };
      meta.labels = { ...meta.labels, 'kubernetes.io/metadata.name': name };
    }
    if (options.dryRun) return input;
    this.commit(table, 'ADDED', object, undefined, options.fieldManager ?? 'unknown');
    return input;
  }

  /**
   * Puts an object read from another cluster in the store as it is there (a twin, see
   * src/cluster/twin-read.ts): its uid, creation time, generation, owners and status are kept and
   * no admission runs (that cluster admitted it). Listeners see it ADDED, as an informer's first
   * list shows them; an object of that name already here (the `default` namespace) is replaced,
   * keeping its uid, and seen MODIFIED. The namespace of a namespaced object must be restored first.
   */
  restore(kind: StoreKind, object: KubeObject, actor = 'twin'): void {
    const table = this.table(kind);
    const info = table.info;
    const meta = metaOf(object);
    const namespace = this.namespaceOf(info, object);
    if (info.namespaced) {
      meta.namespace = namespace;
      if (!lookup(this.tables.get('Namespace')!, undefined, namespace!)) throw new ApiError(404, 'NotFound', `namespaces "${namespace}" not found`, { name: namespace, kind: 'namespaces' });
    } else if (meta.namespace !== undefined) delete meta.namespace;
    object.apiVersion = info.apiVersion;
    object.kind = info.kind;
    meta.creationTimestamp ??= rfc3339(this.clock.now());
    const slot = lookupSlot(table, namespace, meta.name ?? '');
    if (slot) {
      meta.uid = slot.object.metadata?.uid;
      this.commit(table, 'MODIFIED', object, slot.object, actor, slot);
      return;
    }
    if (!meta.uid) meta.uid = this.newUid();
    this.commit(table, 'ADDED', object, undefined, actor);
  }

  update<T extends KubeObject>(kind: StoreKind, object: T, options: WriteOptions = {}): T {
    const table = this.table(kind);
    const info = table.info;
    const meta = metaOf(object);
    const namespace = this.namespaceOf(info, object);
    const name = meta.name ?? '';
    const slot = lookupSlot(table, namespace, name);
    if (!slot) throw this.notFound(info, name);
    const existing = slot.object;
    if (meta.resourceVersion && meta.resourceVersion !== existing.metadata?.resourceVersion) {
      throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(info)} "${name}": the object has been modified; please apply your changes to the latest version and try again`, { name, group: info.group, kind: info.plural });
    }
    return this.replace(table, slot, object, options);
  }

  mutate<T extends KubeObject>(kind: StoreKind, namespace: string | undefined, name: string, change: (copy: T) => void, options: WriteOptions = {}): T {
    const table = this.table(kind);
    const slot = lookupSlot(table, table.info.namespaced ? namespace || 'default' : undefined, name);
    if (!slot) throw this.notFound(table.info, name);
    const copy = this.copyForChange(slot.object, options.subresource) as T;
    change(copy);
    return this.replace(table, slot, copy, options);
  }

  /**
   * The private copy `mutate` hands out. A status write only keeps `status`, so only status is
   * copied deeply (the hot path of kubelets and controllers); a binding only sets
   * `spec.nodeName` and the PodScheduled condition, so spec and status are copied one level deep
   * and the conditions list is copied; any other write gets a deep copy.
   */
  private copyForChange(existing: KubeObject, subresource: WriteOptions['subresource']): KubeObject {
    // The metadata is shared with the stored object: a status write must not touch it (StoreApi.mutate), and replace copies it.
    if (subresource === 'status') return withField(shallowCopy(existing), 'status', cloneJson(existing.status));
    if (subresource === 'binding') {
      const copy = withField(shallowCopy(existing), 'metadata', shallowCopy(existing.metadata ?? {}));
      const status = existing.status === undefined ? undefined : (shallowCopy(existing.status as object) as { conditions?: unknown[] });
      if (status?.conditions) status.conditions = status.conditions.slice();
      return withField(withField(copy, 'spec', existing.spec === undefined ? undefined : shallowCopy(existing.spec as object)), 'status', status);
    }
    return cloneJson(existing);
  }

  /** The shared tail of update and mutate: subresource rules, generation, admission, commit. */
  private replace<T extends KubeObject>(table: KindTable, slot: Slot, input: T, options: WriteOptions): T {
    const existing = slot.object;
    let object: KubeObject = input;
    const info = table.info;
    const oldMeta = existing.metadata ?? {};
    if (options.subresource === 'status') {
      // A status write changes only status; everything else is taken from the stored object.
      object = withField(withField(shallowCopy(existing), 'status', input.status), 'metadata', shallowCopy(oldMeta));
    } else {
      object.apiVersion = info.apiVersion;
      object.kind = info.kind;
      // The binding subresource also sets the PodScheduled condition, in the same write.
      if (info.hasStatus && existing.status !== undefined && options.subresource !== 'binding') object.status = existing.status;
    }
    const newMeta = metaOf(object);
    // Fields the server owns cannot be changed by a write.
    newMeta.uid = oldMeta.uid;
    newMeta.creationTimestamp = oldMeta.creationTimestamp;
    newMeta.namespace = oldMeta.namespace;
    newMeta.name = oldMeta.name;
    if (oldMeta.deletionTimestamp) {
      newMeta.deletionTimestamp = oldMeta.deletionTimestamp;
      newMeta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    }
    if (options.subresource === undefined) {
      const invalid = this.admit(info, object, existing, options.warnings, false);
      if (invalid) throw invalid;
    } else if (options.subresource === 'status' && info.custom) {
      const invalid = admitCustomResource(info.custom, object, existing);
      if (invalid) throw invalid;
    }
    if (oldMeta.generation !== undefined) {
      newMeta.generation = options.subresource !== 'status' && !deepEqual(existing.spec, object.spec) ? oldMeta.generation + 1 : oldMeta.generation;
    }
    const now = this.clock.now();
    // A binding is a storage-level update on the API server, outside field management: it records no managedFields entry.
    if (options.fieldManager && options.subresource !== 'binding') this.touchManagedFields(newMeta, oldMeta, options, info.apiVersion, now);
    if (options.dryRun) return object as T;
    if (equalButWriteStamps(existing, object)) {
      // A no-op write does not bump the resourceVersion, as in etcd3's GuaranteedUpdate.
      return existing as T;
    }
    this.commit(table, 'MODIFIED', object, existing, options.fieldManager ?? 'unknown', slot);
    this.afterUpdate(table, object);
    return object as T;
  }

  /** Defaulting, admission and validation: the injected chain for built-in kinds, the CRD's schema for custom resources. */
  private admit(info: ResourceInfo, object: KubeObject, old: KubeObject | undefined, warnings: string[] | undefined, creating: boolean): ApiError | undefined {
    if (!isBuiltin(info)) {
      // With a status subresource, a create ignores the status it is sent (the customresource strategy's PrepareForCreate).
      if (creating && info.hasStatus && object.status !== undefined) delete object.status;
      return info.custom ? admitCustomResource(info.custom, object, old) : undefined;
    }
    this.admission.applyDefaults(info.kind, object, old, warnings);
    if (creating) this.admission.prepareForCreate?.(info.kind, object);
    return this.admission.validate(info.kind, object, old, warnings);
  }

  private touchManagedFields(meta: ServerMeta, oldMeta: ObjectMeta, options: WriteOptions, apiVersion: string, now: number): void {
    meta.managedFields = this.stamps.afterWrite(oldMeta.managedFields, {
      manager: options.fieldManager!,
      operation: options.operation ?? 'Update',
      apiVersion,
      time: rfc3339(now),
      subresource: options.subresource,
    });
  }

  delete(kind: StoreKind, namespace: string | undefined, name: string, options: DeleteOptions = {}): KubeObject {
    const table = this.table(kind);
    const info = table.info;
    const existing = lookup(table, info.namespaced ? namespace || 'default' : undefined, name);
    if (!existing) throw this.notFound(info, name);
    const meta = existing.metadata ?? {};
    if (options.preconditions?.uid && options.preconditions.uid !== meta.uid) {
      throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(info)} "${name}": Precondition failed: UID in precondition: ${options.preconditions.uid}, UID in object meta: ${meta.uid}`, { name, group: info.group, kind: info.plural });
    }
    if (options.preconditions?.resourceVersion && options.preconditions.resourceVersion !== meta.resourceVersion) {
      throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(info)} "${name}": Precondition failed: ResourceVersion in precondition: ${options.preconditions.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`, { name, group: info.group, kind: info.plural });
    }
    if (kind === 'Namespace') {
      const refusal = namespaceDeletionRefusal(name);
      if (refusal) throw refusal;
    }
    if (options.dryRun) return existing;
    const actor = options.actor ?? 'kubectl';
    const policy = options.propagationPolicy ?? 'Background';

    // Graceful deletion of a pod that a kubelet runs: mark it, the kubelet finishes the job.
    const spec = existing.spec as { nodeName?: string; terminationGracePeriodSeconds?: number } | undefined;
    const grace = options.gracePeriodSeconds ?? spec?.terminationGracePeriodSeconds ?? 30;
    if (kind === 'Pod' && spec?.nodeName && grace > 0 && !this.isTerminal(existing)) {
      if (meta.deletionTimestamp) return existing;
      return this.markDeleting(table, existing, actor, grace, []);
    }
    if (kind === 'Namespace') return this.deleteNamespace(table, existing, actor);

    // The garbage collector's finalizers, as deletionFinalizersForGarbageCollection adds them; the collector removes them.
    const finalizers = [...(meta.finalizers ?? [])];
    const gcFinalizer = policy === 'Foreground' ? 'foregroundDeletion' : policy === 'Orphan' ? 'orphan' : undefined;
    if (gcFinalizer && !finalizers.includes(gcFinalizer)) finalizers.push(gcFinalizer);
    if (finalizers.length > 0) {
      if (meta.deletionTimestamp) return existing;
      return this.markDeleting(table, existing, actor, 0, finalizers);
    }
    this.remove(table, existing, actor);
    return existing;
  }

  private isTerminal(pod: KubeObject): boolean {
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    return phase === 'Succeeded' || phase === 'Failed';
  }

  private markDeleting(table: KindTable, existing: KubeObject, actor: string, graceSeconds: number, finalizers: string[]): KubeObject {
    const copy = cloneJson(existing);
    const meta = metaOf(copy);
    meta.deletionTimestamp = rfc3339(this.clock.now() + graceSeconds * 1000);
    meta.deletionGracePeriodSeconds = graceSeconds;
    if (finalizers.length > 0) meta.finalizers = finalizers;
    this.commit(table, 'MODIFIED', copy, existing, actor);
    return copy;
  }

  private deleteNamespace(table: KindTable, existing: KubeObject, actor: string): KubeObject {
    const name = existing.metadata?.name ?? '';
    // The namespace controller removes everything inside, then the namespace itself.
    const copy = cloneJson(existing);
    metaOf(copy).deletionTimestamp = rfc3339(this.clock.now());
    copy.status = { phase: 'Terminating' };
    this.commit(table, 'MODIFIED', copy, existing, actor);
    this.clock.after(this.namespaceCleanupDelayMs, () => {
      // Custom resources too: their tables are the ones past the built-in kinds.
      for (const { info } of [...this.tables.values()]) {
        if (!info.namespaced) continue;
        for (const object of this.list(info.key, { namespace: name }).items) {
          try {
            this.delete(info.key, name, object.metadata?.name ?? '', { gracePeriodSeconds: 0, actor: 'namespace-controller' });
          } catch (error) {
            if (!(error instanceof ApiError && error.code === 404)) throw error;
          }
        }
      }
      const current = lookup(table, existing.metadata?.namespace, existing.metadata?.name ?? '');
      if (current && uidOf(current) === uidOf(existing)) this.remove(table, current, 'namespace-controller');
    });
    return copy;
  }

  /** An object being deleted whose last finalizer was just removed is gone. */
  private afterUpdate(table: KindTable, object: KubeObject): void {
    const meta = object.metadata ?? {};
    if (meta.deletionTimestamp && (meta.finalizers ?? []).length === 0 && !(table.info.kind === 'Pod' && (meta.deletionGracePeriodSeconds ?? 0) > 0)) {
      this.remove(table, object, 'garbage-collector');
    }
  }

  private remove(table: KindTable, existing: KubeObject, actor: string): void {
    this.commit(table, 'DELETED', existing, existing, actor);
  }

  // ----------------------------------------------------------------------------------------
  // Commit: the single place where state, indexes, history, internals and listeners change.

  /** `slot`, when the caller holds it, saves looking the object up again. */
  private commit(table: KindTable, type: StoreChange['type'], object: KubeObject, previous: KubeObject | undefined, actor: string, slot?: Slot): void {
    const info = table.info;
    this.revision++;
    const meta = metaOf(object);
    const uid = meta.uid ?? '';
    const namespace = meta.namespace ?? '';
    const name = meta.name ?? '';
    let delivered = object;
    if (type === 'DELETED') {
      // The DELETED event carries the final state with the deletion's resourceVersion.
      delivered = { ...object, metadata: { ...meta, resourceVersion: String(this.revision) } };
      table.objects.delete(uid);
      const names = table.byName.get(namespace);
      names?.delete(name);
      if (names?.size === 0) table.byName.delete(namespace);
    } else {
      meta.resourceVersion = String(this.revision);
      let current = type === 'MODIFIED' ? (slot ?? lookupSlot(table, namespace, name)) : undefined;
      if (current) current.object = object;
      else {
        current = { object };
        let names = table.byName.get(namespace);
        if (!names) table.byName.set(namespace, (names = new Map()));
        names.set(name, current);
        if (table.indexesEveryUid) table.objects.set(uid, current);
      }
    }
    this.reindex(table, uid, type === 'DELETED' ? undefined : object, previous);
    if (this.internals.recordsSteps !== false && this.followsWrite(info.kind, object, type)) this.recordWrite(info, type, meta, actor);
    const change: StoreChange = { type, kind: info.key, object: delivered, previous, resourceVersion: this.revision };
    table.history.push(change);
    for (const listener of table.listeners) listener(change);
  }

  private followsWrite(kind: string, object: KubeObject, type: StoreChange['type']): boolean {
    const followed = this.internals.followsObject?.(kind, object) ?? 'all';
    return followed === 'all' || (followed === 'create' && type === 'ADDED');
  }

  private recordWrite(info: ResourceInfo, type: StoreChange['type'], meta: ObjectMeta, actor: string): void {
    this.internals.record({
      type: 'etcdWrite',
      time: this.clock.now(),
      key: `/registry/${info.plural}/${meta.namespace ? `${meta.namespace}/` : ''}${meta.name}`,
      verb: type === 'ADDED' ? 'create' : type === 'MODIFIED' ? 'update' : 'delete',
      resourceVersion: String(this.revision),
      object: { kind: info.kind, namespace: meta.namespace, name: meta.name ?? '', uid: meta.uid },
      actor,
    });
  }

  private reindex(table: KindTable, uid: string, current: KubeObject | undefined, previous: KubeObject | undefined): void {
    const oldRefs = previous?.metadata?.ownerReferences ?? [];
    const newRefs = current?.metadata?.ownerReferences ?? [];
    if (!sameOwners(oldRefs, newRefs)) {
      for (const ref of oldRefs) if (ref.controller) table.byController.get(ref.uid)?.delete(uid);
      for (const ref of newRefs) {
        if (ref.controller) {
          let owned = table.byController.get(ref.uid);
          if (!owned) table.byController.set(ref.uid, (owned = new Set()));
          owned.add(uid);
        }
      }
    }
    if (uid && !current) table.byController.delete(uid);
    if (table.info.kind === 'Pod') {
      const oldNode = (previous?.spec as { nodeName?: string } | undefined)?.nodeName;
      const newNode = (current?.spec as { nodeName?: string } | undefined)?.nodeName;
      if (oldNode !== newNode || !current) {
        if (oldNode) this.podsByNode.get(oldNode)?.delete(uid);
        if (newNode && current) {
          let set = this.podsByNode.get(newNode);
          if (!set) this.podsByNode.set(newNode, (set = new Set()));
          set.add(uid);
        }
      }
    }
  }


  // ----------------------------------------------------------------------------------------
  // Watches

  subscribe(kind: StoreKind, listener: ChangeListener): () => void {
    const table = this.table(kind);
    if (!table.listeners.includes(listener)) table.listeners = [...table.listeners, listener];
    return () => {
      table.listeners = table.listeners.filter((l) => l !== listener);
    };
  }

  /**
   * A client watch, as the HTTP API serves it: synthetic ADDED for resourceVersion unset/'0',
   * replay of history after N otherwise, 410 Expired when N is older than the history kept.
   * Changes that move an object into or out of the selection arrive as ADDED / DELETED.
   */
  watch(kind: StoreKind, options: WatchOptions, deliver: (type: StoreChange['type'], object: KubeObject) => void): () => void {
    const table = this.table(kind);
    const matchesSelectors = this.predicate(options);
    const namespace = table.info.namespaced ? options.namespace : undefined;
    const matches = (object: KubeObject | undefined): boolean => !!object && (!namespace || object.metadata?.namespace === namespace) && matchesSelectors(object);
    const forward = (change: StoreChange): void => {
      const now = matches(change.object);
      const before = change.type === 'MODIFIED' ? matches(change.previous) : now;
      if (change.type === 'MODIFIED' && now && !before) deliver('ADDED', change.object);
      else if (change.type === 'MODIFIED' && !now && before) deliver('DELETED', change.object);
      else if (now) deliver(change.type, change.object);
    };
    const rv = options.resourceVersion;
    if (rv === undefined || rv === '' || rv === '0') {
      for (const object of this.list(kind, options).items) deliver('ADDED', object);
    } else {
      const from = Number(rv);
      if (!Number.isInteger(from) || from < 0) throw new ApiError(400, 'BadRequest', `invalid resource version: ${rv}`);
      const oldest = table.history.oldestResumable();
      if (oldest !== undefined && from < oldest) {
        throw new ApiError(410, 'Expired', `too old resource version: ${from} (${oldest})`);
      }
      for (const change of table.history.since(from)) forward(change);
    }
    return this.subscribe(kind, forward);
  }

  // ----------------------------------------------------------------------------------------
  // Names and uids

  private generateName(table: KindTable, namespace: string | undefined, prefix: string): string {
    const base = prefix.length > 58 ? prefix.slice(0, 58) : prefix;
    for (let attempt = 0; attempt < 10; attempt++) {
      let suffix = '';
      for (let i = 0; i < 5; i++) suffix += GENERATE_NAME_ALPHABET[this.clock.random.int(0, GENERATE_NAME_ALPHABET.length - 1)];
      if (!lookup(table, namespace, base + suffix)) return base + suffix;
    }
    throw new ApiError(409, 'AlreadyExists', `${qualifiedResource(table.info)} "${base}" already exists, the server was not able to generate a unique name for the object`);
  }

  /** A random version-4 UUID, written into a reused buffer of character codes (one flat string, no pieces). */
  private newUid(): string {
    const random = this.clock.random;
    const codes = this.uidCodes;
    for (let at = 0; at < 36; at++) {
      const layout = UUID_LAYOUT[at];
      if (layout === HEX_DIGIT) codes[at] = HEX_CODES[Math.floor(random.next() * 16)];
      else if (layout === VARIANT_DIGIT) codes[at] = VARIANT_CODES[random.int(0, 3)];
      else codes[at] = layout;
    }
    return String.fromCharCode.apply(null, codes);
  }


}
