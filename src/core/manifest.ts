/**
 * Manifest parsing: one YAML file → its Kubernetes documents, each with the line where it starts,
 * the object, and errors placed on the line the user can fix. Used by the CLI, the apply command
 * (diagnostics) and the hover provider, so it keeps the YAML AST for position lookups.
 */
import { LineCounter, parseAllDocuments, parseDocument, isAlias, isCollection, isMap, isSeq, isScalar, isPair, visit, type Document, type Node as YamlNode } from 'yaml';
import type { KubeObject } from './k8s';

export interface ManifestProblem {
  /** 1-based line and column. */
  line: number;
  column: number;
  message: string;
}

export interface ManifestDocument {
  /** Position of the document in the file, 0-based, counting empty documents too. */
  index: number;
  /** 1-based first and last line of the document's content. */
  startLine: number;
  endLine: number;
  /** Character offsets of the document's content in the file. */
  startOffset: number;
  endOffset: number;
  /** The parsed object, when the document is valid YAML holding a mapping. */
  object?: KubeObject;
  problems: ManifestProblem[];
  /** Whether this looks like a Kubernetes object (has apiVersion and kind). */
  isKubernetes: boolean;
  /** @internal the YAML AST, for field lookups. */
  readonly ast: Document.Parsed;
}

export interface ParsedManifest {
  documents: ManifestDocument[];
  lineCounter: LineCounter;
}

/**
 * The most copies of an anchored node a document may make through aliases (the yaml library's
 * default). A "billion laughs" document nests aliases of aliases to expand a few lines into
 * gigabytes; past this count the document is refused instead.
 */
export const MAX_ALIAS_COUNT = 100;

const NOT_A_MAPPING = 'a Kubernetes manifest document must be a mapping (apiVersion, kind, metadata, …)';
const COLLECTION_KEY = 'invalid map key: a key must be a string, not a sequence or a mapping';

/**
 * Parses every document of `text`. Never throws: every problem, whatever the YAML library or
 * the conversion to objects reports, becomes a `ManifestProblem` on a line of `text`.
 */
export function parseManifest(text: string): ParsedManifest {
  const lineCounter = new LineCounter();
  let docs: Document.Parsed[];
  try {
    // logLevel 'error': problems are reported here, not as process warnings on stderr.
    docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: 'error' }) as Document.Parsed[];
  } catch (error) {
    // Only a pathological input gets here (nesting deep enough to exhaust the stack).
    return { documents: [unparsableFile(text, error)], lineCounter: countLines(text) };
  }
  const list = Array.isArray(docs) ? docs : [];
  const documents: ManifestDocument[] = [];
  list.forEach((doc, index) => {
    const [startOffset, , endOffset] = doc.range;
    const problems: ManifestProblem[] = [];
    const at = (offset: number, message: string): ManifestProblem => {
      const pos = lineCounter.linePos(offset);
      return { line: pos.line, column: pos.col, message };
    };
    for (const error of [...doc.errors, ...doc.warnings]) {
      const { offset, message } = placeYamlError(text, error.pos[0], error.message.split('\n')[0]);
      problems.push(at(offset, message));
    }
    const contentStart = doc.contents?.range?.[0] ?? startOffset;
    let object: KubeObject | undefined;
    const collectionKey = doc.errors.length === 0 ? collectionKeyOffset(doc) : undefined;
    if (collectionKey !== undefined) problems.push(at(collectionKey, COLLECTION_KEY));
    else if (doc.errors.length === 0 && doc.contents) {
      const converted = toObject(doc);
      if ('problem' in converted) problems.push(at(converted.problem.offset ?? contentStart, converted.problem.message));
      else if (converted.value && typeof converted.value === 'object' && !Array.isArray(converted.value)) object = converted.value as KubeObject;
      else if (converted.value !== null && converted.value !== undefined) problems.push(at(contentStart, NOT_A_MAPPING));
    }
    const isKubernetes = !!object && typeof object.apiVersion === 'string' && typeof object.kind === 'string';
    if (object && !isKubernetes) {
      const missing = [typeof object.apiVersion === 'string' ? undefined : 'apiVersion', typeof object.kind === 'string' ? undefined : 'kind'].filter(Boolean).join(' and ');
      problems.push(at(contentStart, `not a Kubernetes object: ${missing} missing`));
    }
    const emptyDoc = !doc.contents || (isScalar(doc.contents) && doc.contents.value === null);
    if (emptyDoc && doc.errors.length === 0) return;
    documents.push({
      index,
      startLine: lineCounter.linePos(contentStart).line,
      endLine: lineCounter.linePos(Math.max(contentStart, endOffset - 1)).line,
      startOffset: contentStart,
      endOffset,
      object,
      problems,
      isKubernetes,
      ast: doc,
    });
  });
  return { documents, lineCounter };
}

/** The first mapping key that is a sequence or a mapping, which JSON (and so the API) cannot hold. */
function collectionKeyOffset(doc: Document.Parsed): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Pair(_key, pair) {
      if (!isCollection(pair.key)) return undefined;
      found = pair.key.range?.[0];
      return visit.BREAK;
    },
  });
  return found;
}

const DEEP_NESTING = 'the YAML nests too deeply to be read';

/**
 * Where and how to show one of the yaml library's errors. It places an unterminated quoted
 * scalar where the closing quote was expected, often the end of the file: the opening quote,
 * the last one before that place that follows a space or an indicator, is where to fix it.
 */
