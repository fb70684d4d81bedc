/**
 * The docs corpus: the Kubernetes documentation's example manifests (test/corpus/docs, copied
 * verbatim from kubernetes/website content/en/examples, and under tasks/ a few YAML blocks of docs
 * pages, at the page's path with the file name the page gives them), each traced on a fresh simulator through
 * the CLI's own `runTrace`, and compared with what a kind cluster does with it (expected.json).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { runTrace, type DocumentResult } from '../../src/cli/trace';
import type { JourneyRecord, TraceRecord } from '../../src/cli/trace-json';
import { isUnfinished } from '../../src/cli/unfinished';

export const CORPUS_DIR = path.join(__dirname, 'docs');
const EXPECTED_FILE = path.join(__dirname, 'expected.json');

export type ExpectedOutcome = 'complete' | 'stuck' | 'failed' | 'refused' | 'running-forever';
export type SimulatedOutcome = Exclude<ExpectedOutcome, 'running-forever'>;

/** One entry of expected.json: what a kind cluster (Kubernetes 1.32, containerd) does with the file. */
export interface CorpusExpectation {
  /** Path under test/corpus/docs, the same as under content/en/examples. */
  file: string;
  kinds: string[];
  outcome: ExpectedOutcome;
  /** The kind cluster's words when the outcome is not complete. */
  reason?: string;
  /** A piece of `reason` the simulator's reason must contain too, for the outcomes that have one. */
  reasonIncludes?: string;
  why: string;
  /** Why the simulator differs today; the corpus test skips the comparison for marked entries. */
  knownDifference?: string;
}

export interface SimulatedResult {
  outcome: SimulatedOutcome;
  /** The API server's refusal or the first stuck object's `reason: message`; empty when complete. */
  reason: string;
  /** Container restarts summed over every journey. */
  restarts: number;
  exitCode: number;
}

export interface CorpusRow {
  expected: CorpusExpectation;
  simulated: SimulatedResult;
  match: boolean;
}

export interface CorpusOptions {
  /** Virtual time each file may take before its journeys count as unfinished. */
  timeoutMs: number;
  /** Only files whose path contains this text. */
  filter?: string;
}

export const DEFAULT_TIMEOUT_MS = 300_000;

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** What `runTrace --json` prints on stdout, one record per line (docs/trace-json.md): the parts read here. */
interface TraceJson {
  results: DocumentResult[];
  journeys: JourneyRecord[];
}

function readTraceJson(out: string): TraceJson {
  const report: TraceJson = { results: [], journeys: [] };
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const record = JSON.parse(line) as TraceRecord;
    if (record.type === 'result') report.results.push(record);
    else if (record.type === 'journey') report.journeys.push(record);
  }
  return report;
}

