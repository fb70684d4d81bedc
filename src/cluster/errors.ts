/**
 * Errors of the cluster connection, split the way callers must react to them: the server answered
 * with a Status (a verdict about the request: forbidden, invalid, conflict, expired…), or it could
 * not be reached at all (retry later).
 */
import { STATUS_CODES } from 'node:http';

/** One entry of a Status's `details.causes`: what is wrong with which field. */
export interface StatusCause {
  reason?: string;
  message?: string;
  /** As the server wrote it: `spec.template.spec.containers[0].image`, `.spec.replicas`, … */
  field?: string;
}

/** The API server answered with an error Status (or an error code without one, from a proxy). */
export class ClusterApiError extends Error {
  override readonly name = 'ClusterApiError';

  constructor(
    /** HTTP status code (403, 404, 409, 410, 422, …). */
    readonly code: number,
    /** The Status `reason`: `Forbidden`, `NotFound`, `Conflict`, `Expired`, `Invalid`, … */
    readonly reason: string | undefined,
    message: string,
    readonly causes: StatusCause[] = [],
  ) {
    super(message);
  }
}

/** The server could not be reached or the connection broke (refused, reset, TLS, timeout). */
export class ClusterUnreachableError extends Error {
  override readonly name = 'ClusterUnreachableError';
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function causesOf(details: Record<string, unknown> | undefined): StatusCause[] {
  const causes = details?.causes;
  if (!Array.isArray(causes)) return [];
  return causes.map((cause): StatusCause => {
    const c = record(cause) ?? {};
    return {
      reason: typeof c.reason === 'string' ? c.reason : undefined,
      message: typeof c.message === 'string' ? c.message : undefined,
      field: typeof c.field === 'string' ? c.field : undefined,
    };
  });
}

/** A ClusterApiError from a Status object (a parsed body or a watch ERROR event's object). */
export function errorFromStatus(status: unknown, fallbackCode: number): ClusterApiError {
  const s = record(status);
  const code = typeof s?.code === 'number' && s.code > 0 ? s.code : fallbackCode;
  const reason = typeof s?.reason === 'string' && s.reason ? s.reason : undefined;
  const message = typeof s?.message === 'string' && s.message ? s.message : defaultMessage(code);
  return new ClusterApiError(code, reason, message, causesOf(record(s?.details)));
}

/** A ClusterApiError from an error response body, which may or may not be a JSON Status. */
export function errorFromResponse(code: number, body: string): ClusterApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const s = record(parsed);
  if (s?.kind === 'Status') return errorFromStatus(s, code);
  const text = body.trim();
  // A proxy's plain-text answer says more than the bare status line; an HTML page does not.
  const message = text && text.length <= 300 && !text.startsWith('<') ? text : defaultMessage(code);
  return new ClusterApiError(code, STATUS_CODES[code]?.replace(/\s+/g, ''), message);
}

/** What client-go says for an error code without a Status body. */
function defaultMessage(code: number): string {
  switch (code) {
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'the server could not find the requested resource';
    case 410:
      return 'the resource version is too old';
    default:
      return `the server responded with ${code} ${STATUS_CODES[code] ?? ''}`.trim();
  }
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
