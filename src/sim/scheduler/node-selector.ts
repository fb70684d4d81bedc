/**
 * Node selector terms (component-helpers `nodeaffinity`): terms are ORed, the requirements inside
 * a term ANDed; an empty term matches nothing. `matchFields` supports only `metadata.name`.
 */
import type { NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm } from 'kubernetes-types/core/v1';

type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

interface Requirement {
  key: string;
  operator: Operator;
  values: readonly string[];
  /** Gt/Lt: the single integer value; NaN when invalid (the requirement then never matches). */
  bound: number;
}

export interface CompiledTerm {
  labels: readonly Requirement[];
  fields: readonly Requirement[];
}

export interface WeightedTerm {
  weight: number;
  term: CompiledTerm;
}

/** What a term reads from a node. */
export interface SelectableNode {
  name: string;
  labels: Readonly<Record<string, string>>;
}

const INTEGER = /^[+-]?\d+$/;

function compileRequirement(requirement: NodeSelectorRequirement): Requirement {
  const values = requirement.values ?? [];
  const operator = requirement.operator as Operator;
  const single = values.length === 1 && INTEGER.test(values[0]) ? Number(values[0]) : NaN;
  return { key: requirement.key, operator, values, bound: single };
}

export function compileTerm(term: NodeSelectorTerm): CompiledTerm {
  return {
    labels: (term.matchExpressions ?? []).map(compileRequirement),
    fields: (term.matchFields ?? []).map(compileRequirement),
  };
}

function requirementMatches(requirement: Requirement, value: string | undefined): boolean {
  switch (requirement.operator) {
    case 'In':
      return value !== undefined && requirement.values.includes(value);
    case 'NotIn':
      return value === undefined || !requirement.values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || !INTEGER.test(value) || Number.isNaN(requirement.bound)) return false;
      const number = Number(value);
      return requirement.operator === 'Gt' ? number > requirement.bound : number < requirement.bound;
    }
    default:
      return false;
  }
}

export function termMatches(term: CompiledTerm, node: SelectableNode): boolean {
  if (term.labels.length === 0 && term.fields.length === 0) return false;
  for (const requirement of term.labels) {
    if (!requirementMatches(requirement, node.labels[requirement.key])) return false;
  }
  for (const requirement of term.fields) {
    // Only metadata.name is a valid field; anything else fails validation upstream.
    if (requirement.key !== 'metadata.name') return false;
    if (requirement.operator !== 'In' && requirement.operator !== 'NotIn') return false;
    if (!requirementMatches(requirement, node.name)) return false;
  }
  return true;
}

export function anyTermMatches(terms: readonly CompiledTerm[], node: SelectableNode): boolean {
  for (const term of terms) if (termMatches(term, node)) return true;
  return false;
}

/** Preferred terms with weight 0 or an empty preference are ignored, as in `NewPreferredSchedulingTerms`. */
export function compilePreferredTerms(terms: readonly PreferredSchedulingTerm[] | undefined): WeightedTerm[] {
  const out: WeightedTerm[] = [];
  for (const term of terms ?? []) {
    const compiled = compileTerm(term.preference);
    if (term.weight === 0 || (compiled.labels.length === 0 && compiled.fields.length === 0)) continue;
    out.push({ weight: term.weight, term: compiled });
  }
  return out;
}
