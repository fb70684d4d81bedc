/**
 * How files of older versions are read: each version's reader gives the decoded file of its time,
 * and a migration step carries a decoded file one version forward when the model changed. A new
 * version adds a reader (and a step when its model differs), never edits an old one: the
 * compatibility promise of docs/journey-file.md.
 */
import { decodeCompact } from './compact';
import { decodePlain } from './plain';
import type { JourneyFile } from './types';

/** Decoders by the version they read. */
export const READERS: Readonly<Record<number, (document: Record<string, unknown>) => JourneyFile>> = {
  1: decodePlain,
  2: decodeCompact,
};

/** Steps from version N to N + 1 of the decoded model, where it changed (none yet: every version decodes to today's model). */
export const MIGRATIONS: Readonly<Record<number, (file: JourneyFile) => JourneyFile>> = {};

/** Reads a document of `version` and carries it to the current model. */
export function readVersion(document: Record<string, unknown>, version: number, current: number): JourneyFile {
  const reader = READERS[version];
  if (!reader) throw new RangeError(`no reader for journey file version ${version}`);
  let file = reader(document);
  for (let v = version; v < current; v++) file = MIGRATIONS[v]?.(file) ?? file;
  return file;
}
