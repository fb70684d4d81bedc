/**
 * Every version of the traced objects the watch delivered, so that a tree node can show its
 * object as YAML at any recorded moment. The tracer keeps digests, not objects; this keeps the
 * objects themselves (the watch's own instances, never changed), each version sharing the parts
 * equal to the version before (a pod's spec, its labels, its unchanged conditions), so that a
 * version costs what changed, not a whole pod. Bounded: a fixed
 * number of versions per object and of objects in all, the least recently changed object
 * forgotten first, so a 150,000-pod simulation cannot exhaust the extension host.
 */
import { stringify } from 'yaml';
import type { KubeObject, WatchEvent } from '../../core/k8s';
import { deepEqual } from '../../common/json';
import { TRACEABLE_KINDS } from '../../common/traceable-kinds';

export interface ObjectVersion {
  /** When the watch delivered it, ms. */
  receivedAt: number;
  type: WatchEvent['type'];
  resourceVersion: string;
  object: KubeObject;
}

export interface ObjectKey {
  kind: string;
  namespace: string;
  name: string;
}

export interface HistoryLimits {
  versionsPerObject: number;
  objects: number;
}

const DEFAULT_LIMITS: HistoryLimits = { versionsPerObject: 60, objects: 3000 };

export function keyString(key: ObjectKey): string {
  return `${key.kind}/${key.namespace}/${key.name}`;
}

export class ObjectHistory {
  /** Insertion order is recency: an object is moved to the end when it changes. */
  private readonly objects = new Map<string, ObjectVersion[]>();
  private readonly limits: HistoryLimits;

  constructor(limits: Partial<HistoryLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  record(event: WatchEvent, receivedAt: number): void {
    const object = event.object;
    const kind = object.kind;
    const name = object.metadata?.name;
    if (!kind || !name || !TRACEABLE_KINDS.has(kind)) return;
    const key = keyString({ kind, namespace: object.metadata?.namespace ?? '', name });
    let versions = this.objects.get(key);
    if (versions) this.objects.delete(key);
    else versions = [];
    this.objects.set(key, versions);
    const resourceVersion = object.metadata?.resourceVersion ?? '';
    if (versions.length > 0 && versions[versions.length - 1].resourceVersion === resourceVersion && event.type !== 'DELETED') return;
    versions.push({ receivedAt, type: event.type, resourceVersion, object: versions.length > 0 ? sharingParts(versions[versions.length - 1].object, object) : object });
    // Keep the first version (how the object was created) and the latest ones.
    if (versions.length > this.limits.versionsPerObject) versions.splice(1, 1);
    if (this.objects.size > this.limits.objects) {
      const oldest = this.objects.keys().next().value;
      if (oldest !== undefined) this.objects.delete(oldest);
    }
  }

  versions(key: ObjectKey): readonly ObjectVersion[] {
    return this.objects.get(keyString(key)) ?? [];
  }

  version(key: ObjectKey, resourceVersion: string): ObjectVersion | undefined {
    return this.versions(key).find((v) => v.resourceVersion === resourceVersion);
  }

  /** The last version delivered at or before `time`. */
  at(key: ObjectKey, time: number): ObjectVersion | undefined {
    let found: ObjectVersion | undefined;
    for (const version of this.versions(key)) {
      if (version.receivedAt > time) break;
      found = version;
    }
    return found;
  }

  get size(): number {
    return this.objects.size;
  }

  clear(): void {
    this.objects.clear();
  }
}

/** How deep parts are compared: top-level fields, theirs (`spec.containers`), and their items. */
const SHARING_DEPTH = 3;

/**
 * `next`, with each part deep-equal to the same part of `previous` replaced by it: shallow copies
 * of `next` and of its changed parts, neither object changed.
 */
export function sharingParts(previous: KubeObject, next: KubeObject): KubeObject {
  return sharePart(previous, next, SHARING_DEPTH) as KubeObject;
}

function sharePart(before: unknown, after: unknown, depth: number): unknown {
  // Equal strings too: the earlier instance is kept, the new one left to the collector.
  if (before === after) return before;
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null || Array.isArray(before) !== Array.isArray(after)) return after;
  if (depth === 0) return deepEqual(before, after) ? before : after;
  const was = before as Record<string, unknown>;
  const is = after as Record<string, unknown>;
  let copy: Record<string, unknown> | unknown[] | undefined;
  let changed = Object.keys(was).length !== Object.keys(is).length;
  for (const key of Object.keys(is)) {
    const part = is[key];
    const shared = key in was ? sharePart(was[key], part, depth - 1) : part;
    if (shared !== was[key]) changed = true;
    if (shared !== part) (copy ??= Array.isArray(after) ? [...after] : { ...is })[key as never] = shared as never;
  }
  // Every part equal: the earlier version's whole object.
  if (!changed) return before;
  return copy ?? after;
}

