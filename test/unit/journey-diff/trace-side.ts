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

export interface TraceSideOptions {
  label: string;
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

export function traceSide(options: TraceSideOptions): DiffSide {
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
    label: options.label,
    journeys: ids.map((id) => {
      const journey = tracer.journey(id);
      if (!journey) throw new Error(`no journey ${id}`);
      const values = tracer.phaseValues(id);
      // Copied: the tracer's typed arrays are reused as it goes on.
      return { journey: structuredClone(journey), ...(values ? { phaseValues: structuredClone(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Array.from(v)]))) as never } : {}) };
    }),
  };
}
