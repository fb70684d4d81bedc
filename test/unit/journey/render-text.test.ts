import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderJourney, renderJourneys, wrap } from '../../../src/core/journey/render-text';
import { formatStreamRecord, parseStream, replay, type StreamRecord } from '../../../src/core/journey/stream';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey } from '../../../src/core/journey/types';
import { DEPLOYMENT, deploymentObject, iso, podObject, replicaSetObject, T0 } from './objects';

const golden = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden');

function goldenJourneys(): Journey[] {
  return readdirSync(golden, { withFileTypes: true })
    // The diff goldens hold manifests and diff output, not a recorded stream.
    .filter((d) => d.isDirectory() && existsSync(join(golden, d.name, 'stream.ndjson')))
    .map((d) => {
      const tracer = new JourneyTracer();
      const [id] = replay(parseStream(readFileSync(join(golden, d.name, 'stream.ndjson'), 'utf8')), tracer);
      return tracer.journey(id) as Journey;
    });
}

/** A Deployment of `count` pods, the first `stuck` of them unschedulable, the rest Ready. */
function bigJourney(count: number, stuck: number): Journey {
  const tracer = new JourneyTracer();
  const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
  tracer.ingest({ type: 'ADDED', object: deploymentObject({ replicas: count }) }, T0 + 5);
  tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT, replicas: count }) }, T0 + 6);
  for (let i = 0; i < count; i++) {
    const name = `web-5d567cc74c-${String(i).padStart(5, '0')}`;
    const at = T0 + 10 + i;
    if (i >= count - stuck) {
      tracer.ingest({ type: 'ADDED', object: podObject({ name, uid: `p${i}`, created: at, conditions: [{ type: 'PodScheduled', status: 'False', at, reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient cpu.' }] }) }, at);
      continue;
    }
    tracer.ingest({ type: 'ADDED', object: podObject({ name, uid: `p${i}`, created: at }) }, at);
    tracer.ingest({
      type: 'MODIFIED',
      object: podObject({ name, uid: `p${i}`, created: at, nodeName: `node-${i % 3}`, phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True', at: at + 20 }, { type: 'Ready', status: 'True', at: at + 900 }], containers: [{ running: { startedAt: iso(at + 800) }, ready: true }] }),
    }, at + 900);
  }
  return tracer.journey(id) as Journey;
}

describe('text timeline', () => {
  it('keeps every line of every golden timeline within 100 columns, with and without evidence', () => {
    for (const journey of goldenJourneys()) {
      for (const evidence of [false, true]) {
        for (const line of renderJourney(journey, { evidence }).split('\n')) {
          assert.ok(line.length <= 100, `${journey.id}: ${line.length} columns: ${line}`);
        }
      }
    }
  });

  it('wraps long messages at word boundaries and splits words longer than a line', () => {
    assert.deepEqual(wrap('0/3 nodes are available: 3 Insufficient cpu.', 20), ['0/3 nodes are', 'available: 3', 'Insufficient cpu.']);
    assert.deepEqual(wrap('x'.repeat(25), 10), ['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('collapses a large journey: a few pods in full, every stuck one, then per-stage statistics', () => {
    const text = renderJourney(bigJourney(40, 2), { podsInFull: 3 });
    const timeline = text.slice(0, text.indexOf('\nSummary\n'));
    const podHeaders = timeline.split('\n').filter((line) => /^\s+Pod default\//.test(line));
    assert.deepEqual(
      podHeaders.map((line) => line.trim().split(/\s+/)[1]),
      ['default/web-5d567cc74c-00000', 'default/web-5d567cc74c-00001', 'default/web-5d567cc74c-00002', 'default/web-5d567cc74c-00038', 'default/web-5d567cc74c-00039'],
    );
    assert.match(text, /… 35 more pods \(35 complete\); stage times from the apply:/);
    assert.match(text, /^\s+ready\s+35\s+\+0\.\d{3}s/m);
    assert.match(text, /pods\s+38\/40 ready · 38 running · 38 scheduled · 2 stuck/);
    assert.ok(text.split('\n').length < 80, 'the collapsed timeline stays short');
  });

  it('colours only when asked', () => {
    const journey = bigJourney(3, 1);
    assert.ok(!renderJourney(journey).includes('\x1b['));
    assert.ok(renderJourney(journey, { color: true }).includes('\x1b[33mstuck\x1b[0m'));
  });

  it('renders a journey whose root is not seen yet, and several journeys one after the other', () => {
    const tracer = new JourneyTracer();
    const a = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
    const b = tracer.begin({ kind: 'Pod', name: 'debug' }, T0);
    const text = renderJourneys([tracer.journey(a), tracer.journey(b)].filter((j): j is Journey => j !== undefined));
    assert.match(text, /Journey of Deployment default\/web {2}\[pending\]\n/);
    assert.match(text, /Deployment default\/web not seen yet/);
    assert.match(text, /\n\nJourney of Pod default\/debug {2}\[pending\]/);
  });
});

describe('recorded stream format', () => {
  it('round-trips its lines and replays begin, event and internal records', () => {
    const records: StreamRecord[] = [
      { receivedAt: T0, begin: { kind: 'Deployment', namespace: 'default', name: 'web' } },
      { receivedAt: T0 + 5, event: { type: 'ADDED', object: deploymentObject({}) } },
      { receivedAt: T0 + 6, internal: { type: 'etcdWrite', time: T0 + 4, key: '/registry/deployments/default/web', verb: 'create', resourceVersion: '1', object: { kind: 'Deployment', namespace: 'default', name: 'web' }, actor: 'kubectl' } },
    ];
    const text = records.map(formatStreamRecord).join('\n') + '\n\n';
    assert.deepEqual(parseStream(text), records);
    const tracer = new JourneyTracer();
    assert.deepEqual(replay(parseStream(text), tracer), [`Deployment/default/web@${T0}`]);
    assert.equal(tracer.journey(`Deployment/default/web@${T0}`)?.tree?.ref.uid, 'dep-1');
  });

  it('names the line of a malformed record', () => {
    assert.throws(() => parseStream('{"receivedAt": 1, "begin": {"kind": "Deployment", "name": "web"}}\n{"receivedAt": 2}'), /stream line 2: expected one of begin, event, internal/);
    assert.throws(() => parseStream('{"receivedAt": "soon", "event": {}}'), /stream line 1: receivedAt must be a number/);
    assert.throws(() => parseStream('{"receivedAt": 1, "event": {"type": "BOOKMARK", "object": {}}}'), /stream line 1: event needs type/);
    assert.throws(() => parseStream('not json'), /stream line 1: /);
  });
});
