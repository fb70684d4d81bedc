/**
 * Recorded streams: what a tracer was fed, one JSON object per line (NDJSON), so that a session
 * against the simulator or a real cluster can be replayed into a tracer (golden tests, bug
 * reports). Line shapes:
 *   {"receivedAt": 1767268800000, "begin": {"kind": "Deployment", "namespace": "default", "name": "web"}}
 *   {"receivedAt": 1767268800012, "event": {"type": "ADDED", "object": {…}}}
 *   {"receivedAt": 1767268800013, "internal": {"type": "etcdWrite", …}}
 * `begin` lines use receivedAt as the apply time.
 */
import type { InternalStep } from '../internals';
import type { KubeObject, WatchEvent } from '../k8s';
import type { JourneyTracer, RootSpec } from './tracer';
import { isTraceableKind, TRACEABLE_KIND_NAMES } from '../../common/traceable-kinds';
import { isJsonObject } from '../../common/json';

export type StreamRecord =
  | { receivedAt: number; begin: RootSpec }
  | { receivedAt: number; event: WatchEvent }
  | { receivedAt: number; internal: InternalStep };



const WATCH_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED']);
const INTERNAL_TYPES = new Set(['etcdWrite', 'watchDelivered', 'schedulingCycle', 'assumedExit', 'assumedRunning', 'assumedPull', 'proxySync']);

function parseLine(value: unknown, line: number): StreamRecord {
  const fail = (why: string): never => {
    throw new Error(`stream line ${line}: ${why}`);
  };
  if (!isJsonObject(value)) return fail('not a JSON object');
  const receivedAt = value.receivedAt;
  if (typeof receivedAt !== 'number' || !Number.isFinite(receivedAt)) return fail('receivedAt must be a number (ms since the epoch)');
  if (isJsonObject(value.begin)) {
    const { kind, namespace, name } = value.begin;
    if (!isTraceableKind(kind) || typeof name !== 'string') return fail(`begin needs kind (${TRACEABLE_KIND_NAMES.join(', ')}) and name`);
    const root: RootSpec = { kind: kind as RootSpec['kind'], name };
    if (typeof namespace === 'string') root.namespace = namespace;
    return { receivedAt, begin: root };
  }
  if (isJsonObject(value.event)) {
    const { type, object } = value.event;
    if (typeof type !== 'string' || !WATCH_TYPES.has(type) || !isJsonObject(object)) return fail('event needs type ADDED/MODIFIED/DELETED and object');
    return { receivedAt, event: { type: type as WatchEvent['type'], object: object as KubeObject } };
  }
  if (isJsonObject(value.internal)) {
    if (typeof value.internal.type !== 'string' || !INTERNAL_TYPES.has(value.internal.type)) return fail('internal needs type etcdWrite, watchDelivered, schedulingCycle, assumedExit, assumedRunning, assumedPull or proxySync');
    return { receivedAt, internal: value.internal as unknown as InternalStep };
  }
  return fail('expected one of begin, event, internal');
}

/** Parses NDJSON text; blank lines are skipped. Throws with the line number on a malformed line. */
export function parseStream(text: string): StreamRecord[] {
  const records: StreamRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new Error(`stream line ${i + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
    records.push(parseLine(value, i + 1));
  }
  return records;
}

/** One NDJSON line (no trailing newline). */
export function formatStreamRecord(record: StreamRecord): string {
  return JSON.stringify(record);
}

/** Feeds recorded lines to a tracer in order; returns the ids of the journeys begun. */
export function replay(records: readonly StreamRecord[], tracer: JourneyTracer): string[] {
  const ids: string[] = [];
  for (const record of records) {
    if ('begin' in record) ids.push(tracer.begin(record.begin, record.receivedAt));
    else if ('event' in record) tracer.ingest(record.event, record.receivedAt);
    else tracer.ingestInternal(record.internal);
  }
  return ids;
}
