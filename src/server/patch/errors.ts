/**
 * Patch failures as the API server reports them. A PatchError is an ApiError, so it maps 1:1 to
 * the Status a real server sends; `detail` keeps the precise cause even where the server's
 * message is generic (JSON patch failures answer only "the server rejected our request due to
 * an error in our request").
 */
import { ApiError, type StatusReason } from '../../sim/store/types';

export class PatchError extends ApiError {
  constructor(
    code: 400 | 422 | 500,
    reason: StatusReason,
    message: string,
    /** What exactly went wrong, for logs and tests. */
    readonly detail: string = message,
  ) {
    super(code, reason, message);
    this.name = 'PatchError';
  }
}

/** `errors.NewBadRequest(message)`: a malformed patch document. */
export function badRequest(message: string): PatchError {
  return new PatchError(400, 'BadRequest', message);
}

/**
 * `errors.NewGenericServerResponse(422, …)`: the API server drops the cause from the message,
 * so kubectl prints "The request is invalid: the server rejected our request due to an error in
 * our request".
 */
export function unprocessable(detail: string): PatchError {
  return new PatchError(422, 'Invalid', 'the server rejected our request due to an error in our request', detail);
}

/**
 * An error the API server does not classify: it answers 500 with the error text (reason
 * Unknown, i.e. empty, upstream; the store contract has no empty reason, so InternalError).
 */
export function unclassified(message: string): PatchError {
  return new PatchError(500, 'InternalError', message);
}

/** Go's `%v` rendering of a decoded JSON value, for error messages that quote patch content. */
export function goFormat(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, v]) => `${k}:${goFormat(v)}`).join(' ')}]`;
  }
  return String(value);
}

/** Go's `reflect.TypeOf(v)` name for a decoded JSON value. */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'object':
      return 'map[string]interface {}';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64';
    case 'boolean':
      return 'bool';
    default:
      return typeof value;
  }
}
