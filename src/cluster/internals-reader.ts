/**
 * Reads the simulator's internals stream (etcd writes, watch deliveries, scheduler verdicts), which
 * a real cluster does not have: the first answer decides. 404 (or 401/403: a proxy or a cluster
 * that forbids unknown paths) means a real cluster, and the reader stops for good; 200 means the
 * simulator, and the stream is then kept alive like a watch, resuming after the last sequence
 * number seen.
 */
import type { InternalStep } from '../core/internals';
import { ClusterApiError } from './errors';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import type { DelayFunction } from './reflector';

/** Mirrors INTERNALS_PATH of src/server/api-server.ts (kept apart so clients need not load the server). */
export const INTERNALS_STREAM_PATH = '/apis/internals.kube-journey.dev/v1alpha1/steps';

export interface InternalsRequest {
  /** Deliver steps after this sequence number (0: every retained step). */
  since: number;
  signal: AbortSignal;
  onOpen(): void;
  onStep(seq: number, step: InternalStep): void;
}

/** Resolves when the stream ends normally (or is aborted); rejects with ClusterApiError or a connection error. */
export type InternalsFunction = (request: InternalsRequest) => Promise<void>;

/** `probing` until the first answer; `absent` on a real cluster. */
export type InternalsState = 'probing' | 'streaming' | 'reconnecting' | 'absent' | 'stopped';

export interface InternalsReaderOptions {
  stream: InternalsFunction;
  delay: DelayFunction;
  backoff?: BackoffPolicy;
  deliver(step: InternalStep): void;
  onState?(state: InternalsState): void;
}

export class InternalsReader {
  /** Resolves once the first answer told whether the server has an internals stream. */
  readonly probed: Promise<boolean>;
  private resolveProbe: (present: boolean) => void = () => undefined;
  private readonly controller = new AbortController();
  private lastSeq = 0;
  private failures = 0;
  private current: InternalsState = 'probing';
  private running: Promise<void> | undefined;

  constructor(private readonly options: InternalsReaderOptions) {
    this.probed = new Promise((resolve) => (this.resolveProbe = resolve));
  }

  get state(): InternalsState {
    return this.current;
  }

  get lastSequence(): number {
    return this.lastSeq;
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.running;
    this.setState('stopped');
    this.resolveProbe(false);
  }

  private async run(): Promise<void> {
    const signal = this.controller.signal;
    const policy = this.options.backoff ?? DEFAULT_BACKOFF;
    while (!signal.aborted) {
      let sawStep = false;
      let delay = 0;
      try {
        await this.options.stream({
          since: this.lastSeq,
          signal,
          onOpen: () => {
            this.setState('streaming');
            this.resolveProbe(true);
          },
          onStep: (seq, step) => {
            if (seq <= this.lastSeq) return;
            this.lastSeq = seq;
            sawStep = true;
            this.options.deliver(step);
          },
        });
        if (sawStep) this.failures = 0;
        delay = this.failures === 0 ? 0 : backoffDelay(policy, this.failures - 1);
        this.failures++;
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof ClusterApiError && (error.code === 404 || error.code === 403 || error.code === 401)) {
          this.setState('absent');
          this.resolveProbe(false);
          return;
        }
        if (sawStep) this.failures = 0;
        delay = backoffDelay(policy, this.failures++);
      }
      if (signal.aborted) break;
      this.setState('reconnecting');
      await this.options.delay(delay, signal);
    }
  }

  private setState(state: InternalsState): void {
    if (this.current === state || this.current === 'absent') return;
    this.current = state;
    this.options.onState?.(state);
  }
}
