/** Journeys of a manifest traced in process, as `trace` traces them, for checking what a journey file keeps of them. */
import { readFileSync } from 'node:fs';
import { connectTracer } from '../../../src/cli/trace';
import { isTraceableKind } from '../../../src/common/traceable-kinds';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import { PHASE_NAMES } from '../../../src/core/journey/types';
import type { SavedJourney, SavedPhaseValues } from '../../../src/core/journey-file/types';
import { parseManifest } from '../../../src/core/manifest';
import { Simulator } from '../../../src/sim/simulator';

/** Applies every document of `file` to a fresh simulator and runs until each journey settled or is stuck (at most `virtualMs`). */
export function traceJourneys(file: string, options: { nodes?: number; virtualMs?: number } = {}): SavedJourney[] {
  const simulator = new Simulator({ nodes: options.nodes ?? 3, seed: 1 });
  const tracer = new JourneyTracer();
  connectTracer(simulator, tracer);
  const ids: string[] = [];
  for (const document of parseManifest(readFileSync(file, 'utf8')).documents) {
    const applied = simulator.apply(document.object!);
    const kind = applied.object.kind ?? '';
    if (isTraceableKind(kind)) ids.push(tracer.begin({ kind, namespace: applied.object.metadata?.namespace, name: applied.object.metadata?.name ?? '' }, simulator.clock.now()));
  }
  simulator.runUntil(() => ids.every((id) => tracer.progress(id)?.settled === true || tracer.progress(id)?.stuck === true), options.virtualMs ?? 120_000);
  simulator.runUntil(() => false, 10_000);
  return ids.map((id) => {
    const values = tracer.phaseValues(id);
    const saved: SavedJourney = { journey: tracer.journey(id)! };
    if (values && values[PHASE_NAMES[0]].length > 0) saved.phaseValues = Object.fromEntries(PHASE_NAMES.map((name) => [name, Array.from(values[name])])) as SavedPhaseValues;
    return saved;
  });
}

/** `value` as JSON keeps it: keys whose value is undefined left out (NaN kept: a journey file keeps it). */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : withoutUndefined(item))) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined).map(([key, item]) => [key, withoutUndefined(item)])) as T;
}
