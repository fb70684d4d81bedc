/**
 * Generates src/core/schema/kubernetes-schema.json: the field schema of the kinds Kube Journey
 * serves, read from the `.d.ts` files of the `kubernetes-types` package (generated from the
 * Kubernetes OpenAPI, with the official field descriptions as doc comments).
 *
 * Run: node --import tsx scripts/gen-schema.ts
 *
 * Output format (see src/core/schema/schema-types.ts): for every type reachable from the root
 * kinds, its description and its fields, each with a type written as a small expression:
 * `string` | `integer` | `boolean` | `IntOrString` | `Quantity` | `Time` | `MicroTime` |
 * `object` (free-form) | `TypeName` | `[]T` | `map[string]T`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOTS: Record<string, string> = {
  Namespace: 'core/v1',
  Node: 'core/v1',
  Pod: 'core/v1',
  Event: 'core/v1',
  ConfigMap: 'core/v1',
  PersistentVolumeClaim: 'core/v1',
  ReplicationController: 'core/v1',
  Deployment: 'apps/v1',
  ReplicaSet: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  ControllerRevision: 'apps/v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  Secret: 'core/v1',
  ServiceAccount: 'core/v1',
  Service: 'core/v1',
  Endpoints: 'core/v1',
  PersistentVolume: 'core/v1',
  ResourceQuota: 'core/v1',
  LimitRange: 'core/v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  PodDisruptionBudget: 'policy/v1',
  EndpointSlice: 'discovery/v1',
  Ingress: 'networking/v1',
  IngressClass: 'networking/v1',
  NetworkPolicy: 'networking/v1',
  Role: 'rbac/v1',
  RoleBinding: 'rbac/v1',
  ClusterRole: 'rbac/v1',
  ClusterRoleBinding: 'rbac/v1',
  StorageClass: 'storage/v1',
  PriorityClass: 'scheduling/v1',
  Lease: 'coordination/v1',
  CustomResourceDefinition: 'apiextensions/v1',
};

/** Scalar aliases in kubernetes-types that the API treats as strings with a meaning of their own. */
const NAMED_SCALARS = new Set(['Quantity', 'Time', 'MicroTime']);

/**
 * Types decoded as free-form objects: a CRD's JSON schemas (recursive, with unions of schema and
 * boolean or array, and numbers that are not integers) are checked by the CRD's own validation.
 */
const FREE_FORM = new Set(['JSONSchemaProps', 'JSON']);

interface ModuleDecls {
  interfaces: Map<string, ts.InterfaceDeclaration>;
  aliases: Map<string, ts.TypeAliasDeclaration>;
  /** Imported name → module id (e.g. `meta/v1`). */
  imports: Map<string, string>;
}

interface FieldOut {
  t: string;
  d?: string;
  r?: 1;
}

interface TypeOut {
  d?: string;
  f: Record<string, FieldOut>;
}

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = dirname(createRequire(import.meta.url).resolve('kubernetes-types/package.json'));
const outputPath = resolve(here, '../src/core/schema/kubernetes-schema.json');

const modules = new Map<string, ModuleDecls>();

function loadModule(id: string): ModuleDecls {
  const cached = modules.get(id);
  if (cached) return cached;
  const fileName = join(packageRoot, `${id}.d.ts`);
  const source = ts.createSourceFile(fileName, readFileSync(fileName, 'utf8'), ts.ScriptTarget.Latest, true);
  const decls: ModuleDecls = { interfaces: new Map(), aliases: new Map(), imports: new Map() };
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) decls.interfaces.set(statement.name.text, statement);
    else if (ts.isTypeAliasDeclaration(statement)) decls.aliases.set(statement.name.text, statement);
    else if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const target = join(dirname(id), statement.moduleSpecifier.text).replace(/\\/g, '/');
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) decls.imports.set(element.name.text, target);
      }
    }
  }
  modules.set(id, decls);
  return decls;
}

function docOf(node: ts.Node): string | undefined {
  const parts = ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
    .filter((text) => text.length > 0);
  return parts.length > 0 ? parts.join('\n').trim() : undefined;
}

/** Where a type name used in module `id` is declared. */
function resolveName(id: string, name: string): { module: string; interface?: ts.InterfaceDeclaration; alias?: ts.TypeAliasDeclaration } {
  const decls = loadModule(id);
  if (decls.interfaces.has(name)) return { module: id, interface: decls.interfaces.get(name) };
  if (decls.aliases.has(name)) return { module: id, alias: decls.aliases.get(name) };
  const imported = decls.imports.get(name);
  if (imported) return resolveName(imported, name);
  throw new Error(`cannot resolve type ${name} from ${id}`);
}

