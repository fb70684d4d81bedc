/**
 * The pure half of Apply and Trace: which documents of a file (or of a selection, or the one
 * document a CodeLens stands on) are sent, the problems that stop everything before a request is
 * made (as kubectl refuses a file it cannot parse), where each server error belongs in the file,
 * and the words of the result message.
 */
import { lineOfField, parseManifest, type ManifestDocument, type ParsedManifest } from '../../core/manifest';
import type { KubeObject } from '../../core/k8s';
import type { ApplyOutcome } from './journey-source';
import type { AppliedEntry } from './trace-session';

export interface PlannedDiagnostic {
  /** 1-based line in the file. */
  line: number;
  /** 1-based column, when known. */
  column?: number;
  message: string;
  severity: 'error' | 'warning';
  /** The server's Status reason (`Invalid`, `Conflict`, …). */
  code?: string;
}

export interface ApplyScope {
  /** 0-based line where the applied text starts in the file (a selection), 0 for the whole file. */
  startLine?: number;
  /** Apply only this document of the text (ManifestDocument.index), for the CodeLens. */
  documentIndex?: number;
}

export interface ApplyPlan {
  manifest: ParsedManifest;
  /** Add to a line of `manifest` to get the line in the file. */
  lineOffset: number;
  /** The documents to send, in file order. */
  documents: ManifestDocument[];
  /** Problems that stop the apply: nothing is sent while there is one. */
  problems: PlannedDiagnostic[];
}

export function planApply(text: string, scope: ApplyScope = {}): ApplyPlan {
  const manifest = parseManifest(text);
  const lineOffset = scope.startLine ?? 0;
  const documents = scope.documentIndex === undefined ? manifest.documents : manifest.documents.filter((d) => d.index === scope.documentIndex);
  const problems: PlannedDiagnostic[] = [];
  for (const document of documents) {
    for (const problem of document.problems) problems.push({ line: problem.line + lineOffset, column: problem.column, message: problem.message, severity: 'error' });
  }
  return { manifest, lineOffset, documents: problems.length > 0 ? [] : documents.filter((d) => d.object && d.isKubernetes), problems };
}

export function planObjects(plan: ApplyPlan): KubeObject[] {
  return plan.documents.map((d) => d.object as KubeObject);
}

/** Where each failed object's errors go: the line of the field a cause names, else the document's first line. */
export function outcomeDiagnostics(plan: ApplyPlan, outcomes: readonly ApplyOutcome[]): PlannedDiagnostic[] {
  const diagnostics: PlannedDiagnostic[] = [];
  outcomes.forEach((outcome, i) => {
    const failure = outcome.failure;
    const document = plan.documents[i];
    if (!failure || !document) return;
    const located = failure.causes.filter((c) => c.path);
    const code = failure.reason;
    if (located.length === 0) {
      diagnostics.push({ line: document.startLine + plan.lineOffset, message: failure.message, severity: 'error', code });
      return;
    }
    for (const cause of located) {
      const line = lineOfField(plan.manifest, document, cause.path!) + plan.lineOffset;
      const message = located.length === 1 ? failure.message : `${cause.field ?? cause.path}: ${cause.message ?? failure.message}`;
      diagnostics.push({ line, message, severity: 'error', code });
    }
  });
  return diagnostics;
}

/** The tree's record of each document's outcome (journey ids are added by the caller). */
export function outcomeEntries(plan: ApplyPlan, outcomes: readonly ApplyOutcome[]): AppliedEntry[] {
  return outcomes.map((outcome, i) => {
    const document = plan.documents[i];
    return {
      documentIndex: document?.index ?? i,
      display: outcome.display,
      kind: outcome.kind,
      name: outcome.name,
      namespace: outcome.namespace,
      line: (document?.startLine ?? 1) + plan.lineOffset,
      action: outcome.action,
      error: outcome.failure?.message,
    };
  });
}

export interface ResultMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
}

/** `Applied to Simulator: deployment.apps/web created, service/web unchanged.` or which failed and why. */
export function resultMessage(outcomes: readonly ApplyOutcome[], target: string): ResultMessage {
  const failed = outcomes.filter((o) => o.failure);
  const done = outcomes.filter((o) => !o.failure).map((o) => `${o.display} ${o.action ?? 'sent'}`);
  if (failed.length === 0) return { severity: 'info', text: `Applied to ${target}: ${done.join(', ')}.` };
  const first = failed[0];
  const why = `${first.display}: ${first.failure!.message}`;
  if (done.length === 0) {
    return { severity: 'error', text: failed.length === 1 ? `Nothing applied to ${target}. ${why}` : `Nothing applied to ${target}: ${failed.length} objects failed. ${why}` };
  }
  return { severity: 'warning', text: `${failed.length} of ${outcomes.length} objects failed on ${target} (${done.join(', ')}). ${why}` };
}

/** Whether applying to `context` needs the user's confirmation first (never for the simulator). */
export function needsConfirmation(target: { type: 'simulator' } | { type: 'context'; context: string }, applyWithoutConfirmation: readonly string[]): boolean {
  return target.type === 'context' && !applyWithoutConfirmation.includes(target.context);
}