function statusOf(object: KubeObject): Record<string, unknown> {
  const status = object.status;
  return typeof status === 'object' && status !== null ? (status as Record<string, unknown>) : {};
}

function conditions(object: KubeObject): Map<string, string> {
  const list = statusOf(object).conditions;
  const out = new Map<string, string>();
  if (Array.isArray(list)) {
    for (const c of list) {
      if (c && typeof c === 'object' && typeof (c as Record<string, unknown>).type === 'string') out.set(String((c as Record<string, unknown>).type), String((c as Record<string, unknown>).status));
    }
  }
  return out;
}

function scalar(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/** What a version changed compared with the one before, in a few words: `phase Pending → Running, Ready → True`. */
export function describeChange(previous: ObjectVersion | undefined, current: ObjectVersion): string {
  if (current.type === 'DELETED') return 'deleted';
  if (!previous) return 'created';
  const changes: string[] = [];
  const before = previous.object;
  const after = current.object;
  const spec = (o: KubeObject): Record<string, unknown> => (typeof o.spec === 'object' && o.spec !== null ? (o.spec as Record<string, unknown>) : {});
  const nodeBefore = scalar(spec(before).nodeName);
  const nodeAfter = scalar(spec(after).nodeName);
  if (nodeBefore !== nodeAfter && nodeAfter) changes.push(`bound to ${nodeAfter}`);
  const replicasBefore = scalar(spec(before).replicas);
  const replicasAfter = scalar(spec(after).replicas);
  if (replicasBefore !== replicasAfter) changes.push(`replicas ${replicasBefore ?? '–'} → ${replicasAfter ?? '–'}`);
  const phaseBefore = scalar(statusOf(before).phase);
  const phaseAfter = scalar(statusOf(after).phase);
  if (phaseBefore !== phaseAfter && phaseAfter) changes.push(phaseBefore ? `phase ${phaseBefore} → ${phaseAfter}` : `phase ${phaseAfter}`);
  for (const field of ['readyReplicas', 'availableReplicas', 'updatedReplicas']) {
    const from = scalar(statusOf(before)[field]);
    const to = scalar(statusOf(after)[field]);
    if (from !== to) changes.push(`${field} ${from ?? '0'} → ${to ?? '0'}`);
  }
  const condBefore = conditions(before);
  for (const [type, status] of conditions(after)) {
    if (condBefore.get(type) !== status) changes.push(`${type} ${status}`);
  }
  if (after.metadata?.deletionTimestamp && !before.metadata?.deletionTimestamp) changes.push('terminating');
  if (changes.length === 0) changes.push(after.metadata?.generation !== before.metadata?.generation ? 'spec changed' : 'status or metadata changed');
  return changes.join(', ');
}

/**
 * The object as `kubectl get -o yaml` shows it (managedFields left out, as kubectl does by
 * default), under a comment saying which moment it is.
 */
export function versionYaml(version: ObjectVersion, header: string): string {
  const { managedFields: _managed, ...metadata } = version.object.metadata ?? {};
  const shown: KubeObject = { ...version.object, metadata };
  const comment = header
    .split('\n')
    .map((line) => `# ${line}`.trimEnd())
    .join('\n');
  return `${comment}\n${stringify(shown, { lineWidth: 0 })}`;
}
