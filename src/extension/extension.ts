/**
 * Kube Journey's entry point. Activation wires the pieces and does nothing costly: no simulator,
 * no cluster connection and no client-node until the first Apply and Trace. The activation log
 * ("Kube Journey" output) gives the bundle's load time and activate()'s own time.
 */
import { bundleLoadStart } from './headless/load-timer';
import * as vscode from 'vscode';
import type { JourneyObjectRef } from '../core/journey/types';
import { TIMELINE_VIEW_TYPE } from '../protocol/timeline-protocol';
import { ApplyController } from './apply-command';
import { Batcher } from './headless/batcher';
import { clusterSource } from './headless/cluster-source';
import { ManifestCodeLensProvider } from './codelens-provider';
import { CONTENT_SCHEME, CONTEXT_KEYS, JOURNEYS_VIEW_ID } from './commands';
import { KubeJourneyContentProvider } from './content-provider';
import { ApplyForRealCodeLensProvider, FitQuickFixProvider, ResimulateCodeLensProvider } from './fit-quick-fix';
import { ApplyForReal } from './apply-for-real';
import { isSimulated } from './headless/target-model';
import { ManifestHoverProvider } from './hover-provider';
import { JourneyActions } from './journey-actions';
import { ComparePanel } from './compare-panel';
import { JourneyFileActions } from './journey-file-actions';
import { JourneyFileEditorProvider } from './journey-file-editor';
import { JourneyTreeProvider } from './journey-tree-provider';
import type { JourneyTreeNode } from './headless/journey-tree-model';
import { OutputLog } from './log';
import { ManifestCache } from './manifest-cache';
import { registerCommand } from './register-command';
import { SETTINGS_SECTION } from './headless/settings';
import { TargetManager, targetLabel } from './targets';
import { TimelinePanel, TimelineSerializer, type TimelineDeps } from './timeline-panel';
import { TraceSession } from './headless/trace-session';

const bundleLoadedAt = performance.now();

/** What activate() returns: for the extension-host test suites, not a stable public API. */
export interface KubeJourneyApi {
  readonly session: TraceSession;
  readonly tree: JourneyTreeProvider;
  readonly treeView: vscode.TreeView<JourneyTreeNode>;
  readonly targets: TargetManager;
  readonly apply: ApplyController;
  readonly codeLenses: ManifestCodeLensProvider;
  readonly activation: { bundleLoadMs: number; activateMs: number };
  timelinePanels(): readonly TimelinePanel[];
  readonly journeyFiles: JourneyFileActions;
  comparePanels(): readonly ComparePanel[];
  readonly applyForReal: ApplyForReal;
}

const YAML_FILES: vscode.DocumentSelector = [
  { language: 'yaml', scheme: 'file' },
  { language: 'yaml', scheme: 'untitled' },
];

