/**
 * The OTLP/JSON export as a consumer (a collector, Jaeger, Tempo) reads it: 32/16-hex ids, one
 * trace per apply with one root span, every parentSpanId a span of the same trace, start ≤ end,
 * typed attributes with OpenTelemetry's k8s names, ERROR for what is stuck; the request bodies
 * split for OTLP/HTTP hold the same spans.
 */
import assert from 'node:assert/strict';
import type { ExportInput } from '../../../src/core/export/input';
import { otlpRequestBodies, otlpTraceChunks, unixNanos, type OtlpKeyValue, type OtlpSpan } from '../../../src/core/export/otlp-traces';
import { PHASE_NAMES } from '../../../src/core/journey/types';
import { CRASH_LOOP, CRONJOB, DAEMONSET, NGINX, SERVICE, STATEFULSET, tracedInput } from './traced-input';

interface ResourceSpans {
  resource: { attributes: OtlpKeyValue[] };
  scopeSpans: { scope: { name: string; version?: string }; spans: OtlpSpan[] }[];
}
interface TraceRequest {
  resourceSpans: ResourceSpans[];
}

function exportOtlp(input: ExportInput): TraceRequest {
  return JSON.parse([...otlpTraceChunks(input)].join('')) as TraceRequest;
}

function allSpans(request: TraceRequest): OtlpSpan[] {
  return request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
}

function attribute(attributes: readonly OtlpKeyValue[], key: string): string | boolean | number | undefined {
  const value = attributes.find((candidate) => candidate.key === key)?.value;
  if (!value) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('boolValue' in value) return value.boolValue;
  return value.doubleValue;
}

/** Each attribute is a key with exactly one typed value, as AnyValue's JSON mapping has it. */
function assertAttributesTyped(attributes: readonly OtlpKeyValue[], where: string): void {
  assert.ok(Array.isArray(attributes), `${where}: attributes`);
  const keys = new Set<string>();
  for (const { key, value } of attributes) {
    assert.ok(typeof key === 'string' && key !== '', `${where}: a key`);
    assert.ok(!keys.has(key), `${where}: ${key} set twice`);
    keys.add(key);
    const fields = Object.keys(value);
    assert.equal(fields.length, 1, `${where}: ${key} has one value`);
    const [field] = fields;
    const item = (value as Record<string, unknown>)[field];
    if (field === 'stringValue') assert.equal(typeof item, 'string');
    else if (field === 'intValue') assert.match(String(item), /^-?\d+$/);
    else if (field === 'boolValue') assert.equal(typeof item, 'boolean');
    else if (field === 'doubleValue') assert.equal(typeof item, 'number');
    else assert.fail(`${where}: ${key} has an unknown value field ${field}`);
  }
}

