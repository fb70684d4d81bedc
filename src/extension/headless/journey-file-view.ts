/**
 * A journey file shown in the timeline: its bytes decoded (gzip recognised by its magic bytes, as
 * `kube-journey show` does) and its journeys turned into the same snapshot message the live panel
 * sends (TimelineSync), so the webview draws a saved journey exactly as it drew it live. Evidence
 * the snapshot leaves out is answered from the file's own journeys. Pure (no `vscode`): no cluster,
 * no simulator.
 */
import { gunzipSync } from 'node:zlib';
import type { Journey } from '../../core/journey/types';
import { JourneyFileError } from '../../core/journey-file/errors';
import { parseJourneyFile } from '../../core/journey-file/read';
import type { JourneyFile, JourneyTarget } from '../../core/journey-file/types';
import { TimelineSync, type SnapshotOptions } from '../../protocol/timeline-sync';
import type { SnapshotMessage } from '../../protocol/timeline-protocol';

/** Decodes a journey file's bytes. Throws JourneyFileError with one line naming `name` and the field or line. */
export function decodeJourneyFile(bytes: Uint8Array, name: string): JourneyFile {
  let data = bytes;
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data);
    } catch {
      throw new JourneyFileError(name, 'is cut short: its gzip data ends unfinished; it was not written completely, trace it again with --save');
    }
  }
  return parseJourneyFile(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'), name);
}

/** The error a journey file could not be shown for, as one line (never a stack trace). */
export function journeyFileProblem(error: unknown, name: string): string {
  if (error instanceof JourneyFileError) return error.message;
  return `${name}: ${error instanceof Error ? error.message : String(error)}`;
}

function targetText(target: JourneyTarget): string {
  if (target.type === 'context') return `context ${target.context}`;
  return `built-in simulator, ${target.nodes} node${target.nodes === 1 ? '' : 's'}`;
}

/** The header's source line: `saved 2026-11-29 03:18 UTC · built-in simulator, 3 nodes`. */
export function journeyFileSource(file: JourneyFile): string {
  const created = new Date(file.meta.createdAt);
  const when = Number.isNaN(created.getTime()) ? file.meta.createdAt : `${created.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `saved ${when} · ${targetText(file.meta.target)}`;
}

/** The journeys of a file, as the tracer's snapshots were when saved. */
export function journeysOf(file: JourneyFile): Journey[] {
  return file.journeys.map((saved) => saved.journey);
}

/**
 * The first (and only) snapshot of a saved journey: what TimelineSync sends for the same journeys
 * live, with no `now` (each journey's lines run up to its last change, the moment it was saved).
 */
export function journeyFileSnapshot(file: JourneyFile, options: Pick<SnapshotOptions, 'focusJourneyId' | 'keep' | 'wholeJourneys'> = {}): SnapshotMessage {
  const journeys = journeysOf(file);
  const message = new TimelineSync().next(journeys, { ...options, focusJourneyId: options.focusJourneyId ?? journeys[0]?.id, source: journeyFileSource(file) });
  // A fresh TimelineSync has sent nothing: its first message is always a snapshot.
  if (message.type !== 'snapshot') throw new Error('journey-file-view: expected a snapshot');
  return message;
}
