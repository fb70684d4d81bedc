/**
 * The editor side of fit suggestions: a Quick Fix per suggestion on the warning a refused pod puts
 * on its manifest line (the edit computed by headless/fit-yaml-edit.ts from the file as it is
 * now), and a "Re-simulate" CodeLens above each document whose pod was refused, which applies the
 * file again on a fresh simulator to see whether the change was enough. After a run on a twin,
 * "Apply for real" above the file (apply-for-real.ts).
 */
import * as vscode from 'vscode';
import type { ApplyController } from './apply-command';
import type { ApplyForRealArg, ResimulateArg } from './commands';
import { Disposable } from './headless/disposable';
import { fitQuickFixes, type FitProblem } from './headless/fit-diagnostics';
import { parseManifest } from '../core/manifest';

/** The Quick Fixes of fit warnings as the editor takes them (the mapping itself is fitQuickFixes, tested in plain Node). */
export function fitCodeActions(document: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[], problems: readonly FitProblem[]): vscode.CodeAction[] {
  return fitQuickFixes(document.getText(), diagnostics, problems).map((fix) => {
    const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(fix.change.start), document.positionAt(fix.change.end)), fix.change.text);
    action.edit = edit;
    action.diagnostics = [diagnostics[fix.diagnostic]];
    action.isPreferred = fix.preferred;
    return action;
  });
}

export class FitQuickFixProvider implements vscode.CodeActionProvider {
  static metadata(): vscode.CodeActionProviderMetadata {
    return { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };
  }

  constructor(private readonly apply: ApplyController) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const problems = this.apply.fitProblems(document.uri);
    if (problems.length === 0) return [];
    return fitCodeActions(document, context.diagnostics, problems);
  }
}

/** "Re-simulate" above each document a fit warning is about, while the target is the simulator or a twin. */
export class ResimulateCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  constructor(
    private readonly apply: ApplyController,
    private readonly isSimulator: () => boolean,
    private readonly isTwin: () => boolean,
  ) {
    super();
    this._register(apply.onDidChangeFitProblems(() => this.changeEmitter.fire()));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const problems = this.apply.fitProblems(document.uri);
    if (problems.length === 0 || !this.isSimulator()) return [];
    const manifest = parseManifest(document.getText());
    const lines = new Set<number>();
    for (const problem of problems) {
      const at = manifest.documents.find((d) => problem.line >= d.startLine && problem.line <= d.endLine);
      if (at) lines.add(at.startLine);
    }
    const arg: ResimulateArg = { uri: document.uri.toString() };
    return [...lines].map((line) => {
      const range = new vscode.Range(line - 1, 0, line - 1, 0);
      const tooltip = this.isTwin() ? 'Copy the cluster again into a fresh twin and Apply and Trace this file there' : 'Apply and Trace this file again on a fresh simulator';
      return new vscode.CodeLens(range, { title: '$(debug-restart) Re-simulate', tooltip, command: 'kubeJourney.resimulate', arguments: [arg] });
    });
  }
}

/** "Apply for real to <context>" at the top of a file last applied to a twin, while the twin is the target. */
export class ApplyForRealCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  constructor(private readonly apply: ApplyController) {
    super();
    this._register(apply.onDidChangeTwinRuns(() => this.changeEmitter.fire()));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const run = this.apply.twinRun(document.uri);
    if (!run) return [];
    const arg: ApplyForRealArg = { uri: document.uri.toString() };
    const tooltip = `Apply what the twin got to the cluster of context "${run.context}" (after confirmation) and compare the observed journey with the predicted one`;
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: `$(cloud-upload) Apply for real to ${run.context}`, tooltip, command: 'kubeJourney.applyForReal', arguments: [arg] })];
  }
}
