/**
 * `kube-journey trace --json`: newline-delimited JSON, one record per line, written as the
 * journeys are read, so its memory does not grow with the output. The records, in order: each
 * document's apply result (`result`); per journey, the journey (`journey`) then each of its objects
 * (`object`), parents before children; each stored-only object (`stored`); one `summary` last.
 * docs/trace-json.md describes every field.
 */
import type { FileSummary } from '../core/journey/file-summary';
import type { StoredOnlyJourney } from '../core/journey/stored-only';
import type { Journey, JourneyObjectRef, JourneyStatus, ObjectJourney, Stage } from '../core/journey/types';
import type { DocumentResult } from './trace';

export type ResultRecord = { type: 'result' } & DocumentResult;

/** A journey without its tree: its objects are records of their own. */
export type JourneyRecord = { type: 'journey' } & Omit<Journey, 'tree'>;

/** A stage; its `evidence` only with `--evidence`, as in the text (on 1,000 nodes the scheduler's per-node verdicts alone weigh hundreds of kilobytes per pod). */
export type StageRecord = Omit<Stage, 'evidence'> & Partial<Pick<Stage, 'evidence'>>;

/** One object of a journey without its children: they follow as records naming it as `parent`. */
export type ObjectRecord = { type: 'object'; journey: string; parent?: JourneyObjectRef; stages: StageRecord[] } & Omit<ObjectJourney, 'children' | 'stages'>;

export type StoredRecord = { type: 'stored' } & StoredOnlyJourney;

/** The file's summary (core/journey/file-summary.ts), its journey tallies gathered under `journeys`. */
export type SummaryRecord = {
  type: 'summary';
  /** `done`, `timeout` or `pod budget used up`. */
  outcome: string;
  /** Documents applied and refused. */
  documents: { applied: number; refused: number };
  journeys: { total: number; done: number; withStuckObjects: number } & Partial<Record<JourneyStatus, number>>;
  /** Objects stored with nothing acting on them (`stored` records). */
  stored: number;
  /** Anything else the target adds (the cluster path: `context`, `problems`). */
  [extra: string]: unknown;
} & Omit<FileSummary, 'journeys' | 'statuses' | 'done' | 'stuckJourneys'>;

export type TraceRecord = ResultRecord | JourneyRecord | ObjectRecord | StoredRecord | SummaryRecord;

export function line(record: TraceRecord): string {
  return `${JSON.stringify(record)}\n`;
}

export function journeyRecord(journey: Journey): JourneyRecord {
  const { tree: _tree, ...rest } = journey;
  return { type: 'journey', ...rest };
}

/** The journey's objects, depth first, each before its children; no recursion, as trees of 150,000 pods are shallow but wide. */
export function* objectRecords(journey: Journey, evidence: boolean): Generator<ObjectRecord> {
  if (!journey.tree) return;
  const stack: { object: ObjectJourney; parent?: JourneyObjectRef }[] = [{ object: journey.tree }];
  while (stack.length > 0) {
    const { object, parent } = stack.pop()!;
    const { children, stages, ...rest } = object;
    yield { type: 'object', journey: journey.id, ...(parent ? { parent } : {}), ...rest, stages: evidence ? stages : stages.map(withoutEvidence) };
    for (let i = children.length - 1; i >= 0; i--) stack.push({ object: children[i], parent: object.ref });
  }
}

function withoutEvidence(stage: Stage): StageRecord {
  const { evidence: _evidence, ...rest } = stage;
  return rest;
}

export function summaryRecord(summary: FileSummary, outcome: string, results: readonly DocumentResult[], stored: number, extra: Record<string, unknown> = {}): SummaryRecord {
  const refused = results.filter((result) => result.error).length;
  const { journeys, statuses, done, stuckJourneys, ...rest } = summary;
  return {
    type: 'summary',
    outcome,
    documents: { applied: results.length - refused, refused },
    journeys: { total: journeys, done, withStuckObjects: stuckJourneys, ...statuses },
    stored,
    ...rest,
    ...extra,
  };
}
