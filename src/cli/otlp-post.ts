/**
 * Sends OTLP/JSON request bodies to a collector over OTLP/HTTP (`POST <endpoint>/v1/traces`,
 * Content-Type application/json), one request at a time, each within a time limit. Anything the
 * endpoint refuses becomes an OtlpPostError with one line that says what happened and where:
 * a non-2xx answer (with the first line of its body), a refused connection, no answer in time, or
 * spans it rejected in a partial success.
 */
import type { OtlpRequestBody } from '../core/export/otlp-traces';

/** How long one request may take. */
export const OTLP_TIMEOUT_MS = 10_000;

/** The endpoint said no, or could not be reached; `message` is the line to print. */
export class OtlpPostError extends Error {
  override readonly name = 'OtlpPostError';
}

/**
 * The traces URL for an endpoint as given: `http://host:4318` → `http://host:4318/v1/traces`
 * (as OTEL_EXPORTER_OTLP_ENDPOINT is read); a URL already ending in /v1/traces is kept. Throws
 * OtlpPostError for anything but an http(s) URL.
 */
export function tracesUrl(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new OtlpPostError(`--otlp-endpoint must be an http:// or https:// URL, got "${endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OtlpPostError(`--otlp-endpoint must be an http:// or https:// URL, got "${endpoint}"`);
  if (url.username || url.password) throw new OtlpPostError('--otlp-endpoint must not hold credentials (user:password@): they would be printed in error messages');
  if (!url.pathname.endsWith('/v1/traces')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url;
}

/** The first non-empty line of a body, at most 200 characters. */
function firstLine(body: string): string {
  const line = body.split(/\r?\n/).find((candidate) => candidate.trim() !== '')?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Why a request failed before an answer came: refused, unknown host, timed out. */
function connectionProblem(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `did not answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'refused the connection (is a collector listening there?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'has a host name that does not resolve';
    case 'ECONNRESET':
      return 'closed the connection before answering';
    default:
      return `could not be reached: ${cause?.message ?? (error instanceof Error ? error.message : String(error))}`;
  }
}

/** Spans the answer says it rejected (`partialSuccess.rejectedSpans`, int64 as a string or a number). */
function rejected(body: string): { spans: number; message: string } | undefined {
  if (body.trim() === '') return undefined;
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return undefined;
  }
  const partial = (answer as { partialSuccess?: { rejectedSpans?: unknown; errorMessage?: unknown } } | null)?.partialSuccess;
  const spans = Number(partial?.rejectedSpans ?? 0);
  const message = typeof partial?.errorMessage === 'string' ? partial.errorMessage : '';
  if (spans > 0 || message) return { spans: Number.isFinite(spans) ? spans : 0, message };
  return undefined;
}

export interface PostSummary {
  requests: number;
  spans: number;
}

/** Posts every body in turn; stops at the first failure, throwing OtlpPostError. */
export async function postOtlpTraces(endpoint: string, bodies: Iterable<OtlpRequestBody>, timeoutMs = OTLP_TIMEOUT_MS): Promise<PostSummary> {
  const url = tracesUrl(endpoint);
  const summary: PostSummary = { requests: 0, spans: 0 };
  for (const { body, spans } of bodies) {
    let response: Response;
    let answer: string;
    try {
      response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, signal: AbortSignal.timeout(timeoutMs) });
      answer = await response.text();
    } catch (error) {
      throw new OtlpPostError(`the OTLP endpoint ${url.href} ${connectionProblem(error, timeoutMs)}${summary.requests > 0 ? ` (after ${summary.spans} spans were sent)` : ''}`);
    }
    if (!response.ok) {
      const line = firstLine(answer);
      throw new OtlpPostError(`the OTLP endpoint ${url.href} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${line ? `: ${line}` : ''}`);
    }
    const refused = rejected(answer);
    if (refused) {
      throw new OtlpPostError(`the OTLP endpoint ${url.href} rejected ${refused.spans} of ${spans} spans${refused.message ? `: ${firstLine(refused.message)}` : ''}`);
    }
    summary.requests++;
    summary.spans += spans;
  }
  return summary;
}
