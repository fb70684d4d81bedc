/**
 * The event recorder the simulated components use, writing core/v1 Events into the store the way
 * client-go's recorders do:
 * - the legacy recorder (controllers, kubelet): `source.component`/`host`, whole-second
 *   firstTimestamp/lastTimestamp, `count`, aggregation of identical events into one object with a
 *   growing count (the event correlator's LRU of 4,096 keys);
 * - the events.k8s.io/v1 recorder (scheduler): `eventTime` with microseconds, `action`,
 *   `reportingComponent`, an empty `source`, null first/lastTimestamp, `series` on repeats.
 * Events expire after the API server's default TTL of one hour, as in a real cluster.
 */
import type { KubeObject } from '../../core/k8s';
import type { VirtualClock } from '../clock';
import type { EventOptions, EventRecorder, EventSource } from '../context';
import { rfc3339, rfc3339Micro } from './object-utils';
import { ApiError, type StoreApi } from './types';

const LRU_ENTRIES = 4096;
/** Bounds of the caches that let events share strings and objects. */
const MESSAGES_KEPT = 8192;
const INVOLVED_KEPT = 8192;
export const EVENT_TTL_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 1000;

/** What makes two events the same for aggregation (client-go's `getEventKey`, less the uid it is filed under). */
interface EventIdentity {
  type: string;
  reason: string;
  message: string;
  component: string;
  host: string;
}

interface Aggregate extends EventIdentity {
  involvedUid: string;
  namespace: string;
  name: string;
  count: number;
  /** Neighbours in recency order (older, newer). */
  older: Aggregate | undefined;
  newer: Aggregate | undefined;
}

function sameIdentity(a: EventIdentity, b: EventIdentity): boolean {
  return a.reason === b.reason && a.type === b.type && a.component === b.component && a.host === b.host && a.message === b.message;
}

/** Aggregates of one involved object: a short list, or by message once there are many (a ReplicaSet's SuccessfulCreate). */
type Filed = Aggregate[] | Map<string, Aggregate[]>;
const SHORT_LIST = 16;

/**
 * The correlator's LRU of recent events, filed by involved object: a lookup builds no key string
 * (hashing one per event cost more than everything else the recorder does), and a linked list
 * keeps the recency order (a Map used as an LRU, deleted from and re-inserted into, leaves holes
 * at its front that every eviction walks over again).
 */
class RecentEvents {
  private readonly byInvolved = new Map<string, Filed>();
  private size = 0;
  private oldest: Aggregate | undefined;
  private newest: Aggregate | undefined;

  constructor(private readonly capacity: number) {}

  /** The aggregate for this event, made the most recent. */
  touch(involvedUid: string, identity: EventIdentity): Aggregate | undefined {
    const filed = this.byInvolved.get(involvedUid);
    if (!filed) return undefined;
    const candidates = Array.isArray(filed) ? filed : filed.get(identity.message);
    if (!candidates) return undefined;
    let aggregate: Aggregate | undefined;
    for (const candidate of candidates) {
      if (sameIdentity(candidate, identity)) {
        aggregate = candidate;
        break;
      }
    }
    if (aggregate && aggregate !== this.newest) {
      this.unlink(aggregate);
      this.append(aggregate);
    }
    return aggregate;
  }

  add(involvedUid: string, identity: EventIdentity, namespace: string, name: string): void {
    const existing = this.touch(involvedUid, identity);
    if (existing) this.remove(existing);
    const aggregate: Aggregate = {
      type: identity.type,
      reason: identity.reason,
      message: identity.message,
      component: identity.component,
      host: identity.host,
      involvedUid,
      namespace,
      name,
      count: 1,
      older: undefined,
      newer: undefined,
    };
    const filed = this.byInvolved.get(involvedUid);
    if (!filed) this.byInvolved.set(involvedUid, [aggregate]);
    else if (!Array.isArray(filed)) fileByMessage(filed, aggregate);
    else if (filed.length < SHORT_LIST) filed.push(aggregate);
    else {
      const byMessage = new Map<string, Aggregate[]>();
      for (const earlier of filed) fileByMessage(byMessage, earlier);
      fileByMessage(byMessage, aggregate);
      this.byInvolved.set(involvedUid, byMessage);
    }
    this.size++;
    this.append(aggregate);
    if (this.size > this.capacity) this.remove(this.oldest!);
  }

  remove(aggregate: Aggregate): void {
    const filed = this.byInvolved.get(aggregate.involvedUid);
    if (!filed) return;
    const list = Array.isArray(filed) ? filed : filed.get(aggregate.message);
    const index = list ? list.indexOf(aggregate) : -1;
    if (index < 0) return;
    list!.splice(index, 1);
    if (!Array.isArray(filed) && list!.length === 0) filed.delete(aggregate.message);
    if (Array.isArray(filed) ? filed.length === 0 : filed.size === 0) this.byInvolved.delete(aggregate.involvedUid);
    this.size--;
    this.unlink(aggregate);
  }