export function loadExpectations(): CorpusExpectation[] {
  return JSON.parse(readFileSync(EXPECTED_FILE, 'utf8')) as CorpusExpectation[];
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function journeyReason(journey: JourneyRecord): string {
  const entry = journey.stuckObjects[0];
  if (entry) return `${entry.ref.kind.toLowerCase()}/${entry.ref.name}: ${entry.stuck.reason}: ${entry.stuck.message}`;
  return `${journey.root.kind.toLowerCase()}/${journey.root.name}: still ${journey.status}`;
}

/** Classifies what `runTrace` reported, the way a user reading its output would. */
export function classifyTrace(exitCode: number, out: string, err: string): SimulatedResult {
  if (out.trim() === '') return { outcome: 'refused', reason: firstLine(err), restarts: 0, exitCode };
  const report = readTraceJson(out);
  const restarts = report.journeys.reduce((sum, journey) => sum + journey.counts.restarts, 0);
  const refusal = report.results.find((result) => result.error);
  if (refusal) return { outcome: 'refused', reason: refusal.error ?? '', restarts, exitCode };
  const failed = report.journeys.find((journey) => journey.status === 'failed');
  if (failed) return { outcome: 'failed', reason: journeyReason(failed), restarts, exitCode };
  // The journey that names a problem first: a Service waiting for a StatefulSet's stuck pods only says it is in progress.
  const unfinished = report.journeys.find((journey) => isUnfinished(journey) && journey.stuckObjects.length > 0) ?? report.journeys.find(isUnfinished);
  if (unfinished) {
    const outcome = unfinished.stuckObjects.some((entry) => entry.status === 'failed') ? 'failed' : 'stuck';
    return { outcome, reason: journeyReason(unfinished), restarts, exitCode };
  }
  return { outcome: 'complete', reason: '', restarts, exitCode };
}

export async function traceCorpusFile(file: string, timeoutMs: number): Promise<SimulatedResult> {
  const out = new Capture();
  const err = new Capture();
  const exitCode = await runTrace({ file: path.join(CORPUS_DIR, file), nodes: 3, seed: 1, timeoutMs, json: true, evidence: false, out, err });
  return classifyTrace(exitCode, out.text, err.text);
}

/** A restart loop matches when the simulator shows restarts, or is stuck for the same reason. */
export function matches(expected: CorpusExpectation, simulated: SimulatedResult): boolean {
  const reasonAgrees = expected.reasonIncludes === undefined || simulated.reason.includes(expected.reasonIncludes);
  if (expected.outcome === 'running-forever') return simulated.restarts > 0 || (simulated.outcome === 'stuck' && expected.reasonIncludes !== undefined && reasonAgrees);
  if (expected.outcome !== simulated.outcome) return false;
  return expected.outcome === 'complete' || expected.outcome === 'refused' || reasonAgrees;
}

export async function runCorpus(options: CorpusOptions): Promise<CorpusRow[]> {
  const rows: CorpusRow[] = [];
  for (const expected of loadExpectations()) {
    if (options.filter && !expected.file.includes(options.filter)) continue;
    const simulated = await traceCorpusFile(expected.file, options.timeoutMs);
    rows.push({ expected, simulated, match: matches(expected, simulated) });
  }
  return rows;
}

function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

/** The table the runner prints: one line per file, then the reasons of the files that differ, then counts per kind. */
export function formatCorpusTable(rows: readonly CorpusRow[]): string {
  const lines: string[] = [];
  const fileWidth = Math.max(4, ...rows.map((row) => row.expected.file.length));
  const kindsWidth = Math.max(5, ...rows.map((row) => row.expected.kinds.join(',').length));
  lines.push(`${'FILE'.padEnd(fileWidth)}  ${'KINDS'.padEnd(kindsWidth)}  ${'EXPECTED'.padEnd(15)}  ${'SIMULATOR'.padEnd(9)}  RESULT`);
  for (const { expected, simulated, match } of rows) {
    const restarts = simulated.restarts > 0 ? ` (${simulated.restarts} restarts)` : '';
    const verdict = match ? 'match' : expected.knownDifference ? 'differs (known)' : 'DIFFERS';
    lines.push(`${expected.file.padEnd(fileWidth)}  ${expected.kinds.join(',').padEnd(kindsWidth)}  ${expected.outcome.padEnd(15)}  ${simulated.outcome.padEnd(9)}  ${verdict}${restarts}`);
  }
  const reasons = rows.filter((row) => !row.match || row.expected.outcome !== 'complete');
  if (reasons.length > 0) lines.push('', 'Reasons:');
  for (const { expected, simulated, match } of reasons) {
    lines.push(`${expected.file} (${match ? 'match' : 'differs'})`);
    lines.push(`  kind:      ${clip(expected.reason ?? expected.outcome, 220)}`);
    lines.push(`  simulator: ${clip(simulated.reason || simulated.outcome, 220)}`);
    if (!match && expected.knownDifference) lines.push(`  known:     ${expected.knownDifference}`);
  }
  lines.push('', 'Per kind (a file counts under each of its kinds):');
  const perKind = new Map<string, { matches: number; differs: number }>();
  for (const row of rows) {
    for (const kind of row.expected.kinds) {
      const tally = perKind.get(kind) ?? { matches: 0, differs: 0 };
      if (row.match) tally.matches++;
      else tally.differs++;
      perKind.set(kind, tally);
    }
  }
  for (const [kind, tally] of [...perKind].sort(([a], [b]) => a.localeCompare(b))) lines.push(`  ${kind.padEnd(24)} ${tally.matches} match, ${tally.differs} differ`);
  const matched = rows.filter((row) => row.match).length;
  const unexplained = rows.filter((row) => !row.match && !row.expected.knownDifference).length;
  lines.push('', `${rows.length} files: ${matched} match, ${rows.length - matched} differ (${unexplained} without a knownDifference mark)`);
  return lines.join('\n');
}
