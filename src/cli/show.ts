/**
 * `kube-journey show FILE.journey.json [--json] [--evidence] [--width N]`: prints a saved trace
 * exactly as `trace` printed it (the text, or the NDJSON of docs/trace-json.md) and exits with the
 * trace's exit code. A file that cannot be read is said in one line, exit 2.
 */
import type { Writable } from 'node:stream';
import { JourneyFileError } from '../core/journey-file/errors';
import { readJourneyFile } from '../core/journey-file/node-io';
import type { JourneyFile } from '../core/journey-file/types';
import { finishTrace, printResults } from './trace';

export interface ShowOptions {
  file: string;
  json: boolean;
  evidence: boolean;
  width?: number;
  out: Writable;
  err: Writable;
}

/** Exit code for a journey file that cannot be read (as for a bad command line). */
export const SHOW_FAILED = 2;

export async function runShow(options: ShowOptions): Promise<number> {
  let file: JourneyFile;
  try {
    file = await readJourneyFile(options.file);
  } catch (error) {
    if (!(error instanceof JourneyFileError)) throw error;
    options.err.write(`kube-journey: ${error.message}\n`);
    return SHOW_FAILED;
  }
  await printJourneyFile(file, options);
  return file.meta.exitCode;
}

/** Prints `file` as its trace did, in the same order: results, warnings, claim notes, journeys, summary, then why journeys did not finish. */
export async function printJourneyFile(file: JourneyFile, options: Omit<ShowOptions, 'file'>): Promise<void> {
  const { out, err } = options;
  printResults(file.meta.source, file.results, options.json, out, err);
  for (const line of file.warnings) err.write(`${line}\n`);
  if (!options.json) for (const note of file.claimNotes) out.write(`${note}\n`);
  const phaseValues = new Map(file.journeys.map((saved) => [saved.journey.id, saved.phaseValues]));
  await finishTrace({
    results: file.results,
    journeys: file.journeys.map((saved) => saved.journey),
    phaseValues: (id) => phaseValues.get(id),
    stored: file.stored,
    outcome: file.meta.outcome,
    limit: file.meta.limit,
    json: options.json,
    evidence: options.evidence,
    width: options.width,
    out,
    err,
    extra: file.extra,
    unfinishedLines: file.unfinished,
  });
  for (const line of file.closing) err.write(`${line}\n`);
}
