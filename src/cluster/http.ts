/**
 * Requests to the API server with client-node's request machinery: `KubeConfig.applyToHTTPSOptions`
 * supplies the TLS settings (CA, client certificate, insecure-skip-tls-verify, tls-server-name),
 * the credentials (token, basic auth, exec plugins, auth providers) and the proxy agent of the
 * current context. Bodies stay raw JSON (client-node's typed APIs would turn timestamps into Date
 * objects and drop fields they do not know, which the server must see to reject).
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { ClusterUnreachableError, errorFromResponse, describeError } from './errors';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: string;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
  /** Give up when the whole exchange takes longer (default 30 s). */
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  text: string;
}

export interface StreamOptions {
  query?: Query;
  signal: AbortSignal;
  /** Called once the server accepted the request (status 200). */
  onOpen?(): void;
  onLine(line: string): void;
}

const USER_AGENT = 'kube-journey/0.1.0';
const DEFAULT_TIMEOUT_MS = 30_000;
/** As client-node's Watch: TCP keep-alive probes notice a peer that vanished without closing. */
const KEEPALIVE_MS = 30_000;

export class ClusterHttp {
  private readonly base: string;

  constructor(
    private readonly kubeConfig: KubeConfig,
    server: string,
  ) {
    this.base = server.replace(/\/+$/, '');
  }

  get server(): string {
    return this.base;
  }

  /** One request; any status is returned. Throws ClusterUnreachableError when no answer came. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const request = await this.open(method, path, options.query, {
      Accept: options.accept ?? 'application/json',
      ...(options.contentType ? { 'Content-Type': options.contentType } : {}),
    });
    return new Promise<HttpResponse>((resolve, reject) => {
      const fail = (error: unknown): void => reject(unreachable(this.base, error));
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${timeoutMs / 1000}s`));
      }, timeoutMs);
      const onAbort = (): void => {
        request.destroy(new Error('the request was cancelled'));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const done = (): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      request.on('error', (error) => {
        done();
        fail(error);
      });
      request.on('response', (response) => {
        response.setEncoding('utf8');
        let text = '';
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', (error) => {
          done();
          fail(error);
        });
        response.on('end', () => {
          done();
          resolve({ status: response.statusCode ?? 0, text });
        });
      });
      request.end(options.body);
    });
  }

  /** A request whose 2xx body is JSON; other answers become ClusterApiError. */
  async json(method: string, path: string, options: RequestOptions = {}): Promise<{ status: number; body: unknown }> {
    const response = await this.request(method, path, options);
    if (response.status < 200 || response.status > 299) throw errorFromResponse(response.status, response.text);
    try {
      return { status: response.status, body: JSON.parse(response.text) as unknown };
    } catch (error) {
      throw new ClusterUnreachableError(`${this.base}${path}: the server's answer is not JSON (${describeError(error)})`);
    }
  }

  /**
   * A long-lived GET whose body is read line by line (watches, the simulator's internals stream).
   * Resolves when the server ends the stream or the signal aborts it; rejects with
   * ClusterApiError when the server refuses it, ClusterUnreachableError when the connection breaks.
   */
  async stream(path: string, options: StreamOptions): Promise<void> {
    if (options.signal.aborted) return;
    const request = await this.open('GET', path, options.query, { Accept: 'application/json' });
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: unknown): void => {
        if (settled) return;
        settled = true;
        options.signal.removeEventListener('abort', onAbort);
        if (error === undefined || options.signal.aborted) resolve();
        else reject(error);
      };
      const onAbort = (): void => {
        request.destroy();
        settle();
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      request.on('socket', (socket) => socket.setKeepAlive(true, KEEPALIVE_MS));
      request.on('error', (error) => settle(unreachable(this.base, error)));
      request.on('response', (response) => {
        response.setEncoding('utf8');
        if (response.statusCode !== 200) {
          let text = '';
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => settle(errorFromResponse(response.statusCode ?? 0, text)));
          response.on('error', (error) => settle(unreachable(this.base, error)));
          return;
        }
        options.onOpen?.();
        let buffered = '';
        response.on('data', (chunk: string) => {
          buffered += chunk;
          let newline = buffered.indexOf('\n');
          while (newline >= 0 && !settled) {
            const line = buffered.slice(0, newline).trim();
            buffered = buffered.slice(newline + 1);
            if (line) options.onLine(line);
            newline = buffered.indexOf('\n');
          }
        });
        response.on('error', (error) => settle(unreachable(this.base, error)));
        // A stream cut by a broken connection ends without 'end' ('aborted' / 'close' first).
        response.on('aborted', () => settle(unreachable(this.base, new Error('the connection was closed while streaming'))));
        response.on('end', () => {
          if (buffered.trim() && !settled) options.onLine(buffered.trim());
          settle();
        });
        response.on('close', () => {
          if (!response.complete) settle(unreachable(this.base, new Error('the connection was closed while streaming')));
          else settle();
        });
      });
      request.end();
    });
  }

  private async open(method: string, path: string, query: Query | undefined, headers: Record<string, string>): Promise<http.ClientRequest> {
    const url = new URL(this.base + path);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const options: https.RequestOptions = {};
    try {
      await this.kubeConfig.applyToHTTPSOptions(options);
    } catch (error) {
      // Credential plugins fail here (exec command missing, expired refresh token…), and so does an http:// server without insecure-skip-tls-verify.
      throw new ClusterUnreachableError(`cannot connect to ${this.base}: ${describeError(error)}`);
    }
    const transport = url.protocol === 'http:' ? http : https;
    return transport.request(url, {
      ...options,
      method,
      headers: { ...flatHeaders(options.headers), 'User-Agent': USER_AGENT, ...headers },
    });
  }
}

function flatHeaders(headers: http.OutgoingHttpHeaders | readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers || Array.isArray(headers)) return out;
  for (const [key, value] of Object.entries(headers as http.OutgoingHttpHeaders)) {
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

function unreachable(base: string, error: unknown): ClusterUnreachableError {
  if (error instanceof ClusterUnreachableError) return error;
  return new ClusterUnreachableError(`cannot reach the API server at ${base}: ${describeError(error)}`);
}
