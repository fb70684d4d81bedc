/** Text ⇄ journey file: the one entry point for every version, and the errors a user can act on. */
import { FieldError, JourneyFileError } from './errors';
import { integer, isRecord } from './fields';
import { jsonErrorOffset, lineAndColumn } from './json-position';
import { readVersion, READERS } from './migrate';
import { CompactEncoder } from './compact';
import { JOURNEY_FILE_KIND, JOURNEY_FILE_VERSION, type JourneyFile, type SavedJourney } from './types';

/** Reads a journey file's text; `file` names it in errors. Throws JourneyFileError. */
export function parseJourneyFile(text: string, file = 'journey file'): JourneyFile {
  if (text.trim() === '') throw new JourneyFileError(file, 'is empty, not a journey file');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const offset = jsonErrorOffset(text);
    const { line, column } = lineAndColumn(text, Math.max(0, offset));
    if (offset >= text.trimEnd().length) throw new JourneyFileError(file, `is cut short: its JSON ends unfinished at line ${line}; it was not written completely, trace it again with --save`);
    const reason = error instanceof Error ? error.message.replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '') : '';
    throw new JourneyFileError(file, `not JSON at line ${line}:${column}${reason ? ` (${reason})` : ''}`);
  }
  if (!isRecord(document) || document.kind !== JOURNEY_FILE_KIND) {
    throw new JourneyFileError(file, `not a Kube Journey file: it has no "kind": "${JOURNEY_FILE_KIND}" (write one with kube-journey trace -f <manifest> --save <file>.journey.json)`);
  }
  let version: number;
  try {
    version = integer(document.version, 'version');
  } catch (error) {
    throw new JourneyFileError(file, error instanceof Error ? error.message : String(error));
  }
  if (version > JOURNEY_FILE_VERSION) {
    throw new JourneyFileError(file, `written by a newer Kube Journey (file version ${version}; this one reads versions 1 to ${JOURNEY_FILE_VERSION}): upgrade kube-journey to read it`);
  }
  if (!READERS[version]) throw new JourneyFileError(file, `version ${version} is not a journey file version (this Kube Journey reads 1 to ${JOURNEY_FILE_VERSION})`);
  try {
    return readVersion(document, version, JOURNEY_FILE_VERSION);
  } catch (error) {
    if (error instanceof FieldError) throw new JourneyFileError(file, `${error.message} (file version ${version})`);
    throw error;
  }
}

/**
 * Encodes a journey file one journey at a time (the journeys need not all be held at once: trace
 * --save hands each over as it prints it), in the current version.
 */
export class JourneyFileEncoder {
  private readonly compact = new CompactEncoder();

  addJourney(saved: SavedJourney): void {
    this.compact.addJourney(saved.journey, saved.phaseValues);
  }

  /** The file's text, given everything else it holds. */
  finish(rest: Omit<JourneyFile, 'journeys'>): string {
    return `${JSON.stringify(this.compact.finish(rest, JOURNEY_FILE_KIND, JOURNEY_FILE_VERSION))}\n`;
  }
}

/** A journey file's text, in the current version. */
export function formatJourneyFile(file: JourneyFile): string {
  const encoder = new JourneyFileEncoder();
  for (const saved of file.journeys) encoder.addJourney(saved);
  const { journeys: _journeys, ...rest } = file;
  return encoder.finish(rest);
}
