/**
 * Opening a `*.journey.json` file shows its journey in the timeline: a read-only custom editor
 * whose webview is the timeline panel's own (media/timeline.js, the same protocol), fed from the
 * file alone — no cluster, no simulator. The journey is drawn once (a saved journey does not
 * change); evidence the snapshot leaves out is answered from the file; what needs the live cluster
 * (an object's YAML, the Journeys tree) says so. A file that cannot be read shows its one error
 * line (the file and the line or field) instead of a blank panel.
 */
import * as vscode from 'vscode';
import type { JourneyFile } from '../core/journey-file/types';
import {
  TIMELINE_PROTOCOL_VERSION,
  answerObjectDetail,
  isWebviewToHostMessage,
  journeyObjectKey,
  type HostToWebviewMessage,
  type WebviewToHostMessage,
} from '../protocol/timeline-protocol';
import { Disposable } from './headless/disposable';
import { buildJourneyFileErrorHtml } from './headless/journey-file-html';
import { decodeJourneyFile, journeyFileProblem, journeyFileSnapshot, journeysOf } from './headless/journey-file-view';
import { buildTimelineHtml } from './headless/timeline-html';
import type { Log } from './log';

/** The custom editor's view type (package.json `customEditors`). */
export const JOURNEY_FILE_VIEW_TYPE = 'kubeJourney.journeyFile';

/** A journey file as opened: its content, or why it cannot be shown. */
export class JourneyFileDocument implements vscode.CustomDocument {
  constructor(
    readonly uri: vscode.Uri,
    readonly content: { file: JourneyFile } | { problem: string },
  ) {}

  dispose(): void {
    // Nothing held: the file is read once, on open.
  }
}

/** The file's name as the user sees it in the Explorer (for the one-line errors). */
export function displayName(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

/** Reads and decodes a journey file wherever it lives (local, remote, virtual). */
export async function loadJourneyFile(uri: vscode.Uri): Promise<{ file: JourneyFile } | { problem: string }> {
  const name = displayName(uri);
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return { file: decodeJourneyFile(bytes, name) };
  } catch (error) {
    if (error instanceof vscode.FileSystemError) return { problem: `${name}: cannot read it: ${error.code === 'FileNotFound' ? 'no such file' : error.message}` };
    return { problem: journeyFileProblem(error, name) };
  }
}

/** One open editor of a journey file: the timeline webview's host, for a journey that does not change. */
class JourneyFileView extends Disposable {
  private selected: string | undefined;
  private readonly wholeJourneys = new Set<string>();

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly file: JourneyFile,
    private readonly log: Log,
  ) {
    super();
    this._register(panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)));
  }

  private post(message: HostToWebviewMessage): void {
    void this.panel.webview.postMessage(message);
  }

  private snapshot(): void {
    this.post(journeyFileSnapshot(this.file, { keep: this.selected ? new Set([this.selected]) : undefined, wholeJourneys: this.wholeJourneys }));
  }

  private receive(raw: unknown): void {
    if (!isWebviewToHostMessage(raw)) {
      this.log.warn('journey file: ignored a malformed message from the webview');
      return;
    }
    const message: WebviewToHostMessage = raw;
    switch (message.type) {
      case 'ready':
        if (message.protocolVersion !== TIMELINE_PROTOCOL_VERSION) this.log.warn(`journey file: the webview speaks protocol ${message.protocolVersion}, the host ${TIMELINE_PROTOCOL_VERSION}`);
        this.snapshot();
        return;
      case 'resync':
        this.snapshot();
        return;
      case 'selectionChanged':
        this.selected = message.selection ? journeyObjectKey(message.selection.object) : undefined;
        return;
      case 'requestAllPods':
        this.wholeJourneys.add(message.journeyId);
        this.snapshot();
        return;
      case 'requestObjectDetail':
        this.post(answerObjectDetail(journeysOf(this.file).find((journey) => journey.id === message.journeyId), message));
        return;
      case 'openObjectYaml':
        this.post({ type: 'requestResult', requestId: message.requestId, ok: false, error: 'A journey file keeps the journey, not the objects’ YAML: apply the manifest again to see them.' });
        return;
      case 'revealInTree':
        this.post({ type: 'requestResult', requestId: message.requestId, ok: false, error: 'A saved journey is not in the Journeys view: it shows only what was traced in this window.' });
        return;
      case 'webviewError':
        this.log.error(`journey file webview: ${message.message}`);
        return;
      default: {
        const _unhandled: never = message;
        return;
      }
    }
  }
}

/** The `customEditors` provider of `*.journey.json`. */
export class JourneyFileEditorProvider implements vscode.CustomReadonlyEditorProvider<JourneyFileDocument> {
  private activeUri: vscode.Uri | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Log,
  ) {}

  static register(extensionUri: vscode.Uri, log: Log): { provider: JourneyFileEditorProvider; registration: vscode.Disposable } {
    const provider = new JourneyFileEditorProvider(extensionUri, log);
    const registration = vscode.window.registerCustomEditorProvider(JOURNEY_FILE_VIEW_TYPE, provider, { supportsMultipleEditorsPerDocument: true, webviewOptions: { enableFindWidget: true } });
    return { provider, registration };
  }

  /** The journey file of the active journey-file editor, if one is active (Compare With… from its title). */
  get activeFile(): vscode.Uri | undefined {
    return this.activeUri;
  }

  async openCustomDocument(uri: vscode.Uri): Promise<JourneyFileDocument> {
    const content = await loadJourneyFile(uri);
    if ('problem' in content) this.log.warn(`journey file: ${content.problem}`);
    return new JourneyFileDocument(uri, content);
  }

  async resolveCustomEditor(document: JourneyFileDocument, panel: vscode.WebviewPanel): Promise<void> {
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const webview = panel.webview;
    const trackActive = (): void => {
      if (panel.active) this.activeUri = document.uri;
      else if (this.activeUri?.toString() === document.uri.toString()) this.activeUri = undefined;
    };
    trackActive();
    const disposables: vscode.Disposable[] = [panel.onDidChangeViewState(trackActive)];
    panel.onDidDispose(() => {
      disposables.forEach((d) => d.dispose());
      if (this.activeUri?.toString() === document.uri.toString()) this.activeUri = undefined;
    });
    if ('problem' in document.content) {
      webview.options = { enableScripts: false, localResourceRoots: [media] };
      webview.html = buildJourneyFileErrorHtml({
        cspSource: webview.cspSource,
        styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'compare.css')).toString(),
        problem: document.content.problem,
        hint: 'Journey files are written by “kube-journey trace --save FILE.journey.json” and by Kube Journey: Save Journey…; fix the file or save the journey again.',
      });
      return;
    }
    webview.options = { enableScripts: true, localResourceRoots: [media] };
    disposables.push(new JourneyFileView(panel, document.content.file, this.log));
    webview.html = buildTimelineHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'timeline.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'timeline.css')).toString(),
      title: displayName(document.uri),
    });
  }
}
