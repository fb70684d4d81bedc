/**
 * Generates src/server/protobuf/descriptors.json: the protobuf messages of the kinds the
 * simulator serves (and DeleteOptions, Scale), with everything they reach, so the API server can
 * decode the `application/vnd.kubernetes.protobuf` bodies kubectl sends.
 *
 * The messages come from the kubectl binary given as argument: every Go binary built with
 * k8s.io/api embeds each generated.proto as a gzipped FileDescriptorProto (gogo's
 * `fileDescriptor_…` byte arrays), with gogo's field options (`nullable`) kept. Which fields are
 * required (Go's JSON writes them even when zero) comes from the `kubernetes-types` package.
 *
 * Run: node --import tsx scripts/gen-protobuf-descriptors.ts /path/to/kubectl
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import ts from 'typescript';
import { SERVED_RESOURCES } from '../src/sim/store/resources';
import { FieldFlag, type DescriptorTable, type FieldEntry } from '../src/server/protobuf/descriptor-table';
import { wireFields, wireString, type WireField } from '../src/server/protobuf/wire';
import { CUSTOM_JSON_MESSAGES } from '../src/server/protobuf/decode';

const binaryPath = process.argv[2];
if (!binaryPath) {
  console.error('usage: node --import tsx scripts/gen-protobuf-descriptors.ts <kubectl binary>');
  process.exit(2);
}

const here = dirname(fileURLToPath(import.meta.url));
const outputPath = resolve(here, '../src/server/protobuf/descriptors.json');
const typesRoot = dirname(createRequire(import.meta.url).resolve('kubernetes-types/package.json'));

/** google.protobuf.FieldDescriptorProto.Type numbers → names. */
const SCALAR_TYPES: Record<number, string> = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  6: 'fixed64',
  7: 'fixed32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
  15: 'sfixed32',
  16: 'sfixed64',
  17: 'sint32',
  18: 'sint64',
};
/** apimachinery types whose Go JSON is not their protobuf fields (MarshalJSON of their own). */
const GO_CUSTOM_JSON = ['Time', 'MicroTime', 'Duration', 'FieldsV1'].map((name) => `k8s.io.apimachinery.pkg.apis.meta.v1.${name}`).concat(
  'k8s.io.apimachinery.pkg.runtime.RawExtension',
  'k8s.io.apimachinery.pkg.api.resource.Quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
);
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const LABEL_REPEATED = 3;
const GOGO_NULLABLE = 65001;
const GOGO_CUSTOMNAME = 65004;

interface ParsedField {
  name: string;
  number: number;
  repeated: boolean;
  type: number;
  typeName: string;
  nullable: boolean;
  /** The Go field name. */
  goName: string;
}

interface ParsedMessage {
  fullName: string;
  fields: ParsedField[];
  mapEntry: boolean;
}

const text = (field: WireField): string => wireString(field.bytes!);
const fieldsOf = (bytes: Uint8Array | undefined): WireField[] => (bytes ? [...wireFields(bytes)] : []);

function parseField(bytes: Uint8Array): ParsedField {
  const field: ParsedField = { name: '', number: 0, repeated: false, type: 0, typeName: '', nullable: true, goName: '' };
  for (const f of fieldsOf(bytes)) {
    if (f.number === 1) field.name = text(f);
    else if (f.number === 3) field.number = Number(f.varint);
    else if (f.number === 4) field.repeated = Number(f.varint) === LABEL_REPEATED;
    else if (f.number === 5) field.type = Number(f.varint);
    else if (f.number === 6) field.typeName = text(f).replace(/^\./, '');
    else if (f.number === 8) {
      for (const option of fieldsOf(f.bytes)) {
        if (option.number === GOGO_NULLABLE) field.nullable = option.varint !== 0n;
        if (option.number === GOGO_CUSTOMNAME) field.goName = text(option);
      }
    }
  }
  return field;
}

