/**
 * Field errors as k8s.io/apimachinery/pkg/util/validation/field builds them (`field.Required`,
 * `field.Invalid`…), with the messages a client receives, and the readers every group's
 * validation uses over untyped JSON. Bad values arrive already printed the Go way (go-format.ts).
 */
import type { StatusCause } from '../../core/k8s';
import { goQuote } from '../../core/schema/go-format';
import { isJsonObject } from '../../common/json';


export type CauseReason =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError';

/** A field error as field.Error holds it: `message` is ErrorBody(), without the field path. */
export interface FieldCause extends StatusCause {
  reason: CauseReason;
  message: string;
  field: string;
}

export type Json = Record<string, unknown>;
export type Errors = FieldCause[];

// ---------------------------------------------------------------------------------------------
// field.Error constructors. Bad values arrive already printed the Go way (see go-format.ts).

export const IS_NEGATIVE = 'must be greater than or equal to 0';
export const FIELD_IMMUTABLE = 'field is immutable';

function withDetail(body: string, detail: string): string {
  return detail ? `${body}: ${detail}` : body;
}

export const required = (field: string, detail = ''): FieldCause => ({ reason: 'FieldValueRequired', field, message: withDetail('Required value', detail) });
export const forbidden = (field: string, detail: string): FieldCause => ({ reason: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) });
export const invalid = (field: string, value: string, detail: string): FieldCause => ({ reason: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${value}`, detail) });
export const duplicate = (field: string, value: string, detail = ''): FieldCause => ({ reason: 'FieldValueDuplicate', field, message: withDetail(`Duplicate value: ${value}`, detail) });
export const notFound = (field: string, value: string): FieldCause => ({ reason: 'FieldValueNotFound', field, message: `Not found: ${value}` });
export const tooLong = (field: string, maxLength: number): FieldCause => ({ reason: 'FieldValueTooLong', field, message: `Too long: must have at most ${maxLength} bytes` });

export function notSupported(field: string, value: string, validValues: readonly string[]): FieldCause {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(', ')}` : '';
  return { reason: 'FieldValueNotSupported', field, message: withDetail(`Unsupported value: ${value}`, detail) };
}

export function checkNonNegative(value: unknown, field: string, errors: Errors): void {
  if (typeof value === 'number' && value < 0) errors.push(invalid(field, String(value), IS_NEGATIVE));
}

/** One `Invalid value` cause per message of a name rule (none for a valid name). */
export function addInvalid(field: string, value: string, messages: readonly string[], errors: Errors): void {
  for (const message of messages) errors.push(invalid(field, goQuote(value), message));
}

// ---------------------------------------------------------------------------------------------
// Small readers over untyped JSON. A list item that is not an object reads as an empty object,
// the Go zero value; shared read-only stand-ins keep the valid path free of allocations.

const NO_FIELDS: Json = Object.freeze({});
const NO_ITEMS: readonly unknown[] = Object.freeze([]);
export const NO_MESSAGES: readonly string[] = NO_ITEMS as readonly string[];

export const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
export const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : NO_ITEMS);
export const recordAt = (list: readonly unknown[], index: number): Json => {
  const item = list[index];
  return isJsonObject(item) ? item : NO_FIELDS;
};
export const records = (value: unknown): Json[] => (Array.isArray(value) ? value.map((item) => (isJsonObject(item) ? item : {})) : []);
export const stringMap = (value: unknown): Record<string, string> | undefined => (isJsonObject(value) ? (value as Record<string, string>) : undefined);
export const objectOf = (value: unknown): Json => (isJsonObject(value) ? value : NO_FIELDS);
export const isNonEmptyList = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
export const isSet = (value: unknown): boolean => value !== undefined && value !== null;