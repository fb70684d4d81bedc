/**
 * CodeLenses above each Kubernetes document: Apply and Trace, and once traced, Open Timeline and
 * a live summary. Refreshed when a journey changes (batched by the caller).
 *
 * VS Code's CodeLens controller cancels its pending re-query when the editor loses focus
 * (codelensController `onDidBlurEditorText`), so a refresh that lands while the user works in the
 * Journeys view or the timeline can leave the lens stale. The refresh is therefore fired once
 * more when a YAML editor comes back into view: it becomes the active editor, the window regains
 * focus, or its visible ranges change, and only when a refresh happened since (one flag, no
 * re-query otherwise).
 */
import * as vscode from 'vscode';
import { documentLenses } from '../core/explain/lens';
import type { ApplyDocumentArg, TimelineArg } from './commands';
import { Disposable } from './headless/disposable';
import type { ManifestCache } from './manifest-cache';
import { readSetting, SETTINGS_SECTION } from './headless/settings';
import type { TraceSession } from './headless/trace-session';

export class ManifestCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  constructor(
    private readonly cache: ManifestCache,
    private readonly session: TraceSession,
  ) {
    super();
    this._register(vscode.window.onDidChangeActiveTextEditor((editor) => this.refreshAgainFor(editor)));
    this._register(vscode.window.onDidChangeTextEditorVisibleRanges((event) => this.refreshAgainFor(event.textEditor)));
    this._register(
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) this.refreshAgainFor(vscode.window.activeTextEditor);
      }),
    );
  }

  private refreshedSinceEditorReturned = false;

  refresh(): void {
    this.refreshedSinceEditorReturned = true;
    this.changeEmitter.fire();
  }

  /** Fires the refresh again for a YAML editor coming back, if one happened since it last did. */
  private refreshAgainFor(editor: vscode.TextEditor | undefined): void {
    if (!this.refreshedSinceEditorReturned || editor?.document.languageId !== 'yaml') return;
    this.refreshedSinceEditorReturned = false;
    this.changeEmitter.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!readSetting(vscode.workspace.getConfiguration(SETTINGS_SECTION, document), 'codeLens.enabled')) return [];
    try {
      // In an untrusted workspace Apply and Trace applies nothing: offer only what was traced before.
      const lenses = documentLenses(this.cache.get(document), this.session.lookup).filter((lens) => lens.action !== 'apply' || vscode.workspace.isTrusted);
      return lenses.map((lens) => {
        const line = Math.max(0, lens.line - 1);
        const range = new vscode.Range(line, 0, line, 0);
        if (lens.action === 'apply') {
          const arg: ApplyDocumentArg = { uri: document.uri.toString(), documentIndex: lens.documentIndex };
          return new vscode.CodeLens(range, { title: lens.title, tooltip: lens.tooltip, command: 'kubeJourney.applyAndTrace', arguments: [arg] });
        }
        const arg: TimelineArg = { journeyId: lens.journeyId! };
        return new vscode.CodeLens(range, { title: lens.title, tooltip: lens.tooltip, command: 'kubeJourney.openTimeline', arguments: [arg] });
      });
    } catch {
      return [];
    }
  }
}