function parseMessage(bytes: Uint8Array, scope: string, into: Map<string, ParsedMessage>): void {
  const message: ParsedMessage = { fullName: '', fields: [], mapEntry: false };
  const nested: Uint8Array[] = [];
  for (const f of fieldsOf(bytes)) {
    if (f.number === 1) message.fullName = `${scope}.${text(f)}`;
    else if (f.number === 2) message.fields.push(parseField(f.bytes!));
    else if (f.number === 3) nested.push(f.bytes!);
    else if (f.number === 7) message.mapEntry = fieldsOf(f.bytes).some((option) => option.number === 7 && option.varint === 1n);
  }
  into.set(message.fullName, message);
  for (const inner of nested) parseMessage(inner, message.fullName, into);
}

/** Every gzipped FileDescriptorProto of a k8s.io package found in the binary. */
function embeddedMessages(binary: Buffer): Map<string, ParsedMessage> {
  const messages = new Map<string, ParsedMessage>();
  const gzipMagic = Buffer.from([0x1f, 0x8b, 0x08]);
  for (let at = binary.indexOf(gzipMagic); at >= 0; at = binary.indexOf(gzipMagic, at + 1)) {
    if (binary[at + 3] !== 0) continue; // Go's gzip writer sets no header flags.
    let file: Buffer;
    try {
      file = inflateRawSync(binary.subarray(at + 10, at + 10 + 4_000_000));
    } catch {
      continue;
    }
    try {
      const fields = fieldsOf(file);
      const packageName = fields.find((f) => f.number === 2);
      if (!packageName || !text(packageName).startsWith('k8s.io.')) continue;
      for (const f of fields) if (f.number === 4) parseMessage(f.bytes!, text(packageName), messages);
    } catch {
      continue; // Another gzip stream that happens not to be a descriptor.
    }
  }
  return messages;
}

/** `kubernetes-types` module of a package: k8s.io.api.apps.v1 → apps/v1, meta → meta/v1. */
function typesModule(packageName: string): string | undefined {
  const api = /^k8s\.io\.api\.(\w+)\.(\w+)$/.exec(packageName);
  if (api) return `${api[1]}/${api[2]}`;
  if (packageName === 'k8s.io.apimachinery.pkg.apis.meta.v1') return 'meta/v1';
  return undefined;
}

/** The JSON properties of a type, as its OpenAPI schema (kubernetes-types) has them. */
interface JsonProperties {
  all: Set<string>;
  required: Set<string>;
}

const propertiesCache = new Map<string, Map<string, JsonProperties>>();

function interfacesOf(module: string): Map<string, JsonProperties> {
  const cached = propertiesCache.get(module);
  if (cached) return cached;
  const fileName = join(typesRoot, `${module}.d.ts`);
  const source = ts.createSourceFile(fileName, readFileSync(fileName, 'utf8'), ts.ScriptTarget.Latest, true);
  const result = new Map<string, JsonProperties>();
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const properties: JsonProperties = { all: new Set(), required: new Set() };
    for (const member of statement.members) {
      if (!ts.isPropertySignature(member) || !ts.isIdentifier(member.name)) continue;
      properties.all.add(member.name.text);
      if (!member.questionToken) properties.required.add(member.name.text);
    }
    result.set(statement.name.text, properties);
  }
  propertiesCache.set(module, result);
  return result;
}

function jsonProperties(messageFullName: string): JsonProperties | undefined {
  const dot = messageFullName.lastIndexOf('.');
  const module = typesModule(messageFullName.slice(0, dot));
  return module ? interfacesOf(module).get(messageFullName.slice(dot + 1)) : undefined;
}

/**
 * A Go struct embedded without a JSON name (`VolumeSource \`json:",inline"\``): gogo names the
 * field after its type, and the JSON schema has no property of that name.
 */
function isInline(messageFullName: string, field: ParsedField): boolean {
  if (field.type !== TYPE_MESSAGE || field.goName !== field.typeName.slice(field.typeName.lastIndexOf('.') + 1)) return false;
  const properties = jsonProperties(messageFullName);
  return !!properties && !properties.all.has(field.name);
}

/** The package of a served API group: '' → core, apps → apps, rbac.authorization.k8s.io → rbac. */
function packageOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? 'core' : apiVersion.slice(0, slash).split('.')[0];
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `k8s.io.api.${group}.${version}`;
}

