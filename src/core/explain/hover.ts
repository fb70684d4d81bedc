/**
 * The hover for a key of a Kubernetes manifest, computed from the YAML AST and a character
 * offset: the official description, which component acts on the field and when, and, once the
 * manifest was traced, what that field did in this journey. Pure, so that tests mark a caret in a
 * fixture and check the text; the VS Code provider only converts offsets to positions.
 *
 * Documents that are not Kubernetes objects, kinds the schema does not know and keys outside the
 * schema get no hover. A document with a YAML error still gets hovers for the keys the parser
 * recovered.
 */
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Journey, TraceableKind } from '../journey/types';
import { fieldPathAt, parseManifest, type ManifestDocument, type ParsedManifest } from '../manifest';
import { fieldAt } from '../schema/fields';
import { fieldRole, STAGE_LABELS } from './field-roles';
import { escapeMarkdown, inlineCode } from './format';
import { journeyState, liveFactLines } from './live';
import { TRACEABLE_KINDS } from '../../common/traceable-kinds';

/** The journey object a manifest document started: the newest journey for that root. */
export interface RootQuery {
  kind: TraceableKind;
  name: string;
  /** As written in the manifest; undefined when the manifest leaves it to the context. */
  namespace?: string;
}

export type JourneyLookup = (root: RootQuery) => Journey | undefined;

export interface FieldHover {
  /** Markdown, safe to render without HTML support. */
  markdown: string;
  /** Character offsets of the hovered key. */
  start: number;
  end: number;
  /** The field in `kubectl explain` form: `spec.template.spec.containers[0].image`. */
  fieldPath: string;
}


/** A top-level scalar of a document, read from the AST so that a document with YAML errors still answers. */
export function topLevelString(document: ManifestDocument, ...keys: string[]): string | undefined {
  let node: unknown = document.ast.contents;
  for (const key of keys) {
    if (!isMap(node)) return undefined;
    const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key);
    node = pair?.value;
  }
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

/** Identity of a Kubernetes document, when it has apiVersion and kind. */
export function documentIdentity(document: ManifestDocument): { apiVersion: string; kind: string; name?: string; namespace?: string } | undefined {
  const apiVersion = topLevelString(document, 'apiVersion');
  const kind = topLevelString(document, 'kind');
  if (!apiVersion || !kind) return undefined;
  return { apiVersion, kind, name: topLevelString(document, 'metadata', 'name'), namespace: topLevelString(document, 'metadata', 'namespace') };
}

/** The document holding `offset`, if any. */
export function documentAt(manifest: ParsedManifest, offset: number): ManifestDocument | undefined {
  return manifest.documents.find((d) => offset >= d.startOffset && offset <= d.endOffset);
}

function keyRange(document: ManifestDocument, path: readonly (string | number)[]): [number, number] | undefined {
  let node: unknown = document.ast.contents;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair || !isScalar(pair.key)) return undefined;
      if (i === path.length - 1) {
        const range = pair.key.range;
        return range ? [range[0], range[1]] : undefined;
      }
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') node = node.items[segment];
    else return undefined;
  }
  return undefined;
}

/** The container name for a path inside `containers[i]` or `initContainers[i]`. */
function containerName(document: ManifestDocument, path: readonly (string | number)[]): string | undefined {
  const at = path.findIndex((segment, i) => (segment === 'containers' || segment === 'initContainers') && typeof path[i + 1] === 'number');
  if (at < 0) return undefined;
  let node: unknown = document.ast.contents;
  for (const segment of path.slice(0, at + 2)) {
    if (isMap(node)) node = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment))?.value;
    else if (isSeq(node) && typeof segment === 'number') node = node.items[segment];
    else return undefined;
  }
  if (!isMap(node)) return undefined;
  const name = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === 'name')?.value;
  return isScalar(name) && typeof name.value === 'string' ? name.value : undefined;
}

function typeLabel(typeName: string, required: boolean): string {
  return `${inlineCode(typeName)}${required ? ' · required' : ''}`;
}

/** Angle brackets would be taken for HTML; the official descriptions are otherwise plain text. */
function descriptionText(description: string): string {
  return description.replace(/[<>]/g, (c) => `\\${c}`);
}

/**
 * The hover for the key under `offset`, or undefined (not on a key, not Kubernetes, or a field
 * the schema does not know).
 */
export function fieldHover(manifest: ParsedManifest, offset: number, lookup?: JourneyLookup): FieldHover | undefined {
  const document = documentAt(manifest, offset);
  if (!document) return undefined;
  const identity = documentIdentity(document);
  if (!identity) return undefined;
  const at = fieldPathAt(document, offset);
  if (!at || !at.onKey) return undefined;
  const info = fieldAt(identity.kind, at.path);
  if (!info) return undefined;
  const range = keyRange(document, at.path);
  if (!range) return undefined;

  const heading = `**${escapeMarkdown(info.path || identity.kind)}** · ${typeLabel(info.typeName, info.required)}`;
  const sections = [info.description ? `${heading}\n\n${descriptionText(info.description)}` : heading];

  const role = fieldRole(identity.kind, at.path);
  if (role) sections.push(`**Who acts on it:** ${escapeMarkdown(role.component)} · _${STAGE_LABELS[role.stage]}_\n\n${role.effect}`);

  if (role?.live && lookup && TRACEABLE_KINDS.has(identity.kind) && identity.name) {
    const journey = lookup({ kind: identity.kind as TraceableKind, name: identity.name, namespace: identity.namespace });
    if (journey) {
      const lines = liveFactLines(role.live, journey, containerName(document, at.path));
      if (lines.length > 0) {
        const title = `**Live** · ${escapeMarkdown(`${identity.kind} ${identity.name}`)}: ${escapeMarkdown(journeyState(journey))}`;
        sections.push(`${title}\n\n${lines.map((line) => `- ${line}`).join('\n')}`);
      }
    }
  }
  return { markdown: sections.join('\n\n---\n\n'), start: range[0], end: range[1], fieldPath: info.path };
}

/** Convenience for tests and one-off callers: parses `text` first. */
export function fieldHoverInText(text: string, offset: number, lookup?: JourneyLookup): FieldHover | undefined {
  return fieldHover(parseManifest(text), offset, lookup);
}
