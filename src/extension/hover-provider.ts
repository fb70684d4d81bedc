/** The hover on manifest keys: a thin shell over core/explain/hover (offsets ↔ positions). */
import * as vscode from 'vscode';
import { fieldHover } from '../core/explain/hover';
import type { ManifestCache } from './manifest-cache';
import { readSetting, SETTINGS_SECTION } from './headless/settings';
import type { TraceSession } from './headless/trace-session';

export class ManifestHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly cache: ManifestCache,
    private readonly session: TraceSession,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (!readSetting(vscode.workspace.getConfiguration(SETTINGS_SECTION, document), 'hover.enabled')) return undefined;
    try {
      const hover = fieldHover(this.cache.get(document), document.offsetAt(position), this.session.lookup);
      if (!hover) return undefined;
      const markdown = new vscode.MarkdownString(hover.markdown);
      markdown.supportThemeIcons = true;
      return new vscode.Hover(markdown, new vscode.Range(document.positionAt(hover.start), document.positionAt(hover.end)));
    } catch {
      // A half-typed manifest must never produce an error popup: no hover is the right answer.
      return undefined;
    }
  }
}
