/**
 * The Chrome trace as Perfetto or chrome://tracing reads it: every event has ph/ts/pid/tid, slices
 * have a duration ≥ 0 and nest on their thread, every process and thread is named, and each object's
 * thread sits in its root's process after its owner's.
 */
import assert from 'node:assert/strict';
import { CHUNK_CHARS } from '../../../src/core/export/chunks';
import { chromeTraceChunks, type ChromeTraceEvent } from '../../../src/core/export/chrome-trace';
import type { ExportInput } from '../../../src/core/export/input';
import { PHASE_NAMES } from '../../../src/core/journey/types';
import { CRASH_LOOP, CRONJOB, NGINX, STATEFULSET, tracedInput } from './traced-input';

interface ChromeTrace {
  displayTimeUnit: string;
  otherData: Record<string, string>;
  traceEvents: ChromeTraceEvent[];
}

function exportChrome(input: ExportInput): ChromeTrace {
  return JSON.parse([...chromeTraceChunks(input)].join('')) as ChromeTrace;
}

const threadKey = (event: { pid: number; tid: number }): string => `${event.pid}/${event.tid}`;

/** What every Chrome trace we write must satisfy, whatever it holds. */
function assertWellFormed(trace: ChromeTrace): void {
  assert.ok(Array.isArray(trace.traceEvents) && trace.traceEvents.length > 0);
  assert.ok(!Number.isNaN(Date.parse(trace.otherData.origin)), 'otherData.origin is a date');
  const processNames = new Set<number>();
  const threadNames = new Set<string>();
  for (const event of trace.traceEvents) {
    assert.ok(['M', 'X', 'i'].includes(event.ph), `ph ${event.ph}`);
    assert.ok(Number.isInteger(event.ts) && event.ts >= 0, `ts of ${event.name}: ${event.ts}`);
    assert.ok(Number.isInteger(event.pid) && event.pid > 0, `pid of ${event.name}`);
    assert.ok(Number.isInteger(event.tid) && event.tid >= 0, `tid of ${event.name}`);
    assert.equal(typeof event.name, 'string');
    if (event.ph === 'M' && event.name === 'process_name') processNames.add(event.pid);
    if (event.ph === 'M' && event.name === 'thread_name') threadNames.add(threadKey(event));
    if (event.ph === 'X') assert.ok(Number.isInteger(event.dur) && event.dur! >= 0, `dur of ${event.name}: ${event.dur}`);
    if (event.ph === 'i') assert.equal(event.s, 't');
  }
  for (const event of trace.traceEvents) {
    if (event.ph === 'M') continue;
    assert.ok(processNames.has(event.pid), `process ${event.pid} is named`);
    assert.ok(threadNames.has(threadKey(event)), `thread ${threadKey(event)} is named`);
  }
  // Slices on one thread nest: one that starts inside another ends inside it too.
  const slices = new Map<string, ChromeTraceEvent[]>();
  for (const event of trace.traceEvents) if (event.ph === 'X') slices.set(threadKey(event), [...(slices.get(threadKey(event)) ?? []), event]);
  for (const [thread, list] of slices) {
    for (const a of list) {
      for (const b of list) {
        if (a === b || !(b.ts > a.ts && b.ts < a.ts + a.dur!)) continue;
        assert.ok(b.ts + b.dur! <= a.ts + a.dur!, `${b.name} crosses the end of ${a.name} on ${thread}`);
      }
    }
  }
}

function objectSlices(trace: ChromeTrace): ChromeTraceEvent[] {
  return trace.traceEvents.filter((event) => event.ph === 'X' && event.cat === 'object');
}

function threadName(trace: ChromeTrace, pid: number, tid: number): string | undefined {
  return trace.traceEvents.find((event) => event.ph === 'M' && event.name === 'thread_name' && event.pid === pid && event.tid === tid)?.args?.name as string | undefined;
}

