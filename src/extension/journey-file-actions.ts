/**
 * Journeys as files, in the editor: Save Journey… (from the Journeys view, the timeline panel's
 * title, or the palette) writes the journey file `kube-journey trace --save` writes; Compare With…
 * (from a journey file's editor, the Explorer with two files selected, or the palette) opens the
 * compare panel.
 */
import * as vscode from 'vscode';
import type { JourneyTarget } from '../core/journey-file/types';
import { writeJourneyFile } from '../core/journey-file/node-io';
import { formatJourneyFile } from '../core/journey-file/read';
import { journeySummary } from '../core/explain/lens';
import type { TimelineArg } from './commands';
import { ComparePanel } from './compare-panel';
import { defaultJourneyFileName, journeyFileOf } from './headless/journey-file-save';
import type { JourneyTreeNode } from './headless/journey-tree-model';
import { SETTINGS_SECTION, readSetting } from './headless/settings';
import type { TraceSession } from './headless/trace-session';
import { displayName, JOURNEY_FILE_VIEW_TYPE, type JourneyFileEditorProvider } from './journey-file-editor';
import type { Log } from './log';
import type { Target } from './targets';
import type { TimelinePanel } from './timeline-panel';

export interface JourneyFileActionsDeps {
  extensionUri: vscode.Uri;
  session: TraceSession;
  log: Log;
  target: () => Target;
  /** The running twin's node count (a twin target's journeys are saved as a simulator's with these nodes). */
  twinNodes?: () => number | undefined;
  timelinePanels: () => readonly TimelinePanel[];
  editors: JourneyFileEditorProvider;
}

const JOURNEY_FILE_PATTERN = /\.journey\.json(\.gz)?$/;
const DIALOG_FILTERS = { 'Kube Journey files': ['json', 'gz'] };

function isUri(value: unknown): value is vscode.Uri {
  return value instanceof vscode.Uri;
}

export class JourneyFileActions {
  constructor(private readonly deps: JourneyFileActionsDeps) {}

  private journeyTarget(): JourneyTarget {
    const target = this.deps.target();
    if (target.type === 'context') return { type: 'context', context: target.context };
    // A journey file has no twin target: a twin's journeys are a simulator's, with the copied nodes.
    if (target.type === 'twin') return { type: 'simulator', nodes: this.deps.twinNodes?.() ?? 0, seed: 1 };
    const settings = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const zones = readSetting(settings, 'simulator.zones');
    const speed = readSetting(settings, 'simulator.speed');
    // The simulator child runs with the server's default seed (src/server/child.ts).
    return { type: 'simulator', nodes: readSetting(settings, 'simulator.nodes'), ...(zones > 0 ? { zones } : {}), seed: 1, ...(speed !== 1 ? { speed } : {}), maxPods: readSetting(settings, 'simulator.maxPods') };
  }

  /** Which journey Save Journey… means: the tree's or CodeLens's, else the active timeline's, else one picked. */
  private async journeyIdFor(target: unknown): Promise<string | undefined> {
    if (typeof target === 'object' && target !== null && !isUri(target) && typeof (target as TimelineArg).journeyId === 'string') return (target as TimelineArg | JourneyTreeNode & { journeyId: string }).journeyId;
    const active = this.deps.timelinePanels().find((panel) => panel.panel.active) ?? (this.deps.timelinePanels().length === 1 ? this.deps.timelinePanels()[0] : undefined);
    if (active && this.deps.session.journey(active.shownJourneyId)) return active.shownJourneyId;
    const journeys = this.deps.session.journeyIds().flatMap((id) => {
      const journey = this.deps.session.journey(id);
      return journey ? [journey] : [];
    });
    if (journeys.length <= 1) return journeys[0]?.id;
    const picked = await vscode.window.showQuickPick(
      journeys.map((j) => ({ label: `${j.root.kind} ${j.root.name}`, description: `${j.root.namespace} · ${journeySummary(j)}`, id: j.id })),
      { title: 'Save the journey of' },
    );
    return picked?.id;
  }

