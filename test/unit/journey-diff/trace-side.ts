/**
 * Real journeys for the diff's tests: a manifest traced on a fresh simulator as `kube-journey
 * trace` does (same seed, nodes and settle time, so a trace is the same every run). A `base`
 * manifest, when given, is applied and left to settle first, untraced: tracing the manifest then
 * shows what changing the base does (a rollout for a new image).
 */
import { JourneyTracer } from '../../../src/core/journey/tracer';
import { parseManifest } from '../../../src/core/manifest';
import { Simulator } from '../../../src/sim/simulator';
import { connectTracer, SETTLE_MS } from '../../../src/cli/trace';
import { isTraceableKind } from '../../../src/common/traceable-kinds';
import type { DiffSide } from '../../../src/core/journey-diff/types';
import { PHASE_NAMES, type PhaseName } from '../../../src/core/journey/types';
import { TraceRecording } from '../../../src/cli/trace-recording';
import { parseJourneyFile } from '../../../src/core/journey-file/read';
import type { JourneyFile } from '../../../src/core/journey-file/types';

export interface TraceSideOptions {
  manifest: string;
  base?: string;
  nodes?: number;
  seed?: number;
  timeoutMs?: number;
}

const BASE_SETTLE_MS = 60_000;

function objectsOf(text: string) {
  return parseManifest(text).documents.map((document) => {
    if (!document.object) throw new Error(`manifest document ${document.index} has no object`);
    return document.object;
  });
}

/** The journeys and phase values of a trace, as the tracer gives them. */
export function traceSide(options: TraceSideOptions, label = 'trace'): DiffSide {
  const simulator = new Simulator({ nodes: options.nodes ?? 3, seed: options.seed ?? 1, retainInternals: false });
  if (options.base) {
    for (const object of objectsOf(options.base)) simulator.apply(object);
    simulator.runUntil(() => false, BASE_SETTLE_MS);
  }
  const tracer = new JourneyTracer();
  connectTracer(simulator, tracer);
  const ids: string[] = [];
  for (const object of objectsOf(options.manifest)) {
    const applied = simulator.apply(object).object;
    const kind = applied.kind;
    if (isTraceableKind(kind)) ids.push(tracer.begin({ kind, namespace: applied.metadata?.namespace, name: applied.metadata?.name ?? '' }, simulator.clock.now()));
  }
  const outcome = simulator.runUntil(() => ids.every((id) => tracer.progress(id)?.settled === true), options.timeoutMs ?? 120_000);
  // As trace does: watch a little longer once done, so a crash loop that looked ready shows as stuck.
  if (outcome === 'done') simulator.runUntil(() => ids.some((id) => tracer.progress(id)?.stuck === true), SETTLE_MS);
  return {
    label,
    journeys: ids.map((id) => {
      const journey = tracer.journey(id);
      if (!journey) throw new Error(`no journey ${id}`);
      const values = tracer.phaseValues(id);
      // Copies: the tracer's arrays are live, and the journey file keeps plain arrays.
      let phaseValues: Record<PhaseName, number[]> | undefined;
      if (values) {
        phaseValues = {} as Record<PhaseName, number[]>;
        for (const name of PHASE_NAMES) phaseValues[name] = Array.from(values[name]);
      }
      return { journey: structuredClone(journey), ...(phaseValues ? { phaseValues } : {}) };
    }),
  };
}

/** The trace as `trace --save` keeps it: recorded, written as a journey file's text and read back. */
export function savedSide(options: TraceSideOptions): JourneyFile {
  const recording = new TraceRecording();
  for (const { journey, phaseValues } of traceSide(options).journeys) recording.addJourney(journey, phaseValues);
  recording.finish({ results: [], stored: [], outcome: 'done', limit: 'within 120s of simulated time', unfinished: [] });
  const text = recording.text({ source: 'manifest.yaml', target: { type: 'simulator', nodes: options.nodes ?? 3, seed: options.seed ?? 1 }, exitCode: 0, createdAt: '2026-01-01T00:00:00.000Z' });
  if (text === undefined) throw new Error('the recording made no journey file');
  return parseJourneyFile(text, 'saved.journey.json');
}
