/**
 * Reads what a twin of a cluster needs (`kube-journey trace --twin CONTEXT`, docs/twin.md), with
 * GET requests only: the nodes, the pods bound to them and the workloads that own those pods,
 * the storage and scheduling objects they depend on, the namespaces with their quotas and limit
 * ranges, and the objects a manifest would update. Lists are read in pages; pods namespace by
 * namespace, a few namespaces at a time. A kind the credentials may not list (403) or the server
 * does not serve (404) is left out and reported; without the nodes there is no twin.
 *
 * Nothing here can write: every request goes through `get`.
 */
import type { KubeObject, OwnerReference, PodSpec } from '../core/k8s';
import { ClusterApiError, ClusterUnreachableError } from './errors';
import type { ClusterConnection } from './connection';
import { resourcePath, NoKindMatchError } from './discovery';
import { configSourceNames, podSpecPath } from '../core/journey/dependencies';

/** A collection the twin could not copy, and what its absence may change on the twin. */
export interface NotCopied {
  /** `resourcequotas`, `pods in namespace team-a` */
  resource: string;
  reason: 'forbidden' | 'not served';
  consequence: string;
}

/** What was read, in the order the simulator can restore it (see SimulatorOptions.restore). */
export interface ClusterCopy {
  objects: KubeObject[];
  /** Objects copied per kind (`Node`: 5, `Pod`: 37, …). */
  counts: Record<string, number>;
  notCopied: NotCopied[];
  /** Wall time spent reading, and the GET requests made. */
  readMs: number;
  requests: number;
}

/** The twin cannot be made (no nodes readable, credentials refused): one line for the user, exit 2. */
export class TwinReadError extends Error {
  override readonly name = 'TwinReadError';
}

export interface TwinReadOptions {
  /** The manifest's objects: those that exist already are copied, so the trace updates them. */
  manifestObjects?: readonly KubeObject[];
  /** Objects per page (default 1000). */
  pageSize?: number;
  /** Namespaces whose pods are listed at once (default 8). */
  concurrency?: number;
}

/** A read-only view of the connection: GET, and the paginated list built on it. */
interface Reader {
  get(path: string, query?: Record<string, string | number | undefined>): Promise<unknown>;
  list(path: string, query?: Record<string, string | undefined>): Promise<KubeObject[]>;
  readonly requests: number;
}

function readerOf(connection: ClusterConnection, pageSize: number): Reader {
  let requests = 0;
  const get = async (path: string, query?: Record<string, string | number | undefined>): Promise<unknown> => {
    requests++;
    return (await connection.http.json('GET', path, { query, timeoutMs: 120_000 })).body;
  };
  return {
    get,
    async list(path, query = {}) {
      const items: KubeObject[] = [];
      let next: string | undefined;
      do {
        const page = (await get(path, { ...query, limit: pageSize, continue: next })) as { metadata?: { continue?: string }; items?: KubeObject[] };
        for (const item of page.items ?? []) items.push(item);
        next = page.metadata?.continue || undefined;
      } while (next);
      return items;
    },
    get requests() {
      return requests;
    },
  };
}

/** Where each copied kind is listed, and what its absence may change on the twin. */
const COLLECTIONS = {
  Namespace: { path: '/api/v1/namespaces', resource: 'namespaces', consequence: 'namespaces are made bare: labels (Pod Security levels) and finalizers may differ' },
  PriorityClass: { path: '/apis/scheduling.k8s.io/v1/priorityclasses', resource: 'priorityclasses', consequence: 'pods naming a priority class may be refused and preemption may differ' },
  StorageClass: { path: '/apis/storage.k8s.io/v1/storageclasses', resource: 'storageclasses', consequence: 'claims may bind or wait differently' },
  PersistentVolume: { path: '/api/v1/persistentvolumes', resource: 'persistentvolumes', consequence: 'claims may bind or wait differently' },
  ServiceAccount: { path: '/api/v1/serviceaccounts', resource: 'serviceaccounts', consequence: 'pods naming a service account other than default may be refused' },
  ResourceQuota: { path: '/api/v1/resourcequotas', resource: 'resourcequotas', consequence: 'quota admission on the twin may differ' },
  LimitRange: { path: '/api/v1/limitranges', resource: 'limitranges', consequence: 'default requests and limits on the twin may differ' },
  PersistentVolumeClaim: { path: '/api/v1/persistentvolumeclaims', resource: 'persistentvolumeclaims', consequence: 'pods mounting claims may wait on the twin' },
} as const;

