/**
 * A trace as OpenTelemetry traces in OTLP/JSON (the ExportTraceServiceRequest's JSON mapping:
 * resourceSpans → scopeSpans → spans, ids as lowercase hex, times as decimal-string nanoseconds,
 * enums as numbers): one trace per applied object, one span per object it caused (Deployment →
 * ReplicaSet → Pod, parentSpanId linking each to its owner), a pod's phases as child spans of the
 * pod, its stages as span events. Spans carry OpenTelemetry's k8s attributes (`k8s.deployment.name`,
 * `k8s.pod.uid`, …, the owners' names too, as the collector's k8sattributes processor sets them);
 * a stuck or failed object's span has status ERROR with the Kubernetes reason and message.
 *
 * Ids are deterministic (ids.ts): exporting one journey file twice gives the same trace.
 * Written as a stream of text (a file) or of request bodies of bounded size (OTLP/HTTP).
 * Spec: https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding
 */
import type { Journey, ObjectJourney, Stage, TraceableKind } from '../journey/types';
import { ChunkGatherer } from './chunks';
import { exportedEvidence, stageFacts } from './evidence';
import { spanIdOf, traceIdOf } from './ids';
import type { ExportInput } from './input';
import { describeRef, objectKey, objectSpan, podPhaseIntervals, rootSpan, walkObjects } from './walk';

/** An attribute value (AnyValue); int64 as a decimal string, as the JSON mapping writes it. */
export type OtlpAnyValue = { stringValue: string } | { intValue: string } | { boolValue: boolean } | { doubleValue: number };

export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

export interface OtlpSpanEvent {
  timeUnixNano: string;
  name: string;
  attributes: OtlpKeyValue[];
}

/** STATUS_CODE_UNSET, STATUS_CODE_OK, STATUS_CODE_ERROR. */
export type OtlpStatusCode = 0 | 1 | 2;

export interface OtlpSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** The owner's span (absent on the apply's root span). */
  parentSpanId?: string;
  name: string;
  /** SPAN_KIND_INTERNAL: nothing here is a request between services. */
  kind: 1;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  events: OtlpSpanEvent[];
  status: { code: OtlpStatusCode; message?: string };
}

/** What the exporter calls itself: the spans' instrumentation scope and the resource's service. */
export const OTLP_SCOPE_NAME = 'kube-journey';

/** Unix ms → decimal nanoseconds (beyond 2^53: built from the whole ms and their fraction). */
export function unixNanos(ms: number): string {
  const whole = Math.floor(ms);
  const fraction = Math.round((ms - whole) * 1e6);
  return (BigInt(whole) * 1_000_000n + BigInt(fraction)).toString();
}

function text(key: string, value: string): OtlpKeyValue {
  return { key, value: { stringValue: value } };
}

function integer(key: string, value: number): OtlpKeyValue {
  return { key, value: { intValue: String(Math.trunc(value)) } };
}

/** OpenTelemetry's k8s attribute prefix per kind (semantic-conventions, registry k8s); Service and EndpointSlice have none. */
const K8S_PREFIX: Partial<Record<TraceableKind, string>> = {
  Deployment: 'k8s.deployment',
  ReplicaSet: 'k8s.replicaset',
  ReplicationController: 'k8s.replicationcontroller',
  StatefulSet: 'k8s.statefulset',
  DaemonSet: 'k8s.daemonset',
  Job: 'k8s.job',
  CronJob: 'k8s.cronjob',
  Pod: 'k8s.pod',
};

/** The k8s.<kind>.name (and uid) attributes naming `object`; an owner's are inherited by what it owns. */
function identity(object: ObjectJourney): OtlpKeyValue[] {
  const prefix = K8S_PREFIX[object.ref.kind];
  if (!prefix) return [];
  const attributes = [text(`${prefix}.name`, object.ref.name)];
  if (object.ref.uid) attributes.push(text(`${prefix}.uid`, object.ref.uid));
  return attributes;
}

