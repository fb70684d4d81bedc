/**
 * A fit suggestion's edits (`set`, `add`, `remove`, `create`: src/core/journey/fit-suggestions.ts)
 * made to the manifest's text, as a Quick Fix makes them: each edit changes only the characters of
 * the field it is about, found through the `yaml` AST's source ranges, so comments, quoting, key
 * order, flow maps and the other documents of the file stay as they were. New fields follow the
 * indentation of their siblings; a missing claim becomes a new document at the end of the file.
 */
import { isCollection, isMap, isPair, isScalar, isSeq, stringify, type Node as YamlNode, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { fieldSegments, type FitEdit, type FitSuggestion, type FitTarget } from '../../core/journey/fit-suggestions';
import type { KubeObject } from '../../core/k8s';
import { lineOfField, parseManifest, type ManifestDocument, type ParsedManifest } from '../../core/manifest';

/** Replace `text.slice(start, end)` with `text`: one edit of the file, in character offsets. */
export interface TextChange {
  start: number;
  end: number;
  text: string;
}

type Segment = string | number;

/** Where a target object sits in a parsed file: its document and the path prefix of the object in it (`items[1].` in a List). */
export interface TargetPlace {
  document: ManifestDocument;
  prefix: Segment[];
}

class EditProblem extends Error {}

function sameObject(object: KubeObject | undefined, target: FitTarget): boolean {
  if (!object || object.kind !== target.kind || object.metadata?.name !== target.name) return false;
  const namespace = object.metadata?.namespace;
  return namespace === undefined || namespace === target.namespace;
}

/** The document (or List item) of `target` in the file, the first one when several match. */
export function findTarget(manifest: ParsedManifest, target: FitTarget): TargetPlace | undefined {
  for (const document of manifest.documents) {
    if (sameObject(document.object, target)) return { document, prefix: [] };
    const items = document.object?.kind?.endsWith('List') ? (document.object as { items?: unknown }).items : undefined;
    if (!Array.isArray(items)) continue;
    const index = items.findIndex((item) => sameObject(item as KubeObject, target));
    if (index >= 0) return { document, prefix: ['items', index] };
  }
  return undefined;
}

/** The 1-based line of a suggestion's field in the file (the nearest existing parent's line for a field still missing). */
export function suggestionLine(manifest: ParsedManifest, suggestion: FitSuggestion): number | undefined {
  const place = suggestion.target && findTarget(manifest, suggestion.target);
  if (!place) return undefined;
  if (!suggestion.path) return place.document.startLine;
  const prefix = place.prefix.length > 0 ? `items[${place.prefix[1] as number}].` : '';
  return lineOfField(manifest, place.document, `${prefix}${suggestion.path}`);
}

/** The text after one change. */
export function applyChange(text: string, change: TextChange): string {
  return text.slice(0, change.start) + change.text + text.slice(change.end);
}

/** The one change that turns `before` into `after` (common start and end left out). */
export function changeBetween(before: string, after: string): TextChange {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before[start] === after[start]) start++;
  let end = 0;
  while (end < shorter - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { start, end: before.length - end, text: after.slice(start, after.length - end) };
}

export type FitTextResult = { change: TextChange; text: string } | { unchanged: true } | { problem: string };

/**
 * The change of the file's text that makes `suggestion`'s edits, or `unchanged` when the file
 * already says what they would write (a Quick Fix taken before), or why it cannot be made
 * (the target object is not in this file, a path that runs into a scalar).
 */
export function fitSuggestionChange(text: string, suggestion: Pick<FitSuggestion, 'target' | 'edits'>): FitTextResult {
  let current = text;
  try {
    for (const edit of suggestion.edits) current = applyEditToText(current, suggestion.target, edit);
  } catch (error) {
    if (error instanceof EditProblem) return { problem: error.message };
    throw error;
  }
  if (current === text) return { unchanged: true };
  return { change: changeBetween(text, current), text: current };
}

function applyEditToText(text: string, target: FitTarget | undefined, edit: FitEdit): string {
  const manifest = parseManifest(text);
  if (edit.op === 'create') return createDocument(text, manifest, target, edit.object);
  if (!target) throw new EditProblem('the suggestion names no object to edit');
  const place = findTarget(manifest, target);
  if (!place) throw new EditProblem(`${target.kind} ${target.name} is not in this file`);
  if (place.document.problems.length > 0) throw new EditProblem(`the document of ${target.kind} ${target.name} has a YAML problem on line ${place.document.problems[0].line}`);
  const editor = new YamlTextEditor(text, place.document);
  const segments = [...place.prefix, ...fieldSegments(edit.path)];
  const change = edit.op === 'set' ? editor.set(segments, edit.value) : edit.op === 'add' ? editor.add(segments, edit.value) : editor.remove(segments);
  return change ? applyChange(text, change) : text;
}

/** A new document at the end of the file, in the namespace its target's document names (a claim lives beside its pod). */
function createDocument(text: string, manifest: ParsedManifest, target: FitTarget | undefined, object: KubeObject): string {
  const exists = manifest.documents.some((document) => document.object?.kind === object.kind && document.object?.metadata?.name === object.metadata?.name);
  if (exists) return text;
  const targetNamespace = target && findTarget(manifest, target)?.document.object?.metadata?.namespace;
  const created = targetNamespace && !object.metadata?.namespace ? { ...object, metadata: { ...object.metadata, namespace: targetNamespace } } : object;
  const separator = text.length === 0 || text.endsWith('\n') ? '' : '\n';
  const indentSeq = detectIndentSeq(text, manifest.documents[0]);
  return `${text}${separator}---\n${stringify(created, { indent: 2, indentSeq, lineWidth: 0 })}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmptyCollection(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

function isScalarValue(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

/** `a`, `[0, b]` → `{a: …}`, `[{b: …}]`: the value of the missing part of a path. */
function nested(segments: readonly Segment[], value: unknown): unknown {
  let out = value;
  for (let i = segments.length - 1; i >= 0; i--) out = typeof segments[i] === 'number' ? [out] : { [segments[i]]: out };
  return out;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether the file writes block sequences indented under their key (`key:\n  - a`) or level with
 * it (`key:\n- a`), from the first one the document has (indented when it has none).
 */
function detectIndentSeq(text: string, document: ManifestDocument | undefined): boolean {
  let found: boolean | undefined;
  const visit = (node: unknown, keyColumn: number | undefined): void => {
    if (found !== undefined) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        if (key?.range) visit(pair.value, columnOf(text, key.range[0]));
      }
    } else if (isSeq(node)) {
      const first = node.items[0] as YamlNode | undefined;
      if (!node.flow && keyColumn !== undefined && first?.range) {
        const dash = dashBefore(text, first.range[0]);
        if (dash !== undefined) found = columnOf(text, dash) > keyColumn;
      }
      for (const item of node.items) visit(item, undefined);
    }
  };
  visit(document?.ast.contents, undefined);
  return found ?? true;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just past the end of the line holding `offset` (its newline included), or the text's end. */
function nextLineStart(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

function columnOf(text: string, offset: number): number {
  return offset - lineStart(text, offset);
}

/** The `-` of the block sequence item that starts at `offset`. */
function dashBefore(text: string, offset: number): number | undefined {
  for (let i = offset - 1; i >= lineStart(text, offset); i--) {
    if (text[i] === '-') return i;
  }
  return undefined;
}

/** Where a node's value ends: a block collection's range runs on over the line breaks after it. */
function endOf(text: string, node: YamlNode | null | undefined, fallback: number): number {
  const range = node?.range;
  if (!range) return fallback;
  let end = range[1];
  while (end > range[0] && /\s/.test(text[end - 1])) end--;
  return end;
}

/** The edits of one document, as text changes of the whole file. */
class YamlTextEditor {
  private readonly indentSeq: boolean;

  constructor(
    private readonly text: string,
    private readonly document: ManifestDocument,
  ) {
    this.indentSeq = detectIndentSeq(text, document);
  }

  set(segments: readonly Segment[], value: unknown): TextChange | undefined {
    let node: unknown = this.document.ast.contents;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i];
      const rest = segments.slice(i + 1);
      if (isMap(node) && typeof segment === 'string') {
        const pair = this.pairOf(node, segment);
        if (!pair) return this.insertPair(node, String(segment), nested(rest, value));
        if (rest.length === 0) return this.replaceValue(node, pair, value);
        if (!isCollection(pair.value)) return this.replaceValue(node, pair, nested(rest, value));
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        if (segment === node.items.length) return this.appendItem(node, nested(rest, value));
        const item = node.items[segment];
        if (item === undefined) throw new EditProblem(`item ${segment} of ${this.pathText(segments.slice(0, i))} does not exist`);
        if (rest.length === 0 || !isCollection(item)) throw new EditProblem(`cannot replace item ${segment} of ${this.pathText(segments.slice(0, i))}`);
        node = item;
      } else {
        throw new EditProblem(`${this.pathText(segments.slice(0, i))} is not a ${typeof segment === 'number' ? 'list' : 'map'}`);
      }
    }
    throw new EditProblem('an empty path');
  }

  add(segments: readonly Segment[], value: unknown): TextChange | undefined {
    const list = this.nodeAt(segments);
    if (list === undefined || (isScalar(list) && list.value === null)) return this.set(segments, [value]);
    if (!isSeq(list)) throw new EditProblem(`${this.pathText(segments)} is not a list`);
    // Taken already (a Quick Fix applied twice): nothing to add.
    if (list.items.some((item) => sameValue(isCollection(item) || isScalar(item) ? item.toJSON() : item, value))) return undefined;
    return this.appendItem(list, value);
  }

  remove(segments: readonly Segment[]): TextChange | undefined {
    const parentPath = segments.slice(0, -1);
    const last = segments[segments.length - 1];
    const parent = this.nodeAt(parentPath);
    if (isMap(parent)) {
      const pair = this.pairOf(parent, last);
      if (!pair) return undefined;
      if (parent.items.length === 1) return this.set(parentPath, {});
      return this.removeEntry(parent, parent.items.indexOf(pair), (pair.key as YamlNode).range![0], endOf(this.text, pair.value as YamlNode, (pair.key as YamlNode).range![1]));
    }
    if (isSeq(parent) && typeof last === 'number') {
      const item = parent.items[last] as YamlNode | undefined;
      if (!item?.range) return undefined;
      if (parent.items.length === 1) return this.set(parentPath, []);
      const start = parent.flow ? item.range[0] : (dashBefore(this.text, item.range[0]) ?? item.range[0]);
      return this.removeEntry(parent, last, start, endOf(this.text, item, item.range[1]));
    }
    return undefined;
  }

  private pairOf(map: YAMLMap, key: Segment): Pair | undefined {
    return map.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(key));
  }

  private nodeAt(segments: readonly Segment[]): unknown {
    let node: unknown = this.document.ast.contents;
    for (const segment of segments) {
      if (isMap(node)) node = this.pairOf(node, segment)?.value ?? undefined;
      else if (isSeq(node) && typeof segment === 'number') node = node.items[segment];
      else return undefined;
      if (node === undefined || node === null) return undefined;
    }
    return node;
  }

  private pathText(segments: readonly Segment[]): string {
    return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('') || 'the document';
  }

  /** The entry `index` of a collection, from `start` to `end`, cut out with its line (block) or its comma (flow). */
  private removeEntry(parent: YAMLMap | YAMLSeq, index: number, start: number, end: number): TextChange {
    const starts = parent.items.map((item) => ((isPair(item) ? item.key : item) as YamlNode).range![0]);
    if (parent.flow) {
      if (index + 1 < parent.items.length) return { start, end: starts[index + 1], text: '' };
      const previous = parent.items[index - 1];
      const previousEnd = endOf(this.text, (isPair(previous) ? (previous.value ?? previous.key) : previous) as YamlNode, start);
      return { start: previousEnd, end, text: '' };
    }
    const from = lineStart(this.text, start);
    // A map entry sharing its line with the `- ` of its list item: the next key moves up onto it.
    if (this.text.slice(from, start).trim() !== '' && index + 1 < starts.length) return { start, end: starts[index + 1], text: '' };
    return { start: from, end: nextLineStart(this.text, Math.max(start, end - 1)), text: '' };
  }

  private replaceValue(map: YAMLMap, pair: Pair, value: unknown): TextChange | undefined {
    const old = pair.value as YamlNode | null;
    if (old && isScalar(old) && old.range && old.value !== null && isScalarValue(value)) {
      if (old.value === value || (typeof value !== 'string' && String(old.value) === String(value) && typeof old.value === typeof value)) return undefined;
      return { start: old.range[0], end: old.range[1], text: this.scalarText(value, old) };
    }
    // A whole map over a map (a nodeSelector): each key set or removed, so its comments stay.
    if (old && isMap(old) && isPlainObject(value)) return this.mergeMap(pair, old, value);
    if (old && isCollection(old) && sameValue(old.toJSON(), value)) return undefined;
    const key = pair.key as YamlNode;
    const colon = this.text.indexOf(':', key.range![1]);
    const oldEnd = old?.range && (old.range[1] > colon || isCollection(old)) ? endOf(this.text, old, colon + 1) : colon + 1;
    if (map.flow || isScalarValue(value) || isEmptyCollection(value)) return { start: colon + 1, end: oldEnd, text: ` ${this.flowText(value)}` };
    const indent = ' '.repeat(columnOf(this.text, key.range![0]));
    const block = this.blockText(value, `${indent}  `, Array.isArray(value) && !this.indentSeq ? indent : `${indent}  `);
    // An empty value: the block goes under the key's line (after any comment on it).
    if (!old?.range || old.range[1] <= old.range[0]) {
      const at = nextLineStart(this.text, colon);
      const newline = at === this.text.length && !this.text.endsWith('\n') ? '\n' : '';
      return { start: at, end: at, text: `${newline}${block}` };
    }
    return { start: colon + 1, end: oldEnd, text: `\n${block.replace(/\n$/, '')}` };
  }

  private mergeMap(pair: Pair, old: YAMLMap, value: Record<string, unknown>): TextChange | undefined {
    const oldKeys = old.items.map((item) => String((item.key as Scalar).value));
    const changes: { segments: Segment[]; value?: unknown; remove?: true }[] = [];
    for (const [key, next] of Object.entries(value)) changes.push({ segments: [key], value: next });
    for (const key of oldKeys) if (!(key in value)) changes.push({ segments: [key], remove: true });
    // Each change is made on the text the previous one left: one combined change is returned.
    const path = this.pathOf(pair);
    let text = this.text;
    for (const change of changes) {
      const manifest = parseManifest(text);
      const document = manifest.documents.find((d) => d.index === this.document.index);
      if (!document) throw new EditProblem('the document went away');
      const editor = new YamlTextEditor(text, document);
      const made = change.remove ? editor.remove([...path, ...change.segments]) : editor.set([...path, ...change.segments], change.value);
      if (made) text = applyChange(text, made);
    }
    return text === this.text ? undefined : changeBetween(this.text, text);
  }

  /** The path of `pair` in the document, found by walking down to it. */
  private pathOf(target: Pair): Segment[] {
    const walk = (node: unknown, path: Segment[]): Segment[] | undefined => {
      if (isMap(node)) {
        for (const pair of node.items) {
          const here = [...path, String((pair.key as Scalar).value)];
          if (pair === target) return here;
          const found = walk(pair.value, here);
          if (found) return found;
        }
      } else if (isSeq(node)) {
        for (let i = 0; i < node.items.length; i++) {
          const found = walk(node.items[i], [...path, i]);
          if (found) return found;
        }
      }
      return undefined;
    };
    const found = walk(this.document.ast.contents, []);
    if (!found) throw new EditProblem('the field went away');
    return found;
  }

  private insertPair(map: YAMLMap, key: string, value: unknown): TextChange {
    const keyText = stringify(key).trimEnd();
    const last = map.items[map.items.length - 1];
    if (map.flow || !last) {
      if (!map.flow || !map.range) throw new EditProblem(`cannot add ${key} to an empty map`);
      const entry = `${keyText}: ${this.flowText(value)}`;
      if (!last) return { start: map.range[0] + 1, end: map.range[0] + 1, text: entry };
      const at = endOf(this.text, (last.value ?? last.key) as YamlNode, map.range[1] - 1);
      return { start: at, end: at, text: `, ${entry}` };
    }
    const indent = ' '.repeat(columnOf(this.text, (map.items[0].key as YamlNode).range![0]));
    const lastEnd = endOf(this.text, (last.value ?? last.key) as YamlNode, (last.key as YamlNode).range![1]);
    const at = nextLineStart(this.text, Math.max(0, lastEnd - 1));
    const newline = at === this.text.length && !this.text.endsWith('\n') ? '\n' : '';
    if (isScalarValue(value) || isEmptyCollection(value)) return { start: at, end: at, text: `${newline}${indent}${keyText}: ${this.flowText(value)}\n` };
    const childIndent = `${indent}  `;
    const block = this.blockText(value, childIndent, Array.isArray(value) && !this.indentSeq ? indent : childIndent);
    return { start: at, end: at, text: `${newline}${indent}${keyText}:\n${block}` };
  }

  private appendItem(list: YAMLSeq, value: unknown): TextChange {
    const last = list.items[list.items.length - 1] as YamlNode | undefined;
    if (list.flow || !last?.range) {
      if (!list.flow || !list.range) throw new EditProblem('cannot add to an empty list');
      if (!last?.range) return { start: list.range[0] + 1, end: list.range[0] + 1, text: this.flowText(value) };
      const end = endOf(this.text, last, last.range[1]);
      return { start: end, end, text: `, ${this.flowText(value)}` };
    }
    const first = list.items[0] as YamlNode;
    const dash = dashBefore(this.text, first.range![0]) ?? first.range![0];
    const indent = ' '.repeat(columnOf(this.text, dash));
    const at = nextLineStart(this.text, Math.max(0, endOf(this.text, last, last.range[1]) - 1));
    const newline = at === this.text.length && !this.text.endsWith('\n') ? '\n' : '';
    const lines = this.blockText(value, '', '').replace(/\n$/, '').split('\n');
    const item = lines.map((line, i) => (i === 0 ? `${indent}- ${line}` : `${indent}  ${line}`)).join('\n');
    return { start: at, end: at, text: `${newline}${item}\n` };
  }

  /** A scalar as the file would write it: quoted the way the value it replaces was, else only when YAML needs it. */
  private scalarText(value: unknown, old?: Scalar): string {
    // Quotes are kept where they were a choice of style, not where YAML needed them (`cpu: "8"`).
    const quotedByChoice = old && (old.type === 'QUOTE_DOUBLE' || old.type === 'QUOTE_SINGLE') && typeof old.value === 'string' && !/^['"]/.test(stringify(old.value));
    const quoted = quotedByChoice && typeof value === 'string';
    return stringify(value, { defaultStringType: quoted ? old.type : 'PLAIN', lineWidth: 0 }).trimEnd();
  }

  private flowText(value: unknown): string {
    if (isScalarValue(value)) return this.scalarText(value);
    return stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd();
  }

  /** A collection in block style, every line prefixed with `indent` (`seqIndent` for a top-level list's dashes). */
  private blockText(value: unknown, indent: string, seqIndent: string): string {
    const prefix = Array.isArray(value) ? seqIndent : indent;
    const text = stringify(value, { indent: 2, indentSeq: this.indentSeq, lineWidth: 0 });
    return text
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => `${prefix}${line}`)
      .join('\n')
      .concat('\n');
  }
}