function generate(): DescriptorTable {
  const parsed = embeddedMessages(readFileSync(binaryPath));
  const kinds: Record<string, string> = {};
  for (const info of SERVED_RESOURCES) kinds[`${info.apiVersion} ${info.kind}`] = `${packageOf(info.apiVersion)}.${info.kind}`;
  kinds['autoscaling/v1 Scale'] = 'k8s.io.api.autoscaling.v1.Scale';
  kinds['v1 Binding'] = 'k8s.io.api.core.v1.Binding';
  kinds['authentication.k8s.io/v1 TokenRequest'] = 'k8s.io.api.authentication.v1.TokenRequest';
  // DeleteOptions is registered in every group version; meta.k8s.io/v1 is its own home.
  kinds['meta.k8s.io/v1 DeleteOptions'] = 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions';

  const messages: DescriptorTable['messages'] = {};
  const pending = Object.values(kinds);
  const typeOf = (field: ParsedField): string => {
    if (field.type === TYPE_MESSAGE) {
      pending.push(field.typeName);
      return field.typeName;
    }
    if (field.type === TYPE_ENUM) throw new Error(`enum field ${field.name} (${field.typeName}): Kubernetes APIs use strings`);
    const scalar = SCALAR_TYPES[field.type];
    if (!scalar) throw new Error(`field ${field.name} has unsupported type ${field.type}`);
    return scalar;
  };
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (messages[name]) continue;
    const message = parsed.get(name);
    if (!message) throw new Error(`message ${name} is not embedded in ${binaryPath}`);
    const entries: Record<string, FieldEntry> = {};
    messages[name] = entries;
    for (const field of message.fields) {
      const required = !!jsonProperties(name)?.required.has(field.name);
      const flags = (field.repeated ? FieldFlag.Repeated : 0) | (field.nullable ? 0 : FieldFlag.Value) | (required ? FieldFlag.Required : 0) | (isInline(name, field) ? FieldFlag.Inline : 0);
      const entryMessage = field.type === TYPE_MESSAGE ? parsed.get(field.typeName) : undefined;
      if (entryMessage?.mapEntry) {
        const value = entryMessage.fields.find((f) => f.number === 2)!;
        entries[field.number] = [field.name, 'map', flags & ~FieldFlag.Repeated, typeOf(value)];
      } else {
        entries[field.number] = [field.name, typeOf(field), flags];
      }
    }
  }
  const unhandled = GO_CUSTOM_JSON.filter((name) => messages[name] && !CUSTOM_JSON_MESSAGES.includes(name));
  if (unhandled.length > 0) throw new Error(`the served kinds now reach ${unhandled.join(', ')}: teach src/server/protobuf/decode.ts their JSON form first`);
  const sorted = Object.fromEntries(Object.keys(messages).sort().map((name) => [name, messages[name]]));
  return { source: `FileDescriptorProtos embedded in ${basename(binaryPath)}, by scripts/gen-protobuf-descriptors.ts`, kinds, messages: sorted };
}

let table: DescriptorTable;
try {
  table = generate();
} catch (error) {
  console.error(`gen-protobuf-descriptors: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
// One message per line: diffs stay readable and the file small.
const lines = Object.entries(table.messages).map(([name, fields]) => `    ${JSON.stringify(name)}: ${JSON.stringify(fields)}`);
writeFileSync(outputPath, `{\n  "source": ${JSON.stringify(table.source)},\n  "kinds": ${JSON.stringify(table.kinds, null, 4).replace(/\n}$/, '\n  }')},\n  "messages": {\n${lines.join(',\n')}\n  }\n}\n`);
console.log(`wrote ${Object.keys(table.messages).length} messages for ${Object.keys(table.kinds).length} kinds to ${outputPath}`);
const inlineFields = Object.entries(table.messages).flatMap(([message, fields]) => Object.values(fields).filter(([, , flags]) => flags & FieldFlag.Inline).map(([name]) => `${message}.${name}`));
console.log(`fields inlined as Go embeds them (check against the Go types):\n  ${inlineFields.join('\n  ')}`);