/** Owner kinds of pods (and of their owners) the twin copies, with their collection under a namespace. */
const OWNER_KINDS: Record<string, { group: string; resource: string }> = {
  ReplicaSet: { group: 'apps/v1', resource: 'replicasets' },
  Deployment: { group: 'apps/v1', resource: 'deployments' },
  StatefulSet: { group: 'apps/v1', resource: 'statefulsets' },
  DaemonSet: { group: 'apps/v1', resource: 'daemonsets' },
  ControllerRevision: { group: 'apps/v1', resource: 'controllerrevisions' },
  Job: { group: 'batch/v1', resource: 'jobs' },
  CronJob: { group: 'batch/v1', resource: 'cronjobs' },
  ReplicationController: { group: 'v1', resource: 'replicationcontrollers' },
};

/** The order objects are restored in: what others refer to first, pods last. */
const RESTORE_ORDER = [
  'Namespace',
  'PriorityClass',
  'StorageClass',
  'PersistentVolume',
  'ServiceAccount',
  'ResourceQuota',
  'LimitRange',
  'PersistentVolumeClaim',
  'Node',
  'CronJob',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicationController',
  'Job',
  'ReplicaSet',
  'ControllerRevision',
];

function ownerPath(kind: string, namespace: string): string {
  const { group, resource } = OWNER_KINDS[kind];
  return `${group.includes('/') ? `/apis/${group}` : `/api/${group}`}/namespaces/${encodeURIComponent(namespace)}/${resource}`;
}

/** Runs `work` on every item, at most `limit` at once. */
async function eachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(runners);
}

