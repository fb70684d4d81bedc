/**
 * Pruning of fields a custom resource's schema does not specify, as apiextensions-apiserver's
 * structural pruning does it (pkg/apiserver/schema/pruning): a field survives when `properties`
 * names it, when `additionalProperties` gives a schema for map values, or under
 * `x-kubernetes-preserve-unknown-fields: true`. apiVersion, kind and metadata of the resource (and
 * of embedded resources) are never pruned here.
 */
import { isJsonObject } from '../../../common/json';
import { additionalPropertiesSchema, type JsonSchemaProps } from './schema';

const RESOURCE_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** Removes the unspecified fields from `object` in place; returns their paths (`spec.extra`), as upstream reports them for field validation. */
export function pruneToSchema(schema: JsonSchemaProps, object: Record<string, unknown>): string[] {
  const pruned: string[] = [];
  pruneObject(schema, object, '', true, pruned);
  return pruned;
}

function pruneValue(schema: JsonSchemaProps, value: unknown, path: string, pruned: string[]): void {
  if (Array.isArray(value)) {
    if (schema.items) for (let i = 0; i < value.length; i++) pruneValue(schema.items, value[i], `${path}[${i}]`, pruned);
  } else if (isJsonObject(value)) {
    pruneObject(schema, value, path, schema['x-kubernetes-embedded-resource'] === true, pruned);
  }
}

function pruneObject(schema: JsonSchemaProps, object: Record<string, unknown>, path: string, isResource: boolean, pruned: string[]): void {
  const values = additionalPropertiesSchema(schema);
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true;
  for (const name of Object.keys(object)) {
    const fieldPath = path ? `${path}.${name}` : name;
    if (isResource && RESOURCE_FIELDS.has(name)) continue;
    const property = schema.properties?.[name] ?? values;
    if (property) pruneValue(property, object[name], fieldPath, pruned);
    else if (!preserve) {
      delete object[name];
      pruned.push(fieldPath);
    }
  }
}
