/** Journeys and caret-marked manifests for the extension's plain-Node tests. */
import { readFileSync } from 'node:fs';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import { parseStream, replay } from '../../../src/core/journey/stream';
import type { Journey, TraceableKind } from '../../../src/core/journey/types';
import type { KubeObject } from '../../../src/core/k8s';
import { parseManifest } from '../../../src/core/manifest';
import { Simulator } from '../../../src/sim/simulator';
import { connectTracer } from '../../../src/cli/trace';

/** The caret marker in fixtures. */
export const CARET = '‸';

/** Removes the caret marker and returns the text and the caret's offset. */
export function caret(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf(CARET);
  if (offset < 0) throw new Error('fixture has no caret');
  return { text: marked.slice(0, offset) + marked.slice(offset + CARET.length), offset };
}

/** The journey recorded in a golden real-cluster stream (test/golden/<name>/stream.ndjson). */
export function goldenJourney(name: string): Journey {
  const tracer = new JourneyTracer();
  const [id] = replay(parseStream(readFileSync(`test/golden/${name}/stream.ndjson`, 'utf8')), tracer);
  const journey = tracer.journey(id);
  if (!journey) throw new Error(`no journey in ${name}`);
  return journey;
}

/** Applies every document of `manifest` to a fresh simulator and runs until all journeys are done or stuck. */
export function simulatedJourneys(manifest: string, nodes = 3, maxVirtualMs = 120_000): { tracer: JourneyTracer; journeys: Journey[] } {
  const simulator = new Simulator({ nodes, seed: 7 });
  const tracer = new JourneyTracer();
  connectTracer(simulator, tracer);
  const ids: string[] = [];
  for (const document of parseManifest(manifest).documents) {
    const applied = simulator.apply(document.object as KubeObject);
    const kind = applied.object.kind ?? '';
    if (kind === 'Deployment' || kind === 'ReplicaSet' || kind === 'Pod') {
      ids.push(tracer.begin({ kind: kind as TraceableKind, namespace: applied.object.metadata?.namespace, name: applied.object.metadata?.name ?? '' }, simulator.clock.now()));
    }
  }
  simulator.runUntil(() => ids.every((id) => { const j = tracer.journey(id); return j !== undefined && (j.done || j.stuck); }), maxVirtualMs);
  return { tracer, journeys: ids.map((id) => tracer.journey(id)).filter((j): j is Journey => j !== undefined) };
}
