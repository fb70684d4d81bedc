/**
 * A trace as Chrome's Trace Event Format (the JSON that Perfetto and chrome://tracing open):
 * one process per applied object, one thread per object it caused (the root first, then each
 * owner before what it owns: Deployment → ReplicaSet → Pods), a complete (`X`) slice per object
 * with its pod phases nested inside, and an instant (`i`) event per stage. Timestamps are
 * microseconds from the earliest apply (`otherData.origin` says when that was).
 *
 * Written as a stream of text chunks, so a 10,000-pod trace never exists whole as one string.
 * Format: https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
 */
import type { Journey, ObjectJourney } from '../journey/types';
import { ChunkGatherer } from './chunks';
import { exportedEvidence, stageFacts, type ExportValue } from './evidence';
import type { ExportInput } from './input';
import { describeRef, nestedIntervals, objectSpan, podPhaseIntervals, rootSpan, walkObjects, type WalkedObject } from './walk';

/** One Chrome trace event, as written. */
export interface ChromeTraceEvent {
  name: string;
  /** `M` metadata, `X` complete slice, `i` instant. */
  ph: 'M' | 'X' | 'i';
  /** Microseconds from `otherData.origin`. */
  ts: number;
  pid: number;
  tid: number;
  /** Slice length, microseconds (`X` only). */
  dur?: number;
  cat?: string;
  /** Instant scope: `t` thread (`i` only). */
  s?: 't';
  args?: Record<string, ExportValue>;
}

/** The earliest apply (or stage) of the input, ms: the trace's time zero. */
export function traceOrigin(journeys: readonly Journey[]): number {
  let origin = Infinity;
  for (const journey of journeys) origin = Math.min(origin, rootSpan(journey).start);
  return origin === Infinity ? 0 : origin;
}

function micros(ms: number, origin: number): number {
  return Math.round((ms - origin) * 1000);
}

function sliceName(object: ObjectJourney): string {
  const label = `${object.ref.kind} ${object.ref.name}`;
  if (object.stuck && (object.status === 'stuck' || object.status === 'failed')) return `${label} (${object.status}: ${object.stuck.reason})`;
  return label;
}

function objectArgs(walked: WalkedObject): Record<string, ExportValue> {
  const { object, owner } = walked;
  const args: Record<string, ExportValue> = { kind: object.ref.kind, namespace: object.ref.namespace, name: object.ref.name, status: object.status };
  if (object.ref.uid) args.uid = object.ref.uid;
  if (owner) args.owner = describeRef(owner.ref);
  if (object.pod?.node) args.node = object.pod.node;
  if (object.pod) {
    args.restarts = object.pod.restarts;
    // Every phase, also those a track cannot draw because they cross another one (schedule_to_watch crosses create_to_run).
    args.phases = { ...object.pod.phases };
  }
  if (object.stuck) {
    args.reason = object.stuck.reason;
    args.message = object.stuck.message;
    args.component = object.stuck.component;
  }
  if (object.preexisting) args.preexisting = true;
  return args;
}

/** The events of one journey, as process `pid`: metadata first, then each object's slices and stages. */
export function* journeyEvents(journey: Journey, pid: number, origin: number): Generator<ChromeTraceEvent> {
  yield { name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: describeRef(journey.root) } };
  yield { name: 'process_sort_index', ph: 'M', ts: 0, pid, tid: 0, args: { sort_index: pid } };
  if (!journey.tree) {
    // Never seen on a watch: the root's thread shows the wait from the apply.
    yield { name: 'thread_name', ph: 'M', ts: 0, pid, tid: 1, args: { name: describeRef(journey.root) } };
    const span = rootSpan(journey);
    yield { name: `${journey.root.kind} ${journey.root.name}`, ph: 'X', cat: 'object', ts: micros(span.start, origin), dur: micros(span.end, span.start), pid, tid: 1, args: { status: journey.status } };
    return;
  }
  let tid = 0;
  for (const walked of walkObjects(journey.tree)) {
    tid++;
    const { object } = walked;
    yield { name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name: `${object.ref.kind} ${object.ref.name}` } };
    yield { name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid, args: { sort_index: tid } };
    const span = walked.depth === 0 ? rootSpan(journey) : objectSpan(object);
    const slices = nestedIntervals([
      { start: span.start, end: span.end, name: sliceName(object), cat: 'object', args: objectArgs(walked) },
      ...podPhaseIntervals(object.pod?.marks).map((phase) => ({ ...phase, cat: 'phase', args: { phase: phase.name, ms: phase.end - phase.start } as Record<string, ExportValue> })),
    ]);
    for (const slice of slices) {
      const ts = micros(slice.start, origin);
      yield { name: slice.name, ph: 'X', cat: slice.cat, ts, dur: micros(slice.end, origin) - ts, pid, tid, args: slice.args };
    }
    for (const stage of object.stages) {
      const args: Record<string, ExportValue> = stageFacts(stage);
      const evidence = exportedEvidence(stage.evidence);
      if (evidence) args.evidence = evidence;
      yield { name: stage.title, ph: 'i', s: 't', cat: stage.kind, ts: micros(stage.time, origin), pid, tid, args };
    }
  }
}

/** The whole trace file as text chunks; joined, they are one JSON document. */
export function* chromeTraceChunks(input: ExportInput): Generator<string> {
  const origin = traceOrigin(input.journeys);
  const otherData: Record<string, string> = { origin: new Date(origin).toISOString(), generator: 'kube-journey' };
  if (input.source !== undefined) otherData.source = input.source;
  if (input.target !== undefined) otherData.target = input.target;
  if (input.toolVersion !== undefined) otherData.toolVersion = input.toolVersion;
  const gatherer = new ChunkGatherer();
  let first = true;
  gatherer.add(`{"displayTimeUnit":"ms","otherData":${JSON.stringify(otherData)},"traceEvents":[`);
  let pid = 0;
  for (const journey of input.journeys) {
    pid++;
    for (const event of journeyEvents(journey, pid, origin)) {
      const chunk = gatherer.add(`${first ? '\n' : ',\n'}${JSON.stringify(event)}`);
      first = false;
      if (chunk) yield chunk;
    }
  }
  yield `${gatherer.take()}\n]}\n`;
}
