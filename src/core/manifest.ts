/**
 * Manifest parsing: one YAML file → its Kubernetes documents, each with the line where it starts,
 * the object, and errors placed on the line the user can fix. Used by the CLI, the apply command
 * (diagnostics) and the hover provider, so it keeps the YAML AST for position lookups.
 */
import { LineCounter, parseAllDocuments, isMap, isSeq, isScalar, isPair, type Document, type Node as YamlNode } from 'yaml';
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

export function parseManifest(text: string): ParsedManifest {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [];
  const documents: ManifestDocument[] = [];
  list.forEach((doc, index) => {
    const [startOffset, , endOffset] = doc.range;
    const problems: ManifestProblem[] = [];
    for (const error of [...doc.errors, ...doc.warnings]) {
      const pos = lineCounter.linePos(error.pos[0]);
      problems.push({ line: pos.line, column: pos.col, message: error.message.split('\n')[0] });
    }
    const contentStart = doc.contents?.range?.[0] ?? startOffset;
    let object: KubeObject | undefined;
    if (doc.errors.length === 0 && doc.contents) {
      const value: unknown = doc.toJS({ maxAliasCount: 100 });
      if (value && typeof value === 'object' && !Array.isArray(value)) object = value as KubeObject;
      else if (value !== null && value !== undefined) {
        const pos = lineCounter.linePos(contentStart);
        problems.push({ line: pos.line, column: pos.col, message: 'a Kubernetes manifest document must be a mapping (apiVersion, kind, metadata, …)' });
      }
    }
    const isKubernetes = !!object && typeof object.apiVersion === 'string' && typeof object.kind === 'string';
    if (object && !isKubernetes) {
      const pos = lineCounter.linePos(contentStart);
      const missing = [typeof object.apiVersion === 'string' ? undefined : 'apiVersion', typeof object.kind === 'string' ? undefined : 'kind'].filter(Boolean).join(' and ');
      problems.push({ line: pos.line, column: pos.col, message: `not a Kubernetes object: ${missing} missing` });
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