  private append(aggregate: Aggregate): void {
    aggregate.older = this.newest;
    aggregate.newer = undefined;
    if (this.newest) this.newest.newer = aggregate;
    else this.oldest = aggregate;
    this.newest = aggregate;
  }

  private unlink(aggregate: Aggregate): void {
    if (aggregate.older) aggregate.older.newer = aggregate.newer;
    else this.oldest = aggregate.newer;
    if (aggregate.newer) aggregate.newer.older = aggregate.older;
    else this.newest = aggregate.older;
    aggregate.older = aggregate.newer = undefined;
  }
}

/** Events due to expire, oldest first, in parallel arrays (a few bytes each for ~a million events). */
class ExpiryQueue {
  private at: number[] = [];
  private namespaces: string[] = [];
  private names: string[] = [];
  private head = 0;

  get pending(): boolean {
    return this.head < this.at.length;
  }

  push(at: number, namespace: string, name: string): void {
    this.at.push(at);
    this.namespaces.push(namespace);
    this.names.push(name);
  }

  /** The next entry when it is due at or before `now`, removed from the queue. */
  shiftDue(now: number): { namespace: string; name: string } | undefined {
    if (this.head >= this.at.length || this.at[this.head] > now) return undefined;
    const index = this.head++;
    return { namespace: this.namespaces[index], name: this.names[index] };
  }

  /** Drop the entries already taken once there are many. */
  compact(): void {
    if (this.head <= 10_000) return;
    this.at = this.at.slice(this.head);
    this.namespaces = this.namespaces.slice(this.head);
    this.names = this.names.slice(this.head);
    this.head = 0;
  }
}

function fileByMessage(byMessage: Map<string, Aggregate[]>, aggregate: Aggregate): void {
  const list = byMessage.get(aggregate.message);
  if (list) list.push(aggregate);
  else byMessage.set(aggregate.message, [aggregate]);
}

/** Parts many events share; stored objects are read-only, so one frozen instance serves them all. */
const EMPTY_SOURCE = Object.freeze({});

export class StoreEventRecorder implements EventRecorder {
  private readonly recent = new RecentEvents(LRU_ENTRIES);
  private readonly sources = new Map<string, Map<string, Readonly<Record<string, string>>>>();
  private readonly expiry = new ExpiryQueue();
  private readonly reportingInstances = new Map<string, string>();
  /** The involvedObject last written per object uid, shared by the next events about the same version. */
  private readonly involvedObjects = new Map<string, Readonly<Record<string, string | undefined>>>();
  /**
   * Messages seen lately, so that equal messages (every pod's "Created container: app") are one
   * string, and a message built from many pieces is kept as one flat string, not as its pieces.
   */
  private readonly messages = new Map<string, string>();
  private sweeping = false;
  private lastNanos = 0n;

  constructor(
    private readonly store: StoreApi,
    private readonly clock: VirtualClock,
    /** Turn off to keep events forever (golden tests that inspect old events). */
    private readonly expire = true,
  ) {}

