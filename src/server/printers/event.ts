/**
 * Event rows: port of `printEvent` (Wide=true). Events written through events.k8s.io/v1 (the
 * scheduler's `Scheduled`) carry `eventTime` and no first/last timestamps or count when read as
 * core/v1; they print their eventTime age and a count of 1.
 */
import type { Event } from '../../core/k8s';
import type { PrintedRow } from './row';
import { ageSince, parseMicroTime, parseTime } from './time';

export function printEvent(event: Event, now: number): PrintedRow {
  const firstTimestamp = parseTime(event.firstTimestamp);
  const firstSeen =
    firstTimestamp === undefined ? ageSince(parseMicroTime(event.eventTime), now) : ageSince(firstTimestamp, now);
  const lastTimestamp = parseTime(event.lastTimestamp);
  let lastSeen = lastTimestamp === undefined ? firstSeen : ageSince(lastTimestamp, now);
  let count = event.count ?? 0;
  if (event.series) {
    lastSeen = ageSince(parseMicroTime(event.series.lastObservedTime), now);
    count = event.series.count ?? 0;
  } else if (count === 0) {
    count = 1;
  }
  const involved = event.involvedObject ?? {};
  const kind = (involved.kind ?? '').toLowerCase();
  const target = involved.name ? `${kind}/${involved.name}` : kind;
  return {
    cells: [
      lastSeen,
      event.type ?? '',
      event.reason ?? '',
      target,
      involved.fieldPath ?? '',
      formatEventSource(event),
      (event.message ?? '').trim(),
      firstSeen,
      count,
      event.metadata?.name ?? '',
    ],
  };
}

/** Component (falling back to reportingComponent) and host (falling back to reportingInstance). */
function formatEventSource(event: Event): string {
  const component = event.source?.component || event.reportingComponent || '';
  const instance = event.source?.host || event.reportingInstance || '';
  return instance === '' ? component : `${component}, ${instance}`;
}

/**
 * An events.k8s.io/v1 Event in its core/v1 form (the API server converts both through the same
 * internal type before printing). Other objects are returned unchanged.
 */
export function asCoreEvent(object: Record<string, unknown>): Event {
  if (object.apiVersion !== 'events.k8s.io/v1') return object as unknown as Event;
  const copy: Record<string, unknown> = { ...object, apiVersion: 'v1' };
  const renames: [from: string, to: string][] = [
    ['regarding', 'involvedObject'],
    ['note', 'message'],
    ['deprecatedSource', 'source'],
    ['deprecatedFirstTimestamp', 'firstTimestamp'],
    ['deprecatedLastTimestamp', 'lastTimestamp'],
    ['deprecatedCount', 'count'],
    ['reportingController', 'reportingComponent'],
  ];
  for (const [from, to] of renames) {
    if (from in copy) {
      copy[to] = copy[from];
      delete copy[from];
    }
  }
  return copy as unknown as Event;
}
