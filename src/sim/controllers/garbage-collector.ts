/**
 * The garbage collector (pkg/controller/garbagecollector), reduced to what owners and dependents
 * need. Like upstream it is a controller, not part of the API server: it watches every kind,
 * keeps its own graph of owners and dependents, and acts through ordinary API calls.
 *
 * - Background: when an owner is gone, each dependent whose owners are all gone is deleted; one
 *   that still has a live owner only loses the reference to the gone one.
 * - Foreground: an owner being deleted with the `foregroundDeletion` finalizer has its dependents
 *   deleted first; the finalizer is removed once no dependent with `blockOwnerDeletion` is left.
 * - Orphan: an owner being deleted with the `orphan` finalizer has its references removed from
 *   its dependents, then the finalizer.
 * - A dependent created with owners that do not exist (or never did) is collected too.
 *
 * Owners are looked up by the kind and name their references give, and their uid compared, as
 * upstream's `attemptToDeleteItem` does; the API server adds the finalizers on delete.
 */
import type { KubeObject, OwnerReference, ResourceKind } from '../../core/k8s';
import type { VirtualClock } from '../clock';
import { ApiError, type ResourceInfo, type StoreApi, type StoreChange, type StoreKind } from '../store/types';

export interface GarbageCollectorOptions {
  /** Virtual delay between a change and the collector acting on it (informer and queue latency). */
  delayMs?: number;
}

const COMPONENT = 'garbage-collector';

/** Where a dependent is: enough to read it again through the API. */
interface DependentAddress {
  kind: StoreKind;
  namespace: string | undefined;
  name: string;
}

/** Where an owner is, as its dependents' references name it. */
interface OwnerAddress {
  kind: string;
  /** The reference's API group, which tells a custom kind from a built-in one of the same name. */
  group?: string;
  namespace: string | undefined;
  name: string;
}

interface OwnerNode {
  owner: OwnerAddress;
  /** dependent uid → where it is */
  dependents: Map<string, DependentAddress>;
}

function ownersOf(object: KubeObject | undefined): readonly OwnerReference[] {
  return object?.metadata?.ownerReferences ?? [];
}

/** Whether two ownerReference lists name the same owners. */
function sameOwners(a: readonly OwnerReference[], b: readonly OwnerReference[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].uid !== b[i].uid) return false;
  return true;
}

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === 404;
}

export class GarbageCollector {
  /** owner uid → the owner's address and its dependents. */
  private readonly graph = new Map<string, OwnerNode>();
  private readonly pending = new Set<string>();
  private readonly delayMs: number;
  private unsubscribers: (() => void)[] = [];
  /** The served kinds by name: owner references name kinds, and reading one asks per pod created. */
  private served = new Map<string, ResourceInfo>();

  constructor(
    private readonly ctx: { store: StoreApi; clock: VirtualClock },
    options: GarbageCollectorOptions = {},
  ) {
    this.delayMs = options.delayMs ?? 20;
  }

  start(): void {
    this.served = new Map(this.ctx.store.resources.map((info) => [info.kind, info]));
    for (const info of this.ctx.store.resources) {
      this.unsubscribers.push(this.ctx.store.subscribe(info.key, (change) => this.observe(change)));
    }
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
  }

  /** Whether anything the collector has seen names this uid as its owner. */
  hasDependents(ownerUid: string): boolean {
    return (this.graph.get(ownerUid)?.dependents.size ?? 0) > 0;
  }

  private observe(change: StoreChange): void {
    const object = change.object;
    const uid = object.metadata?.uid ?? '';
    const before = ownersOf(change.previous);
    const after = change.type === 'DELETED' ? [] : ownersOf(object);
    if (!sameOwners(before, after)) this.relink(change.kind, object, before, after);
    if (change.type === 'ADDED' && after.length > 0) this.collectIfOwnersMissing(object);
    if (change.type === 'DELETED') {
      if (this.hasDependents(uid)) this.enqueue(uid);
      else if (!this.pending.has(uid)) this.graph.delete(uid);
      // A dependent that is gone may be the last one a foreground-deleting owner waits for.
      for (const ref of before) if (this.ownerOf(ref.uid)?.metadata?.finalizers?.includes('foregroundDeletion')) this.enqueue(ref.uid);
      return;
    }
    const meta = object.metadata;
    if (meta?.deletionTimestamp && meta.finalizers?.some((f) => f === 'orphan' || f === 'foregroundDeletion')) {
      // An owner nothing names yet still needs its node: the collector finds it by its address.
      if (!this.graph.has(uid)) this.graph.set(uid, { owner: { kind: change.kind, namespace: meta.namespace, name: meta.name ?? '' }, dependents: new Map() });
      this.enqueue(uid);
    }
  }