function objectAttributes(object: ObjectJourney, inherited: readonly OtlpKeyValue[]): OtlpKeyValue[] {
  const attributes = [text('k8s.namespace.name', object.ref.namespace), ...inherited, ...identity(object)];
  if (object.pod?.node) attributes.push(text('k8s.node.name', object.pod.node));
  if (object.pod?.containers.length === 1) attributes.push(text('k8s.container.name', object.pod.containers[0].name));
  if (object.pod) attributes.push(integer('k8s.container.restart_count', object.pod.restarts));
  attributes.push(text('kube_journey.object.kind', object.ref.kind), text('kube_journey.object.name', object.ref.name), text('kube_journey.status', object.status));
  if (object.stuck) {
    attributes.push(text('kube_journey.stuck.reason', object.stuck.reason), text('kube_journey.stuck.component', object.stuck.component));
    if (object.stuck.count !== undefined) attributes.push(integer('kube_journey.stuck.count', object.stuck.count));
  }
  if (object.preexisting) attributes.push({ key: 'kube_journey.preexisting', value: { boolValue: true } });
  return attributes;
}

function stageEvent(stage: Stage): OtlpSpanEvent {
  const attributes: OtlpKeyValue[] = [];
  for (const [fact, value] of Object.entries(stageFacts(stage))) {
    // The event's name is the title already; attribute names are snake_case in OpenTelemetry.
    if (fact === 'title') continue;
    const key = fact.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    if (key === 'container') attributes.push(text('k8s.container.name', String(value)));
    else if (typeof value === 'boolean') attributes.push({ key: `kube_journey.stage.${key}`, value: { boolValue: value } });
    else if (typeof value === 'number') attributes.push(integer(`kube_journey.stage.${key}`, value));
    else attributes.push(text(`kube_journey.stage.${key}`, value));
  }
  const evidence = exportedEvidence(stage.evidence);
  if (evidence) attributes.push(text('kube_journey.stage.evidence', JSON.stringify(evidence)));
  return { timeUnixNano: unixNanos(stage.time), name: stage.title, attributes };
}

function statusOf(object: ObjectJourney): OtlpSpan['status'] {
  if ((object.status === 'stuck' || object.status === 'failed') && object.stuck) return { code: 2, message: `${object.stuck.reason}: ${object.stuck.message}` };
  if (object.status === 'stuck' || object.status === 'failed') return { code: 2, message: object.status };
  return { code: object.status === 'complete' ? 1 : 0 };
}

/** The spans of one journey (one trace), each owner's before what it owns, a pod's phases after the pod. */
export function* journeySpans(journey: Journey): Generator<OtlpSpan> {
  const traceId = traceIdOf(journey.id);
  if (!journey.tree) {
    const span = rootSpan(journey);
    yield {
      traceId,
      spanId: spanIdOf(journey.id, `${journey.root.kind}/${journey.root.namespace}/${journey.root.name}`),
      name: describeRef(journey.root),
      kind: 1,
      startTimeUnixNano: unixNanos(span.start),
      endTimeUnixNano: unixNanos(span.end),
      attributes: [text('k8s.namespace.name', journey.root.namespace), text('kube_journey.object.kind', journey.root.kind), text('kube_journey.object.name', journey.root.name), text('kube_journey.status', journey.status)],
      events: [],
      status: { code: 0 },
    };
    return;
  }
  // Each object's span id and identity attributes, for what it owns; dropped once its children are out.
  const owners = new Map<ObjectJourney, { spanId: string; identity: OtlpKeyValue[] }>();
  for (const walked of walkObjects(journey.tree)) {
    const { object, owner } = walked;
    const spanId = spanIdOf(journey.id, objectKey(object.ref));
    const ownerInfo = owner ? owners.get(owner) : undefined;
    const inherited = ownerInfo?.identity ?? [];
    if (object.children.length > 0) owners.set(object, { spanId, identity: [...inherited, ...identity(object)] });
    const span = walked.depth === 0 ? rootSpan(journey) : objectSpan(object);
    const attributes = objectAttributes(object, inherited);
    yield {
      traceId,
      spanId,
      parentSpanId: ownerInfo?.spanId,
      name: walked.depth === 0 ? describeRef(object.ref) : `${object.ref.kind} ${object.ref.name}`,
      kind: 1,
      startTimeUnixNano: unixNanos(span.start),
      endTimeUnixNano: unixNanos(span.end),
      attributes,
      events: object.stages.map(stageEvent),
      status: statusOf(object),
    };
    for (const phase of podPhaseIntervals(object.pod?.marks)) {
      yield {
        traceId,
        spanId: spanIdOf(journey.id, objectKey(object.ref), phase.name),
        parentSpanId: spanId,
        name: phase.name,
        kind: 1,
        startTimeUnixNano: unixNanos(phase.start),
        endTimeUnixNano: unixNanos(phase.end),
        attributes: [text('k8s.namespace.name', object.ref.namespace), ...inherited, ...identity(object), text('kube_journey.phase', phase.name)],
        events: [],
        status: { code: 0 },
      };
    }
    // A pod's owner is done with once its last child is out: keep the map to the owners still open.
    if (owner && owner.children[owner.children.length - 1] === object) owners.delete(owner);
  }
}

