/**
 * Decodes the `application/vnd.kubernetes.protobuf` request bodies kubectl sends into the JSON a
 * Go client would have sent for the same object: the `k8s\0` magic, a runtime.Unknown envelope
 * naming the kind, then the typed message, read with the field table of descriptors.json.
 *
 * gogo writes every Go value field even when zero, where Go's JSON omits zero `omitempty` fields:
 * zero value fields are dropped unless the API requires them, while pointer fields keep whatever
 * was sent (`replicas: 0`, `automountServiceAccountToken: false`, `storageClassName: ""`).
 */
import descriptors from './descriptors.json';
import { FieldFlag, type DescriptorTable, type FieldEntry } from './descriptor-table';
import { WireError, WireType, packedVarints, wireFields, wireString, type WireField } from './wire';

const table = descriptors as unknown as DescriptorTable;

/** runtime/serializer/protobuf: every protobuf body starts with these bytes. */
const MAGIC = [0x6b, 0x38, 0x73, 0x00];
/** Go's zero time.Time in Unix seconds (0001-01-01T00:00:00Z). */
const GO_ZERO_TIME_SECONDS = -62135596800;

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

export class ProtobufDecodeError extends Error {}

export interface DecodeTarget {
  apiVersion: string;
  kind: string;
}

/** Whether a body starts with the Kubernetes protobuf magic. */
function hasProtobufMagic(bytes: Uint8Array): boolean {
  return MAGIC.every((byte, i) => bytes[i] === byte);
}

/**
 * The object of a Kubernetes protobuf body, with apiVersion and kind from its envelope
 * (`fallback` when the envelope names none).
 */
export function decodeKubernetesProtobuf(bytes: Uint8Array, fallback?: DecodeTarget): Record<string, unknown> {
  if (!hasProtobufMagic(bytes)) {
    throw new ProtobufDecodeError(`provided data does not appear to be a protobuf message, expected prefix [${MAGIC.join(' ')}]`);
  }
  try {
    const envelope = decodeUnknown(bytes.subarray(MAGIC.length));
    if (envelope.contentEncoding) throw new ProtobufDecodeError(`unsupported content encoding "${envelope.contentEncoding}" of a protobuf body`);
    const apiVersion = envelope.apiVersion || fallback?.apiVersion || '';
    const kind = envelope.kind || fallback?.kind || '';
    const messageName = kind === 'DeleteOptions' ? `${META}.DeleteOptions` : table.kinds[`${apiVersion} ${kind}`];
    if (!messageName) throw new ProtobufDecodeError(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
    return { apiVersion, kind, ...decodeMessage(messageName, envelope.raw) };
  } catch (error) {
    if (error instanceof WireError) throw new ProtobufDecodeError(error.message);
    throw error;
  }
}

interface Unknown {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
}

/** runtime.Unknown: 1 typeMeta {1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding, 4 contentType. */
function decodeUnknown(bytes: Uint8Array): Unknown {
  const envelope: Unknown = { apiVersion: '', kind: '', raw: new Uint8Array(), contentEncoding: '' };
  for (const field of wireFields(bytes)) {
    if (field.number === 1) {
      for (const inner of wireFields(lengthDelimited(field, 'TypeMeta'))) {
        if (inner.number === 1) envelope.apiVersion = wireString(lengthDelimited(inner, 'APIVersion'));
        if (inner.number === 2) envelope.kind = wireString(lengthDelimited(inner, 'Kind'));
      }
    } else if (field.number === 2) envelope.raw = lengthDelimited(field, 'Raw');
    else if (field.number === 3) envelope.contentEncoding = wireString(lengthDelimited(field, 'ContentEncoding'));
  }
  return envelope;
}

function lengthDelimited(field: WireField, name: string): Uint8Array {
  if (field.wireType !== WireType.LengthDelimited) throw wrongWireType(field, name);
  return field.bytes!;
}

function wrongWireType(field: WireField, name: string): WireError {
  return new WireError(`proto: wrong wireType = ${field.wireType} for field ${name}`);
}

/** Messages whose Go types marshal to JSON as something other than their fields. */
const SPECIAL_MESSAGES: Record<string, (bytes: Uint8Array) => unknown> = {
  [`${META}.Time`]: (bytes) => formatTime(bytes, false),
  [`${META}.MicroTime`]: (bytes) => formatTime(bytes, true),
  [`${META}.FieldsV1`]: (bytes) => parseJsonField(firstBytesField(bytes), 'FieldsV1'),
  'k8s.io.apimachinery.pkg.runtime.RawExtension': (bytes) => parseJsonField(firstBytesField(bytes), 'RawExtension'),
  'k8s.io.apimachinery.pkg.api.resource.Quantity': (bytes) => (decodeMessage('k8s.io.apimachinery.pkg.api.resource.Quantity', bytes).string as string | undefined) || '0',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': (bytes) => {
    const value = decodeMessage('k8s.io.apimachinery.pkg.util.intstr.IntOrString', bytes);
    return value.type === 1 ? ((value.strVal as string | undefined) ?? '') : ((value.intVal as number | undefined) ?? 0);
  },
};