  /** Asks where (unless `destination` says), then writes the journey file; returns where it went. */
  async saveJourney(target?: unknown, destination?: unknown): Promise<vscode.Uri | undefined> {
    const journeyId = await this.journeyIdFor(target);
    const journey = journeyId === undefined ? undefined : this.deps.session.journey(journeyId);
    if (!journey) {
      void vscode.window.showInformationMessage('No journey to save: run Apply and Trace on a manifest first.');
      return undefined;
    }
    const manifest = this.deps.session.manifests().find((m) => m.entries.some((entry) => entry.journeyId === journey.id));
    const manifestUri = manifest ? vscode.Uri.parse(manifest.key) : undefined;
    const folder = manifestUri?.scheme === 'file' ? vscode.Uri.joinPath(manifestUri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
    const fileName = defaultJourneyFileName(journey);
    const uri = isUri(destination) ? destination : await vscode.window.showSaveDialog({
      title: `Save the journey of ${journey.root.kind} ${journey.root.name}`,
      saveLabel: 'Save Journey',
      filters: DIALOG_FILTERS,
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
    });
    if (!uri) return undefined;
    const file = journeyFileOf({
      journey,
      phaseValues: this.deps.session.tracer.phaseValues(journey.id),
      manifest,
      source: manifestUri ? vscode.workspace.asRelativePath(manifestUri, false) : (manifest?.label ?? 'unknown manifest'),
      target: this.journeyTarget(),
    });
    try {
      if (uri.scheme === 'file') await writeJourneyFile(uri.fsPath, file);
      else await vscode.workspace.fs.writeFile(uri, Buffer.from(formatJourneyFile(file), 'utf8'));
    } catch (error) {
      const message = `Kube Journey: cannot save the journey: ${error instanceof Error ? error.message : String(error)}`;
      this.deps.log.error(message);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
    this.deps.log.info(`saved the journey of ${journey.root.kind} ${journey.root.namespace}/${journey.root.name} to ${uri.toString()}`);
    void vscode.window.showInformationMessage(`Saved the journey of ${journey.root.kind} ${journey.root.name} to ${displayName(uri)}.`, 'Open').then((choice) => {
      if (choice === 'Open') void vscode.commands.executeCommand('vscode.openWith', uri, JOURNEY_FILE_VIEW_TYPE);
    });
    return uri;
  }

  /** The journey file of the active editor tab (a journey-file editor). */
  private activeJourneyFile(): vscode.Uri | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputCustom && JOURNEY_FILE_PATTERN.test(input.uri.path)) return input.uri;
    if (input instanceof vscode.TabInputText && JOURNEY_FILE_PATTERN.test(input.uri.path)) return input.uri;
    return this.deps.editors.activeFile;
  }

  /** A journey file of the workspace other than `except`, or one from anywhere (Browse…). */
  private async pickJourneyFile(title: string, except?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const found = (await vscode.workspace.findFiles('**/*.journey.json', '**/node_modules/**', 200)).filter((uri) => uri.toString() !== except?.toString());
    found.sort((x, y) => displayName(x).localeCompare(displayName(y)));
    const browse = { label: '$(folder-opened) Browse…', uri: undefined as vscode.Uri | undefined };
    const picked = await vscode.window.showQuickPick([...found.map((uri) => ({ label: displayName(uri), uri })), browse], { title, placeHolder: 'A journey file (*.journey.json)' });
    if (!picked) return undefined;
    if (picked.uri) return picked.uri;
    const chosen = await vscode.window.showOpenDialog({ title, canSelectMany: false, filters: DIALOG_FILTERS, openLabel: 'Compare' });
    return chosen?.[0];
  }

  /**
   * Explorer with two journey files selected: those two. Otherwise the given (or active) journey
   * file as A, and B picked.
   */
  async compare(resource?: unknown, selection?: unknown): Promise<ComparePanel | undefined> {
    const selected = Array.isArray(selection) ? selection.filter(isUri).filter((uri) => JOURNEY_FILE_PATTERN.test(uri.path)) : [];
    let a: vscode.Uri | undefined;
    let b: vscode.Uri | undefined;
    if (selected.length >= 2) [a, b] = selected;
    else {
      a = (isUri(resource) ? resource : undefined) ?? this.activeJourneyFile() ?? (await this.pickJourneyFile('Compare: the first journey (A)'));
      if (!a) return undefined;
      b = await this.pickJourneyFile(`Compare ${displayName(a)} (A) with (B)`, a);
    }
    if (!a || !b) return undefined;
    return ComparePanel.show(this.deps.extensionUri, this.deps.log, a, b);
  }
}
