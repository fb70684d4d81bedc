/**
 * Structural defaulting of custom resources (apiextensions-apiserver pkg/apiserver/schema/defaulting):
 * a property the object lacks takes its schema's `default`, at every level of the objects and
 * array items the object has. Applied on writes, before pruning and validation.
 */
import { isJsonObject } from '../../../common/json';
import { additionalPropertiesSchema, type JsonSchemaProps } from './schema';

export function applySchemaDefaults(schema: JsonSchemaProps, value: unknown): void {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) applySchemaDefaults(schema.items, item);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (value[name] === undefined && property.default !== undefined) value[name] = structuredClone(property.default);
    if (value[name] !== undefined) applySchemaDefaults(property, value[name]);
  }
  const values = additionalPropertiesSchema(schema);
  if (values) for (const name of Object.keys(value)) if (!schema.properties?.[name]) applySchemaDefaults(values, value[name]);
}
