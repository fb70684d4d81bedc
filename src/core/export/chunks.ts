/** Gathers small pieces of text into chunks of about CHUNK_CHARS: one write per few objects, not per event. */
export const CHUNK_CHARS = 64 * 1024;

export class ChunkGatherer {
  private pending = '';

  /** Adds `text`; returns a chunk to hand out once enough gathered. */
  add(text: string): string | undefined {
    this.pending += text;
    if (this.pending.length < CHUNK_CHARS) return undefined;
    return this.take();
  }

  /** What is left. */
  take(): string {
    const chunk = this.pending;
    this.pending = '';
    return chunk;
  }
}