export function activate(context: vscode.ExtensionContext): KubeJourneyApi {
  const activateStart = performance.now();
  const subscriptions = context.subscriptions;
  const log = new OutputLog();
  subscriptions.push(log);
  const session = new TraceSession();
  subscriptions.push(session);

  const targets = new TargetManager({
    source: clusterSource,
    session,
    log,
    state: context.workspaceState,
    simulatorLaunch: { command: process.execPath, args: [context.asAbsolutePath('dist/simulator-server.js')], env: { ELECTRON_RUN_AS_NODE: '1' } },
    storageFolder: context.globalStorageUri.fsPath,
  });
  subscriptions.push(targets);

  const tree = new JourneyTreeProvider(session);
  subscriptions.push(tree);
  const treeView = vscode.window.createTreeView(JOURNEYS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  subscriptions.push(treeView);
  void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasJourneys, false);

  const content = new KubeJourneyContentProvider(session);
  subscriptions.push(content, vscode.workspace.registerTextDocumentContentProvider(CONTENT_SCHEME, content));

  // The timeline and the actions call each other; both closures run only after activation.
  const timelineDeps: TimelineDeps = {
    extensionUri: context.extensionUri,
    session,
    log,
    sourceLabel: () => (targets.target.type === 'simulator' ? 'built-in simulator' : targetLabel(targets.target)),
    openObjectYaml: (journeyId, object, time) => actions.openObjectYamlAt(journeyId, object, time),
    revealInTree: (journeyId, object) => actions.revealInTree(journeyId, object),
  };
  const showTimeline = (journeyId: string, object?: JourneyObjectRef): void => {
    TimelinePanel.show(timelineDeps, journeyId, object ? { journeyId, object } : undefined);
  };
  const actions = new JourneyActions({ session, model: tree.model, treeView: () => treeView, showTimeline, refreshContent: (uri) => content.refresh(uri) });
  subscriptions.push(vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, new TimelineSerializer(timelineDeps)));
  subscriptions.push({ dispose: () => TimelinePanel.panels().forEach((panel) => panel.dispose()) });

  const journeyFileEditors = JourneyFileEditorProvider.register(context.extensionUri, log);
  subscriptions.push(journeyFileEditors.registration, { dispose: () => ComparePanel.panels().forEach((panel) => panel.dispose()) });

  const journeyFiles = new JourneyFileActions({
    extensionUri: context.extensionUri,
    session,
    log,
    target: () => targets.target,
    twinNodes: () => targets.twinSummary?.copied.Node,
    timelinePanels: () => TimelinePanel.panels(),
    editors: journeyFileEditors.provider,
  });

  const apply = new ApplyController({
    targets,
    session,
    log,
    openTimeline: (journeyId) => showTimeline(journeyId),
    onApplied: (manifestKey) => {
      const node = tree.model.manifestNodeFor(manifestKey);
      void treeView.reveal(node, { select: false, focus: false, expand: true }).then(undefined, () => undefined);
    },
  });
  subscriptions.push(apply);

  const cache = new ManifestCache();
  subscriptions.push(vscode.workspace.onDidCloseTextDocument((document) => cache.forget(document)));
  subscriptions.push(vscode.languages.registerHoverProvider({ language: 'yaml' }, new ManifestHoverProvider(cache, session)));
  const lenses = new ManifestCodeLensProvider(cache, session);
  subscriptions.push(lenses, vscode.languages.registerCodeLensProvider(YAML_FILES, lenses));
  const lensRefresh = new Batcher<string>(500, () => lenses.refresh());
  subscriptions.push(lensRefresh, session.onDidChangeJourney((id) => lensRefresh.add(id)), session.onDidChangeManifests(() => lenses.refresh()));
  subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SETTINGS_SECTION}.codeLens`)) lenses.refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => lenses.refresh()),
  );

  subscriptions.push(
    registerCommand('kubeJourney.applyAndTrace', (resource, selection) => apply.run(resource, selection)),
    registerCommand('kubeJourney.switchTarget', () => targets.pickTarget()),
    registerCommand('kubeJourney.resetSimulator', async () => {
      await targets.resetSimulator();
      void vscode.window.showInformationMessage(targets.simulatorRunning ? 'The simulator was reset: a fresh cluster, no objects.' : 'The simulator was reset; it starts again on the next Apply and Trace.');
    }),
    registerCommand('kubeJourney.openSimulatorTerminal', async () => {
      const kubeconfig = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Kube Journey' }, (progress) => targets.simulatorKubeconfigPath(progress));
      const terminal = vscode.window.createTerminal({ name: 'Kube Journey simulator', env: { KUBECONFIG: kubeconfig }, iconPath: new vscode.ThemeIcon('server-environment') });
      terminal.show();
      return terminal;
    }),
    registerCommand('kubeJourney.openTimeline', (target) => actions.openTimeline(target)),
    registerCommand('kubeJourney.showObjectYaml', (node) => actions.showObjectYaml(node)),
    registerCommand('kubeJourney.showSchedulerVerdicts', (node) => actions.showSchedulerVerdicts(node)),
    registerCommand('kubeJourney.saveJourney', (target, destination) => journeyFiles.saveJourney(target, destination)),
    registerCommand('kubeJourney.compareJourneyFiles', (resource, selection) => journeyFiles.compare(resource, selection)),
    registerCommand('kubeJourney.clearJourneys', () => session.clear()),
    registerCommand('kubeJourney.showLog', () => log.show()),
  );

  // Fit suggestions: Quick Fixes on a refused pod's manifest line, and Re-simulate above it.
  subscriptions.push(vscode.languages.registerCodeActionsProvider(YAML_FILES, new FitQuickFixProvider(apply), FitQuickFixProvider.metadata()));
  const resimulateLenses = new ResimulateCodeLensProvider(
    apply,
    () => isSimulated(targets.target),
    () => targets.target.type === 'twin',
  );
  subscriptions.push(resimulateLenses, vscode.languages.registerCodeLensProvider(YAML_FILES, resimulateLenses));
  subscriptions.push(
    registerCommand('kubeJourney.resimulate', async (arg) => {
      const uri = arg ? vscode.Uri.parse(arg.uri) : vscode.window.activeTextEditor?.document.uri;
      if (!uri) return [];
      if (!isSimulated(targets.target)) {
        void vscode.window.showInformationMessage('Re-simulate runs on the built-in simulator or a twin: switch the target to one first.');
        return [];
      }
      // On a twin: a fresh copy of the cluster (resetTwin), so that the earlier attempt's pods take no room the cluster never gave them.
      if (targets.target.type === 'twin') await targets.resetTwin();
      else await targets.resetSimulator();
      return apply.run(uri);
    }),
  );

  // Apply for real after a twin run: the same objects to the context, compared with the prediction.
  const applyForReal = new ApplyForReal({ extensionUri: context.extensionUri, apply, source: clusterSource, twinSession: session, log });
  const applyForRealLenses = new ApplyForRealCodeLensProvider(apply);
  subscriptions.push(applyForReal, applyForRealLenses, vscode.languages.registerCodeLensProvider(YAML_FILES, applyForRealLenses), registerCommand('kubeJourney.applyForReal', (arg) => applyForReal.run(arg)));

  const activation = { bundleLoadMs: bundleLoadedAt - bundleLoadStart, activateMs: performance.now() - activateStart };
  log.info(`activated: bundle load ${activation.bundleLoadMs.toFixed(1)} ms, activate ${activation.activateMs.toFixed(1)} ms (VS Code ${vscode.version})`);
  return { session, tree, treeView, targets, apply, codeLenses: lenses, activation, timelinePanels: () => TimelinePanel.panels(), journeyFiles, comparePanels: () => ComparePanel.panels(), applyForReal };
}

export function deactivate(): void {
  // Everything is in context.subscriptions; the simulator child exits when its stdin closes.
}
