/**
 * Compare With…: two journey files on one time axis in a webview panel (media/compare.js, the
 * messages of src/protocol/journey-compare.ts): A's lanes and B's in two colour-coded bands, and
 * the per-phase p50/p90/max with B − A. Built from the files alone; a file that cannot be read is
 * named in the panel with its one error line.
 */
import * as vscode from 'vscode';
import { COMPARE_PROTOCOL_VERSION, COMPARE_VIEW_TYPE, isCompareWebviewMessage, type CompareHostMessage, type CompareModel } from '../protocol/journey-compare';
import { buildCompareModel } from './headless/compare-model';
import { Disposable } from './headless/disposable';
import { buildCompareHtml } from './headless/journey-file-html';
import { displayName, loadJourneyFile } from './journey-file-editor';
import type { Log } from './log';

export class ComparePanel extends Disposable {
  private static readonly open = new Set<ComparePanel>();
  private message: CompareHostMessage | undefined;
  private ready = false;

  /** Reads both files and shows their comparison in a new panel beside the active editor. */
  static async show(extensionUri: vscode.Uri, log: Log, a: vscode.Uri, b: vscode.Uri): Promise<ComparePanel> {
    const created = ComparePanel.create(extensionUri, log, `${shortName(a)} ↔ ${shortName(b)}`);
    const [fileA, fileB] = await Promise.all([loadJourneyFile(a), loadJourneyFile(b)]);
    if ('problem' in fileA || 'problem' in fileB) {
      const problems = [fileA, fileB].flatMap((f) => ('problem' in f ? [f.problem] : []));
      problems.forEach((problem) => log.warn(`compare: ${problem}`));
      created.setMessage({ type: 'compareError', error: problems.join('\n') });
    } else {
      created.setMessage({ type: 'compare', model: buildCompareModel({ label: displayName(a), file: fileA.file }, { label: displayName(b), file: fileB.file }) });
    }
    return created;
  }

  /** A comparison built by the caller (predicted against observed), which it may `update` as the journeys go on. */
  static showModel(extensionUri: vscode.Uri, log: Log, title: string, model: CompareModel): ComparePanel {
    const created = ComparePanel.create(extensionUri, log, title);
    created.setMessage({ type: 'compare', model });
    return created;
  }

  private static create(extensionUri: vscode.Uri, log: Log, title: string): ComparePanel {
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, { enableScripts: true, localResourceRoots: [media], enableFindWidget: true });
    const created = new ComparePanel(panel, log);
    panel.webview.html = buildCompareHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'compare.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'compare.css')).toString(),
    });
    return created;
  }

  /** Every open compare panel (tests). */
  static panels(): readonly ComparePanel[] {
    return [...ComparePanel.open];
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly log: Log,
  ) {
    super();
    ComparePanel.open.add(this);
    this._register(panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    this._register(panel.onDidDispose(() => this.dispose()));
  }

  /** What the panel shows (tests read it). */
  get shown(): CompareHostMessage | undefined {
    return this.message;
  }

  /** Shows a newer model (the observed journey went on). */
  update(model: CompareModel): void {
    this.setMessage({ type: 'compare', model });
  }

  private setMessage(message: CompareHostMessage): void {
    this.message = message;
    this.post();
  }

  private post(): void {
    if (this.ready && this.message) void this.panel.webview.postMessage(this.message);
  }

  private receive(raw: unknown): void {
    if (!isCompareWebviewMessage(raw)) {
      this.log.warn('compare: ignored a malformed message from the webview');
      return;
    }
    if (raw.type === 'webviewError') {
      this.log.error(`compare webview: ${raw.message}`);
      return;
    }
    if (raw.protocolVersion !== COMPARE_PROTOCOL_VERSION) this.log.warn(`compare: the webview speaks protocol ${raw.protocolVersion}, the host ${COMPARE_PROTOCOL_VERSION}`);
    // A webview hidden and shown again is rebuilt and says ready again: post the model each time.
    this.ready = true;
    this.post();
  }

  override dispose(): void {
    if (this.isDisposed) return;
    ComparePanel.open.delete(this);
    super.dispose();
    this.panel.dispose();
  }
}

function shortName(uri: vscode.Uri): string {
  const base = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  return base.replace(/\.journey\.json(\.gz)?$/, '');
}