describe('Chrome trace export', () => {
  it('nginx: one process for the Deployment, its ReplicaSet and pods as threads after their owner, phases inside each pod', () => {
    const trace = exportChrome(tracedInput(NGINX));
    assertWellFormed(trace);
    const processes = trace.traceEvents.filter((event) => event.name === 'process_name');
    assert.deepEqual(processes.map((event) => event.args?.name), ['Deployment default/nginx-deployment']);
    const objects = objectSlices(trace);
    assert.deepEqual(objects.map((event) => event.args?.kind), ['Deployment', 'ReplicaSet', 'Pod', 'Pod', 'Pod']);
    for (const object of objects) {
      assert.equal(threadName(trace, object.pid, object.tid), `${object.args?.kind} ${object.args?.name}`);
      if (object.args?.kind === 'Deployment') continue;
      // The owner's thread is in the same process, before this one.
      const owner = objects.find((candidate) => `${candidate.args?.kind} ${candidate.args?.namespace}/${candidate.args?.name}` === object.args?.owner);
      assert.ok(owner, `owner of ${object.name}`);
      assert.equal(owner.pid, object.pid);
      assert.ok(owner.tid < object.tid);
    }
    for (const pod of objects.filter((event) => event.args?.kind === 'Pod')) {
      const phases = trace.traceEvents.filter((event) => event.ph === 'X' && event.cat === 'phase' && event.tid === pod.tid);
      assert.ok(phases.some((phase) => phase.name === 'create_to_schedule'), `${pod.name} has create_to_schedule`);
      assert.ok(phases.some((phase) => phase.name === 'pod_startup'), `${pod.name} has pod_startup`);
      for (const phase of phases) {
        assert.ok((PHASE_NAMES as readonly string[]).includes(phase.name));
        assert.ok(phase.ts >= pod.ts && phase.ts + phase.dur! <= pod.ts + pod.dur!, `${phase.name} lies inside ${pod.name}`);
      }
      const stages = trace.traceEvents.filter((event) => event.ph === 'i' && event.tid === pod.tid);
      assert.ok(stages.some((stage) => stage.cat === 'scheduled' && stage.args?.component === 'default-scheduler'));
      assert.ok(stages.every((stage) => typeof stage.args?.component === 'string' && typeof stage.args.kind === 'string'));
      assert.ok(stages.some((stage) => stage.args?.evidence !== undefined), 'stages carry their evidence');
    }
    // Times count from the apply: the Deployment's slice starts at 0.
    assert.equal(objects[0].ts, 0);
  });

  it('a crash loop: the pod and its owners say stuck with the reason, and the back-off stages carry it', () => {
    const trace = exportChrome(tracedInput(CRASH_LOOP));
    assertWellFormed(trace);
    const pod = objectSlices(trace).find((event) => event.args?.kind === 'Pod')!;
    assert.equal(pod.args?.status, 'stuck');
    assert.equal(pod.args?.reason, 'CrashLoopBackOff');
    assert.match(pod.name, /\(stuck: CrashLoopBackOff\)$/);
    assert.ok(trace.traceEvents.some((event) => event.ph === 'i' && event.tid === pod.tid && event.cat === 'backOff' && event.args?.warning === true));
  });

  it('several applies: one process each, named after its root; a CronJob holds its Job and pods', () => {
    const trace = exportChrome(tracedInput(NGINX, STATEFULSET, CRONJOB));
    assertWellFormed(trace);
    const names = trace.traceEvents.filter((event) => event.name === 'process_name').map((event) => event.args?.name as string);
    assert.equal(names.length, new Set(trace.traceEvents.map((event) => event.pid)).size);
    assert.ok(names.some((name) => name.startsWith('StatefulSet ')));
    const cronPid = trace.traceEvents.find((event) => event.name === 'process_name' && String(event.args?.name).startsWith('CronJob '))!.pid;
    const kinds = new Set(objectSlices(trace).filter((event) => event.pid === cronPid).map((event) => event.args?.kind));
    assert.deepEqual([...kinds].sort(), ['CronJob', 'Job', 'Pod']);
  });

  it('comes out in chunks of bounded size, whatever the number of journeys', () => {
    const one = tracedInput(NGINX);
    const many: ExportInput = { journeys: Array.from({ length: 60 }, () => one.journeys[0]) };
    const chunks = [...chromeTraceChunks(many)];
    assert.ok(chunks.length > 10, `${chunks.length} chunks`);
    const longestEvent = Math.max(...[...chromeTraceChunks(one)].join('').split('\n').map((line) => line.length));
    for (const chunk of chunks) assert.ok(chunk.length <= CHUNK_CHARS + longestEvent + 2, `chunk of ${chunk.length}`);
    assertWellFormed(JSON.parse(chunks.join('')) as ChromeTrace);
  });
});
