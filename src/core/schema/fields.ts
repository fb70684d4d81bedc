/**
 * The Kubernetes field schema of the served kinds (generated into kubernetes-schema.json by
 * scripts/gen-schema.ts from the `kubernetes-types` package): field lookup for hovers and
 * completion, and the unknown-field check behind `fieldValidation=Strict`.
 */
import type { KubeObject, ResourceKind } from '../k8s';
import schemaFile from './kubernetes-schema.json';
import { parseQuantity, QUANTITY_FORMAT_ERROR } from './quantity';
import { rfc3339ParseError } from './go-time';

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

/** The fields of a schema type (undefined for names the schema does not have). */
export function schemaTypeFields(name: string): ReadonlyMap<string, { readonly type: FieldType }> | undefined {
  return types().get(name)?.fields;
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

/**
 * Integer fields that are int64 in the Go types; every other integer of the served kinds is an
 * int32. The schema has no formats (kubernetes-types does not keep them), so the int64 ones are
 * listed here by name; test/unit/schema/go-types.test.ts checks the list against the `format` of
 * every integer field in @kubernetes/client-node's models, where no served type has a name that
 * is int32 in one type and int64 in another.
 */
const INT64_FIELDS = new Set([
  'activeDeadlineSeconds', 'terminationGracePeriodSeconds', 'deletionGracePeriodSeconds', 'generation', 'observedGeneration',
  'runAsUser', 'runAsGroup', 'fsGroup', 'supplementalGroups', 'tolerationSeconds', 'expirationSeconds', 'gracePeriodSeconds',
  'startingDeadlineSeconds', 'revision', 'seconds', 'sizeBytes', 'uid', 'gid', 'remainingItemCount',
]);

const INT32_RANGE = 2 ** 31;
const INT64_RANGE = 2 ** 63;

/** The Go type of an integer field: `int32` or `int64`. */
export function goIntegerType(fieldName: string): 'int32' | 'int64' {
  return INT64_FIELDS.has(fieldName) ? 'int64' : 'int32';
}

/** `discovery/v1.EndpointPort` → `EndpointPort`: the Go name of a schema type. */
function bareTypeName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

let packages: Map<string, string> | undefined;

/**
 * The Go package name of each schema type as Go prints it (`v1.NodeSelector`, `v2.MetricSpec`):
 * the version of the API group the type belongs to. The schema does not record modules, so the
 * types reached only from roots of another version than v1 (autoscaling/v2) are that version's;
 * everything shared (ObjectMeta, LabelSelector) is meta/v1's or core/v1's. Built on first error.
 */
function goPackageOf(typeName: string): string {
  if (!packages) {
    const reach = (root: string, into: Set<string>): void => {
      const stack = [root];
      while (stack.length > 0) {
        const name = stack.pop()!;
        if (into.has(name)) continue;
        into.add(name);
        for (const field of types().get(name)?.fields.values() ?? []) {
          let type = field.type;
          while (type.kind === 'array' || type.kind === 'map') type = type.kind === 'array' ? type.items : type.values;
          if (type.kind === 'ref') stack.push(type.name);
        }
      }
    };
    const inV1 = new Set<string>();
    const others = new Map<string, Set<string>>();
    for (const [kind, module] of Object.entries(raw.roots)) {
      const version = module.slice(module.indexOf('/') + 1);
      if (version === 'v1') reach(kind, inV1);
      else {
        const set = others.get(version) ?? new Set<string>();
        reach(kind, set);
        others.set(version, set);
      }
    }
    packages = new Map();
    for (const [version, names] of others) for (const name of names) if (!inV1.has(name)) packages.set(name, version);
  }
  return packages.get(typeName) ?? 'v1';
}

/** The Go type a JSON value is decoded into, as reflect.Type.String() prints it. */
function goTypeName(type: FieldType, fieldName: string): string {
  switch (type.kind) {
    case 'scalar':
      switch (type.name) {
        case 'string':
          return 'string';
        case 'boolean':
          return 'bool';
        case 'integer':
          return goIntegerType(fieldName);
        case 'Quantity':
          return 'resource.Quantity';
        case 'IntOrString':
          return 'intstr.IntOrString';
        default:
          return `v1.${type.name}`;
      }
    case 'ref':
      return `${goPackageOf(type.name)}.${bareTypeName(type.name)}`;
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

/**
 * How a value fails to decode: `type` is an UnmarshalTypeError (encoding/json saves the first and
 * decodes on), `unmarshaler` the error of a type's own UnmarshalJSON (Quantity, IntOrString),
 * which stops decoding at once and so wins over any saved type error.
 */
type Mismatch = { type: string } | { unmarshaler: string };

/** An integer that a Go int32/int64 holds; JSON numbers are decoded from their literal text. */
function fitsInteger(value: number, bits: 'int32' | 'int64'): boolean {
  const range = bits === 'int32' ? INT32_RANGE : INT64_RANGE;
  return Number.isInteger(value) && value >= -range && value < range;
}

/**
 * IntOrString.UnmarshalJSON decodes a non-string with encoding/json into its int32: that error is
 * encoding/json's own UnmarshalTypeError, which sigs.k8s.io/json's decoder does not recognise, so
 * it carries no struct field (`json: cannot unmarshal bool into Go value of type int32`).
 */
function intOrStringMismatch(value: unknown): string | undefined {
  if (typeof value === 'string') return undefined;
  if (typeof value === 'number') return fitsInteger(value, 'int32') ? undefined : `json: cannot unmarshal number ${value} into Go value of type int32`;
  return `json: cannot unmarshal ${jsonKindOf(value)} into Go value of type int32`;
}

/** Why `value` cannot be decoded into `type`, as encoding/json or the type's UnmarshalJSON says; undefined when it can. */
function valueMismatch(value: unknown, type: FieldType, fieldName: string): Mismatch | undefined {
  switch (type.kind) {
    case 'scalar':
      switch (type.name) {
        case 'string':
          return typeof value === 'string' ? undefined : { type: jsonKindOf(value) };
        case 'Time':
        case 'MicroTime': {
          // Time.UnmarshalJSON decodes a string with encoding/json, then time.Parse(RFC3339, …).
          if (typeof value !== 'string') return { unmarshaler: `json: cannot unmarshal ${jsonKindOf(value)} into Go value of type string` };
          const error = type.name === 'Time' ? rfc3339ParseError(value) : undefined;
          return error === undefined ? undefined : { unmarshaler: error };
        }
        case 'boolean':
          return typeof value === 'boolean' ? undefined : { type: jsonKindOf(value) };
        case 'integer':
          if (typeof value !== 'number') return { type: jsonKindOf(value) };
          return fitsInteger(value, goIntegerType(fieldName)) ? undefined : { type: `number ${value}` };
        case 'Quantity': {
          // Quantity.UnmarshalJSON parses whatever JSON text it is given, unquoted.
          const error = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value).error : QUANTITY_FORMAT_ERROR;
          return error === undefined ? undefined : { unmarshaler: error };
        }
        case 'IntOrString': {
          const error = intOrStringMismatch(value);
          return error === undefined ? undefined : { unmarshaler: error };
        }
      }
      return undefined;
    case 'ref':
    case 'map':
      return isPlainObject(value) ? undefined : { type: jsonKindOf(value) };
    case 'array':
      return Array.isArray(value) ? undefined : { type: jsonKindOf(value) };
    case 'object':
      return undefined;
  }
}

interface DecodeWalk {
  unknown: string[];
  /** The first UnmarshalTypeError, and the JSON path of its value. */
  typeError?: { message: string; path: string };
  /** An UnmarshalJSON error: decoding stopped there. */
  stop?: { message: string; path: string };
}

/**
 * One pass in document order, like sigs.k8s.io/json's strict decoder (a fork of encoding/json):
 * every unknown field (strict decoding errors), the first value of a wrong JSON type, and an
 * UnmarshalJSON error, which ends the pass. `fieldStack` is encoding/json's error context: the
 * JSON names of the fields from the root, without list indices or map keys.
 */
function walk(value: unknown, type: FieldType, path: string, fieldStack: string, struct: string, fieldName: string, out: DecodeWalk): void {
  if (value === null || value === undefined || out.stop) return;
  const mismatch = valueMismatch(value, type, fieldName);
  if (mismatch !== undefined) {
    if ('unmarshaler' in mismatch) out.stop = { message: mismatch.unmarshaler, path };
    else out.typeError ??= { message: `json: cannot unmarshal ${mismatch.type} into Go struct field ${bareTypeName(struct)}.${fieldStack} of type ${goTypeName(type, fieldName)}`, path };
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

/**
 * Removes the fields the schema does not know, in place: what decoding into the Go types does to
 * a body accepted under `fieldValidation=Warn` or `Ignore`, so they are never stored.
 */
export function pruneUnknownFields(kind: ResourceKind | string, object: Record<string, unknown>): void {
  const prune = (value: unknown, type: FieldType): void => {
    if (value === null || typeof value !== 'object') return;
    switch (type.kind) {
      case 'ref': {
        const fields = types().get(type.name)?.fields;
        if (!fields || Array.isArray(value)) return;
        const record = value as Record<string, unknown>;
        for (const key of Object.keys(record)) {
          const field = fields.get(key);
          if (field) prune(record[key], field.type);
          else delete record[key];
        }
        return;
      }
      case 'array':
        if (Array.isArray(value)) for (const item of value) prune(item, type.items);
        return;
      case 'map':
        if (!Array.isArray(value)) for (const item of Object.values(value)) prune(item, type.values);
        return;
      default:
        return;
    }
  };
  prune(object, { kind: 'ref', name: kind });
}

/** reflect.Kind of a value decoded from JSON into interface{} (integers as int64, as apimachinery's JSON decoding leaves them). */
function unstructuredKind(value: unknown): string {
  if (Array.isArray(value)) return 'slice';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/**
 * Why runtime.DefaultUnstructuredConverter cannot turn a map into the Go object (apimachinery
 * runtime/converter.go fromUnstructured): what a strategic merge patch's result meets, where
 * create and update meet the JSON decoder. Scalars convert only within their group (an integral
 * float64 becomes an int; reflect wraps an int that does not fit), otherwise `cannot convert
 * int64 to string` or, for kinds reflect cannot convert at all, `unrecognized type: int32`;
 * Quantity and IntOrString go through their UnmarshalJSON. The first failure ends the conversion.
 */
export function unstructuredConversionError(kind: ResourceKind | string, object: Record<string, unknown>): string | undefined {
  const convert = (value: unknown, type: FieldType, fieldName: string): string | undefined => {
    if (value === null || value === undefined) return undefined;
    const from = unstructuredKind(value);
    switch (type.kind) {
      case 'scalar': {
        if (type.name === 'Quantity') return typeof value === 'string' || typeof value === 'number' ? parseQuantity(value).error : QUANTITY_FORMAT_ERROR;
        if (type.name === 'IntOrString') return intOrStringMismatch(value);
        if (type.name === 'Time' || type.name === 'MicroTime') {
          if (typeof value !== 'string') return `json: cannot unmarshal ${jsonKindOf(value)} into Go value of type string`;
          return type.name === 'Time' ? rfc3339ParseError(value) : undefined;
        }
        const to = type.name === 'integer' ? goIntegerType(fieldName) : type.name === 'boolean' ? 'bool' : 'string';
        if (to === 'string') return from === 'string' ? undefined : from === 'int64' ? 'cannot convert int64 to string' : 'unrecognized type: string';
        if (to === 'bool') return from === 'bool' ? undefined : 'unrecognized type: bool';
        if (from === 'int64') return undefined;
        if (from === 'float64') return `cannot convert float64 to ${to}`;
        return `unrecognized type: ${to}`;
      }
      case 'ref': {
        if (from !== 'map') return `cannot restore struct from: ${from}`;
        const fields = types().get(type.name)?.fields;
        const record = value as Record<string, unknown>;
        for (const key of Object.keys(record)) {
          const field = fields?.get(key);
          const error = field ? convert(record[key], field.type, key) : undefined;
          if (error !== undefined) return error;
        }
        return undefined;
      }
      case 'array': {
        if (from !== 'slice') return `cannot restore slice from ${from}`;
        for (const item of value as unknown[]) {
          const error = convert(item, type.items, fieldName);
          if (error !== undefined) return error;
        }
        return undefined;
      }
      case 'map': {
        if (from !== 'map') return `cannot restore map from ${from}`;
        for (const item of Object.values(value as Record<string, unknown>)) {
          const error = convert(item, type.values, fieldName);
          if (error !== undefined) return error;
        }
        return undefined;
      }
      case 'object':
        return undefined;
    }
  };
  return convert(object, { kind: 'ref', name: kind }, '');
}

export interface DecodeInspection {
  /** JSON paths of fields the schema does not know, in document order. */
  unknownFields: string[];
  /** The first value that does not decode (wrong JSON type, malformed quantity): a 400 in every validation mode. */
  error?: string;
  /** Where that value is, in `spec.containers[0].ports[0].containerPort` form (the message omits indices). */
  errorPath?: string;
}

export function inspectDecoding(kind: ResourceKind | string, object: KubeObject | Record<string, unknown>): DecodeInspection {
  const out: DecodeWalk = { unknown: [] };
  if (types().has(kind)) walk(object, { kind: 'ref', name: kind }, '', '', kind, '', out);
  const failure = out.stop ?? out.typeError;
  return { unknownFields: out.unknown, ...(failure ? { error: failure.message, errorPath: failure.path } : {}) };
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
  return strictErrorsMessage(kind, paths.map((path) => `unknown field "${path}"`));
}

/** The same for strict errors of any sort (`duplicate field "spec.paused"`, `unknown field "spec.foo"`), in order. */
export function strictErrorsMessage(kind: ResourceKind, errors: readonly string[]): string {
  return decodeFailureMessage(kind, `strict decoding error: ${errors.join(', ')}`);
}

/** `<Kind> in version "<v>" cannot be handled as a <Kind>: <reason>`: every decoding failure's form. */
export function decodeFailureMessage(kind: ResourceKind, reason: string): string {
  return `${kind} in version "${servedVersion(kind)}" cannot be handled as a ${kind}: ${reason}`;
}