/** The messages decoded by their Go type's own JSON form rather than field by field. */
export const CUSTOM_JSON_MESSAGES: readonly string[] = Object.keys(SPECIAL_MESSAGES);

function firstBytesField(bytes: Uint8Array): Uint8Array {
  let raw: Uint8Array = new Uint8Array();
  for (const field of wireFields(bytes)) if (field.number === 1) raw = lengthDelimited(field, 'Raw');
  return raw;
}

function parseJsonField(raw: Uint8Array, type: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(wireString(raw));
  } catch {
    throw new WireError(`the ${type} of the protobuf body is not JSON`);
  }
}

/** metav1.Time is RFC 3339 in seconds, MicroTime in microseconds; Go's zero time is omitted. */
function formatTime(bytes: Uint8Array, micro: boolean): string | undefined {
  if (bytes.length === 0) return undefined;
  const { seconds = 0, nanos = 0 } = decodeMessage(`${META}.Time`, bytes) as { seconds?: number; nanos?: number };
  if (seconds === GO_ZERO_TIME_SECONDS && nanos === 0) return undefined;
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) throw new WireError('Time.MarshalJSON: year outside of range [0,9999]');
  const base = date.toISOString().slice(0, 19);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

/** A message's fields as Go's JSON writes them. */
export function decodeMessage(messageName: string, bytes: Uint8Array): Record<string, unknown> {
  const fields = table.messages[messageName];
  if (!fields) throw new WireError(`proto: no descriptor for message ${messageName}`);
  const out: Record<string, unknown> = {};
  for (const field of wireFields(bytes)) {
    const entry = fields[field.number];
    if (!entry) continue;
    const [name, type, flags] = entry;
    if (type === 'map') {
      const map = (out[name] ??= {}) as Record<string, unknown>;
      const [key, value] = decodeMapEntry(lengthDelimited(field, name), (entry as [string, 'map', number, string])[3], name);
      map[key] = value;
    } else if (flags & FieldFlag.Repeated) {
      const list = (out[name] ??= []) as unknown[];
      if (field.wireType === WireType.LengthDelimited && isPackable(type)) list.push(...decodePacked(type, field.bytes!));
      else list.push(decodeValue(type, field, name) ?? null);
    } else if (flags & FieldFlag.Inline) {
      Object.assign(out, decodeMessage(type, lengthDelimited(field, name)));
    } else {
      const value = decodeValue(type, field, name);
      if (value === undefined) delete out[name];
      else out[name] = value;
    }
  }
  dropOmittedZeros(out, fields);
  return out;
}

