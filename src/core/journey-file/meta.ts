/** Reading the parts of a journey file every version shares: meta, results, lines, phase values. */
import type { DocumentResult } from '../document-result';
import type { StoredOnlyJourney } from '../journey/stored-only';
import { FieldError } from './errors';
import { array, boolean, integer, join, number, optional, record, string, strings } from './fields';
import type { JourneyFile, JourneyFileMeta, JourneyTarget, SavedPhaseValues } from './types';
import { PHASE_NAMES } from '../journey/types';

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

/**
 * The fields of `entry` that `read` knows, checked, in the file's key order (the NDJSON records
 * print them in it, as trace did); fields it does not know are left out.
 */
function known<T>(entry: Record<string, unknown>, path: string, read: Record<string, (value: unknown, path: string) => unknown>, required: readonly string[]): T {
  for (const key of required) if (entry[key] === undefined) read[key](undefined, join(path, key));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) if (read[key] && value !== undefined) out[key] = read[key](value, join(path, key));
  return out as T;
}

function oneOf(values: readonly string[]): (value: unknown, path: string) => string {
  return (value, path) => {
    const text = string(value, path);
    if (!values.includes(text)) throw new FieldError(path, values.map((v) => `"${v}"`).join(', '), text);
    return text;
  };
}

export function readResults(value: unknown, path: string): DocumentResult[] {
  const fields = { document: integer, line: integer, object: string, action: oneOf(ACTIONS), error: string, clientError: boolean, hint: string };
  return array(value, path).map((item, index) => known<DocumentResult>(record(item, join(path, index)), join(path, index), fields, ['document', 'line', 'object']));
}

export function readStored(value: unknown, path: string): StoredOnlyJourney[] {
  const fields = { kind: string, namespace: string, name: string, status: oneOf(['complete']), stage: oneOf(['stored']), facts: string, note: string };
  return array(value, path).map((item, index) => known<StoredOnlyJourney>(record(item, join(path, index)), join(path, index), fields, ['kind', 'name', 'status', 'stage', 'note']));
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

export function readPhaseValues(value: unknown, path: string): SavedPhaseValues {
  const values = record(value, path);
  return Object.fromEntries(
    PHASE_NAMES.map((name) => {
      const at = join(path, name);
      return [name, array(values[name] ?? [], at).map((v, index) => (v === null ? NaN : number(v, join(at, index))))];
    }),
  ) as SavedPhaseValues;
}

