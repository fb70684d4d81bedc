/** Reading and writing the parts of a journey file every version shares: meta, results, lines. */
import type { DocumentResult } from '../document-result';
import type { StoredOnlyJourney } from '../journey/stored-only';
import { FieldError } from './errors';
import { array, boolean, integer, isRecord, join, number, optional, record, string, strings } from './fields';
import type { JourneyFile, JourneyFileMeta, JourneyTarget } from './types';
import { PHASE_NAMES, type PhaseName } from '../journey/types';
import type { SavedPhaseValues } from './types';

export function readTarget(value: unknown, path: string): JourneyTarget {
  const target = record(value, path);
  const type = string(target.type, join(path, 'type'));
  if (type === 'context') return { type, context: string(target.context, join(path, 'context')) };
  if (type !== 'simulator') throw new FieldError(join(path, 'type'), '"simulator" or "context"', type);
  const out: JourneyTarget = { type, nodes: integer(target.nodes, join(path, 'nodes')), seed: integer(target.seed, join(path, 'seed')) };
  const zones = optional(target.zones, join(path, 'zones'), integer);
  if (zones !== undefined) out.zones = zones;
  const speed = optional(target.speed, join(path, 'speed'), number);
  if (speed !== undefined) out.speed = speed;
  const maxPods = optional(target.maxPods, join(path, 'maxPods'), integer);
  if (maxPods !== undefined) out.maxPods = maxPods;
  return out;
}

export function readMeta(value: unknown, path: string): JourneyFileMeta {
  const meta = record(value, path);
  return {
    toolVersion: string(meta.toolVersion, join(path, 'toolVersion')),
    createdAt: string(meta.createdAt, join(path, 'createdAt')),
    source: string(meta.source, join(path, 'source')),
    target: readTarget(meta.target, join(path, 'target')),
    exitCode: integer(meta.exitCode, join(path, 'exitCode')),
    outcome: string(meta.outcome, join(path, 'outcome')),
    limit: string(meta.limit, join(path, 'limit')),
  };
}

const ACTIONS = ['created', 'configured', 'unchanged'];

export function readResults(value: unknown, path: string): DocumentResult[] {
  return array(value, path).map((item, index) => {
    const at = join(path, index);
    const entry = record(item, at);
    const result: DocumentResult = { document: integer(entry.document, join(at, 'document')), line: integer(entry.line, join(at, 'line')), object: string(entry.object, join(at, 'object')) };
    if (entry.action !== undefined) {
      const action = string(entry.action, join(at, 'action'));
      if (!ACTIONS.includes(action)) throw new FieldError(join(at, 'action'), ACTIONS.map((a) => `"${a}"`).join(', '), action);
      result.action = action as DocumentResult['action'];
    }
    const error = optional(entry.error, join(at, 'error'), string);
    if (error !== undefined) result.error = error;
    const clientError = optional(entry.clientError, join(at, 'clientError'), boolean);
    if (clientError !== undefined) result.clientError = clientError;
    const hint = optional(entry.hint, join(at, 'hint'), string);
    if (hint !== undefined) result.hint = hint;
    return result;
  });
}

export function readStored(value: unknown, path: string): StoredOnlyJourney[] {
  return array(value, path).map((item, index) => {
    const at = join(path, index);
    const entry = record(item, at);
    const stored: StoredOnlyJourney = { kind: string(entry.kind, join(at, 'kind')), name: string(entry.name, join(at, 'name')), status: 'complete', stage: 'stored', note: string(entry.note, join(at, 'note')) };
    const namespace = optional(entry.namespace, join(at, 'namespace'), string);
    if (namespace !== undefined) stored.namespace = namespace;
    const facts = optional(entry.facts, join(at, 'facts'), string);
    if (facts !== undefined) stored.facts = facts;
    // Key order as storedOnlyJourney makes it, so the NDJSON `stored` records print the same.
    return { kind: stored.kind, ...(stored.namespace !== undefined ? { namespace: stored.namespace } : {}), name: stored.name, status: stored.status, stage: stored.stage, ...(stored.facts !== undefined ? { facts: stored.facts } : {}), note: stored.note };
  });
}

export function readExtra(value: unknown, path: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  return record(value, path);
}

/** The shared parts of a file, read from a document of any version. */
export function readCommon(document: Record<string, unknown>): Omit<JourneyFile, 'journeys'> {
  const file: Omit<JourneyFile, 'journeys'> = {
    meta: readMeta(document.meta, 'meta'),
    results: readResults(document.results, 'results'),
    warnings: strings(document.warnings ?? [], 'warnings'),
    claimNotes: strings(document.claimNotes ?? [], 'claimNotes'),
    stored: readStored(document.stored ?? [], 'stored'),
    unfinished: strings(document.unfinished ?? [], 'unfinished'),
    closing: strings(document.closing ?? [], 'closing'),
  };
  const extra = readExtra(document.extra, 'extra');
  if (extra) file.extra = extra;
  return file;
}

/** Phase values as JSON holds them: `null` for NaN. */
export function writePhaseValues(values: SavedPhaseValues): Record<PhaseName, (number | null)[]> {
  return Object.fromEntries(PHASE_NAMES.map((name) => [name, Array.from(values[name], (v) => (Number.isFinite(v) ? v : null))])) as Record<PhaseName, (number | null)[]>;
}

export function readPhaseValues(value: unknown, path: string): SavedPhaseValues {
  const values = record(value, path);
  return Object.fromEntries(
    PHASE_NAMES.map((name) => {
      const at = join(path, name);
      return [name, array(values[name] ?? [], at).map((v, index) => (v === null ? NaN : number(v, join(at, index))))];
    }),
  ) as SavedPhaseValues;
}

export { isRecord };