  record(involved: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, source: EventSource, options?: EventOptions): void {
    const meta = involved.metadata ?? {};
    const namespace = meta.namespace || 'default';
    const involvedUid = meta.uid ?? '';
    const identity: EventIdentity = { type, reason, message: this.shared(message), component: source.component, host: source.host ?? '' };
    const now = this.clock.now();
    const known = this.recent.touch(involvedUid, identity);
    if (known) {
      known.count++;
      try {
        this.store.mutate('Event', known.namespace, known.name, (event) => {
          if (options?.eventsV1) event.series = { count: known.count, lastObservedTime: rfc3339Micro(now) };
          else {
            event.count = known.count;
            event.lastTimestamp = rfc3339(now);
          }
        }, { fieldManager: source.component });
        return;
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 404)) throw error;
        this.recent.remove(known); // expired meanwhile: record afresh
      }
    }
    const name = `${meta.name}.${this.uniqueNanos(now).toString(16)}`;
    const involvedObject = this.involvedObject(involved);
    // Every field create and commit set, spelled in their order, so the object keeps one shape.
    const metadata = { name, namespace, uid: undefined, creationTimestamp: undefined, managedFields: undefined, resourceVersion: undefined };
    const event: KubeObject = options?.eventsV1
      ? {
          metadata,
          involvedObject,
          reason,
          message: identity.message,
          source: EMPTY_SOURCE,
          firstTimestamp: null,
          lastTimestamp: null,
          type,
          eventTime: rfc3339Micro(now),
          action: options.eventsV1.action,
          reportingComponent: source.component,
          reportingInstance: this.controlPlaneInstance(source.component),
          // As create would add them, last: spelled here so the object keeps one shape.
          apiVersion: 'v1',
          kind: 'Event',
        }
      : {
          metadata,
          involvedObject,
          reason,
          message: identity.message,
          source: this.legacySource(source),
          firstTimestamp: rfc3339(now),
          lastTimestamp: rfc3339(now),
          count: 1,
          type,
          eventTime: null,
          reportingComponent: source.component,
          reportingInstance: source.host ?? '',
          apiVersion: 'v1',
          kind: 'Event',
        };
    try {
      this.store.create('Event', event, { fieldManager: source.component });
    } catch (error) {
      // The involved object's namespace may be gone (deleted mid-flight); real recorders drop the event too.
      if (error instanceof ApiError && error.code === 404) return;
      throw error;
    }
    this.recent.add(involvedUid, identity, namespace, name);
    if (this.expire) this.scheduleExpiry(now, namespace, name);
  }

  private shared(message: string): string {
    const known = this.messages.get(message);
    if (known !== undefined) return known;
    if (this.messages.size >= MESSAGES_KEPT) this.messages.clear();
    this.messages.set(message, message);
    return message;
  }

  private involvedObject(involved: KubeObject): Readonly<Record<string, string | undefined>> {
    const meta = involved.metadata ?? {};
    const uid = meta.uid ?? '';
    const last = this.involvedObjects.get(uid);
    if (last && last.resourceVersion === meta.resourceVersion && last.name === meta.name && last.namespace === meta.namespace && last.kind === involved.kind && last.apiVersion === involved.apiVersion) return last;
    const fields: Record<string, string | undefined> = {
      kind: involved.kind,
      namespace: meta.namespace,
      name: meta.name,
      uid: meta.uid,
      apiVersion: involved.apiVersion,
      resourceVersion: meta.resourceVersion,
    };
    const frozen = Object.freeze(fields);
    if (this.involvedObjects.size >= INVOLVED_KEPT) this.involvedObjects.clear();
    this.involvedObjects.set(uid, frozen);
    return frozen;
  }

  /** `<component>-control-plane`, the instance name events.k8s.io recorders report, built once per component. */
  private controlPlaneInstance(component: string): string {
    let instance = this.reportingInstances.get(component);
    if (instance === undefined) this.reportingInstances.set(component, (instance = `${component}-control-plane`));
    return instance;
  }

  /** The `source` of a legacy event, one shared instance per component and host. */
  private legacySource(source: EventSource): Readonly<Record<string, string>> {
    let byHost = this.sources.get(source.component);
    if (!byHost) this.sources.set(source.component, (byHost = new Map()));
    const host = source.host ?? '';
    let shared = byHost.get(host);
    if (!shared) {
      const fields: Record<string, string> = source.host ? { component: source.component, host: source.host } : { component: source.component };
      shared = Object.freeze(fields);
      byHost.set(host, shared);
    }
    return shared;
  }


  /** Event names embed the time in nanoseconds; keep them unique when several events share a millisecond. */
  private uniqueNanos(now: number): bigint {
    // BigInt: nanoseconds since the epoch exceed 2^53, where +1 would be lost.
    const exact = BigInt(Math.floor(now)) * 1_000_000n;
    const nanos = exact > this.lastNanos ? exact : this.lastNanos + 1n;
    this.lastNanos = nanos;
    return nanos;
  }

  private scheduleExpiry(now: number, namespace: string, name: string): void {
    this.expiry.push(now + EVENT_TTL_MS, namespace, name);
    if (!this.sweeping) {
      this.sweeping = true;
      this.clock.after(SWEEP_EVERY_MS, () => this.sweep());
    }
  }

  private sweep(): void {
    const now = this.clock.now();
    for (let due = this.expiry.shiftDue(now); due; due = this.expiry.shiftDue(now)) {
      const { namespace, name } = due;
      const event = this.store.get<KubeObject>('Event', namespace, name);
      if (!event) continue;
      const last = Date.parse(String(event.lastTimestamp ?? (event.series as { lastObservedTime?: string } | undefined)?.lastObservedTime ?? event.eventTime ?? ''));
      if (Number.isFinite(last) && last + EVENT_TTL_MS > now) {
        this.expiry.push(last + EVENT_TTL_MS, namespace, name);
        continue;
      }
      this.store.delete('Event', namespace, name, { actor: 'kube-apiserver' });
    }
    this.expiry.compact();
    if (this.expiry.pending) this.clock.after(SWEEP_EVERY_MS, () => this.sweep());
    else this.sweeping = false;
  }
}
