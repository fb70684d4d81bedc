/**
 * The event recorder the simulated components use, writing core/v1 Events into the store the way
 * client-go's recorders do:
 * - the legacy recorder (controllers, kubelet): `source.component`/`host`, whole-second
 *   firstTimestamp/lastTimestamp, `count`, and client-go's event correlator (./event-correlation):
 *   identical events counted in one object, similar ones combined, a budget per source and object;
 * - the events.k8s.io/v1 recorder (scheduler): `eventTime` with microseconds, `action`,
 *   `reportingComponent`, an empty `source`, null first/lastTimestamp, `series` on repeats.
 * Events expire after the API server's default TTL of one hour, as in a real cluster, or after
 * the TTL the simulator is given (kube-apiserver's --event-ttl).
 */
import type { KubeObject } from '../../core/k8s';
import type { VirtualClock } from '../clock';
import type { EventOptions, EventRecorder, EventSource } from '../event-recorder';
import { flattened, rfc3339, rfc3339Micro } from './object-utils';
import { ApiError, type StoreApi } from './types';
import { COMBINED_EVENT_PREFIX } from '../../core/journey/events';
import { EventCorrelator, type ObjectMemory, type ObservedEvent } from './event-correlation';
import { EventNames } from './event-names';

/** Slots of the table that lets equal messages share one string (a power of two). */
const MESSAGE_SLOTS = 1024;
export const EVENT_TTL_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 1000;

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

/** Parts many events share; stored objects are read-only, so one frozen instance serves them all. */
const EMPTY_SOURCE = Object.freeze({});

/** One component's recorder: its correlator, and the `source` its legacy events carry per host. */
class ComponentRecorder {
  readonly correlator = new EventCorrelator();
  /** `<component>-control-plane`, the instance name events.k8s.io recorders report. */
  readonly controlPlaneInstance: string;
  private readonly sources = new Map<string, Readonly<Record<string, string>>>();

  constructor(private readonly component: string) {
    this.controlPlaneInstance = `${component}-control-plane`;
  }

  /** The `source` of a legacy event, one shared instance per component and host. */
  sourceOn(host: string): Readonly<Record<string, string>> {
    let shared = this.sources.get(host);
    if (!shared) {
      const fields: Record<string, string> = host ? { component: this.component, host } : { component: this.component };
      shared = Object.freeze(fields);
      this.sources.set(host, shared);
    }
    return shared;
  }
}

/** The source for `host`, kept on the object's memory: a lookup among thousands of hosts per event cost more. */
function sourceFor(memory: ObjectMemory, component: ComponentRecorder, host: string): Readonly<Record<string, string>> {
  const last = memory.source;
  if (last && (last.host ?? '') === host) return last;
  return (memory.source = component.sourceOn(host));
}

/**
 * The involvedObject of an event, shared with the previous event about the same version of the
 * object and the same part of it (kept on the correlator's memory of the object). The fields in
 * ObjectReference's order; `fieldPath` only when the event is about a part (a container).
 */
function involvedObject(memory: ObjectMemory, involved: KubeObject, fieldPath: string | undefined): Readonly<Record<string, string | undefined>> {
  const meta = involved.metadata ?? {};
  const last = memory.involvedObject;
  if (last && last.resourceVersion === meta.resourceVersion && last.fieldPath === fieldPath && last.name === meta.name && last.namespace === meta.namespace && last.kind === involved.kind && last.apiVersion === involved.apiVersion) return last;
  const fields =
    fieldPath === undefined
      ? Object.freeze({ kind: involved.kind, namespace: meta.namespace, name: meta.name, uid: meta.uid, apiVersion: involved.apiVersion, resourceVersion: meta.resourceVersion })
      : Object.freeze({ kind: involved.kind, namespace: meta.namespace, name: meta.name, uid: meta.uid, apiVersion: involved.apiVersion, resourceVersion: meta.resourceVersion, fieldPath });
  memory.involvedObject = fields;
  return fields;
}

