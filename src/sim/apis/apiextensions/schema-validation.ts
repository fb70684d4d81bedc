/**
 * Validation of a custom resource against its version's `openAPIV3Schema`, with the messages
 * kube-openapi's validators produce and apiextensions-apiserver turns into field errors
 * (`kubeOpenAPIResultToFieldErrors`), e.g.
 * `spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`.
 */
import { isJsonObject } from '../../../common/json';
import { goQuote } from '../../../core/schema/go-format';
import { type Errors, type FieldCause, invalid, required, tooLong } from '../field';
import { additionalPropertiesSchema, type JsonSchemaProps } from './schema';

/** The JSON type name kube-openapi reports for a value (`integer` for whole numbers). */
export function jsonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function printed(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function hasType(schema: JsonSchemaProps, value: unknown): boolean {
  if (value === null) return schema.nullable === true;
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
  switch (schema.type) {
    case undefined:
    case '':
      return true;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isJsonObject(value);
    default:
      return typeof value === schema.type;
  }
}

const tooMany = (field: string, actual: number, max: number): FieldCause => ({ reason: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items` });

function unsupported(field: string, value: unknown, allowed: readonly unknown[]): FieldCause {
  return { reason: 'FieldValueNotSupported', field, message: `Unsupported value: ${printed(value)}: supported values: ${allowed.map(printed).join(', ')}` };
}

/** Field errors of `object` (a whole custom resource) against `schema`, its version's openAPIV3Schema. */
export function validateAgainstSchema(schema: JsonSchemaProps, object: Record<string, unknown>): Errors {
  const errors: Errors = [];
  // apiVersion, kind and metadata are the apiserver's own (ObjectMeta validation), not the schema's.
  const { apiVersion: _apiVersion, kind: _kind, metadata: _metadata, ...body } = object;
  const rootSchema: JsonSchemaProps = { ...schema, properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => name !== 'metadata' && name !== 'apiVersion' && name !== 'kind')) };
  rootSchema.required = (schema.required ?? []).filter((name) => name !== 'metadata' && name !== 'apiVersion' && name !== 'kind');
  checkValue(rootSchema, body, '', errors);
  return errors;
}

function child(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function checkValue(schema: JsonSchemaProps, value: unknown, path: string, errors: Errors): void {
  const where = path || 'body';
  if (!hasType(schema, value)) {
    const actual = jsonTypeName(value);
    errors.push(invalid(path, goQuote(actual), `${where} in body must be of type ${schema['x-kubernetes-int-or-string'] ? 'integer,string' : schema.type}: ${goQuote(actual)}`));
    return;
  }
  if (value === null) return;
  if (schema.enum && !schema.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) errors.push(unsupported(path, value, schema.enum));
  if (typeof value === 'number') checkNumber(schema, value, path, errors);
  else if (typeof value === 'string') checkString(schema, value, path, errors);
  else if (Array.isArray(value)) checkArray(schema, value, path, errors);
  else if (isJsonObject(value)) checkObject(schema, value, path, errors);
}

function checkNumber(schema: JsonSchemaProps, value: number, path: string, errors: Errors): void {
  if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) {
    errors.push(invalid(path, String(value), `${path} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`));
  }
  if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) {
    errors.push(invalid(path, String(value), `${path} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`));
  }
}

function checkString(schema: JsonSchemaProps, value: string, path: string, errors: Errors): void {
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) errors.push(tooLong(path, schema.maxLength));
  if (schema.minLength !== undefined && length < schema.minLength) errors.push(invalid(path, goQuote(value), `${path} in body should be at least ${schema.minLength} chars long`));
  if (schema.pattern !== undefined && !matchesPattern(schema.pattern, value)) errors.push(invalid(path, goQuote(value), `${path} in body should match '${schema.pattern}'`));
}

/** ECMA 262 patterns, as kube-openapi reads them; one JavaScript cannot compile matches nothing. */
function matchesPattern(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

function checkArray(schema: JsonSchemaProps, value: unknown[], path: string, errors: Errors): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(tooMany(path, value.length, schema.maxItems));
  if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(invalid(path, printed(value), `${path} in body should have at least ${schema.minItems} items`));
  if (schema.items) for (let i = 0; i < value.length; i++) checkValue(schema.items, value[i], `${path}[${i}]`, errors);
}

function checkObject(schema: JsonSchemaProps, value: Record<string, unknown>, path: string, errors: Errors): void {
  for (const name of schema.required ?? []) if (value[name] === undefined) errors.push(required(child(path, name)));
  const values = additionalPropertiesSchema(schema);
  for (const [name, item] of Object.entries(value)) {
    const property = schema.properties?.[name] ?? values;
    if (property) checkValue(property, item, child(path, name), errors);
  }
}