function refusal(error: unknown): NotCopied['reason'] | undefined {
  if (error instanceof ClusterApiError && error.code === 403) return 'forbidden';
  if (error instanceof ClusterApiError && error.code === 404) return 'not served';
  return undefined;
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The object as the twin keeps it: no managedFields (the twin's field managers start afresh) and
 * no last-applied copy; a Secret keeps its keys, never their values.
 */
function trimmed(object: KubeObject): KubeObject {
  const meta = object.metadata as Record<string, unknown> | undefined;
  if (meta) {
    // A new metadata object rather than `delete`, which would leave each one a slow dictionary for the twin's hot paths.
    const kept: Record<string, unknown> = {};
    for (const key in meta) if (key !== 'managedFields') kept[key] = meta[key];
    object.metadata = kept;
    const annotations = kept.annotations as Record<string, string> | undefined;
    if (annotations?.[LAST_APPLIED] !== undefined) delete annotations[LAST_APPLIED];
  }
  if (object.kind === 'Secret') {
    const secret = object as { data?: Record<string, string>; stringData?: unknown };
    secret.data = Object.fromEntries(Object.keys(secret.data ?? {}).map((key) => [key, '']));
    delete secret.stringData;
  }
  return object;
}

function controllerOf(object: KubeObject): OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((ref) => ref.controller);
}

/** Reads the cluster behind `connection` for its twin. Throws TwinReadError when no twin can be made. */
export async function readClusterForTwin(connection: ClusterConnection, options: TwinReadOptions = {}): Promise<ClusterCopy> {
  const started = Date.now();
  const reader = readerOf(connection, options.pageSize ?? 1000);
  const notCopied: NotCopied[] = [];
  const byKind = new Map<string, Map<string, KubeObject>>();
  const add = (object: KubeObject): void => {
    const kind = object.kind ?? '';
    let objects = byKind.get(kind);
    if (!objects) byKind.set(kind, (objects = new Map()));
    objects.set(object.metadata?.uid ?? `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`, trimmed(object));
  };
  /** Lists one collection of `kind`; its items come without kind and apiVersion. */
  const listKind = async (kind: string, apiVersion: string, path: string, query?: Record<string, string | undefined>): Promise<KubeObject[]> => {
    const items = await reader.list(path, query);
    for (const item of items) {
      item.kind = kind;
      item.apiVersion = apiVersion;
    }
    return items;
  };

  const context = `context "${connection.context.name}" (${connection.server})`;
  try {
    for (const node of await listKind('Node', 'v1', '/api/v1/nodes')) add(node);
  } catch (error) {
    if (error instanceof ClusterApiError && error.code === 401) throw new TwinReadError(`${context}: the API server refused the credentials (401 Unauthorized): ${error.message}`);
    if (error instanceof ClusterApiError) throw new TwinReadError(`${context}: cannot list nodes (${error.code} ${error.reason ?? ''}: ${error.message}); a twin starts from the cluster's nodes`);
    if (error instanceof ClusterUnreachableError) throw new TwinReadError(`${context}: ${error.message}`);
    throw error;
  }

  // The cluster-wide collections, side by side.
  let namespaces: string[] | undefined;
  await Promise.all(
    (Object.keys(COLLECTIONS) as (keyof typeof COLLECTIONS)[]).map(async (kind) => {
      const collection = COLLECTIONS[kind];
      const apiVersion = collection.path.startsWith('/api/v1') ? 'v1' : collection.path.split('/').slice(2, 4).join('/');
      try {
        const items = await listKind(kind, apiVersion, collection.path);
        for (const item of items) add(item);
        if (kind === 'Namespace') namespaces = items.map((item) => item.metadata?.name ?? '');
      } catch (error) {
        const reason = refusal(error);
        if (!reason) throw error;
        notCopied.push({ resource: collection.resource, reason, consequence: collection.consequence });
      }
    }),
  );

  // Pods bound to a node and not finished: namespace by namespace, a few at once; cluster-wide when namespaces cannot be listed.
  const podQuery = { fieldSelector: 'spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed' };
  const refusedPods = new Map<NotCopied['reason'], string[]>();
  const podsIn = async (path: string, namespace: string | undefined): Promise<void> => {
    try {
      for (const pod of await listKind('Pod', 'v1', path, podQuery)) add(pod);
    } catch (error) {
      const reason = refusal(error);
      if (!reason) throw error;
      refusedPods.set(reason, [...(refusedPods.get(reason) ?? []), namespace ?? '']);
    }
  };
  if (namespaces) await eachBounded(namespaces, options.concurrency ?? 8, (namespace) => podsIn(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`, namespace));
  else await podsIn('/api/v1/pods', undefined);
  for (const [reason, where] of refusedPods) notCopied.push({ resource: podsWhere(where), reason, consequence: 'the nodes look emptier on the twin than they are: pods may fit there that do not in the cluster' });

  // The manifest's objects that exist already, so that applying it updates them on the twin.
  for (const object of options.manifestObjects ?? []) {
    const found = await existingObject(connection, reader, object);
    if (found) add(found);
  }

  await copyConfigSources(options.manifestObjects ?? [], connection.namespace, reader, add, notCopied);
  await copyOwners(byKind, listKind, add, notCopied);

  // A namespace the objects are in but that could not be listed is made bare.
  const namespaceObjects = byKind.get('Namespace') ?? new Map<string, KubeObject>();
  const named = new Set([...namespaceObjects.values()].map((ns) => ns.metadata?.name));
  for (const objects of byKind.values()) {
    for (const object of objects.values()) {
      const namespace = object.metadata?.namespace;
      if (namespace && !named.has(namespace)) {
        named.add(namespace);
        add({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
      }
    }
  }

  dropMissingOwners(byKind);
  const objects: KubeObject[] = [];
  const counts: Record<string, number> = {};
  const kinds = [...RESTORE_ORDER, ...[...byKind.keys()].filter((kind) => !RESTORE_ORDER.includes(kind) && kind !== 'Pod'), 'Pod'];
  for (const kind of kinds) {
    const ofKind = byKind.get(kind);
    if (!ofKind || ofKind.size === 0) continue;
    counts[kind] = ofKind.size;
    for (const object of ofKind.values()) objects.push(object);
  }
  return { objects, counts, notCopied, readMs: Date.now() - started, requests: reader.requests };
}

/** `pods`, `pods in namespace a`, `pods in namespaces a, b, c and 4 more`: one line for every namespace that refused. */
function podsWhere(namespaces: string[]): string {
  if (namespaces.length === 1 && namespaces[0] === '') return 'pods';
  const sorted = [...namespaces].sort();
  if (sorted.length === 1) return `pods in namespace ${sorted[0]}`;
  const shown = sorted.slice(0, 3).join(', ');
  return `pods in namespaces ${shown}${sorted.length > 3 ? ` and ${sorted.length - 3} more` : ''}`;
}

/** GET of a manifest object on the cluster; undefined when it does not exist (or cannot be read). */
async function existingObject(connection: ClusterConnection, reader: Reader, object: KubeObject): Promise<KubeObject | undefined> {
  const name = object.metadata?.name;
  if (!name || !object.apiVersion || !object.kind) return undefined;
  try {
    const mapping = await connection.resources.mapping(object.apiVersion, object.kind);
    const found = (await reader.get(resourcePath(mapping, object.metadata?.namespace ?? connection.namespace, name))) as KubeObject;
    found.kind ??= object.kind;
    found.apiVersion ??= object.apiVersion;
    return found;
  } catch (error) {
    if (error instanceof NoKindMatchError || refusal(error)) return undefined;
    throw error;
  }
}

function valueAt(object: unknown, path: string): unknown {
  let value = object;
  for (const key of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/**
 * The ConfigMaps and Secrets the manifest's pods read by name, each with one GET: without them a
 * pod that runs in the cluster would stop on the twin at CreateContainerConfigError or a volume
 * that cannot mount. One the cluster does not have stays missing, as it would there; a Secret
 * comes without its values (see trimmed).
 */
async function copyConfigSources(manifestObjects: readonly KubeObject[], defaultNamespace: string, reader: Reader, add: (object: KubeObject) => void, notCopied: NotCopied[]): Promise<void> {
  const wanted = new Map<string, { kind: 'ConfigMap' | 'Secret'; namespace: string; name: string }>();
  for (const object of manifestObjects) {
    const path = podSpecPath(object.kind ?? '');
    if (!path) continue;
    const namespace = object.metadata?.namespace ?? defaultNamespace;
    const names = configSourceNames(valueAt(object, path) as PodSpec | undefined);
    for (const name of names.configMaps) wanted.set(`ConfigMap ${namespace} ${name}`, { kind: 'ConfigMap', namespace, name });
    for (const name of names.secrets) wanted.set(`Secret ${namespace} ${name}`, { kind: 'Secret', namespace, name });
  }
  const refused = new Set<string>();
  await eachBounded([...wanted.values()], 8, async ({ kind, namespace, name }) => {
    const resource = kind === 'ConfigMap' ? 'configmaps' : 'secrets';
    try {
      const found = (await reader.get(`/api/v1/namespaces/${encodeURIComponent(namespace)}/${resource}/${encodeURIComponent(name)}`)) as KubeObject;
      found.kind = kind;
      found.apiVersion = 'v1';
      add(found);
    } catch (error) {
      const reason = refusal(error);
      if (reason === 'not served') return; // 404: the cluster has no such object either
      if (!reason) throw error;
      const where = `${resource} in namespace ${namespace}`;
      if (refused.has(where)) return;
      refused.add(where);
      notCopied.push({ resource: where, reason, consequence: `a manifest pod reading one fails on the twin with CreateContainerConfigError or a volume that does not mount, where the cluster may have it` });
    }
  });
}

/**
 * The workloads owning the copied pods, their owners in turn (Deployments of ReplicaSets,
 * CronJobs of Jobs), and the history the controllers read (a Deployment's older ReplicaSets, a
 * StatefulSet's or DaemonSet's ControllerRevisions), listed per namespace and kind.
 */
async function copyOwners(
  byKind: Map<string, Map<string, KubeObject>>,
  listKind: (kind: string, apiVersion: string, path: string) => Promise<KubeObject[]>,
  add: (object: KubeObject) => void,
  notCopied: NotCopied[],
): Promise<void> {
  const listed = new Map<string, KubeObject[] | undefined>();
  const listOf = async (kind: string, namespace: string): Promise<KubeObject[]> => {
    const key = `${kind} ${namespace}`;
    if (listed.has(key)) return listed.get(key) ?? [];
    listed.set(key, undefined);
    try {
      const items = await listKind(kind, OWNER_KINDS[kind].group, ownerPath(kind, namespace));
      listed.set(key, items);
      return items;
    } catch (error) {
      const reason = refusal(error);
      if (!reason) throw error;
      notCopied.push({ resource: `${OWNER_KINDS[kind].resource} in namespace ${namespace}`, reason, consequence: 'their pods are copied without owners: nothing replaces them on the twin' });
      return [];
    }
  };
  const copied = (uid: string): boolean => [...byKind.values()].some((objects) => objects.has(uid));
  // Two rounds: pods' owners, then those owners' owners.
  let dependents = [...(byKind.get('Pod')?.values() ?? [])];
  for (let round = 0; round < 2; round++) {
    const wanted = new Map<string, Set<string>>();
    for (const object of dependents) {
      const ref = controllerOf(object);
      if (!ref || !OWNER_KINDS[ref.kind] || copied(ref.uid)) continue;
      const key = `${ref.kind} ${object.metadata?.namespace ?? ''}`;
      let uids = wanted.get(key);
      if (!uids) wanted.set(key, (uids = new Set()));
      uids.add(ref.uid);
    }
    const found: KubeObject[] = [];
    await eachBounded([...wanted], 8, async ([key, uids]) => {
      const [kind, namespace] = key.split(' ');
      for (const item of await listOf(kind, namespace)) {
        if (!uids.has(item.metadata?.uid ?? '')) continue;
        add(item);
        found.push(item);
      }
    });
    dependents = found;
  }
  // History: ReplicaSets of the copied Deployments and revisions of the copied StatefulSets and DaemonSets.
  const historyOf: [owner: string, kind: string][] = [
    ['Deployment', 'ReplicaSet'],
    ['StatefulSet', 'ControllerRevision'],
    ['DaemonSet', 'ControllerRevision'],
  ];
  const work: [kind: string, namespace: string, owners: Set<string>][] = [];
  for (const [ownerKind, kind] of historyOf) {
    const owners = [...(byKind.get(ownerKind)?.values() ?? [])];
    const namespaces = new Set(owners.map((owner) => owner.metadata?.namespace ?? ''));
    for (const namespace of namespaces) {
      const uids = new Set(owners.filter((owner) => owner.metadata?.namespace === namespace).map((owner) => owner.metadata?.uid ?? ''));
      work.push([kind, namespace, uids]);
    }
  }
  await eachBounded(work, 8, async ([kind, namespace, owners]) => {
    for (const item of await listOf(kind, namespace)) {
      const ref = controllerOf(item);
      if (ref && owners.has(ref.uid)) add(item);
    }
  });
}

/** Owner references to objects the twin does not hold are dropped: its garbage collector would delete their dependents. */
function dropMissingOwners(byKind: Map<string, Map<string, KubeObject>>): void {
  const uids = new Set<string>();
  for (const objects of byKind.values()) for (const uid of objects.keys()) uids.add(uid);
  for (const objects of byKind.values()) {
    for (const object of objects.values()) {
      const refs = object.metadata?.ownerReferences;
      if (!refs || refs.every((ref) => uids.has(ref.uid))) continue;
      const kept = refs.filter((ref) => uids.has(ref.uid));
      const meta = object.metadata as { ownerReferences?: OwnerReference[] };
      if (kept.length > 0) meta.ownerReferences = kept;
      else delete meta.ownerReferences;
    }
  }
}
