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
export const EVENT_TTL_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 1000;

interface Aggregate {
  namespace: string;
  name: string;
  count: number;
}

export class StoreEventRecorder implements EventRecorder {
  /** Insertion-ordered map used as an LRU. */
  private readonly recent = new Map<string, Aggregate>();
  private readonly expiry: { at: number; namespace: string; name: string }[] = [];
  private expiryHead = 0;
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
    const key = `${meta.uid}\u0000${type}\u0000${reason}\u0000${message}\u0000${source.component}\u0000${source.host ?? ''}`;
    const now = this.clock.now();
    const known = this.recent.get(key);
    if (known) {
      this.recent.delete(key);
      this.recent.set(key, known);
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
        this.recent.delete(key); // expired meanwhile: record afresh
      }
    }
    const name = `${meta.name}.${this.uniqueNanos(now).toString(16)}`;
    const involvedObject = {
      kind: involved.kind,
      namespace: meta.namespace,
      name: meta.name,
      uid: meta.uid,
      apiVersion: involved.apiVersion,
      resourceVersion: meta.resourceVersion,
    };
    const event: KubeObject = options?.eventsV1
      ? {
          metadata: { name, namespace },
          involvedObject,
          reason,
          message,
          source: {},
          firstTimestamp: null,
          lastTimestamp: null,
          type,
          eventTime: rfc3339Micro(now),
          action: options.eventsV1.action,
          reportingComponent: source.component,
          reportingInstance: `${source.component}-control-plane`,
        }
      : {
          metadata: { name, namespace },
          involvedObject,
          reason,
          message,
          source: source.host ? { component: source.component, host: source.host } : { component: source.component },
          firstTimestamp: rfc3339(now),
          lastTimestamp: rfc3339(now),
          count: 1,
          type,
          eventTime: null,
          reportingComponent: source.component,
          reportingInstance: source.host ?? '',
        };
    try {
      this.store.create('Event', event, { fieldManager: source.component });
    } catch (error) {
      // The involved object's namespace may be gone (deleted mid-flight); real recorders drop the event too.
      if (error instanceof ApiError && error.code === 404) return;
      throw error;
    }
    this.recent.set(key, { namespace, name, count: 1 });
    if (this.recent.size > LRU_ENTRIES) this.recent.delete(this.recent.keys().next().value!);
    if (this.expire) this.scheduleExpiry(now, namespace, name);
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
    this.expiry.push({ at: now + EVENT_TTL_MS, namespace, name });
    if (!this.sweeping) {
      this.sweeping = true;
      this.clock.after(SWEEP_EVERY_MS, () => this.sweep());
    }
  }

  private sweep(): void {
    const now = this.clock.now();
    while (this.expiryHead < this.expiry.length && this.expiry[this.expiryHead].at <= now) {
      const { namespace, name } = this.expiry[this.expiryHead++];
      const event = this.store.get<KubeObject>('Event', namespace, name);
      if (!event) continue;
      const last = Date.parse(String(event.lastTimestamp ?? (event.series as { lastObservedTime?: string } | undefined)?.lastObservedTime ?? event.eventTime ?? ''));
      if (Number.isFinite(last) && last + EVENT_TTL_MS > now) {
        this.expiry.push({ at: last + EVENT_TTL_MS, namespace, name });
        continue;
      }
      this.store.delete('Event', namespace, name, { actor: 'kube-apiserver' });
    }
    if (this.expiryHead > 10_000) {
      this.expiry.splice(0, this.expiryHead);
      this.expiryHead = 0;
    }
    if (this.expiryHead < this.expiry.length) this.clock.after(SWEEP_EVERY_MS, () => this.sweep());
    else this.sweeping = false;
  }
}
