/**
 * Reading an untrusted JSON value field by field, with the path of each field for the error: a
 * journey file edited by hand, cut short or written by another tool fails on the first wrong field,
 * named (`journeys[2].journey.status: expected a string, got 3`), never with a TypeError deep inside a
 * renderer.
 */
import { FieldError } from './errors';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw new FieldError(path, 'an object', value);
  return value;
}

export function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new FieldError(path, 'an array', value);
  return value;
}

export function string(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new FieldError(path, 'a string', value);
  return value;
}

export function number(value: unknown, path: string): number {
  if (typeof value !== 'number') throw new FieldError(path, 'a number', value);
  return value;
}

export function integer(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new FieldError(path, 'an integer', value);
  return value;
}

export function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw new FieldError(path, 'true or false', value);
  return value;
}

export function optional<T>(value: unknown, path: string, read: (value: unknown, path: string) => T): T | undefined {
  return value === undefined ? undefined : read(value, path);
}

export function strings(value: unknown, path: string): string[] {
  return array(value, path).map((item, index) => string(item, join(path, index)));
}
