/**
 * Writes the trace's output piece by piece with back-pressure, so printing 10,000 pods never holds
 * their whole text at once, and stops quietly when the reader went away (`| head` closes the pipe:
 * EPIPE), as command-line tools do.
 */
import type { Writable } from 'node:stream';

/** Text gathered before a write: one write per few pods, not per line. */
const CHUNK_CHARS = 64 * 1024;

export class OutputWriter {
  private pending = '';
  private closed = false;
  private failure: Error | undefined;
  private release: (() => void) | undefined;
  private readonly onError = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') this.closed = true;
    else this.failure = error;
    this.release?.();
  };
  private readonly onClose = (): void => {
    this.closed = true;
    this.release?.();
  };

  constructor(private readonly out: Writable) {
    out.on('error', this.onError);
    out.on('close', this.onClose);
  }

  /** False once the reader went away: there is no point in making more output. */
  get open(): boolean {
    return !this.closed && !this.out.destroyed;
  }

  /** Adds text; writes once enough gathered, waiting while the stream's buffer is full. */
  async write(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= CHUNK_CHARS) await this.flush();
  }

  /** Writes what gathered and waits until the stream takes more. */
  async flush(): Promise<void> {
    this.throwIfFailed();
    const text = this.pending;
    this.pending = '';
    if (text === '' || !this.open) return;
    if (this.out.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.out.off('drain', done);
        this.release = undefined;
        resolve();
      };
      this.release = done;
      this.out.on('drain', done);
    });
    this.throwIfFailed();
  }

  /** Flushes and lets go of the stream. */
  async end(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.out.off('error', this.onError);
      this.out.off('close', this.onClose);
    }
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