  private relink(kind: StoreKind, object: KubeObject, before: readonly OwnerReference[], after: readonly OwnerReference[]): void {
    const meta = object.metadata ?? {};
    const uid = meta.uid ?? '';
    // An owner's node stays when its last dependent goes (a foreground deletion may be waiting on
    // it); it is dropped when the owner itself is deleted or collected.
    for (const ref of before) this.graph.get(ref.uid)?.dependents.delete(uid);
    for (const ref of after) {
      let node = this.graph.get(ref.uid);
      if (!node) this.graph.set(ref.uid, (node = { owner: { kind: ref.kind, group: groupOf(ref.apiVersion), namespace: meta.namespace, name: ref.name }, dependents: new Map() }));
      node.dependents.set(uid, { kind, namespace: meta.namespace, name: meta.name ?? '' });
    }
  }

  private collectIfOwnersMissing(object: KubeObject): void {
    const refs = ownersOf(object);
    if (refs.some((ref) => this.ownerOf(ref.uid) !== undefined)) return;
    for (const ref of refs) this.enqueue(ref.uid);
  }

  private enqueue(ownerUid: string): void {
    if (this.pending.has(ownerUid)) return;
    this.pending.add(ownerUid);
    this.ctx.clock.after(this.delayMs, () => {
      this.pending.delete(ownerUid);
      this.collect(ownerUid);
    });
  }

  /** The owner with this uid as the API has it now, or undefined when it is gone. */
  private ownerOf(ownerUid: string): KubeObject | undefined {
    const node = this.graph.get(ownerUid);
    if (!node) return undefined;
    const owner = this.read(node.owner.kind, node.owner.namespace, node.owner.name, node.owner.group);
    return owner?.metadata?.uid === ownerUid ? owner : undefined;
  }

  private read(kind: string, namespace: string | undefined, name: string, group?: string): KubeObject | undefined {
    const served = this.resolve(kind, group);
    if (!served) return undefined;
    try {
      return this.ctx.store.get(served.key, served.namespaced ? namespace : undefined, name);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** The served kind an address names: a built-in one, or an established CRD's of the reference's group. */
  private resolve(kind: string, group: string | undefined): ResourceInfo | undefined {
    const builtin = this.served.get(kind);
    if (group === undefined || builtin?.group === group) return builtin;
    return this.ctx.store.customResources().find((info) => info.kind === kind && info.group === group) ?? builtin;
  }

  private dependent(uid: string, address: DependentAddress): KubeObject | undefined {
    const object = this.read(address.kind, address.namespace, address.name);
    return object?.metadata?.uid === uid ? object : undefined;
  }

  private collect(ownerUid: string): void {
    const node = this.graph.get(ownerUid);
    const owner = this.ownerOf(ownerUid);
    const dependents = node ? [...node.dependents] : [];
    const finalizers = owner?.metadata?.finalizers ?? [];
    if (owner && finalizers.includes('orphan')) {
      for (const [uid, address] of dependents) this.orphan(uid, address, ownerUid);
      this.removeFinalizer(owner, 'orphan');
      return;
    }
    if (owner && finalizers.includes('foregroundDeletion')) {
      let blocking = 0;
      for (const [uid, address] of dependents) {
        const object = this.dependent(uid, address);
        if (!object) continue;
        if (ownersOf(object).find((ref) => ref.uid === ownerUid)?.blockOwnerDeletion) blocking++;
        this.deleteDependent(address, 'Foreground');
      }
      if (blocking === 0) this.removeFinalizer(owner, 'foregroundDeletion');
      return;
    }
    if (owner) return;
    for (const [uid, address] of dependents) {
      const object = this.dependent(uid, address);
      if (!object) continue;
      const liveOwner = ownersOf(object).some((ref) => ref.uid !== ownerUid && this.ownerOf(ref.uid) !== undefined);
      if (liveOwner) this.orphan(uid, address, ownerUid);
      else this.deleteDependent(address, 'Background');
    }
    this.graph.delete(ownerUid);
  }

  private deleteDependent(address: DependentAddress, policy: 'Background' | 'Foreground'): void {
    try {
      this.ctx.store.delete(address.kind, address.namespace, address.name, { propagationPolicy: policy, actor: COMPONENT });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  private orphan(uid: string, address: DependentAddress, ownerUid: string): void {
    if (!this.dependent(uid, address)) return;
    this.ctx.store.mutate(address.kind, address.namespace, address.name, (copy) => {
      const meta = copy.metadata as { ownerReferences?: OwnerReference[] };
      const refs = (meta.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
      meta.ownerReferences = refs.length > 0 ? refs : undefined;
    }, { fieldManager: COMPONENT });
  }

  private removeFinalizer(owner: KubeObject, finalizer: string): void {
    const meta = owner.metadata ?? {};
    const kind = owner.kind as ResourceKind;
    this.ctx.store.mutate(kind, meta.namespace, meta.name ?? '', (copy) => {
      const copyMeta = copy.metadata as { finalizers?: string[] };
      const rest = (copyMeta.finalizers ?? []).filter((f) => f !== finalizer);
      copyMeta.finalizers = rest.length > 0 ? rest : undefined;
    }, { fieldManager: COMPONENT });
  }
}

function groupOf(apiVersion: string | undefined): string {
  const slash = (apiVersion ?? '').indexOf('/');
  return slash < 0 ? '' : (apiVersion ?? '').slice(0, slash);
}