/** Go's JSON leaves out a zero value field tagged `omitempty`: every one the API does not require. */
function dropOmittedZeros(out: Record<string, unknown>, fields: Record<string, FieldEntry>): void {
  for (const [name, type, flags] of Object.values(fields)) {
    if (!(flags & FieldFlag.Value) || flags & FieldFlag.Required || flags & FieldFlag.Repeated || type === 'map') continue;
    if (!(type in SCALAR_WIRE_TYPES)) continue;
    const value = out[name];
    if (value === '' || value === 0 || value === false) delete out[name];
  }
}

function decodeMapEntry(bytes: Uint8Array, valueType: string, name: string): [string, unknown] {
  let key = '';
  let value: unknown;
  for (const field of wireFields(bytes)) {
    if (field.number === 1) key = wireString(lengthDelimited(field, `${name} key`));
    else if (field.number === 2) value = decodeValue(valueType, field, name);
  }
  return [key, value ?? zeroOf(valueType)];
}

function zeroOf(type: string): unknown {
  if (type === 'string' || type === 'bytes') return '';
  if (type === 'bool') return false;
  if (type in SCALAR_WIRE_TYPES) return 0;
  return SPECIAL_MESSAGES[type] ? SPECIAL_MESSAGES[type](new Uint8Array()) ?? null : {};
}

const SCALAR_WIRE_TYPES: Record<string, number> = {
  double: WireType.Fixed64,
  float: WireType.Fixed32,
  int64: WireType.Varint,
  uint64: WireType.Varint,
  int32: WireType.Varint,
  uint32: WireType.Varint,
  sint32: WireType.Varint,
  sint64: WireType.Varint,
  bool: WireType.Varint,
  fixed64: WireType.Fixed64,
  sfixed64: WireType.Fixed64,
  fixed32: WireType.Fixed32,
  sfixed32: WireType.Fixed32,
  string: WireType.LengthDelimited,
  bytes: WireType.LengthDelimited,
};

function isPackable(type: string): boolean {
  const wireType = SCALAR_WIRE_TYPES[type];
  return wireType !== undefined && wireType !== WireType.LengthDelimited;
}

function decodePacked(type: string, bytes: Uint8Array): unknown[] {
  const wireType = SCALAR_WIRE_TYPES[type];
  if (wireType === WireType.Varint) return [...packedVarints(bytes)].map((varint) => fromVarint(type, varint));
  const size = wireType === WireType.Fixed64 ? 8 : 4;
  if (bytes.length % size !== 0) throw new WireError('unexpected EOF');
  const values: unknown[] = [];
  for (let at = 0; at < bytes.length; at += size) values.push(fromFixed(type, bytes.subarray(at, at + size)));
  return values;
}

function decodeValue(type: string, field: WireField, name: string): unknown {
  const expected = SCALAR_WIRE_TYPES[type] ?? WireType.LengthDelimited;
  if (field.wireType !== expected) throw wrongWireType(field, name);
  if (type === 'string') return wireString(field.bytes!);
  if (type === 'bytes') return Buffer.from(field.bytes!).toString('base64');
  if (expected === WireType.Varint) return fromVarint(type, field.varint!);
  if (expected !== WireType.LengthDelimited) return fromFixed(type, field.bytes!);
  const special = SPECIAL_MESSAGES[type];
  return special ? special(field.bytes!) : decodeMessage(type, field.bytes!);
}

function fromVarint(type: string, varint: bigint): number | boolean {
  switch (type) {
    case 'bool':
      return varint !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, varint));
    case 'uint32':
      return Number(BigInt.asUintN(32, varint));
    case 'sint32':
    case 'sint64':
      return Number((varint >> 1n) ^ -(varint & 1n));
    case 'uint64':
      return Number(varint);
    default:
      return Number(BigInt.asIntN(64, varint));
  }
}

function fromFixed(type: string, bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (type) {
    case 'double':
      return view.getFloat64(0, true);
    case 'float':
      return view.getFloat32(0, true);
    case 'fixed32':
      return view.getUint32(0, true);
    case 'sfixed32':
      return view.getInt32(0, true);
    case 'fixed64':
      return Number(view.getBigUint64(0, true));
    default:
      return Number(view.getBigInt64(0, true));
  }
}
