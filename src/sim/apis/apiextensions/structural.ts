/**
 * Whether a CRD schema is structural, as apiextensions-apiserver's `ValidateStructural` checks it
 * (pkg/apiserver/schema/validation.go): every specified node has a type (unless it is
 * int-or-string or an embedded resource), the root is an object, and
 * `x-kubernetes-preserve-unknown-fields` is true or unset.
 */
import { type Errors, forbidden, invalid, required } from '../field';
import { goQuote } from '../../../core/schema/go-format';
import { additionalPropertiesSchema, type JsonSchemaProps } from './schema';

type Level = 'root' | 'item' | 'field';

const TYPE_REQUIRED: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** The structural-schema errors of `schema`, reported under `path` (`spec.versions[0].schema.openAPIV3Schema`). */
export function structuralSchemaErrors(schema: JsonSchemaProps, path: string): Errors {
  const errors: Errors = [];
  checkNode(schema, path, 'root', errors);
  if (schema.type !== undefined && schema.type !== 'object') errors.push(invalid(`${path}.type`, goQuote(String(schema.type)), 'must be object at the root'));
  return errors;
}

function checkNode(schema: JsonSchemaProps, path: string, level: Level, errors: Errors): void {
  const preserve = schema['x-kubernetes-preserve-unknown-fields'];
  if (preserve === false) errors.push(invalid(`${path}.x-kubernetes-preserve-unknown-fields`, 'false', 'must be true or undefined'));
  const typeless = schema.type === undefined || schema.type === '';
  if (typeless && !schema['x-kubernetes-int-or-string'] && !schema['x-kubernetes-embedded-resource']) errors.push(required(`${path}.type`, TYPE_REQUIRED[level]));
  if (schema.properties && schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    errors.push(forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) checkNode(property, `${path}.properties[${name}]`, 'field', errors);
  if (schema.items) checkNode(schema.items, `${path}.items`, 'item', errors);
  const values = additionalPropertiesSchema(schema);
  if (values) checkNode(values, `${path}.additionalProperties`, 'field', errors);
}
