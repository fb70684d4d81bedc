/**
 * Apply and Trace: sends the file (or the selection, or one document) to the current target
 * with server-side apply, under a cancellable progress notification, begins a journey for each
 * Deployment, ReplicaSet and Pod the server accepted, shows every document's result, and puts
 * each error on the YAML line it is about. Nothing is sent while the manifest has a YAML problem,
 * nor from an untrusted workspace, nor to a real cluster without the user's confirmation.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { TraceableKind } from '../core/journey/types';
import { needsConfirmation, outcomeDiagnostics, outcomeEntries, planApply, planObjects, resultMessage, type ApplyPlan, type PlannedDiagnostic } from './headless/apply-plan';
import type { ApplyDocumentArg } from './commands';
import { Disposable } from './headless/disposable';
import { Batcher } from './headless/batcher';
import { dependencyDiagnostics } from './headless/dependency-diagnostics';
import { fitDiagnostics, type FitProblem, type RefusedPod } from './headless/fit-diagnostics';
import type { Journey } from '../core/journey/types';
import type { KubeObject } from '../core/k8s';
import type { RootQuery } from '../core/explain/hover';
import type { ApplyOutcome } from './headless/journey-source';
import type { Log } from './log';
import { readSetting, SETTINGS_SECTION } from './headless/settings';
import { targetLabel, TwinStartError, type TargetManager } from './targets';
import { isSimulated } from './headless/target-model';
import { TRACEABLE_KINDS } from '../common/traceable-kinds';
import type { AppliedManifest, TraceSession } from './headless/trace-session';
import { explainUntrustedWorkspace } from './headless/workspace-trust';

/** What one file's apply did; the command returns these (tests read them). */
export interface ApplyRun {
  uri: string;
  outcomes: ApplyOutcome[];
  journeyIds: string[];
  problems: PlannedDiagnostic[];
  cancelled: boolean;
}

interface ApplySource {
  uri: vscode.Uri;
  selection?: vscode.Selection;
  documentIndex?: number;
}

export interface ApplyDeps {
  targets: TargetManager;
  session: TraceSession;
  log: Log;
  /** Called after a successful apply with the manifest's key (the tree reveals it). */
  onApplied?: (manifestKey: string) => void;
  openTimeline: (journeyId: string) => void;
}

/** An applied file whose journeys may still get stuck on a missing object: its diagnostics follow them. */
interface TrackedApply {
  uri: vscode.Uri;
  plan: ApplyPlan;
  /** The root of each applied document's journey, by position in `plan.documents` (a newer apply of it takes over). */
  roots: (RootQuery | undefined)[];
  /** The journey ids last looked at, as a string to compare. */
  lastIds: string;
  /** The server's errors, kept under the journeys' warnings. */
  serverProblems: PlannedDiagnostic[];
  source: string;
  /** The dependency warnings shown, as a string to compare. */
  shown: string;
  warnings: PlannedDiagnostic[];
  /** The refused pods whose fit suggestions were asked for, as a string to compare. */
  refusedKey: string;
  fitProblems: FitProblem[];
}

/** The first pod the scheduler refused in each document's journey (without suggestions yet). */
function refusedPods(journeys: readonly (Journey | undefined)[]): Omit<RefusedPod, 'fits'>[] {
  const refused: Omit<RefusedPod, 'fits'>[] = [];
  journeys.forEach((journey, document) => {
    const entry = journey?.stuckObjects.find((e) => e.ref.kind === 'Pod' && e.stuck.reason === 'FailedScheduling' && e.stuck.object.uid === e.ref.uid);
    if (entry) refused.push({ document, pod: { namespace: entry.ref.namespace, name: entry.ref.name }, stuck: { reason: entry.stuck.reason, message: entry.stuck.message } });
  });
  return refused;
}

