import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ApplyRun } from '../../../src/extension/apply-command';
import type { KubeJourneyApi } from '../../../src/extension/extension';
import type { HostToWebviewMessage } from '../../../src/protocol/timeline-protocol';
import type { JourneyTreeNode, ObjectNode } from '../../../src/extension/headless/journey-tree-model';
import { keyPosition, openManifest, productApi, simulatorSpeedForSuite, until, workspaceFile } from './helpers';

/**
 * The whole path on the built-in simulator: Apply and Trace, the journey tree filling in live,
 * CodeLens and hover with live state, the timeline panel's protocol, recorded YAML, scheduler
 * verdicts, diagnostics for a server error, the terminal and a reset. One simulator for the file.
 */
describe('Apply and Trace on the built-in simulator', function () {
  this.timeout(180_000);
  let api: KubeJourneyApi;
  let nginx: ApplyRun;

  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('kubeJourney');
  simulatorSpeedForSuite(20);

  before(async () => {
    api = await productApi();
  });

  function children(node?: JourneyTreeNode): JourneyTreeNode[] {
    return api.tree.getChildren(node) as JourneyTreeNode[];
  }

  function label(node: JourneyTreeNode): string {
    const item = api.tree.getTreeItem(node);
    return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  }

  async function applyFile(relative: string): Promise<ApplyRun> {
    const document = await openManifest(relative);
    const runs = await vscode.commands.executeCommand<ApplyRun[]>('kubeJourney.applyAndTrace', document.uri);
    assert.equal(runs.length, 1);
    return runs[0];
  }

  it('applies the nginx Deployment, starting the simulator on first use', async () => {
    nginx = await applyFile('examples/nginx-deployment.yaml');
    assert.deepEqual(nginx.outcomes.map((o) => [o.display, o.action ?? o.failure?.message]), [['deployment.apps/nginx-deployment', 'created']]);
    assert.equal(nginx.journeyIds.length, 1);
    assert.equal(api.targets.simulatorRunning, true);
  });

  it('follows the journey to 3/3 Ready and shows it in the tree: Deployment → ReplicaSet → Pods', async () => {
    const journeyId = nginx.journeyIds[0];
    const journey = await until('the nginx journey to complete', () => {
      const j = api.session.journey(journeyId);
      return j?.done ? j : undefined;
    }, [api.session.onDidChangeJourney]);
    assert.equal(journey.status, 'complete');
    api.tree.flushNow();
    const manifest = children().find((n) => label(n) === 'nginx-deployment.yaml');
    assert.ok(manifest, 'manifest node');
    const [deployment] = children(manifest);
    assert.equal(label(deployment), 'nginx-deployment');
    assert.match(String(api.tree.getTreeItem(deployment).description), /^Deployment · 3\/3 ready · [\d.]+ (ms|s)$/);
    const [replicaSet] = children(deployment);
    const pods = children(replicaSet);
    assert.equal(pods.length, 3);
    for (const pod of pods) {
      const item = api.tree.getTreeItem(pod);
      assert.match(String(item.description), /^node-\d · Running · 1\/1 ready · 0 restarts$/);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass-filled');
      assert.equal(item.contextValue, 'kubeJourney.pod');
    }
  });

  it('shows the live summary in the CodeLens and live replicas in the hover', async () => {
    const document = await openManifest('examples/nginx-deployment.yaml');
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri)) ?? [];
    const titles = lenses.map((lens) => lens.command?.title ?? '');
    assert.ok(titles.includes('Open Timeline'), titles.join(' | '));
    assert.ok(titles.some((t) => /^3\/3 ready · [\d.]+ (ms|s)$/.test(t)), titles.join(' | '));
    const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, keyPosition(document, 'replicas'))) ?? [];
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
    assert.match(text, /3 desired · 3 ready · 3 available/);
    assert.match(text, /running on node-\d/);
  });

  it('opens the timeline panel, which says ready and gets a snapshot of the journey', async () => {
    await vscode.commands.executeCommand('kubeJourney.openTimeline', { journeyId: nginx.journeyIds[0] });
    const panel = api.timelinePanels().find((p) => p.shownJourneyId === nginx.journeyIds[0]);
    assert.ok(panel, 'a panel for the journey');
    assert.equal(panel.panel.viewType, 'kubeJourney.timeline');
    assert.deepEqual(panel.panel.webview.options.localResourceRoots?.map((uri) => uri.path.split('/').pop()), ['media']);
    const posted: HostToWebviewMessage[] = [];
    const listening = panel.onDidPost((message) => posted.push(message));
    try {
      // The host posts nothing before `ready`; its first message after it is the full snapshot.
      const snapshot = await until('the timeline webview to say ready and get a snapshot', () => posted.find((m) => m.type === 'snapshot'), [panel.onDidPost], 30_000);
      assert.equal(snapshot.type === 'snapshot' && snapshot.journeys.map((j) => j.id).join(), nginx.journeyIds[0]);
      assert.equal(snapshot.type === 'snapshot' && snapshot.source, 'built-in simulator');
      assert.equal(posted[0].type, 'snapshot');
    } finally {
      listening.dispose();
    }
    // Opening the same journey again reuses its panel.
    await vscode.commands.executeCommand('kubeJourney.openTimeline', { journeyId: nginx.journeyIds[0] });
    assert.equal(api.timelinePanels().filter((p) => p.shownJourneyId === nginx.journeyIds[0]).length, 1);
  });

  it('shows a pod as YAML at a recorded moment, read-only', async () => {
    const pod = children(children(children(children().find((n) => label(n) === 'nginx-deployment.yaml'))[0])[0])[0] as ObjectNode;
    const versions = api.session.history.versions({ kind: 'Pod', namespace: pod.namespace, name: pod.name });
    assert.ok(versions.length >= 3, `${versions.length} versions recorded`);
    const uri = vscode.Uri.from({ scheme: 'kube-journey', path: `/object/Pod/${pod.namespace}/${pod.name}.yaml`, query: `rv=${versions[0].resourceVersion}` });
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'yaml');
    assert.match(document.getText(), /^# Pod default\/nginx-deployment-[\w-]+ as the watch delivered it at/);
    assert.match(document.getText(), /\nkind: Pod\n/);
    assert.doesNotMatch(document.getText(), /^\s*managedFields:/m);
  });

  it('offers the scheduler verdicts of a pod no node accepts', async () => {
    const run = await applyFile('examples/node-selector.yaml');
    const journeyId = run.journeyIds[0];
    await until('the ssd-only journey to be stuck', () => api.session.journey(journeyId)?.stuck, [api.session.onDidChangeJourney]);
    api.tree.flushNow();
    const deployment = children(children().find((n) => label(n) === 'node-selector.yaml'))[0];
    const pod = children(children(deployment)[0])[0];
    const item = api.tree.getTreeItem(pod);
    assert.equal(item.contextValue, 'kubeJourney.pod.unscheduled');
    const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip);
    assert.match(tooltip, /didn't match Pod's node affinity\/selector/);
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('kubeJourney.showSchedulerVerdicts', pod);
    assert.ok(document);
    assert.match(document.getText(), /\| node-1 \| ✗ UnschedulableAndUnresolvable \| NodeAffinity \|/);
  });

  it('puts a server error on the line of the offending field', async () => {
    const uri = workspaceFile('examples/negative-replicas.yaml');
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: negative\nspec:\n  replicas: -1\n  selector:\n    matchLabels:\n      app: negative\n  template:\n    metadata:\n      labels:\n        app: negative\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n';
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
    const run = await applyFile('examples/negative-replicas.yaml');
    assert.ok(run.outcomes[0].failure, 'the server refuses replicas: -1');
    const diagnostics = vscode.languages.getDiagnostics(uri);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].range.start.line, 5);
    assert.equal(diagnostics[0].severity, vscode.DiagnosticSeverity.Error);
    assert.match(diagnostics[0].message, /must be greater than or equal to 0/);
  });

  it('opens a terminal whose KUBECONFIG points at the simulator', async () => {
    const terminal = await vscode.commands.executeCommand<vscode.Terminal>('kubeJourney.openSimulatorTerminal');
    const env = (terminal.creationOptions as vscode.TerminalOptions).env ?? {};
    assert.equal(env.KUBECONFIG, api.targets.simulatorKubeconfig);
    assert.ok(existsSync(api.targets.simulatorKubeconfig));
    terminal.dispose();
  });

  it('applies to a kubeconfig context listed as needing no confirmation (the simulator\'s own context)', async () => {
    const kubeconfig = api.targets.simulatorKubeconfig;
    await config().update('kubeconfig', kubeconfig, vscode.ConfigurationTarget.Global);
    await config().update('applyWithoutConfirmation', ['kube-journey-simulator'], vscode.ConfigurationTarget.Global);
    try {
      await api.targets.setTarget({ type: 'context', context: 'kube-journey-simulator' });
      assert.deepEqual(children(), [], 'switching the target forgets the journeys of the previous one');
      const run = await applyFile('examples/multi-document.yaml');
      assert.deepEqual(run.outcomes.map((o) => `${o.display} ${o.action ?? o.failure?.message}`), ['namespace/shop created', 'configmap/frontend-config created', 'deployment.apps/frontend created']);
      await until('the frontend journey to complete', () => api.session.journey(run.journeyIds[0])?.done, [api.session.onDidChangeJourney]);
      api.tree.flushNow();
      const manifest = children().find((n) => label(n) === 'multi-document.yaml');
      assert.ok(manifest);
      assert.match(String(api.tree.getTreeItem(manifest).description), /^kube-journey-simulator · /);
      assert.deepEqual(children(manifest).map(label), ['namespace/shop', 'configmap/frontend-config', 'frontend']);
    } finally {
      await api.targets.setTarget({ type: 'simulator' });
      await config().update('kubeconfig', undefined, vscode.ConfigurationTarget.Global);
      await config().update('applyWithoutConfirmation', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('resets the simulator: a fresh cluster and no journeys', async () => {
    await vscode.commands.executeCommand('kubeJourney.resetSimulator');
    assert.deepEqual(children(), []);
    assert.equal(api.session.journeyIds().length, 0);
    assert.equal(api.targets.simulatorRunning, true);
  });
});
