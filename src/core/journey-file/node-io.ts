/**
 * Journey files on disk (Node only; the rest of core/journey-file is pure). Written atomically: to
 * a temporary file beside the target, then renamed over it, so a reader never sees half a file and
 * an interrupted save leaves the previous one. A name ending in `.gz` is gzip-compressed; reading
 * recognises gzip by its magic bytes whatever the name.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { JourneyFileError } from './errors';
import { formatJourneyFile, parseJourneyFile } from './read';
import type { JourneyFile } from './types';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

function ioProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a folder, not a file';
  return error instanceof Error ? error.message : String(error);
}

/** Reads and decodes the journey file at `path`. Throws JourneyFileError with a one-line message. */
export async function readJourneyFile(path: string): Promise<JourneyFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new JourneyFileError(path, `cannot read it: ${ioProblem(error)}`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = await gunzipAsync(bytes);
    } catch {
      throw new JourneyFileError(path, 'is cut short: its gzip data ends unfinished; it was not written completely, trace it again with --save');
    }
  }
  return parseJourneyFile(bytes.toString('utf8'), path);
}

/** Encodes `file` and writes it to `path` atomically (gzip when the name ends in .gz); returns the bytes written. */
export async function writeJourneyFile(path: string, file: JourneyFile): Promise<number> {
  return writeJourneyFileText(path, formatJourneyFile(file));
}

/** Writes a journey file's text (JourneyFileEncoder.finish) to `path` atomically, as writeJourneyFile. */
export async function writeJourneyFileText(path: string, text: string): Promise<number> {
  const data = path.endsWith('.gz') ? await gzipAsync(text) : Buffer.from(text, 'utf8');
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data, { mode: 0o644 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new JourneyFileError(path, `cannot write it: ${ioProblem(error)}`);
  }
  return data.length;
}
