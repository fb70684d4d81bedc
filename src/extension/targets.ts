/**
 * Where Apply and Trace sends manifests: the built-in simulator (the default, started as a child
 * process on first use), a kubeconfig context, or the twin of a context (the simulator child
 * started with a read-only copy of that cluster, docs/twin.md). Owns the status bar item that
 * shows the target and switches it, the simulator and twin processes, and the one live
 * connection, whose watch feeds the trace session. Switching the target forgets the session's
 * journeys: they belong to a cluster.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SIMULATOR_CONTEXT, type TwinSummary } from '../protocol/simulator-server';
import { CONTEXT_KEYS, CATEGORY } from './commands';
import { Disposable, type IDisposable } from './headless/disposable';
import type { ContextSummary, JourneySource, TargetConnection } from './headless/journey-source';
import type { KubeObject } from '../core/k8s';
import type { Log } from './log';
import { readSetting, SETTINGS_SECTION } from './headless/settings';
import { SimulatorChild, SimulatorStartError, type SimulatorLaunch } from './headless/simulator-child';
import { isSimulated, isTarget, sameTarget, targetLabel, TWINS_SEPARATOR, twinFailureMessage, twinTooltip, type Target } from './headless/target-model';
import type { TraceSession } from './headless/trace-session';

export { targetLabel, type Target } from './headless/target-model';

const TARGET_STATE_KEY = 'kubeJourney.target';

/** A twin that could not be made (context unreachable, credentials refused, kubeconfig broken): its message is the one line to show. */
export class TwinStartError extends Error {
  override readonly name = 'TwinStartError';
}

export interface TargetManagerDeps {
  source: JourneySource;
  session: TraceSession;
  log: Log;
  state: vscode.Memento;
  /** How to start the simulator process. */
  simulatorLaunch: SimulatorLaunch;
  /** Folder for the simulator's kubeconfig. */
  storageFolder: string;
}

type ProgressReporter = vscode.Progress<{ message?: string }>;

export class TargetManager extends Disposable {
  private currentTarget: Target;
  private connection: TargetConnection | undefined;
  private connecting: Promise<TargetConnection> | undefined;
  private simulator: SimulatorChild | undefined;
  /** The current twin target's simulator: a copy made on first use, dropped when the target changes. */
  private twin: SimulatorChild | undefined;
  private watchProblems: string[] = [];
  private problemsListener: IDisposable | undefined;
  private readonly statusItem: vscode.StatusBarItem;
  private readonly changeEmitter = this._register(new vscode.EventEmitter<Target>());
  readonly onDidChangeTarget = this.changeEmitter.event;
  /** Per window: two windows each run their own simulator. */
  readonly simulatorKubeconfig: string;
  private readonly twinKubeconfig: string;

