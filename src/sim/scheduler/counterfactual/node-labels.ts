/**
 * Node labels a `nodeSelector` or required node affinity could use: for each selector entry (or
 * `In` expression) that refuses nodes every other filter passes, the value of that label those
 * nodes have most often (`nodeSelector disktype: hdd`, `node affinity disktype In (…, hdd)`); an
 * entry whose label no such node has is dropped instead. Other operators (NotIn, Exists, Gt…) are
 * dropped from their term when the term keeps another requirement.
 */
import type { NodeSelectorRequirement, NodeSelectorTerm } from 'kubernetes-types/core/v1';
import { compileTerm, termMatches, type SelectableNode } from '../node-selector';
import { F_NODE_AFFINITY, rowsBlockedOnlyBy } from './probe';
import type { Candidate, SuggestionInput } from './types';

const TERMS_PATH = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';

/** The most frequent value of `key` among `nodes` (ties: the first in name order), or undefined when none has it. */
function mostCommonValue(nodes: readonly SelectableNode[], key: string): string | undefined {
  const counts = new Map<string, number>();
  for (const node of nodes) {
    const value = node.labels[key];
    if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  let best: string | undefined;
  let most = 0;
  for (const [value, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (count > most) {
      most = count;
      best = value;
    }
  }
  return best;
}

function selectorMatchesExcept(selector: Record<string, string>, node: SelectableNode, except: string | undefined): boolean {
  for (const key in selector) if (key !== except && node.labels[key] !== selector[key]) return false;
  return true;
}

/** A term without expression `skip` matches (a term left empty puts no condition). */
function termMatchesWithout(term: NodeSelectorTerm, skip: number, node: SelectableNode): boolean {
  const expressions = (term.matchExpressions ?? []).filter((_, i) => i !== skip);
  if (expressions.length === 0 && (term.matchFields ?? []).length === 0) return true;
  return termMatches(compileTerm({ ...term, matchExpressions: expressions }), node);
}

function anyTermMatches(terms: readonly NodeSelectorTerm[] | undefined, node: SelectableNode): boolean {
  return terms === undefined || terms.some((term) => termMatches(compileTerm(term), node));
}

function suggestSelector(nodes: readonly SelectableNode[], selector: Record<string, string>, terms: readonly NodeSelectorTerm[] | undefined): Candidate[] {
  const out: Candidate[] = [];
  for (const key of Object.keys(selector)) {
    if (nodes.every((node) => node.labels[key] === selector[key])) continue;
    const usable = nodes.filter((node) => selectorMatchesExcept(selector, node, key) && anyTermMatches(terms, node));
    const value = mostCommonValue(usable, key);
    if (value !== undefined) {
      out.push({ kind: 'nodeSelector', summary: `nodeSelector ${key}: ${value}`, path: 'spec.nodeSelector', edits: [{ op: 'set', path: 'spec.nodeSelector', value: { ...selector, [key]: value } }] });
      continue;
    }
    const { [key]: _dropped, ...rest } = selector;
    const edit = Object.keys(rest).length > 0 ? ({ op: 'set', path: 'spec.nodeSelector', value: rest } as const) : ({ op: 'remove', path: 'spec.nodeSelector' } as const);
    out.push({ kind: 'nodeSelector', summary: `nodeSelector without ${key} (no such node has the label)`, path: 'spec.nodeSelector', edits: [edit] });
  }
  return out;
}

function suggestExpression(nodes: readonly SelectableNode[], selector: Record<string, string>, terms: readonly NodeSelectorTerm[], t: number, j: number): Candidate | undefined {
  const term = terms[t];
  const expression: NodeSelectorRequirement = (term.matchExpressions ?? [])[j];
  const path = `${TERMS_PATH}[${t}].matchExpressions[${j}]`;
  const usable = nodes.filter((node) => selectorMatchesExcept(selector, node, undefined) && termMatchesWithout(term, j, node));
  if (usable.length === 0) return undefined;
  if (expression.operator === 'In') {
    const value = mostCommonValue(usable, expression.key);
    if (value !== undefined) {
      const values = [...(expression.values ?? []), value];
      return { kind: 'nodeAffinity', summary: `node affinity ${expression.key} In (${values.join(', ')})`, path: `${path}.values`, edits: [{ op: 'add', path: `${path}.values`, value }] };
    }
  }
  const keepsOthers = (term.matchExpressions ?? []).length > 1 || (term.matchFields ?? []).length > 0;
  if (!keepsOthers) return undefined;
  return { kind: 'nodeAffinity', summary: `node affinity without ${expression.key} ${expression.operator}${expression.values?.length ? ` (${expression.values.join(', ')})` : ''}`, path, edits: [{ op: 'remove', path }] };
}

export function suggestNodeLabels(input: SuggestionInput): Candidate[] {
  const { probe, masks, pod } = input;
  const rows = rowsBlockedOnlyBy(masks, F_NODE_AFFINITY);
  if (rows.length === 0) return [];
  const nodes = rows.map((row) => probe.nodes[row]);
  const selector = pod.spec?.nodeSelector ?? {};
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const out = suggestSelector(nodes, selector, terms);
  (terms ?? []).forEach((term, t) => {
    (term.matchExpressions ?? []).forEach((_, j) => {
      const candidate = suggestExpression(nodes, selector, terms!, t, j);
      if (candidate) out.push(candidate);
    });
  });
  return out;
}
