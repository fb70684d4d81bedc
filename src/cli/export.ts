/**
 * `kube-journey export FILE.journey.json --format chrome|otlp [-o OUT] [--otlp-endpoint URL]`:
 * turns a saved trace into a Chrome trace (Perfetto, chrome://tracing) or OTLP/JSON traces, written
 * to OUT (stdout without -o) and, for OTLP, sent to a collector. Output is streamed: a
 * 10,000-pod trace never exists whole as one string. See docs/export.md.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { chromeTraceChunks } from '../core/export/chrome-trace';
import { exportInputOf, type ExportInput } from '../core/export/input';
import { otlpRequestBodies, otlpTraceChunks } from '../core/export/otlp-traces';
import { JourneyFileError } from '../core/journey-file/errors';
import { readJourneyFile } from '../core/journey-file/node-io';
import type { JourneyFile } from '../core/journey-file/types';
import { OtlpPostError, postOtlpTraces } from './otlp-post';

export const EXPORT_FORMATS = ['chrome', 'otlp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportOptions {
  file: string;
  format: ExportFormat;
  /** Where to write; absent or `-`: `out`, unless an endpoint is given (then nothing is written). */
  output?: string;
  /** OTLP/HTTP endpoint to send the traces to (format otlp only). */
  endpoint?: string;
  timeoutMs?: number;
  out: Writable;
  err: Writable;
}

function chunksOf(format: ExportFormat, input: ExportInput): Iterable<string> {
  return format === 'chrome' ? chromeTraceChunks(input) : otlpTraceChunks(input);
}

/** Writes the chunks to `path` through a temporary file beside it, so a failed export leaves no half file. */
async function writeFileAtomically(path: string, chunks: Iterable<string>): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await pipeline(Readable.from(chunks), createWriteStream(temporary, { mode: 0o644 }));
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'is a folder' : error instanceof Error ? error.message : String(error);
    throw new ExportError(`${path}: cannot write it: ${problem}`);
  }
}

/** A problem the user can act on, as one line. */
export class ExportError extends Error {}

/** Exit code for a journey file that cannot be read, as `show` has it (as for a bad command line). */
export const EXPORT_UNREADABLE = 2;

/** Exit codes: 0 written (and sent); 2 the journey file could not be read; 1 the output could not be written or the traces not sent. */
export async function runExport(options: ExportOptions): Promise<number> {
  let file: JourneyFile;
  try {
    file = await readJourneyFile(options.file);
  } catch (error) {
    if (!(error instanceof JourneyFileError)) throw error;
    options.err.write(`kube-journey: ${error.message}\n`);
    return EXPORT_UNREADABLE;
  }
  try {
    const input = exportInputOf(file);
    const toStdout = options.output === '-' || (options.output === undefined && options.endpoint === undefined);
    if (options.output !== undefined && options.output !== '-') await writeFileAtomically(options.output, chunksOf(options.format, input));
    else if (toStdout) await pipeline(Readable.from(chunksOf(options.format, input)), options.out, { end: false });
    if (options.endpoint !== undefined) {
      const sent = await postOtlpTraces(options.endpoint, otlpRequestBodies(input), options.timeoutMs);
      options.err.write(`kube-journey: sent ${sent.spans} span${sent.spans === 1 ? '' : 's'} of ${input.journeys.length} trace${input.journeys.length === 1 ? '' : 's'} to ${options.endpoint} in ${sent.requests} request${sent.requests === 1 ? '' : 's'}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof OtlpPostError || error instanceof ExportError) {
      options.err.write(`kube-journey: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
