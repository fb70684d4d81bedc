/**
 * The Kubernetes field schema of the served kinds (generated into kubernetes-schema.json by
 * scripts/gen-schema.ts from the `kubernetes-types` package): field lookup for hovers and
 * completion, and the unknown-field check behind `fieldValidation=Strict`.
 */
import type { KubeObject, ResourceKind } from '../k8s';
import schemaFile from './kubernetes-schema.json';
import { parseQuantity, QUANTITY_FORMAT_ERROR } from './quantity';

export type ScalarName = 'string' | 'integer' | 'boolean' | 'IntOrString' | 'Quantity' | 'Time' | 'MicroTime';

export type FieldType =
  | { kind: 'scalar'; name: ScalarName }
  /** Free-form JSON (managedFields' fieldsV1). */
  | { kind: 'object' }
  | { kind: 'ref'; name: string }
  | { kind: 'array'; items: FieldType }
  | { kind: 'map'; values: FieldType };

export interface FieldInfo {
  /** The resolved path in Kubernetes field-path form: `spec.template.spec.containers[0].image`. */
  path: string;
  description: string;
  type: FieldType;
  /** The type as `kubectl explain` would name it: `string`, `[]Container`, `map[string]string`. */
  typeName: string;
  required: boolean;
}

export interface ChildField {
  name: string;
  description: string;
  type: FieldType;
  typeName: string;
  required: boolean;
}

interface RawField {
  t: string;
  d?: string;
  r?: number;
}

interface RawSchema {
  source: string;
  roots: Record<string, string>;
  types: Record<string, { d?: string; f: Record<string, RawField> }>;
}

interface CompiledField {
  type: FieldType;
  typeName: string;
  description: string;
  required: boolean;
}

interface CompiledType {
  description: string;
  fields: Map<string, CompiledField>;
}

const SCALARS = new Set<string>(['string', 'integer', 'boolean', 'IntOrString', 'Quantity', 'Time', 'MicroTime']);

function parseTypeExpression(expression: string): FieldType {
  if (expression.startsWith('[]')) return { kind: 'array', items: parseTypeExpression(expression.slice(2)) };
  if (expression.startsWith('map[string]')) return { kind: 'map', values: parseTypeExpression(expression.slice('map[string]'.length)) };
  if (expression === 'object') return { kind: 'object' };
  if (SCALARS.has(expression)) return { kind: 'scalar', name: expression as ScalarName };
  return { kind: 'ref', name: expression };
}

const raw = schemaFile as unknown as RawSchema;
let compiled: Map<string, CompiledType> | undefined;

/** Built once, on first use: every type's fields in a Map, every type expression parsed. */
function types(): Map<string, CompiledType> {
  if (compiled) return compiled;
  compiled = new Map();
  for (const [name, type] of Object.entries(raw.types)) {
    const fields = new Map<string, CompiledField>();
    for (const [fieldName, field] of Object.entries(type.f)) {
      fields.set(fieldName, { type: parseTypeExpression(field.t), typeName: field.t, description: field.d ?? '', required: field.r === 1 });
    }
    compiled.set(name, { description: type.d ?? '', fields });
  }
  return compiled;
}

/** The schema's provenance, e.g. `kubernetes-types 1.30.0`. */
export const schemaSource: string = raw.source;

/** The API version a kind is served in (`v1` for both core and apps), as decoding errors name it. */
export function servedVersion(kind: ResourceKind): string {
  const module = raw.roots[kind];
  return module ? module.slice(module.indexOf('/') + 1) : 'v1';
}

export function typeDescription(typeName: string): string | undefined {
  return types().get(typeName)?.description;
}

function isIndex(segment: string | number): boolean {
  return typeof segment === 'number' || /^\d+$/.test(segment);
}

/**
 * The schema entry at `path` under a kind. Segments are field names, array indices (numbers or
 * numeric strings) and map keys. An empty path gives the kind itself. Undefined when the path
 * leaves the schema.
 */
export function fieldAt(kind: ResourceKind | string, path: readonly (string | number)[]): FieldInfo | undefined {
  const root = types().get(kind);
  if (!root) return undefined;
  let type: FieldType = { kind: 'ref', name: kind };
  let typeName = kind;
  let description = root.description;
  let required = true;
  let rendered = '';
  for (const segment of path) {
    switch (type.kind) {
      case 'array':
        if (!isIndex(segment)) return undefined;
        rendered += `[${segment}]`;
        type = type.items;
        typeName = typeName.slice(2);
        break;
      case 'map':
        rendered += `[${segment}]`;
        type = type.values;
        typeName = typeName.slice('map[string]'.length);
        break;
      case 'object':
        rendered += rendered ? `.${segment}` : String(segment);
        break;
      case 'ref': {
        const field: CompiledField | undefined = types().get(type.name)?.fields.get(String(segment));
        if (!field) return undefined;
        rendered += rendered ? `.${segment}` : String(segment);
        ({ type, typeName, description, required } = field);
        break;
      }
      case 'scalar':
        return undefined;
    }
  }
  return { path: rendered, description, type, typeName, required };
}