function placeYamlError(text: string, offset: number, message: string): { offset: number; message: string } {
  if (/Maximum call stack/.test(message)) return { offset, message: DEEP_NESTING };
  const quote = /^Missing closing (["'])quote/.exec(message)?.[1];
  if (!quote) return { offset, message };
  for (let i = Math.min(offset, text.length) - 1; i >= 0; i--) {
    if (text[i] === quote && (i === 0 || /[\s:,[{\-?]/.test(text[i - 1]))) return { offset: i, message: `${message}: the quoted scalar that starts here is never closed` };
  }
  return { offset, message };
}

interface ConversionProblem {
  /** Where in the file, when known; otherwise the document's start. */
  offset?: number;
  message: string;
}

/** The document as plain data, or why it cannot be converted (an alias bomb, nesting too deep). */
function toObject(doc: Document.Parsed): { value: unknown } | { problem: ConversionProblem } {
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/alias count/i.test(message)) {
      return { problem: { offset: excessiveAliasOffset(doc), message: `${message}: aliases here expand to more than ${MAX_ALIAS_COUNT} copies of an anchored node` } };
    }
    return { problem: { message: conversionMessage(error) } };
  }
}

function conversionMessage(error: unknown): string {
  if (error instanceof RangeError) return DEEP_NESTING;
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}

/**
 * The offset of the alias at which the yaml library gives up, found by counting as it does
 * (`Alias.resolve`): each alias of an anchor adds the anchor's own expansion, and an anchor's
 * expansion is the largest one among the aliases it contains. Aliases are met in document
 * order, as the conversion meets them.
 */
function excessiveAliasOffset(doc: Document.Parsed): number | undefined {
  const uses = new Map<YamlNode, { count: number; aliasCount: number }>();
  const aliasCount = (node: unknown): number => {
    if (isAlias(node)) {
      const data = uses.get(node.resolve(doc) as YamlNode);
      return data ? data.count * data.aliasCount : 0;
    }
    if (isCollection(node)) return node.items.reduce<number>((most, item) => Math.max(most, aliasCount(item)), 0);
    if (isPair(node)) return Math.max(aliasCount(node.key), aliasCount(node.value));
    return 1;
  };
  let found: number | undefined;
  let first: number | undefined;
  visit(doc, {
    Alias(_key, alias) {
      first ??= alias.range?.[0];
      const source = alias.resolve(doc) as YamlNode | undefined;
      if (!source) return undefined;
      let data = uses.get(source);
      if (!data) uses.set(source, (data = { count: 0, aliasCount: 0 }));
      data.count += 1;
      if (data.aliasCount === 0) data.aliasCount = aliasCount(source);
      if (data.count * data.aliasCount > MAX_ALIAS_COUNT) {
        found = alias.range?.[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found ?? first;
}

function countLines(text: string): LineCounter {
  const lineCounter = new LineCounter();
  lineCounter.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
  return lineCounter;
}

/** The whole file as one document with one problem, when the YAML library could not parse it at all. */
function unparsableFile(text: string, error: unknown): ManifestDocument {
  return {
    index: 0,
    startLine: 1,
    endLine: countLines(text).lineStarts.length,
    startOffset: 0,
    endOffset: text.length,
    problems: [{ line: 1, column: 1, message: conversionMessage(error) }],
    isKubernetes: false,
    ast: parseDocument(''),
  };
}

/**
 * The 1-based line of a field path inside a document (`spec.template.spec.containers[0].image`),
 * or of its nearest existing parent, so that a server error about a field lands on that line.
 */
export function lineOfField(manifest: ParsedManifest, document: ManifestDocument, fieldPath: string): number {
  const segments = fieldPath.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== '');
  let node: unknown = document.ast.contents;
  let offset = document.startOffset;
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === segment);
      if (!pair || !isPair(pair)) break;
      offset = (pair.key as YamlNode).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(segment)) {
      const item = node.items[Number(segment)] as YamlNode | undefined;
      if (!item) break;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else break;
  }
  return manifest.lineCounter.linePos(offset).line;
}

/** The path of keys leading to the character at `offset` (for hovers), or undefined outside any key. */
export function fieldPathAt(document: ManifestDocument, offset: number): { path: (string | number)[]; onKey: boolean } | undefined {
  const path: (string | number)[] = [];
  let node: unknown = document.ast.contents;
  for (;;) {
    if (isMap(node)) {
      const pair = node.items.find((item) => {
        const start = (item.key as YamlNode | null)?.range?.[0] ?? Infinity;
        const end = (item.value as YamlNode | null)?.range?.[2] ?? (item.key as YamlNode | null)?.range?.[2] ?? -1;
        return offset >= start && offset <= end;
      });
      if (!pair || !isScalar(pair.key)) return path.length > 0 ? { path, onKey: false } : undefined;
      path.push(String(pair.key.value));
      const keyRange = pair.key.range;
      if (keyRange && offset >= keyRange[0] && offset <= keyRange[1]) return { path, onKey: true };
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => {
        const range = (item as YamlNode | null)?.range;
        return !!range && offset >= range[0] && offset <= range[2];
      });
      if (index < 0) return { path, onKey: false };
      path.push(index);
      node = node.items[index];
    } else {
      return path.length > 0 ? { path, onKey: false } : undefined;
    }
  }
}
