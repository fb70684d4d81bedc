/**
 * Label selectors as the scheduler's pod-matching plugins use them (`metav1.LabelSelectorAsSelector`):
 * compiled once, with a canonical key so equal selectors share one count index, and one equality
 * requirement (when there is one) by which the index finds the selectors a pod's labels may match.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { matchesLabels, type Requirement as MatchRequirement } from '../store/selectors';

type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

interface Requirement {
  key: string;
  operator: Operator;
  values: readonly string[];
}

export interface CompiledSelector {
  readonly requirements: readonly Requirement[];
  /** The same requirements as the store's label matching takes them. */
  readonly matching: readonly MatchRequirement[];
  /** Canonical text: equal for selectors that select the same pods by the same requirements. */
  readonly key: string;
  /** A `key=value` every matching pod carries (from matchLabels or a one-value In), if any. */
  readonly anchor: string | undefined;
  /** `labels.Nothing()`: a missing selector selects no pod. */
  readonly nothing: boolean;
}

export function anchorOf(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

export const NOTHING: CompiledSelector = Object.freeze({ requirements: [], matching: [], key: '<nothing>', anchor: undefined, nothing: true });

const MATCH_OPERATORS: Readonly<Record<Operator, MatchRequirement['op']>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!exists' };

/** `LabelSelectorAsSelector`, with `extra` labels (matchLabelKeys' values) merged in as equality requirements. */
export function compileSelector(selector: LabelSelector | undefined | null, extra: Record<string, string> = {}): CompiledSelector {
  if (!selector) return NOTHING;
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries({ ...selector.matchLabels, ...extra })) requirements.push({ key, operator: 'In', values: [value] });
  for (const expression of selector.matchExpressions ?? []) {
    requirements.push({ key: expression.key, operator: expression.operator as Operator, values: [...(expression.values ?? [])].sort() });
  }
  return fromRequirements(requirements);
}

function fromRequirements(requirements: Requirement[]): CompiledSelector {
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.operator < b.operator ? -1 : a.operator > b.operator ? 1 : 0));
  const key = requirements.map((r) => `${r.key} ${r.operator} ${r.values.join(',')}`).join(';');
  const equality = requirements.find((r) => r.operator === 'In' && r.values.length === 1);
  // An unknown operator matches nothing, as LabelSelectorAsSelector refuses it.
  const matching = requirements.map((r) => ({ key: r.key, op: MATCH_OPERATORS[r.operator] ?? 'in', values: MATCH_OPERATORS[r.operator] ? [...r.values] : [] }));
  return { requirements, matching, key, anchor: equality ? anchorOf(equality.key, equality.values[0]) : undefined, nothing: false };
}

/** Labels as a selector of exactly those labels (`labels.SelectorFromSet`). */
export function selectorFromSet(labels: Readonly<Record<string, string>>): CompiledSelector {
  return fromRequirements(Object.entries(labels).map(([key, value]) => ({ key, operator: 'In' as const, values: [value] })));
}

/** The selector that requires both selectors' requirements (`Selector.Add`). */
export function mergeSelectors(a: CompiledSelector, b: CompiledSelector): CompiledSelector {
  if (a.nothing || b.nothing) return NOTHING;
  return fromRequirements([...a.requirements, ...b.requirements]);
}

export function isEmptySelector(selector: CompiledSelector): boolean {
  return !selector.nothing && selector.requirements.length === 0;
}

export function selectorMatches(selector: CompiledSelector, labels: Readonly<Record<string, string>>): boolean {
  return !selector.nothing && matchesLabels(labels, selector.matching);
}