export class StoreEventRecorder implements EventRecorder {
  private readonly components = new Map<string, ComponentRecorder>();
  private readonly expiry = new ExpiryQueue();
  /**
   * Messages seen lately, so that equal messages (every pod's "Created container: app") are one
   * string, and a message built from many pieces is kept as one flat string, not as its pieces. A
   * direct-mapped table: most messages are unique (they name a pod), and a Map churning through
   * them cost more than the sharing saved.
   */
  private readonly messages: string[] = new Array<string>(MESSAGE_SLOTS).fill('');
  private sweeping = false;
  private readonly names = new EventNames();

  constructor(
    private readonly store: StoreApi,
    private readonly clock: VirtualClock,
    /**
     * How long an Event lives after its last write (kube-apiserver's --event-ttl), or false to
     * keep events forever (golden tests that inspect old events).
     */
    private readonly ttlMs: number | false = EVENT_TTL_MS,
  ) {}

  record(involved: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, source: EventSource, options?: EventOptions): void {
    const component = this.componentOf(source.reportAs ?? source.component);
    const text = this.shared(message);
    const now = this.clock.now();
    const fieldPath = options?.fieldPath;
    if (options?.eventsV1) this.recordSeries(component, involved, fieldPath, type, reason, text, source, options.eventsV1.action, now);
    else this.recordCorrelated(component, involved, fieldPath, type, reason, text, source, now);
  }

  /** The legacy recorder: `EventCorrelate` (aggregate, count, filter spam), then create or patch. */
  private recordCorrelated(component: ComponentRecorder, involved: KubeObject, fieldPath: string | undefined, type: string, reason: string, message: string, source: EventSource, now: number): void {
    const correlator = component.correlator;
    const meta = involved.metadata ?? {};
    const namespace = meta.namespace || 'default';
    const host = source.host ?? '';
    const memory = correlator.memoryOf(meta.uid ?? '');
    const combined = correlator.combines(memory, type, reason, host, message, now);
    // client-go files a combined event under the aggregate key, which has no fieldPath: one per reason, whichever container.
    const observed = correlator.observe(memory, type, reason, host, combined ? '' : fieldPath ?? '', combined ? COMBINED_EVENT_PREFIX : message, namespace, now);
    if (observed.name === '') observed.name = this.eventName(meta.name, now);
    // The logger counts an event even when the spam filter then drops it: the next write carries the full count.
    if (!correlator.allows(memory, host, now)) return;
    const text = combined ? flattened(COMBINED_EVENT_PREFIX + message) : message;
    // A repeat patches the Event; when that is gone (expired, or never written because filtered), it is created.
    if (observed.count > 1 && this.patched(observed, text, now, (source.reportAs ?? source.component))) return;
    const event: KubeObject = {
      metadata: this.newMetadata(observed.name, namespace),
      involvedObject: involvedObject(memory, involved, fieldPath),
      reason,
      message: text,
      source: sourceFor(memory, component, host),
      firstTimestamp: rfc3339(observed.firstSeen),
      lastTimestamp: rfc3339(now),
      count: observed.count,
      type,
      eventTime: null,
      reportingComponent: (source.reportAs ?? source.component),
      reportingInstance: host,
      // As create would add them, last: spelled here so the object keeps one shape.
      apiVersion: 'v1',
      kind: 'Event',
    };
    this.create(event, (source.reportAs ?? source.component), now);
  }

