/**
 * A pod the simulator's scheduler refused, as problems on the manifest lines a change would make it
 * fit: one warning per line a suggestion edits (the `cpu:` of the container, the `replicas:`, the
 * claim's name), with the scheduler's message and the suggestions for that line, which the Quick
 * Fixes apply (fit-yaml-edit.ts). Pure: the vscode side only turns these into Diagnostics.
 */
import { fitNodesText, fitSuggestionText, type FitEdit, type FitSuggestion, type FitSuggestions } from '../../core/journey/fit-suggestions';
import type { StuckDetail } from '../../core/journey/types';
import type { ApplyPlan, PlannedDiagnostic } from './apply-plan';
import { fitSuggestionChange, suggestionLine, type TextChange } from './fit-yaml-edit';

/** The diagnostic code of a fit problem (the Kubernetes reason, as the Quick Fix provider looks for it). */
export const FIT_DIAGNOSTIC_CODE = 'FailedScheduling';

/** One refused pod of an applied document, and what the simulator suggested for it. */
export interface RefusedPod {
  /** `plan.documents` index of the document whose journey holds the pod. */
  document: number;
  pod: { namespace: string; name: string };
  stuck: Pick<StuckDetail, 'reason' | 'message'>;
  fits: FitSuggestions;
}

/** A warning on one line, with the suggestions whose field is on it. */
export interface FitProblem extends PlannedDiagnostic {
  suggestions: FitSuggestion[];
}

/**
 * The warnings for refused pods, `line` being the line of each suggestion's field (the document's
 * first line for a change to the cluster, such as `kubectl uncordon`, or a target not in the file).
 */
export function fitDiagnostics(plan: ApplyPlan, refused: readonly RefusedPod[]): FitProblem[] {
  const problems: FitProblem[] = [];
  for (const entry of refused) {
    const document = plan.documents[entry.document];
    if (!document) continue;
    const byLine = new Map<number, FitSuggestion[]>();
    for (const suggestion of entry.fits.suggestions) {
      const line = suggestionLine(plan.manifest, suggestion) ?? document.startLine;
      const list = byLine.get(line) ?? [];
      list.push(suggestion);
      byLine.set(line, list);
    }
    const who = `Pod ${entry.pod.name} is not scheduled`;
    const why = `${entry.stuck.reason}: ${entry.stuck.message}`;
    if (byLine.size === 0) {
      const none = entry.fits.fitsNow !== undefined ? `it fits now on ${fitNodesText({ nodes: entry.fits.fitsNow, totalNodes: entry.fits.totalNodes })}` : 'no single change is enough';
      problems.push({ line: document.startLine + plan.lineOffset, message: `${who}: ${why} (${none})`, severity: 'warning', code: FIT_DIAGNOSTIC_CODE, suggestions: [] });
      continue;
    }
    for (const [line, suggestions] of byLine) {
      const fits = suggestions.map((s) => fitSuggestionText({ ...s, line: undefined })).join('; or ');
      problems.push({ line: line + plan.lineOffset, message: `${who}: ${why}\nFits if: ${fits}`, severity: 'warning', code: FIT_DIAGNOSTIC_CODE, suggestions });
    }
  }
  return problems;
}

function valueText(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, v]) => `${key}: ${valueText(v)}`)
      .join(', ');
  }
  return String(value);
}

/** `cpu`, `tolerations`, `requiredDuringSchedulingIgnoredDuringExecution[0]`: the field an edit is about, by its last key. */
function fieldName(path: string): string {
  return /(?:^|\.)([^.]+)$/.exec(path)?.[1] ?? path;
}

function editTitle(edit: FitEdit): string {
  switch (edit.op) {
    case 'set':
      return `set ${fieldName(edit.path)}: ${valueText(edit.value)}`;
    case 'add':
      return `add ${valueText(edit.value)} to ${fieldName(edit.path)}`;
    case 'remove':
      return `remove ${fieldName(edit.path)}`;
    case 'create':
      return `create ${edit.object.kind ?? 'object'} ${edit.object.metadata?.name ?? ''}`.trimEnd();
  }
}

/** The Quick Fix's title: `Set cpu: 3920m (fits on 3 of 3 nodes)`. */
export function fitQuickFixTitle(suggestion: FitSuggestion): string {
  const text = suggestion.edits.length > 0 ? suggestion.edits.map(editTitle).join(' and ') : suggestion.summary;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)} (${fitNodesText(suggestion)})`;
}

/** One Quick Fix: its title, the change of the file, and the diagnostic (by index) it fixes. */
export interface FitQuickFix {
  title: string;
  change: TextChange;
  diagnostic: number;
  preferred: boolean;
}

/**
 * The Quick Fixes for the diagnostics the editor asks about, on the file's text as it is now. A
 * diagnostic may have moved with edits above it: it is matched to its problem by its code and
 * words, not its line. A suggestion already taken (the text says it) or that cannot be made here
 * offers nothing.
 */
export function fitQuickFixes(text: string, diagnostics: readonly { message: string; code?: unknown }[], problems: readonly FitProblem[]): FitQuickFix[] {
  const fixes: FitQuickFix[] = [];
  diagnostics.forEach((diagnostic, index) => {
    if (diagnostic.code !== FIT_DIAGNOSTIC_CODE) return;
    const problem = problems.find((p) => p.message === diagnostic.message);
    for (const suggestion of problem?.suggestions ?? []) {
      if (suggestion.edits.length === 0) continue;
      const result = fitSuggestionChange(text, suggestion);
      if ('change' in result) fixes.push({ title: fitQuickFixTitle(suggestion), change: result.change, diagnostic: index, preferred: fixes.length === 0 });
    }
  });
  return fixes;
}