  constructor(private readonly deps: TargetManagerDeps) {
    super();
    const saved = deps.state.get<unknown>(TARGET_STATE_KEY);
    this.currentTarget = isTarget(saved) ? saved : { type: 'simulator' };
    this.simulatorKubeconfig = join(deps.storageFolder, `simulator-${process.pid}.kubeconfig`);
    this.twinKubeconfig = join(deps.storageFolder, `twin-${process.pid}.kubeconfig`);
    this.statusItem = this._register(vscode.window.createStatusBarItem('kubeJourney.target', vscode.StatusBarAlignment.Left, 10));
    this.statusItem.name = 'Kube Journey Target';
    this.statusItem.command = 'kubeJourney.switchTarget';
    this.updateStatus();
    this.statusItem.show();
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.targetIsSimulator, this.currentTarget.type === 'simulator');
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.targetIsSimulated, isSimulated(this.currentTarget));
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.targetIsTwin, this.currentTarget.type === 'twin');
    this._register({ dispose: () => void this.disconnect() });
  }

  get target(): Target {
    return this.currentTarget;
  }

  get simulatorRunning(): boolean {
    return this.simulator?.running === true;
  }

  /** What the running twin holds of its cluster (undefined until the first Apply and Trace on a twin target). */
  get twinSummary(): TwinSummary | undefined {
    return this.twin?.running ? this.twin.ready.twin : undefined;
  }

  private updateStatus(): void {
    const target = this.currentTarget;
    const problems = this.watchProblems.length > 0;
    const icon = problems ? '$(warning)' : target.type === 'simulator' ? '$(server-environment)' : target.type === 'twin' ? '$(copy)' : '$(cloud)';
    this.statusItem.text = `${icon} ${targetLabel(target)}`;
    const tooltip = new vscode.MarkdownString();
    if (target.type === 'simulator') {
      const nodes = readSetting(vscode.workspace.getConfiguration(SETTINGS_SECTION), 'simulator.nodes');
      tooltip.appendMarkdown(`**Kube Journey target:** the built-in simulator (${nodes} worker nodes)\n\n`);
      tooltip.appendMarkdown(this.simulatorRunning ? `Running at ${this.simulator!.ready.url}\n\n` : 'Starts on the first Apply and Trace.\n\n');
    } else if (target.type === 'twin') {
      const running = this.twin?.running ? this.twin : undefined;
      tooltip.appendMarkdown(`${twinTooltip(target.context, running?.ready.twin, running?.ready.url).join('\n\n')}\n\n`);
    } else {
      tooltip.appendMarkdown(`**Kube Journey target:** kubeconfig context \`${target.context}\`\n\n`);
      if (this.connection) tooltip.appendMarkdown(`Server ${this.connection.server} · namespace \`${this.connection.namespace}\`\n\n`);
    }
    for (const problem of this.watchProblems) tooltip.appendText(`⚠ ${problem}\n`);
    tooltip.appendMarkdown('\n\nClick to switch the target.');
    this.statusItem.tooltip = tooltip;
    this.statusItem.backgroundColor = problems ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  /**
   * The live connection to the target, connecting (and starting the simulator or the twin) when
   * needed. `manifestObjects`: what is about to be applied; a twin made now copies those of them
   * the cluster holds.
   */
  async connect(progress?: ProgressReporter, manifestObjects?: readonly KubeObject[]): Promise<TargetConnection> {
    if (this.connection) return this.connection;
    if (!this.connecting) {
      const target = this.currentTarget;
      this.connecting = this.open(target, progress, manifestObjects).then(
        (connection) => {
          this.connecting = undefined;
          if (this.currentTarget !== target) {
            connection.dispose();
            throw new Error('the target changed while connecting');
          }
          this.connection = connection;
          this.watchProblems = connection.problems();
          this.problemsListener = connection.onProblemsChanged((problems) => {
            if (this.connection !== connection) return;
            if (problems.join('\n') !== this.watchProblems.join('\n')) for (const p of problems) this.deps.log.warn(`watch: ${p}`);
            this.watchProblems = problems;
            this.updateStatus();
          });
          this.updateStatus();
          return connection;
        },
        (error: unknown) => {
          this.connecting = undefined;
          throw error;
        },
      );
    }
    return this.connecting;
  }

  private async open(target: Target, progress?: ProgressReporter, manifestObjects?: readonly KubeObject[]): Promise<TargetConnection> {
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    if (target.type === 'twin') {
      const twin = await this.startTwin(target.context, progress, manifestObjects);
      progress?.report({ message: `Connecting to the twin of ${target.context}…` });
      const connection = await this.deps.source.connect({ kubeconfig: twin.options.kubeconfigPath, context: SIMULATOR_CONTEXT, sink: this.deps.session });
      this.deps.log.info(`connected to the twin of ${target.context} at ${connection.server}`);
      return connection;
    }
    if (target.type === 'simulator') {
      const simulator = await this.startSimulator(progress);
      progress?.report({ message: 'Connecting to the simulator…' });
      const connection = await this.deps.source.connect({ kubeconfig: simulator.options.kubeconfigPath, context: SIMULATOR_CONTEXT, sink: this.deps.session });
      this.deps.log.info(`connected to the simulator at ${connection.server}`);
      return connection;
    }
    progress?.report({ message: `Connecting to ${target.context}…` });
    const kubeconfig = readSetting(config, 'kubeconfig') || undefined;
    const connection = await this.deps.source.connect({ kubeconfig, context: target.context, sink: this.deps.session });
    try {
      await connection.probe();
    } catch (error) {
      connection.dispose();
      throw error;
    }
    this.deps.log.info(`connected to context ${connection.context} at ${connection.server} (namespace ${connection.namespace})`);
    return connection;
  }

  private async startSimulator(progress?: ProgressReporter): Promise<SimulatorChild> {
    if (this.simulator?.running) return this.simulator;
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const nodes = readSetting(config, 'simulator.nodes');
    const speed = readSetting(config, 'simulator.speed');
    const maxPods = readSetting(config, 'simulator.maxPods');
    const zones = readSetting(config, 'simulator.zones');
    progress?.report({ message: `Starting the built-in simulator (${nodes} nodes)…` });
    const started = performance.now();
    const simulator = await SimulatorChild.start(this.deps.simulatorLaunch, {
      nodes,
      speed,
      maxPods,
      zones,
      kubeconfigPath: this.simulatorKubeconfig,
      onLog: (line) => this.deps.log.info(`[simulator] ${line}`),
    });
    this.deps.log.info(`simulator started in ${Math.round(performance.now() - started)} ms: pid ${simulator.pid}, ${nodes} nodes, ${simulator.ready.url}`);
    simulator.onExit((code) => {
      if (this.simulator !== simulator) return;
      this.deps.log.warn(`the simulator exited (code ${code})`);
      this.simulator = undefined;
      if (this.currentTarget.type === 'simulator') void this.disconnect();
      this.updateStatus();
    });
    this.simulator = simulator;
    this.updateStatus();
    return simulator;
  }

  /**
   * Copies the context into a fresh simulator child (GET requests only) unless the twin of that
   * context runs already. What was copied, and what could not be, goes to the output channel.
   */
  private async startTwin(context: string, progress?: ProgressReporter, manifestObjects?: readonly KubeObject[]): Promise<SimulatorChild> {
    if (this.twin?.running && this.twin.options.twin?.context === context) return this.twin;
    await this.stopTwin();
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const kubeconfig = readSetting(config, 'kubeconfig') || undefined;
    progress?.report({ message: `Copying ${context} for its twin…` });
    this.deps.log.info(`copying context ${context} for its twin (GET requests only)`);
    let twin: SimulatorChild;
    try {
      twin = await SimulatorChild.start(this.deps.simulatorLaunch, {
        // A twin has the copied nodes; `nodes` is not used.
        nodes: 1,
        speed: readSetting(config, 'simulator.speed'),
        maxPods: readSetting(config, 'simulator.maxPods'),
        kubeconfigPath: this.twinKubeconfig,
        onLog: (line) => this.deps.log.info(`[twin] ${line}`),
        twin: { context, kubeconfig, manifestObjects },
      });
    } catch (error) {
      if (error instanceof SimulatorStartError) throw new TwinStartError(twinFailureMessage(context, error.message));
      throw error;
    }
    for (const line of twin.ready.twin?.header ?? []) this.deps.log.info(line);
    twin.onExit((code) => {
      if (this.twin !== twin) return;
      this.deps.log.warn(`the twin of ${context} exited (code ${code})`);
      this.twin = undefined;
      if (this.currentTarget.type === 'twin') void this.disconnect();
      this.updateStatus();
    });
    this.twin = twin;
    this.updateStatus();
    return twin;
  }

  private async stopTwin(): Promise<void> {
    const twin = this.twin;
    this.twin = undefined;
    if (!twin) return;
    await twin.stop();
    rmSync(this.twinKubeconfig, { force: true });
  }

  /**
   * Re-simulate on a twin: forgets the journeys and drops the twin, so that the next Apply and
   * Trace copies the cluster afresh (as it is now, with none of the earlier attempt's pods).
   */
  async resetTwin(): Promise<void> {
    if (this.currentTarget.type !== 'twin') return;
    await this.disconnect();
    await this.stopTwin();
    this.deps.session.clear();
    this.deps.log.info(`twin of ${this.currentTarget.context} dropped: the next Apply and Trace copies the cluster again`);
    this.updateStatus();
  }

  private async disconnect(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.connecting = undefined;
    this.watchProblems = [];
    this.problemsListener?.dispose();
    this.problemsListener = undefined;
    connection?.dispose();
  }

  private async stopSimulator(): Promise<void> {
    const simulator = this.simulator;
    this.simulator = undefined;
    await simulator?.stop();
    rmSync(this.simulatorKubeconfig, { force: true });
  }

  async setTarget(target: Target): Promise<void> {
    if (sameTarget(target, this.currentTarget)) return;
    await this.disconnect();
    // A twin is a snapshot: coming back to it later copies the cluster again.
    await this.stopTwin();
    this.currentTarget = target;
    await this.deps.state.update(TARGET_STATE_KEY, target);
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.targetIsSimulator, target.type === 'simulator');
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.targetIsSimulated, isSimulated(target));
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.targetIsTwin, target.type === 'twin');
    this.deps.session.clear();
    this.deps.log.info(`target: ${targetLabel(target)}`);
    this.updateStatus();
    this.changeEmitter.fire(target);
  }

  /** The quick pick behind the status bar item: the simulator, then every kubeconfig context. */
  async pickTarget(): Promise<void> {
    type Item = vscode.QuickPickItem & { target?: Target };
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const kubeconfig = readSetting(config, 'kubeconfig') || undefined;
    let contexts: ContextSummary[] = [];
    let contextsError: string | undefined;
    try {
      contexts = await this.deps.source.listContexts(kubeconfig);
    } catch (error) {
      contextsError = error instanceof Error ? error.message : String(error);
    }
    const current = this.currentTarget;
    const check = (t: Target): string => (sameTarget(t, current) ? '$(check) ' : '');
    const nodes = readSetting(config, 'simulator.nodes');
    const items: Item[] = [
      {
        label: `${check({ type: 'simulator' })}$(server-environment) Built-in simulator`,
        description: `${nodes} worker nodes`,
        detail: this.simulatorRunning ? `running at ${this.simulator!.ready.url}` : 'a simulated cluster, started on first use',
        target: { type: 'simulator' },
      },
      { label: kubeconfig ? `kubeconfig ${kubeconfig}` : 'kubeconfig contexts', kind: vscode.QuickPickItemKind.Separator },
    ];
    for (const c of contexts) {
      const target: Target = { type: 'context', context: c.name };
      items.push({ label: `${check(target)}$(cloud) ${c.name}`, description: `${c.cluster}${c.current ? ' · current context' : ''}`, detail: `${c.server ?? 'no server'} · namespace ${c.namespace}`, target });
    }
    if (contexts.length === 0) items.push({ label: '$(info) No kubeconfig contexts', detail: contextsError ?? 'Set KUBECONFIG or the kubeJourney.kubeconfig setting' });
    if (contexts.length > 0) items.push({ label: TWINS_SEPARATOR, kind: vscode.QuickPickItemKind.Separator });
    for (const c of contexts) {
      const target: Target = { type: 'twin', context: c.name };
      items.push({ label: `${check(target)}$(copy) Twin of ${c.name}`, description: 'a simulator holding a copy of the cluster', detail: `read from ${c.server ?? 'no server'} with GET requests only; applies go to the copy, never to the cluster`, target });
    }
    const picked = await vscode.window.showQuickPick(items, { title: `${CATEGORY}: target cluster`, placeHolder: 'Where Apply and Trace sends manifests', matchOnDescription: true, matchOnDetail: true });
    if (picked?.target) await this.setTarget(picked.target);
  }

  /** Stops the simulator, forgets its journeys and starts a fresh one if it was running. */
  async resetSimulator(): Promise<void> {
    const wasRunning = this.simulatorRunning;
    if (this.currentTarget.type === 'simulator') await this.disconnect();
    await this.stopSimulator();
    if (this.currentTarget.type === 'simulator') this.deps.session.clear();
    this.deps.log.info('simulator reset');
    this.updateStatus();
    if (wasRunning) {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Kube Journey' }, async (progress) => {
        await this.startSimulator(progress);
        if (this.currentTarget.type === 'simulator') await this.connect(progress);
      });
    }
  }

  /** Starts the simulator if needed and returns its kubeconfig (for the terminal). */
  async simulatorKubeconfigPath(progress?: ProgressReporter): Promise<string> {
    const simulator = await this.startSimulator(progress);
    return simulator.options.kubeconfigPath;
  }

  override dispose(): void {
    void this.stopSimulator();
    void this.stopTwin();
    super.dispose();
  }
}
