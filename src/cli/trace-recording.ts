/**
 * `trace --save`: keeps what the trace prints, as it prints it, and writes it as a journey file
 * (core/journey-file) once the trace is over, also when a journey is stuck (the file records the
 * exit code). Journeys are kept as the printer reads them, one at a time.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import type { DocumentResult } from '../core/document-result';
import type { PhaseValues } from '../core/journey/file-summary';
import type { StoredOnlyJourney } from '../core/journey/stored-only';
import { PHASE_NAMES, type Journey } from '../core/journey/types';
import { JourneyFileError } from '../core/journey-file/errors';
import { writeJourneyFileText } from '../core/journey-file/node-io';
import { JourneyFileEncoder } from '../core/journey-file/read';
import type { JourneyTarget, SavedJourney, SavedPhaseValues } from '../core/journey-file/types';
import { TOOL_VERSION } from '../common/tool-version';

/** What finishTrace knows at its end. */
export interface TraceEnding {
  results: readonly DocumentResult[];
  stored: readonly StoredOnlyJourney[];
  outcome: string;
  limit: string;
  unfinished: readonly string[];
  extra?: Record<string, unknown>;
}

export class TraceRecording {
  readonly warnings: string[] = [];
  readonly claimNotes: string[] = [];
  readonly closing: string[] = [];
  /** Journeys are encoded as they are printed, not kept. */
  private readonly encoder = new JourneyFileEncoder();
  private ending: TraceEnding | undefined;

  addJourney(journey: Journey, phaseValues: PhaseValues | undefined): void {
    const saved: SavedJourney = { journey };
    if (phaseValues && PHASE_NAMES.some((name) => phaseValues[name].length > 0)) {
      saved.phaseValues = Object.fromEntries(PHASE_NAMES.map((name) => [name, Array.from(phaseValues[name])])) as SavedPhaseValues;
    }
    this.encoder.addJourney(saved);
  }

  finish(ending: TraceEnding): void {
    this.ending = ending;
  }

  /** The journey file's text; undefined until the trace printed its journeys. */
  text(meta: { source: string; target: JourneyTarget; exitCode: number; createdAt?: string }): string | undefined {
    const ending = this.ending;
    if (!ending) return undefined;
    return this.encoder.finish({
      meta: { toolVersion: TOOL_VERSION, createdAt: meta.createdAt ?? new Date().toISOString(), source: meta.source, target: meta.target, exitCode: meta.exitCode, outcome: ending.outcome, limit: ending.limit },
      results: [...ending.results],
      warnings: [...this.warnings],
      claimNotes: [...this.claimNotes],
      stored: [...ending.stored],
      unfinished: [...ending.unfinished],
      closing: [...this.closing],
      ...(ending.extra ? { extra: ending.extra } : {}),
    });
  }
}

/**
 * Writes the recording to `path` and returns the trace's exit code; a file that cannot be written
 * is said in one line and fails a trace that had succeeded.
 */
export async function saveRecording(recording: TraceRecording, options: { path: string; source: string; target: JourneyTarget; exitCode: number; err: Writable }): Promise<number> {
  const text = recording.text(options);
  if (text === undefined) return options.exitCode;
  try {
    await writeJourneyFileText(options.path, text);
    return options.exitCode;
  } catch (error) {
    if (!(error instanceof JourneyFileError)) throw error;
    options.err.write(`kube-journey: cannot save the journeys: ${error.message}\n`);
    return Math.max(options.exitCode, 1);
  }
}

/**
 * Why `path` cannot take a journey file, said before a trace that may run for minutes rather than
 * after it: its folder is missing or not writable, or it is a folder. Undefined when it can.
 */
export function saveProblem(path: string): string | undefined {
  const folder = dirname(path);
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
    accessSync(folder, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `no folder ${folder}` : `cannot write in ${folder}`;
  }
  try {
    if (statSync(path).isDirectory()) return `${path} is a folder`;
  } catch {
    // Not there yet: it will be.
  }
  return undefined;
}
