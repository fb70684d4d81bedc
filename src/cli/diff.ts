/**
 * `kube-journey diff A.journey.json B.journey.json [--json] [--width N]`: what changed between two
 * saved traces (core/journey-diff). Exits 0 when every journey ended the same way, 1 when the
 * outcomes differ, 2 when a file cannot be read (one line naming the file and what is wrong).
 */
import type { Writable } from 'node:stream';
import { JourneyFileError } from '../core/journey-file/errors';
import { readJourneyFile } from '../core/journey-file/node-io';
import type { JourneyFile } from '../core/journey-file/types';
import { diffJourneys } from '../core/journey-diff/diff';
import { renderDiff, verdictLine } from '../core/journey-diff/render-text';
import type { DiffSide, JourneyDiff } from '../core/journey-diff/types';

export interface DiffOptions {
  a: string;
  b: string;
  json: boolean;
  /** Terminal width (default 100). */
  width?: number;
  out: Writable;
  err: Writable;
}

/** Every journey ended the same way. */
export const DIFF_SAME_OUTCOME = 0;
/** A journey's status or stuck reason changed, or a journey is in one file only. */
export const DIFF_OUTCOME_DIFFERS = 1;
/** A file could not be read. */
export const DIFF_BAD_INPUT = 2;

/** The `--json` document's `kind` and `version` (docs/diff.md). */
export const DIFF_JSON_KIND = 'KubeJourneyDiff';
export const DIFF_JSON_VERSION = 1;

export function sideOf(label: string, file: JourneyFile): DiffSide {
  return { label, journeys: file.journeys };
}

/** The `--json` document: the diff with what identifies it and the verdict the exit code gives. */
export function diffDocument(diff: JourneyDiff): Record<string, unknown> {
  return { kind: DIFF_JSON_KIND, version: DIFF_JSON_VERSION, exitCode: diff.sameOutcome ? DIFF_SAME_OUTCOME : DIFF_OUTCOME_DIFFERS, verdict: verdictLine(diff), ...diff };
}

export async function runDiff(options: DiffOptions): Promise<number> {
  const files: JourneyFile[] = [];
  for (const path of [options.a, options.b]) {
    try {
      files.push(await readJourneyFile(path));
    } catch (error) {
      if (!(error instanceof JourneyFileError)) throw error;
      options.err.write(`kube-journey: ${error.message}\n`);
      return DIFF_BAD_INPUT;
    }
  }
  const diff = diffJourneys(sideOf(options.a, files[0]), sideOf(options.b, files[1]));
  const color = !options.json && 'isTTY' in options.out && options.out.isTTY === true;
  const text = options.json ? `${JSON.stringify(diffDocument(diff), null, 2)}\n` : renderDiff(diff, { width: options.width, color });
  await new Promise<void>((resolve, reject) => options.out.write(text, (error) => (error ? reject(error) : resolve())));
  return diff.sameOutcome ? DIFF_SAME_OUTCOME : DIFF_OUTCOME_DIFFERS;
}
