/**
 * Label and field selectors as the API server parses them (k8s.io/apimachinery labels.Parse,
 * fields.ParseSelector), compiled once into predicates.
 */
import type { KubeObject } from '../../core/k8s';
import { ApiError } from './types';

export type ObjectPredicate = (object: KubeObject) => boolean;

export interface Requirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!exists' | '=' | '!=';
  values: string[];
}

const matchAll: ObjectPredicate = () => true;

/** Split on commas that are not inside parentheses. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms.map((t) => t.trim()).filter((t) => t.length > 0);
}

function parseLabelRequirement(term: string): Requirement {
  const setMatch = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
  if (setMatch) {
    return { key: setMatch[1], op: setMatch[2] as 'in' | 'notin', values: setMatch[3].split(',').map((v) => v.trim()).filter(Boolean) };
  }
  const neq = /^([^!=\s]+)\s*!=\s*(\S*)$/.exec(term);
  if (neq) return { key: neq[1], op: '!=', values: [neq[2]] };
  const eq = /^([^!=\s]+)\s*==?\s*(\S*)$/.exec(term);
  if (eq) return { key: eq[1], op: '=', values: [eq[2]] };
  const notExists = /^!\s*(\S+)$/.exec(term);
  if (notExists) return { key: notExists[1], op: '!exists', values: [] };
  if (/^[A-Za-z0-9._/-]+$/.test(term)) return { key: term, op: 'exists', values: [] };
  throw new ApiError(400, 'BadRequest', `unable to parse requirement: found '${term}', expected: identifier`);
}

export function matchesLabels(labels: Readonly<Record<string, string>> | undefined, requirements: readonly Requirement[]): boolean {
  for (const r of requirements) {
    const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
    const value = has ? labels![r.key] : undefined;
    switch (r.op) {
      case '=':
        if (value !== r.values[0]) return false;
        break;
      case '!=':
        if (value === r.values[0]) return false;
        break;
      case 'in':
        if (value === undefined || !r.values.includes(value)) return false;
        break;
      case 'notin':
        if (value !== undefined && r.values.includes(value)) return false;
        break;
      case 'exists':
        if (!has) return false;
        break;
      case '!exists':
        if (has) return false;
        break;
    }
  }
  return true;
}

export function parseLabelSelector(selector: string | undefined): ObjectPredicate {
  if (!selector || selector.trim() === '') return matchAll;
  const requirements = splitTerms(selector).map(parseLabelRequirement);
  return (object) => matchesLabels(object.metadata?.labels, requirements);
}

/** A structured LabelSelector (matchLabels + matchExpressions), as in Deployment and ReplicaSet specs. */
export function labelSelectorMatches(
  selector: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector) return false;
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) requirements.push({ key, op: '=', values: [value] });
  for (const e of selector.matchExpressions ?? []) {
    const op = e.operator === 'In' ? 'in' : e.operator === 'NotIn' ? 'notin' : e.operator === 'Exists' ? 'exists' : '!exists';
    requirements.push({ key: e.key, op, values: e.values ?? [] });
  }
  if (requirements.length === 0) return false;
  return matchesLabels(labels, requirements);
}

/** Render a structured selector the way the API server does in Scale.status.selector (`app=web`). */
export function formatLabelSelector(selector: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(selector?.matchLabels ?? {}).sort(([a], [b]) => a.localeCompare(b))) parts.push(`${k}=${v}`);
  for (const e of selector?.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

function fieldValue(object: KubeObject, path: string): string {
  let current: unknown = object;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return '';
    current = (current as Record<string, unknown>)[part];
  }
  if (current === undefined || current === null) return '';
  return String(current);
}

export function parseFieldSelector(selector: string | undefined): ObjectPredicate {
  if (!selector || selector.trim() === '') return matchAll;
  const terms = splitTerms(selector).map((term) => {
    const neq = /^([^!=]+)!=(.*)$/.exec(term);
    if (neq) return { path: neq[1].trim(), value: neq[2].trim(), negate: true };
    const eq = /^([^!=]+)==?(.*)$/.exec(term);
    if (eq) return { path: eq[1].trim(), value: eq[2].trim(), negate: false };
    throw new ApiError(400, 'BadRequest', `invalid selector: '${selector}'; can't understand '${term}'`);
  });
  return (object) => terms.every((t) => (fieldValue(object, t.path) === t.value) !== t.negate);
}
