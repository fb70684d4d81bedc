/**
 * Scripted list and watch functions for driving a Reflector or ClusterWatcher without a server:
 * each call takes the next scripted answer; once the script is used up the call waits until
 * aborted and `idle` resolves, so a test awaits `idle` and then checks what happened.
 */
import type { KubeObject } from '../../src/core/k8s';
import type { ListResult, WatchRequest } from '../../src/cluster/reflector';

export type WatchScript = (request: WatchRequest) => Promise<void>;

/** A watch that opens, delivers `events`, then closes normally or fails with `end`. */
export function stream(events: [string, KubeObject][], end: 'close' | Error = 'close'): WatchScript {
  return async (request) => {
    request.onOpen();
    for (const [type, object] of events) request.onEvent(type, object);
    if (end !== 'close') throw end;
  };
}

/** A watch refused before it opens. */
export function refuse(error: Error): WatchScript {
  return async () => {
    throw error;
  };
}

export function object(name: string, resourceVersion: string, uid = `uid-${name}`): KubeObject {
  return { metadata: { name, namespace: 'default', uid, resourceVersion } };
}

export function expired(resourceVersion: string): KubeObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410, message: `too old resource version: ${resourceVersion} (${Number(resourceVersion) + 5})` };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export class ScriptedIo {
  readonly listCalls: string[] = [];
  /** `path@resourceVersion` of each watch call. */
  readonly watchCalls: string[] = [];
  readonly delays: number[] = [];
  readonly idle: Promise<void>;
  private markIdle: () => void = () => undefined;

  constructor(
    private readonly lists: (ListResult | Error)[],
    private readonly watches: WatchScript[],
  ) {
    this.idle = new Promise((resolve) => (this.markIdle = resolve));
  }

  readonly list = async (path: string, signal: AbortSignal): Promise<ListResult> => {
    this.listCalls.push(path);
    const next = this.lists.shift();
    if (!next) {
      this.markIdle();
      await untilAborted(signal);
      throw new Error('aborted');
    }
    if (next instanceof Error) throw next;
    return structuredClone(next);
  };

  readonly watch = async (request: WatchRequest): Promise<void> => {
    this.watchCalls.push(request.resourceVersion);
    const next = this.watches.shift();
    if (!next) {
      this.markIdle();
      return untilAborted(request.signal);
    }
    return next(request);
  };

  readonly delay = async (ms: number): Promise<void> => {
    this.delays.push(ms);
  };
}
