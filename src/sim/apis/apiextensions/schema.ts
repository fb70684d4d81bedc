/**
 * The subset of apiextensions.k8s.io/v1 JSONSchemaProps that the simulator acts on when it
 * validates and prunes custom resources (apiextensions-apiserver pkg/apiserver/schema).
 */
export interface JsonSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchemaProps>;
  additionalProperties?: JsonSchemaProps | boolean;
  items?: JsonSchemaProps;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  nullable?: boolean;
  default?: unknown;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  [keyword: string]: unknown;
}

export function isSchemaObject(value: unknown): value is JsonSchemaProps {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema of map values, when `additionalProperties` is one (`true` allows anything, as upstream). */
export function additionalPropertiesSchema(schema: JsonSchemaProps): JsonSchemaProps | undefined {
  return isSchemaObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}
