/**
 * Apply for real, after an Apply and Trace on a twin target: sends the objects the twin got to
 * the context it copied (after the usual confirmation of a context apply, through the same client
 * code), traces them there with a connection and trace session of their own (the target stays the
 * twin), and opens the compare view with the twin's journeys as "Predicted (twin of ctx)" and the
 * cluster's as "Observed (ctx)" on one axis. The comparison follows both as they go on (twice a
 * second at most) until its panel is closed, which also closes the connection.
 */
import * as vscode from 'vscode';
import type { ApplyController, TwinRun } from './apply-command';
import type { ApplyForRealArg } from './commands';
import { ComparePanel } from './compare-panel';
import { Batcher } from './headless/batcher';
import { Disposable, type IDisposable } from './headless/disposable';
import type { ApplyOutcome, JourneySource, TargetConnection } from './headless/journey-source';
import type { JourneyTreeNode } from './headless/journey-tree-model';
import { predictedObservedModel } from './headless/predicted-observed';
import { readSetting, SETTINGS_SECTION } from './headless/settings';
import { TraceSession } from './headless/trace-session';
import { explainUntrustedWorkspace } from './headless/workspace-trust';
import type { Journey, TraceableKind } from '../core/journey/types';
import { TRACEABLE_KINDS } from '../common/traceable-kinds';
import type { Log } from './log';

export interface ApplyForRealDeps {
  extensionUri: vscode.Uri;
  apply: ApplyController;
  source: JourneySource;
  /** The twin target's session: the prediction's journeys. */
  twinSession: TraceSession;
  log: Log;
}

/** What one Apply for real did (the command returns it; tests read it). */
export interface RealRun {
  context: string;
  outcomes: ApplyOutcome[];
  /** The observed journeys, in `session`. */
  journeyIds: string[];
  session: TraceSession;
  panel?: ComparePanel;
  cancelled: boolean;
}

function isApplyForRealArg(value: unknown): value is ApplyForRealArg {
  return typeof value === 'object' && value !== null && typeof (value as ApplyForRealArg).uri === 'string' && !('type' in value);
}

export class ApplyForReal extends Disposable {
  constructor(private readonly deps: ApplyForRealDeps) {
    super();
  }

  /** The manifest a CodeLens, a tree item or the active editor means. */
  private manifestKeyOf(arg: ApplyForRealArg | JourneyTreeNode | undefined): string | undefined {
    if (isApplyForRealArg(arg)) return arg.uri;
    if (arg && (arg.type === 'manifest' || arg.type === 'applied')) return arg.manifestKey;
    if (arg && 'journeyId' in arg) {
      const journeyId = arg.journeyId;
      return this.deps.twinSession.manifests().find((manifest) => manifest.entries.some((entry) => entry.journeyId === journeyId))?.key;
    }
    return vscode.window.activeTextEditor?.document.uri.toString();
  }

  async run(arg?: ApplyForRealArg | JourneyTreeNode): Promise<RealRun | undefined> {
    if (!vscode.workspace.isTrusted) {
      void explainUntrustedWorkspace({ showWarningMessage: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions), executeCommand: (command) => vscode.commands.executeCommand(command) });
      return undefined;
    }
    const key = this.manifestKeyOf(arg);
    const twinRun = key === undefined ? undefined : this.deps.apply.twinRun(key);
    if (!twinRun) {
      void vscode.window.showInformationMessage('Apply for real follows an Apply and Trace on a twin target: pick "Twin of <context>" as the target and apply the manifest there first.');
      return undefined;
    }
    const { context } = twinRun;
    const session = new TraceSession();
    const run: RealRun = { context, outcomes: [], journeyIds: [], session, cancelled: false };
    if (!(await this.deps.apply.confirmContextApply(twinRun.objects.length, twinRun.file, context))) {
      run.cancelled = true;
      session.dispose();
      return run;
    }
    let connection: TargetConnection | undefined;
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Apply for real ${twinRun.label} → ${context}`, cancellable: true }, async (progress, token) => {
        progress.report({ message: `Connecting to ${context}…` });
        const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
        connection = await this.deps.source.connect({ kubeconfig: readSetting(config, 'kubeconfig') || undefined, context, sink: session });
        await connection.probe();
        for (const object of twinRun.objects) connection.watchNamespace(object.metadata?.namespace ?? connection.namespace);
        const fieldManager = readSetting(config, 'fieldManager');
        const release = connection.hold();
        try {
          for (const [index, object] of twinRun.objects.entries()) {
            if (token.isCancellationRequested) {
              run.cancelled = true;
              break;
            }
            progress.report({ message: `${object.kind}/${object.metadata?.name ?? ''} (${index + 1}/${twinRun.objects.length})`, increment: 100 / twinRun.objects.length });
            const [outcome] = await connection.apply([object], fieldManager, () => undefined, twinRun.file);
            run.outcomes.push(outcome);
            if (!outcome.failure && TRACEABLE_KINDS.has(outcome.kind)) run.journeyIds.push(session.begin({ kind: outcome.kind as TraceableKind, namespace: outcome.namespace, name: outcome.name }, outcome.requestedAt));
          }
        } finally {
          release();
        }
      });
    } catch (error) {
      (connection as TargetConnection | undefined)?.dispose();
      session.dispose();
      const message = error instanceof Error ? error.message : String(error);
      this.deps.log.error(`Apply for real ${twinRun.label} → ${context}: ${message}`);
      void vscode.window.showErrorMessage(`Cannot reach ${context}: ${message}`);
      return run;
    }
    for (const outcome of run.outcomes) {
      if (outcome.failure) this.deps.log.error(`${twinRun.file}: error when applying ${outcome.display} to ${context}: ${outcome.failure.message}`);
      else this.deps.log.info(`${outcome.display} ${outcome.action ?? 'sent'} (${context}, for real)`);
    }
    run.panel = this.follow(twinRun, run, connection!);
    return run;
  }

  /** Opens the comparison and keeps it current; closing the panel ends the observation. */
  private follow(twinRun: TwinRun, run: RealRun, connection: TargetConnection): ComparePanel {
    // The twin's journeys are gone once its target changes: the last snapshots stand for them.
    const predicted = new Map<string, Journey>();
    const model = () => {
      for (const id of twinRun.journeyIds) {
        const journey = this.deps.twinSession.journey(id);
        if (journey) predicted.set(id, journey);
      }
      const observed = run.journeyIds.flatMap((id) => {
        const journey = run.session.journey(id);
        return journey ? [journey] : [];
      });
      return predictedObservedModel(twinRun.context, [...predicted.values()], observed);
    };
    const panel = ComparePanel.showModel(this.deps.extensionUri, this.deps.log, `Predicted ↔ Observed: ${twinRun.label}`, model());
    const updates = new Batcher<string>(500, () => panel.update(model()));
    const listeners: IDisposable[] = [updates, run.session.onDidChangeJourney((id) => updates.add(id)), this.deps.twinSession.onDidChangeJourney((id) => updates.add(id))];
    const stop = (): void => {
      listeners.forEach((listener) => listener.dispose());
      connection.dispose();
      run.session.dispose();
    };
    panel.panel.onDidDispose(stop);
    this._register({ dispose: () => panel.dispose() });
    return panel;
  }
}