/** What a consumer checks of any export: ids, links within a trace, times, attribute types. */
function assertValidTraces(request: TraceRequest): Map<string, OtlpSpan[]> {
  const traces = new Map<string, OtlpSpan[]>();
  for (const resource of request.resourceSpans) {
    assertAttributesTyped(resource.resource.attributes, 'resource');
    assert.equal(attribute(resource.resource.attributes, 'service.name'), 'kube-journey');
    for (const scope of resource.scopeSpans) {
      assert.equal(scope.scope.name, 'kube-journey');
      for (const span of scope.spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
    }
  }
  for (const [traceId, spans] of traces) {
    assert.match(traceId, /^[0-9a-f]{32}$/);
    assert.notEqual(traceId, '0'.repeat(32));
    const ids = new Set(spans.map((span) => span.spanId));
    assert.equal(ids.size, spans.length, 'span ids are unique in a trace');
    assert.equal(spans.filter((span) => span.parentSpanId === undefined).length, 1, 'one root span per trace');
    for (const span of spans) {
      assert.match(span.spanId, /^[0-9a-f]{16}$/);
      assert.notEqual(span.spanId, '0'.repeat(16));
      if (span.parentSpanId !== undefined) assert.ok(ids.has(span.parentSpanId), `${span.name}: its parent ${span.parentSpanId} is in the trace`);
      assert.match(span.startTimeUnixNano, /^\d+$/);
      assert.match(span.endTimeUnixNano, /^\d+$/);
      assert.ok(BigInt(span.startTimeUnixNano) <= BigInt(span.endTimeUnixNano), `${span.name}: start ≤ end`);
      assert.ok(BigInt(span.startTimeUnixNano) > 1_000_000_000_000_000_000n, `${span.name}: nanoseconds since the epoch`);
      assert.equal(span.kind, 1);
      assert.ok([0, 1, 2].includes(span.status.code));
      if (span.status.message !== undefined) assert.equal(span.status.code, 2, 'only an error has a status message');
      assertAttributesTyped(span.attributes, span.name);
      for (const event of span.events) {
        assert.match(event.timeUnixNano, /^\d+$/);
        assert.equal(typeof event.name, 'string');
        assertAttributesTyped(event.attributes, `${span.name} / ${event.name}`);
      }
    }
  }
  return traces;
}

describe('OTLP/JSON traces export', () => {
  it('nginx: one trace, Deployment → ReplicaSet → Pods with the k8s attributes, phases as child spans, stages as events', () => {
    const request = exportOtlp(tracedInput(NGINX));
    const traces = assertValidTraces(request);
    assert.equal(traces.size, 1);
    const spans = allSpans(request);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const root = spans.find((span) => span.parentSpanId === undefined)!;
    assert.equal(attribute(root.attributes, 'k8s.deployment.name'), 'nginx-deployment');
    assert.equal(attribute(root.attributes, 'k8s.namespace.name'), 'default');
    assert.equal(root.status.code, 1);
    const pods = spans.filter((span) => attribute(span.attributes, 'kube_journey.object.kind') === 'Pod');
    assert.equal(pods.length, 3);
    for (const pod of pods) {
      const replicaSet = byId.get(pod.parentSpanId!)!;
      assert.equal(attribute(replicaSet.attributes, 'kube_journey.object.kind'), 'ReplicaSet');
      assert.equal(replicaSet.parentSpanId, root.spanId);
      assert.equal(attribute(pod.attributes, 'k8s.replicaset.name'), attribute(replicaSet.attributes, 'k8s.replicaset.name'));
      assert.equal(attribute(pod.attributes, 'k8s.deployment.name'), 'nginx-deployment');
      assert.match(String(attribute(pod.attributes, 'k8s.pod.name')), /^nginx-deployment-/);
      assert.match(String(attribute(pod.attributes, 'k8s.pod.uid')), /^[0-9a-f-]{36}$/);
      assert.match(String(attribute(pod.attributes, 'k8s.node.name')), /^node-\d$/);
      assert.equal(attribute(pod.attributes, 'k8s.container.name'), 'nginx');
      assert.ok(pod.events.some((event) => attribute(event.attributes, 'kube_journey.stage.kind') === 'scheduled' && attribute(event.attributes, 'kube_journey.stage.time_source') !== undefined && attribute(event.attributes, 'kube_journey.stage.component') === 'default-scheduler'));
      const phases = spans.filter((span) => span.parentSpanId === pod.spanId);
      assert.ok(phases.length >= 5, `${phases.length} phases`);
      for (const phase of phases) {
        assert.ok((PHASE_NAMES as readonly string[]).includes(phase.name));
        assert.ok(BigInt(phase.startTimeUnixNano) >= BigInt(pod.startTimeUnixNano) && BigInt(phase.endTimeUnixNano) <= BigInt(pod.endTimeUnixNano), `${phase.name} within its pod`);
      }
    }
  });

  it('ids are the same on every export of the same journeys, and differ between applies', () => {
    const input = tracedInput(NGINX, CRASH_LOOP);
    assert.equal([...otlpTraceChunks(input)].join(''), [...otlpTraceChunks(input)].join(''));
    assert.equal(assertValidTraces(exportOtlp(input)).size, 2);
  });

  it('a crash loop: status ERROR with the reason on the pod and its owners', () => {
    const spans = allSpans(exportOtlp(tracedInput(CRASH_LOOP)));
    const pod = spans.find((span) => attribute(span.attributes, 'kube_journey.object.kind') === 'Pod')!;
    assert.equal(pod.status.code, 2);
    assert.match(pod.status.message!, /^CrashLoopBackOff: back-off .*restarting failed container/i);
    assert.equal(attribute(pod.attributes, 'kube_journey.stuck.reason'), 'CrashLoopBackOff');
    assert.ok(Number(attribute(pod.attributes, 'k8s.container.restart_count')) >= 1);
    const root = spans.find((span) => span.parentSpanId === undefined)!;
    assert.equal(root.status.code, 2);
    assert.ok(pod.events.some((event) => attribute(event.attributes, 'kube_journey.stage.warning') === true && attribute(event.attributes, 'k8s.container.name') === 'app'));
  });

  it('StatefulSet, DaemonSet, CronJob → Job → Pod and a Service: their own k8s names, owners inherited', () => {
    const request = exportOtlp(tracedInput(STATEFULSET, DAEMONSET, CRONJOB, SERVICE));
    assertValidTraces(request);
    const spans = allSpans(request);
    const ofKind = (kind: string): OtlpSpan[] => spans.filter((span) => attribute(span.attributes, 'kube_journey.object.kind') === kind);
    const podsWith = (key: string): OtlpSpan[] => ofKind('Pod').filter((span) => attribute(span.attributes, key) !== undefined);
    assert.ok(ofKind('StatefulSet').every((span) => attribute(span.attributes, 'k8s.statefulset.name') !== undefined));
    assert.ok(podsWith('k8s.statefulset.name').length > 0);
    assert.ok(podsWith('k8s.daemonset.name').length > 0);
    const job = ofKind('Job')[0];
    assert.ok(job, 'a Job span');
    assert.equal(attribute(job.attributes, 'k8s.cronjob.name'), 'hello');
    assert.match(String(attribute(job.attributes, 'k8s.job.name')), /^hello-/);
    const jobPod = podsWith('k8s.job.name')[0];
    assert.equal(attribute(jobPod.attributes, 'k8s.cronjob.name'), 'hello');
    const service = ofKind('Service')[0];
    assert.ok(service, 'a Service span');
    assert.equal(attribute(service.attributes, 'k8s.namespace.name'), 'default');
  });

  it('OTLP/HTTP request bodies: each within the size limit, together the same spans as the file', () => {
    const input = tracedInput(NGINX, CRASH_LOOP);
    const whole = allSpans(exportOtlp(input));
    const maxChars = 12_000;
    const bodies = [...otlpRequestBodies(input, maxChars)];
    assert.ok(bodies.length > 2, `${bodies.length} bodies`);
    const sent: OtlpSpan[] = [];
    for (const { body, spans } of bodies) {
      const request = JSON.parse(body) as TraceRequest;
      const inBody = allSpans(request);
      assert.equal(inBody.length, spans);
      if (inBody.length > 1) assert.ok(body.length <= maxChars, `a body of ${body.length} characters`);
      sent.push(...inBody);
    }
    assert.deepEqual(sent, whole);
  });

  it('times: milliseconds to decimal nanoseconds, exact beyond 2^53', () => {
    assert.equal(unixNanos(1767268800000), '1767268800000000000');
    assert.equal(unixNanos(1767268800000.5), '1767268800000500000');
    assert.equal(unixNanos(0), '0');
  });
});