/** The fields of the object at `path` (through arrays and maps), for completion; empty for scalars. */
export function fieldsAt(kind: ResourceKind | string, path: readonly (string | number)[]): ChildField[] {
  const info = fieldAt(kind, path);
  if (!info) return [];
  let type = info.type;
  while (type.kind === 'array' || type.kind === 'map') type = type.kind === 'array' ? type.items : type.values;
  if (type.kind !== 'ref') return [];
  const target = types().get(type.name);
  if (!target) return [];
  return [...target.fields].map(([name, field]) => ({ name, ...field }));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Integer fields that are int64 in the Go types (all others in these kinds are int32). */
const INT64_FIELDS = new Set([
  'activeDeadlineSeconds', 'terminationGracePeriodSeconds', 'deletionGracePeriodSeconds', 'generation', 'observedGeneration',
  'runAsUser', 'runAsGroup', 'fsGroup', 'supplementalGroups', 'tolerationSeconds', 'expirationSeconds', 'gracePeriodSeconds',
]);

function goTypeName(type: FieldType, fieldName: string): string {
  switch (type.kind) {
    case 'scalar':
      switch (type.name) {
        case 'string':
          return 'string';
        case 'boolean':
          return 'bool';
        case 'integer':
          return INT64_FIELDS.has(fieldName) ? 'int64' : 'int32';
        case 'Quantity':
          return 'resource.Quantity';
        case 'IntOrString':
          return 'intstr.IntOrString';
        default:
          return `v1.${type.name}`;
      }
    case 'ref':
      return `v1.${type.name}`;
    case 'array':
      return `[]${goTypeName(type.items, fieldName)}`;
    case 'map':
      return `map[string]${goTypeName(type.values, fieldName)}`;
    case 'object':
      return 'v1.FieldsV1';
  }
}

/** encoding/json's name for a JSON value in an UnmarshalTypeError. */
function jsonKindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'number' ? 'number' : typeof value === 'string' ? 'string' : 'object';
}

/** Why `value` cannot be decoded into `type`, as encoding/json or the type's UnmarshalJSON says; undefined when it can. */
function valueMismatch(value: unknown, type: FieldType): string | 'mismatch' | undefined {
  switch (type.kind) {
    case 'scalar':
      switch (type.name) {
        case 'string':
        case 'Time':
        case 'MicroTime':
          return typeof value === 'string' ? undefined : 'mismatch';
        case 'boolean':
          return typeof value === 'boolean' ? undefined : 'mismatch';
        case 'integer':
          return typeof value === 'number' && Number.isInteger(value) ? undefined : 'mismatch';
        case 'Quantity':
          return typeof value === 'string' || typeof value === 'number' ? parseQuantity(value).error : QUANTITY_FORMAT_ERROR;
        case 'IntOrString':
          return undefined;
      }
      return undefined;
    case 'ref':
    case 'map':
      return isPlainObject(value) ? undefined : 'mismatch';
    case 'array':
      return Array.isArray(value) ? undefined : 'mismatch';
    case 'object':
      return undefined;
  }
}

interface DecodeWalk {
  unknown: string[];
  error?: string;
}

/**
 * One pass in document order, like the API server's JSON decoder: every unknown field (strict
 * decoding errors) and the first value that cannot be decoded (a hard error, reported alone).
 */
function walk(value: unknown, type: FieldType, path: string, fieldStack: string, struct: string, fieldName: string, out: DecodeWalk): void {
  if (value === null || value === undefined) return;
  const mismatch = valueMismatch(value, type);
  if (mismatch !== undefined) {
    if (out.error === undefined) {
      out.error =
        mismatch === 'mismatch'
          ? `json: cannot unmarshal ${type.kind === 'scalar' && type.name === 'integer' && typeof value === 'number' ? `number ${value}` : jsonKindOf(value)} into Go struct field ${struct}.${fieldStack} of type ${goTypeName(type, fieldName)}`
          : mismatch;
    }
    return;
  }
  switch (type.kind) {
    case 'ref': {
      const target = types().get(type.name);
      if (!target) return;
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const childPath = path ? `${path}.${key}` : key;
        const field = target.fields.get(key);
        if (field) walk(record[key], field.type, childPath, fieldStack ? `${fieldStack}.${key}` : key, type.name, key, out);
        else out.unknown.push(childPath);
      }
      return;
    }
    case 'array':
      (value as unknown[]).forEach((item, index) => walk(item, type.items, `${path}[${index}]`, fieldStack, struct, fieldName, out));
      return;
    case 'map': {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) walk(record[key], type.values, `${path}.${key}`, fieldStack, struct, fieldName, out);
      return;
    }
    default:
      return;
  }
}

export interface DecodeInspection {
  /** JSON paths of fields the schema does not know, in document order. */
  unknownFields: string[];
  /** The first value that does not decode (wrong JSON type, malformed quantity): a 400 in every validation mode. */
  error?: string;
}

export function inspectDecoding(kind: ResourceKind | string, object: KubeObject | Record<string, unknown>): DecodeInspection {
  const out: DecodeWalk = { unknown: [] };
  if (types().has(kind)) walk(object, { kind: 'ref', name: kind }, '', '', kind, '', out);
  return { unknownFields: out.unknown, ...(out.error !== undefined ? { error: out.error } : {}) };
}

/**
 * JSON paths of the fields the schema does not know, in document order, as the API server's
 * strict decoder reports them (`spec.replica`, `spec.template.spec.containers[0].imagee`).
 */
export function unknownFields(kind: ResourceKind | string, object: KubeObject | Record<string, unknown>): string[] {
  return inspectDecoding(kind, object).unknownFields;
}

/**
 * The 400 message for unknown fields under `fieldValidation=Strict`:
 * `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"`.
 */
export function strictDecodingMessage(kind: ResourceKind, paths: readonly string[]): string {
  const errors = paths.map((path) => `unknown field "${path}"`).join(', ');
  return decodeFailureMessage(kind, `strict decoding error: ${errors}`);
}

/** `<Kind> in version "<v>" cannot be handled as a <Kind>: <reason>`: every decoding failure's form. */
export function decodeFailureMessage(kind: ResourceKind, reason: string): string {
  return `${kind} in version "${servedVersion(kind)}" cannot be handled as a ${kind}: ${reason}`;
}