/** An Apply and Trace on a twin target: what "Apply for real" sends to the context, and the prediction it is compared with. */
export interface TwinRun {
  /** The context the twin copied. */
  context: string;
  uri: vscode.Uri;
  /** `app.yaml`, and `app.yaml (document 2)` as the tree names the run. */
  file: string;
  label: string;
  /** The objects sent to the twin, in order. */
  objects: KubeObject[];
  /** The twin's journeys of them (the prediction). */
  journeyIds: string[];
}

function isApplyDocumentArg(value: unknown): value is ApplyDocumentArg {
  return typeof value === 'object' && value !== null && typeof (value as ApplyDocumentArg).uri === 'string' && typeof (value as ApplyDocumentArg).documentIndex === 'number';
}

export class ApplyController extends Disposable {
  readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection('kube-journey'));

  private readonly tracked = new Map<string, TrackedApply>();
  private readonly twinRuns = new Map<string, TwinRun>();
  private readonly twinRunChanges = this._register(new vscode.EventEmitter<void>());
  /** A file was applied to a twin, or the twin's runs were forgotten (the Apply for real CodeLens follows them). */
  readonly onDidChangeTwinRuns = this.twinRunChanges.event;
  private readonly fitChanges = this._register(new vscode.EventEmitter<void>());
  /** Fit problems appeared or went (the Re-simulate CodeLens follows them). */
  readonly onDidChangeFitProblems = this.fitChanges.event;
  /** Journeys change on every watch event: their warnings are recomputed at most twice a second. */
  private readonly journeyChanges = this._register(new Batcher<string>(500, (ids) => this.showDependencyProblems(ids)));

  constructor(private readonly deps: ApplyDeps) {
    super();
    this._register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.diagnostics.delete(document.uri);
        this.tracked.delete(document.uri.toString());
      }),
    );
    this._register(deps.session.onDidChangeJourney((id) => this.journeyChanges.add(id)));
    this._register(
      deps.session.onDidClear(() => {
        this.tracked.clear();
        this.twinRuns.clear();
        this.twinRunChanges.fire();
        this.fitChanges.fire();
      }),
    );
  }

  /** A stuck pod that waits for a missing ConfigMap, Secret or claim puts a warning on the line that names it. */
  private showDependencyProblems(changed: ReadonlySet<string>): void {
    const session = this.deps.session;
    for (const tracked of this.tracked.values()) {
      const ids = tracked.roots.map((root) => (root ? session.latestJourneyId(root) : undefined));
      const idsKey = JSON.stringify(ids);
      if (idsKey === tracked.lastIds && !ids.some((id) => id !== undefined && changed.has(id))) continue;
      tracked.lastIds = idsKey;
      // Only a stuck journey can hold such a problem: the others are not built into snapshots.
      const journeys = ids.map((id) => (id !== undefined && session.tracer.progress(id)?.stuck ? session.journey(id) : undefined));
      const warnings = dependencyDiagnostics(tracked.plan, journeys);
      this.askForFits(tracked, journeys);
      const shown = JSON.stringify(warnings);
      if (shown === tracked.shown) continue;
      tracked.shown = shown;
      tracked.warnings = warnings;
      this.showProblems(tracked);
    }
  }

  private showProblems(tracked: TrackedApply): void {
    this.setDiagnostics(tracked.uri, [...tracked.serverProblems, ...tracked.warnings, ...tracked.fitProblems], tracked.source);
  }

  /** The file's last Apply and Trace on the twin target, while the twin's journeys are there. */
  twinRun(uri: vscode.Uri | string): TwinRun | undefined {
    return this.twinRuns.get(uri.toString());
  }

  /** The fit problems on a file (for its Quick Fixes and the Re-simulate CodeLens). */
  fitProblems(uri: vscode.Uri): readonly FitProblem[] {
    return this.tracked.get(uri.toString())?.fitProblems ?? [];
  }

  /**
   * On the simulator, a pod its scheduler refused gets the changes that would make it fit (the
   * simulator's fits route), as warnings on the lines they change. Asked again only when another
   * pod is refused or for another reason; the first refused pod of each journey speaks for its
   * siblings (copies of one template).
   */
  private askForFits(tracked: TrackedApply, journeys: readonly (Journey | undefined)[]): void {
    const refused = refusedPods(journeys);
    const key = JSON.stringify(refused);
    if (key === tracked.refusedKey) return;
    tracked.refusedKey = key;
    const connectionReady = isSimulated(this.deps.targets.target) && refused.length > 0;
    if (!connectionReady) {
      if (tracked.fitProblems.length === 0) return;
      tracked.fitProblems = [];
      this.showProblems(tracked);
      this.fitChanges.fire();
      return;
    }
    void (async () => {
      const connection = await this.deps.targets.connect();
      const answers = await Promise.all(refused.map((pod) => connection.fitSuggestions?.(pod.pod.namespace, pod.pod.name)));
      if (tracked.refusedKey !== key || this.tracked.get(tracked.uri.toString()) !== tracked) return;
      const withFits = refused.flatMap((pod, i) => {
        const answer = answers[i];
        return answer && answer.node === undefined ? [{ ...pod, fits: answer.fits }] : [];
      });
      tracked.fitProblems = fitDiagnostics(tracked.plan, withFits);
      this.showProblems(tracked);
      this.fitChanges.fire();
    })().catch((error: unknown) => this.deps.log.warn(`fit suggestions: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** The command handler: from a menu (uri, multi-selection), a CodeLens (one document) or the palette (active editor). */
  async run(resource?: vscode.Uri | ApplyDocumentArg, selected?: vscode.Uri[]): Promise<ApplyRun[]> {
    if (!vscode.workspace.isTrusted) {
      void explainUntrustedWorkspace({
        showWarningMessage: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
        executeCommand: (command) => vscode.commands.executeCommand(command),
      }).catch((error: unknown) => this.deps.log.error(`Manage Workspace Trust: ${error instanceof Error ? error.message : String(error)}`));
      return [];
    }
    const sources = this.sourcesOf(resource, selected);
    if (sources.length === 0) {
      void vscode.window.showInformationMessage('Open a Kubernetes manifest (YAML) to apply it.');
      return [];
    }
    const runs: ApplyRun[] = [];
    for (const source of sources) {
      const run = await this.applyOne(source);
      if (run) runs.push(run);
      if (run?.cancelled) break;
    }
    return runs;
  }

  private sourcesOf(resource: vscode.Uri | ApplyDocumentArg | undefined, selected: vscode.Uri[] | undefined): ApplySource[] {
    if (isApplyDocumentArg(resource)) return [{ uri: vscode.Uri.parse(resource.uri), documentIndex: resource.documentIndex }];
    const editor = vscode.window.activeTextEditor;
    const withSelection = (uri: vscode.Uri): ApplySource => {
      const sameEditor = editor && editor.document.uri.toString() === uri.toString() && !editor.selection.isEmpty;
      return sameEditor ? { uri, selection: editor.selection } : { uri };
    };
    // The Explorer passes its whole selection; other menus pass other things (or nothing) here.
    const many = Array.isArray(selected) ? selected.filter((item): item is vscode.Uri => item instanceof vscode.Uri) : [];
    if (many.length > 1) return many.map((uri) => ({ uri }));
    if (resource instanceof vscode.Uri) return [withSelection(resource)];
    return editor ? [withSelection(editor.document.uri)] : [];
  }

  private setDiagnostics(uri: vscode.Uri, planned: readonly PlannedDiagnostic[], source: string): void {
    this.diagnostics.set(
      uri,
      planned.map((p) => {
        const line = Math.max(0, p.line - 1);
        const column = Math.max(0, (p.column ?? 1) - 1);
        const range = new vscode.Range(line, column, line, Number.MAX_SAFE_INTEGER);
        const diagnostic = new vscode.Diagnostic(range, p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
        diagnostic.source = source;
        if (p.code) diagnostic.code = p.code;
        return diagnostic;
      }),
    );
  }

  private async confirm(plan: ApplyPlan, file: string): Promise<boolean> {
    const target = this.deps.targets.target;
    // A twin is a simulator: applying to it changes nothing real.
    if (target.type !== 'context') return true;
    return this.confirmContextApply(plan.documents.length, file, target.context);
  }

  /** The confirmation of an apply to a real cluster (unless the context is listed in applyWithoutConfirmation). */
  async confirmContextApply(count: number, file: string, context: string): Promise<boolean> {
    const target = { type: 'context' as const, context };
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    if (!needsConfirmation(target, readSetting(config, 'applyWithoutConfirmation'))) return true;
    const apply = `Apply to ${target.context}`;
    const always = `Apply, and Don't Ask Again for ${target.context}`;
    const answer = await vscode.window.showWarningMessage(
      `Apply ${count === 1 ? '1 object' : `${count} objects`} from ${file} to the cluster of context "${target.context}"?`,
      { modal: true, detail: 'Server-side apply creates or changes these objects in that cluster.' },
      apply,
      always,
    );
    if (answer === always) {
      const list = readSetting(config, 'applyWithoutConfirmation');
      await config.update('applyWithoutConfirmation', [...list, target.context], vscode.ConfigurationTarget.Global);
    }
    return answer === apply || answer === always;
  }

  private async applyOne(source: ApplySource): Promise<ApplyRun | undefined> {
    const document = await vscode.workspace.openTextDocument(source.uri);
    const file = basename(source.uri.path);
    const text = source.selection ? document.getText(source.selection) : document.getText();
    const plan = planApply(text, { startLine: source.selection?.start.line, documentIndex: source.documentIndex });
    const target = this.deps.targets.target;
    const targetName = targetLabel(target);
    const diagnosticSource = `Kube Journey (${targetName})`;
    const run: ApplyRun = { uri: source.uri.toString(), outcomes: [], journeyIds: [], problems: plan.problems, cancelled: false };

    if (plan.problems.length > 0) {
      this.setDiagnostics(source.uri, plan.problems, 'Kube Journey');
      const show = 'Show Problems';
      void vscode.window.showErrorMessage(`${file}: ${plan.problems.length === 1 ? '1 problem' : `${plan.problems.length} problems`} in the manifest; nothing was applied.`, show).then((choice) => {
        if (choice === show) void vscode.commands.executeCommand('workbench.actions.view.problems');
      });
      return run;
    }
    if (plan.documents.length === 0) {
      this.diagnostics.delete(source.uri);
      void vscode.window.showInformationMessage(`${file} holds no Kubernetes object to apply.`);
      return run;
    }
    if (!(await this.confirm(plan, file))) {
      run.cancelled = true;
      return run;
    }

    const objects = planObjects(plan);
    const label = source.selection ? `${file} (selection)` : source.documentIndex !== undefined ? `${file} (document ${source.documentIndex + 1})` : file;
    const journeyIds: (string | undefined)[] = [];
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Apply and Trace ${label} → ${targetName}`, cancellable: true },
        async (progress, token) => {
          const connection = await this.deps.targets.connect(progress, objects);
          if (token.isCancellationRequested) return;
          for (const object of objects) connection.watchNamespace(object.metadata?.namespace ?? connection.namespace);
          const fieldManager = readSetting(vscode.workspace.getConfiguration(SETTINGS_SECTION), 'fieldManager');
          const release = connection.hold();
          try {
            for (const [index, object] of objects.entries()) {
              if (token.isCancellationRequested) {
                run.cancelled = true;
                break;
              }
              progress.report({ message: `${object.kind}/${object.metadata?.name ?? ''} (${index + 1}/${objects.length})` });
              const [outcome] = await connection.apply([object], fieldManager, () => undefined, file);
              run.outcomes.push(outcome);
              if (!outcome.failure && TRACEABLE_KINDS.has(outcome.kind)) {
                journeyIds[index] = this.deps.session.begin({ kind: outcome.kind as TraceableKind, namespace: outcome.namespace, name: outcome.name }, outcome.requestedAt);
              }
              progress.report({ increment: 100 / objects.length });
            }
          } finally {
            release();
          }
        },
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.log.error(`Apply and Trace ${label} → ${targetName}: ${message}`);
      const showLog = 'Show Log';
      const switchTarget = 'Switch Target…';
      // A twin that could not be made says so itself (context unreachable, credentials refused, kubeconfig broken).
      void vscode.window.showErrorMessage(error instanceof TwinStartError ? message : `Cannot reach ${targetName}: ${message}`, showLog, switchTarget).then((choice) => {
        if (choice === showLog) void vscode.commands.executeCommand('kubeJourney.showLog');
        if (choice === switchTarget) void vscode.commands.executeCommand('kubeJourney.switchTarget');
      });
      return run;
    }

    run.journeyIds = journeyIds.filter((id): id is string => id !== undefined);
    const applied = { ...plan, documents: plan.documents.slice(0, run.outcomes.length) };
    const serverProblems = outcomeDiagnostics(applied, run.outcomes);
    this.setDiagnostics(source.uri, serverProblems, diagnosticSource);
    const roots = run.outcomes.map((outcome, i) => (journeyIds[i] === undefined ? undefined : { kind: outcome.kind as TraceableKind, namespace: outcome.namespace, name: outcome.name }));
    this.tracked.set(source.uri.toString(), { uri: source.uri, plan: applied, roots, lastIds: '', serverProblems, source: diagnosticSource, shown: '[]', warnings: [], refusedKey: '[]', fitProblems: [] });
    this.fitChanges.fire();
    const entries = outcomeEntries(applied, run.outcomes).map((entry, i) => ({ ...entry, journeyId: journeyIds[i] }));
    const manifest: AppliedManifest = { key: source.uri.toString(), label, target: targetName, appliedAt: run.outcomes[0]?.requestedAt ?? Date.now(), entries };
    if (entries.length > 0) this.deps.session.recordManifest(manifest);
    if (target.type === 'twin' && run.journeyIds.length > 0 && !run.cancelled) {
      this.twinRuns.set(manifest.key, { context: target.context, uri: source.uri, file, label, objects: objects.slice(0, run.outcomes.length), journeyIds: run.journeyIds });
      this.twinRunChanges.fire();
    }
    for (const outcome of run.outcomes) {
      if (outcome.failure?.fromServer) this.deps.log.error(`${file}: Error from server${outcome.failure.reason ? ` (${outcome.failure.reason})` : ''}: error when applying ${outcome.display}: ${outcome.failure.message}`);
      else if (outcome.failure) this.deps.log.error(`${file}: error: ${outcome.failure.message}`);
      else this.deps.log.info(`${outcome.display} ${outcome.action ?? 'sent'} (${targetName})`);
    }
    if (run.cancelled) this.deps.log.warn(`Apply and Trace ${label} cancelled after ${run.outcomes.length} of ${objects.length} objects`);
    if (run.outcomes.length > 0) {
      this.deps.onApplied?.(manifest.key);
      this.showResult(run, targetName);
    }
    return run;
  }

  private showResult(run: ApplyRun, target: string): void {
    const message = resultMessage(run.outcomes, target);
    const timeline = 'Open Timeline';
    const problems = 'Show Problems';
    const actions = [...(run.journeyIds.length > 0 ? [timeline] : []), ...(message.severity !== 'info' ? [problems] : [])];
    const show = message.severity === 'info' ? vscode.window.showInformationMessage : message.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
    void show(message.text, ...actions).then((choice) => {
      if (choice === timeline) this.deps.openTimeline(run.journeyIds[0]);
      if (choice === problems) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
  }
}