/** The resource a journey's spans come from: Kube Journey, and the namespace and root it applied. */
function resourceOf(journey: Journey, input: ExportInput): { attributes: OtlpKeyValue[] } {
  const attributes = [text('service.name', OTLP_SCOPE_NAME)];
  if (input.toolVersion) attributes.push(text('service.version', input.toolVersion));
  attributes.push(text('k8s.namespace.name', journey.root.namespace));
  if (input.source !== undefined) attributes.push(text('kube_journey.source', input.source));
  if (input.target !== undefined) attributes.push(text('kube_journey.target', input.target));
  attributes.push(text('kube_journey.journey.id', journey.id));
  return { attributes };
}

function scopeOf(input: ExportInput): string {
  return JSON.stringify(input.toolVersion ? { name: OTLP_SCOPE_NAME, version: input.toolVersion } : { name: OTLP_SCOPE_NAME });
}

/** `{"resource":…,"scopeSpans":[{"scope":…,"spans":[` for one journey; close with RESOURCE_SPANS_END. */
function resourceSpansStart(journey: Journey, input: ExportInput): string {
  return `{"resource":${JSON.stringify(resourceOf(journey, input))},"scopeSpans":[{"scope":${scopeOf(input)},"spans":[`;
}

const RESOURCE_SPANS_END = ']}]}';

/** One ExportTraceServiceRequest holding every journey, as text chunks (a file). */
export function* otlpTraceChunks(input: ExportInput): Generator<string> {
  const gatherer = new ChunkGatherer();
  gatherer.add('{"resourceSpans":[');
  let firstJourney = true;
  for (const journey of input.journeys) {
    gatherer.add(`${firstJourney ? '\n' : ',\n'}${resourceSpansStart(journey, input)}`);
    firstJourney = false;
    let firstSpan = true;
    for (const span of journeySpans(journey)) {
      const chunk = gatherer.add(`${firstSpan ? '\n' : ',\n'}${JSON.stringify(span)}`);
      firstSpan = false;
      if (chunk) yield chunk;
    }
    gatherer.add(`\n${RESOURCE_SPANS_END}`);
  }
  yield `${gatherer.take()}\n]}\n`;
}

/** Requests' bodies at most this long (one larger span goes alone): collectors refuse big bodies (4 MiB gRPC, 20 MiB HTTP by default). */
export const OTLP_REQUEST_BYTES = 2 * 1024 * 1024;

/** One OTLP/HTTP request body. */
export interface OtlpRequestBody {
  body: string;
  spans: number;
}

/**
 * The same spans as ExportTraceServiceRequest bodies of at most `maxChars` characters each: a
 * 10,000-pod trace is sent in several requests, a journey's spans split over them as they come.
 */
export function* otlpRequestBodies(input: ExportInput, maxChars = OTLP_REQUEST_BYTES): Generator<OtlpRequestBody> {
  let parts: string[] = [];
  let length = 0;
  let spans = 0;
  let open: string | undefined;
  const close = (): void => {
    if (open !== undefined) parts.push(RESOURCE_SPANS_END);
    open = undefined;
  };
  const finish = (): OtlpRequestBody => {
    close();
    const body = `{"resourceSpans":[${parts.join('')}]}`;
    const request = { body, spans };
    parts = [];
    length = 0;
    spans = 0;
    return request;
  };
  for (const journey of input.journeys) {
    const start = resourceSpansStart(journey, input);
    for (const span of journeySpans(journey)) {
      const spanText = JSON.stringify(span);
      if (spans > 0 && length + spanText.length + start.length + 64 > maxChars) yield finish();
      if (open === undefined) {
        if (parts.length > 0) parts.push(',');
        parts.push(start);
        length += start.length;
        open = start;
      } else {
        parts.push(',');
      }
      parts.push(spanText);
      length += spanText.length + 1;
      spans++;
    }
    close();
  }
  if (spans > 0) yield finish();
}