const types: Record<string, TypeOut> = {};
/**
 * Schema key of each (module, type name). Groups reuse names for different types (core/v1 and
 * discovery/v1 both declare `EndpointPort`): the first module to reach a name keeps it plain,
 * later ones are qualified as `discovery/v1.EndpointPort`.
 */
const keys = new Map<string, string>();
const claimedNames = new Set<string>();
const pending: { module: string; name: string; key: string }[] = [];

function requireType(module: string, name: string): string {
  const id = `${module}.${name}`;
  const known = keys.get(id);
  if (known !== undefined) return known;
  const key = claimedNames.has(name) ? id : name;
  claimedNames.add(name);
  keys.set(id, key);
  pending.push({ module, name, key });
  return key;
}

function typeExpression(module: string, node: ts.TypeNode): string {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return 'string';
    case ts.SyntaxKind.NumberKeyword:
      // Every number in these API groups is an int32 or int64.
      return 'integer';
    case ts.SyntaxKind.BooleanKeyword:
      return 'boolean';
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.UnknownKeyword:
      return 'object';
  }
  if (ts.isLiteralTypeNode(node)) return ts.isStringLiteral(node.literal) ? 'string' : 'object';
  if (ts.isParenthesizedTypeNode(node)) return typeExpression(module, node.type);
  if (ts.isUnionTypeNode(node)) {
    const members = node.types.map((member) => typeExpression(module, member));
    const distinct = [...new Set(members)].sort();
    if (distinct.length === 1) return distinct[0];
    if (distinct.join('|') === 'integer|string') return 'IntOrString';
    throw new Error(`unsupported union ${node.getText()}`);
  }
  if (ts.isArrayTypeNode(node)) return `[]${typeExpression(module, node.elementType)}`;
  if (ts.isTypeLiteralNode(node)) {
    const index = node.members.find(ts.isIndexSignatureDeclaration);
    if (index && node.members.length === 1) return `map[string]${typeExpression(module, index.type)}`;
    throw new Error(`unsupported inline object type ${node.getText()}`);
  }
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText();
    if (name === 'Array' && node.typeArguments?.length === 1) return `[]${typeExpression(module, node.typeArguments[0])}`;
    if (name === 'Record' && node.typeArguments?.length === 2) return `map[string]${typeExpression(module, node.typeArguments[1])}`;
    if (NAMED_SCALARS.has(name)) return name;
    if (FREE_FORM.has(name)) return 'object';
    const target = resolveName(module, name);
    if (target.alias) return typeExpression(target.module, target.alias.type);
    if (target.interface && target.interface.members.length === 0) return 'object';
    return requireType(target.module, name);
  }
  throw new Error(`unsupported type node ${ts.SyntaxKind[node.kind]}: ${node.getText()}`);
}

function emitType(module: string, name: string, key: string): void {
  const declaration = resolveName(module, name).interface;
  if (!declaration) throw new Error(`${name} in ${module} is not an interface`);
  const fields: Record<string, FieldOut> = {};
  for (const member of declaration.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const fieldName = member.name.getText().replace(/^["']|["']$/g, '');
    const field: FieldOut = { t: typeExpression(module, member.type) };
    const description = docOf(member);
    if (description) field.d = description;
    if (!member.questionToken) field.r = 1;
    fields[fieldName] = field;
  }
  const out: TypeOut = { f: fields };
  const description = docOf(declaration);
  if (description) out.d = description;
  types[key] = out;
}

/** One type per line: compact, yet a regenerated file diffs readably. */
function serialize(schema: { source: string; roots: Record<string, string>; types: Record<string, TypeOut> }): string {
  const typeLines = Object.entries(schema.types).map(([name, type]) => `${JSON.stringify(name)}:${JSON.stringify(type)}`);
  return `{"source":${JSON.stringify(schema.source)},\n"roots":${JSON.stringify(schema.roots)},\n"types":{\n${typeLines.join(',\n')}\n}}\n`;
}

function generate(): void {
  // core/v1 first, each root drained before the next: core types keep their plain names.
  const coreFirst = Object.entries(ROOTS).sort(([, a], [, b]) => Number(b === 'core/v1') - Number(a === 'core/v1'));
  for (const [kind, module] of coreFirst) {
    requireType(module, kind);
    while (pending.length > 0) {
      const next = pending.shift()!;
      emitType(next.module, next.name, next.key);
    }
  }
  const sorted: Record<string, TypeOut> = {};
  for (const name of Object.keys(types).sort()) sorted[name] = types[name];
  const version = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const schema = { source: `kubernetes-types ${version}`, roots: ROOTS, types: sorted };
  writeFileSync(outputPath, serialize(schema));
  const size = Buffer.byteLength(JSON.stringify(schema));
  console.log(`wrote ${outputPath}: ${Object.keys(sorted).length} types, ${(size / 1024).toFixed(0)} KiB`);
}

generate();
