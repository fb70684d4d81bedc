/**
 * The targets Apply and Trace can send manifests to, as the status bar, the target picker and the
 * tree name them: the built-in simulator, a kubeconfig context, or the twin of a context (a
 * simulator holding a read-only copy of it, docs/twin.md). Pure (no `vscode`), tested in plain Node.
 */
import type { TwinSummary } from '../../protocol/simulator-server';

export type Target = { type: 'simulator' } | { type: 'context'; context: string } | { type: 'twin'; context: string };

/** `Simulator`, `kind-prod`, `Twin of kind-prod`: the status bar's text, the tree's "applied to". */
export function targetLabel(target: Target): string {
  if (target.type === 'simulator') return 'Simulator';
  return target.type === 'twin' ? `Twin of ${target.context}` : target.context;
}

/** A saved target (workspace state) that is still one. */
export function isTarget(value: unknown): value is Target {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.type === 'simulator') return true;
  return (v.type === 'context' || v.type === 'twin') && typeof v.context === 'string' && v.context.length > 0;
}

/**
 * Whether the target is a simulator (the built-in one, or a twin): applies need no confirmation,
 * and refused pods get fit suggestions and the Re-simulate CodeLens.
 */
export function isSimulated(target: Target): boolean {
  return target.type !== 'context';
}

export function sameTarget(a: Target, b: Target): boolean {
  return a.type === b.type && (a.type === 'simulator' || a.context === (b as { context: string }).context);
}

/** The target picker's separator above the twins. */
export const TWINS_SEPARATOR = 'Twins: simulate against a read-only copy';

/** The status bar tooltip's lines for a twin (Markdown): what it is, then what was copied and what was not. */
export function twinTooltip(context: string, summary: TwinSummary | undefined, url: string | undefined): string[] {
  const lines = [`**Kube Journey target:** the twin of context \`${context}\`: a simulator holding a copy of that cluster, read with GET requests only. The cluster is never written to.`];
  if (!summary) {
    lines.push('Copied on the first Apply and Trace.');
    return lines;
  }
  lines.push(`Copied from ${summary.server}${url ? `, running at ${url}` : ''}:`);
  for (const line of summary.header) lines.push(`- ${line}`);
  return lines;
}

/** The one line a twin that could not be made is reported with (`failure` as the simulator child said it). */
export function twinFailureMessage(context: string, failure: string): string {
  return `Cannot make a twin of ${context}: ${failure.replace(/^cannot make a twin: /, '')}`;
}