  private patched(observed: ObservedEvent, message: string, now: number, component: string): boolean {
    try {
      this.store.mutate('Event', observed.namespace, observed.name, (event) => {
        event.count = observed.count;
        event.lastTimestamp = rfc3339(now);
        event.message = message;
      }, { fieldManager: component });
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 404) return false;
      throw error;
    }
  }

  /** The events.k8s.io recorder: no aggregation or spam filter; a repeat becomes a `series`. */
  private recordSeries(component: ComponentRecorder, involved: KubeObject, fieldPath: string | undefined, type: string, reason: string, message: string, source: EventSource, action: string, now: number): void {
    const meta = involved.metadata ?? {};
    const namespace = meta.namespace || 'default';
    const host = source.host ?? '';
    const correlator = component.correlator;
    const memory = correlator.memoryOf(meta.uid ?? '');
    let observed = correlator.observe(memory, type, reason, host, fieldPath ?? '', message, namespace, now);
    if (observed.count > 1) {
      const count = observed.count;
      try {
        this.store.mutate('Event', observed.namespace, observed.name, (event) => {
          event.series = { count, lastObservedTime: rfc3339Micro(now) };
        }, { fieldManager: source.component });
        return;
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 404)) throw error;
        // Expired meanwhile: record afresh.
        correlator.forget(observed);
        observed = correlator.observe(correlator.memoryOf(meta.uid ?? ''), type, reason, host, fieldPath ?? '', message, namespace, now);
      }
    }
    observed.name = this.eventName(meta.name, now);
    const event: KubeObject = {
      metadata: this.newMetadata(observed.name, namespace),
      involvedObject: involvedObject(observed.memory, involved, fieldPath),
      reason,
      message,
      source: EMPTY_SOURCE,
      firstTimestamp: null,
      lastTimestamp: null,
      type,
      eventTime: rfc3339Micro(now),
      action,
      reportingComponent: source.component,
      reportingInstance: component.controlPlaneInstance,
      apiVersion: 'v1',
      kind: 'Event',
    };
    if (!this.create(event, source.component, now)) correlator.forget(observed);
  }

  /** Every field create and commit set, spelled in their order, so the object keeps one shape. */
  private newMetadata(name: string, namespace: string): Record<string, unknown> {
    return { name, namespace, uid: undefined, creationTimestamp: undefined, managedFields: undefined, resourceVersion: undefined };
  }

  private create(event: KubeObject, component: string, now: number): boolean {
    try {
      this.store.create('Event', event, { fieldManager: component });
    } catch (error) {
      // The involved object's namespace may be gone (deleted mid-flight); real recorders drop the event too.
      if (error instanceof ApiError && error.code === 404) return false;
      throw error;
    }
    if (this.ttlMs !== false) this.scheduleExpiry(now, event.metadata!.namespace!, event.metadata!.name!);
    return true;
  }

  /** `<involved name>.<nanoseconds in hex>`, as client-go names events. */
  private eventName(involvedName: string | undefined, now: number): string {
    return flattened(`${involvedName}.${this.names.nextHex(now)}`);
  }

  private componentOf(name: string): ComponentRecorder {
    let component = this.components.get(name);
    if (!component) this.components.set(name, (component = new ComponentRecorder(name)));
    return component;
  }

  private shared(message: string): string {
    const length = message.length;
    if (length === 0) return message;
    const slot = (length * 31 + message.charCodeAt(length - 1) * 7 + message.charCodeAt(length >> 1)) & (MESSAGE_SLOTS - 1);
    const known = this.messages[slot];
    if (known === message) return known;
    // Reading characters above flattened the message, so the stored string is one piece.
    this.messages[slot] = message;
    return message;
  }


  /** The API server's sweeps are a minute apart, or a TTL apart when that is shorter. */
  private get sweepEveryMs(): number {
    return Math.min(SWEEP_EVERY_MS, this.ttlMs || SWEEP_EVERY_MS);
  }

  private scheduleExpiry(now: number, namespace: string, name: string): void {
    this.expiry.push(now + (this.ttlMs || EVENT_TTL_MS), namespace, name);
    if (!this.sweeping) {
      this.sweeping = true;
      this.clock.after(this.sweepEveryMs, () => this.sweep());
    }
  }

  private sweep(): void {
    const now = this.clock.now();
    const ttl = this.ttlMs || EVENT_TTL_MS;
    for (let due = this.expiry.shiftDue(now); due; due = this.expiry.shiftDue(now)) {
      const { namespace, name } = due;
      const event = this.store.get<KubeObject>('Event', namespace, name);
      if (!event) continue;
      const last = Date.parse(String(event.lastTimestamp ?? (event.series as { lastObservedTime?: string } | undefined)?.lastObservedTime ?? event.eventTime ?? ''));
      if (Number.isFinite(last) && last + ttl > now) {
        this.expiry.push(last + ttl, namespace, name);
        continue;
      }
      this.store.delete('Event', namespace, name, { actor: 'kube-apiserver' });
    }
    this.expiry.compact();
    if (this.expiry.pending) this.clock.after(this.sweepEveryMs, () => this.sweep());
    else this.sweeping = false;
  }
}
