/**
 * What the Journeys view's context actions and the timeline's requests do: open a timeline, show
 * an object as YAML at a recorded moment, show a pod's scheduler verdicts, reveal an object in
 * the tree.
 */
import * as vscode from 'vscode';
import type { JourneyObjectRef } from '../core/journey/types';
import { journeySummary } from '../core/explain/lens';
import type { TimelineArg } from './commands';
import { contentUri } from './content-provider';
import type { JourneyTreeModel, JourneyTreeNode, ObjectNode } from './headless/journey-tree-model';
import { describeChange, type ObjectKey } from './headless/object-history';
import type { TraceSession } from './headless/trace-session';

export interface JourneyActionsDeps {
  session: TraceSession;
  model: JourneyTreeModel;
  treeView: () => vscode.TreeView<JourneyTreeNode> | undefined;
  showTimeline: (journeyId: string, object?: JourneyObjectRef) => void;
  /** Tells VS Code a virtual document's content changed (before showing it again). */
  refreshContent: (uri: vscode.Uri) => void;
}

function isTimelineArg(value: unknown): value is TimelineArg {
  return typeof value === 'object' && value !== null && typeof (value as TimelineArg).journeyId === 'string' && !('type' in value);
}

function offset(ms: number): string {
  return `${ms >= 0 ? '+' : '−'}${(Math.abs(ms) / 1000).toFixed(3)} s`;
}

export class JourneyActions {
  constructor(private readonly deps: JourneyActionsDeps) {}

  /** Tree node, CodeLens argument, or nothing (pick one of the journeys). */
  async openTimeline(target?: JourneyTreeNode | TimelineArg): Promise<string | undefined> {
    if (isTimelineArg(target)) {
      this.deps.showTimeline(target.journeyId, target.object);
      return target.journeyId;
    }
    if (target && (target.type === 'object' || target.type === 'podGroup')) {
      const object = target.type === 'object' ? { kind: target.kind, namespace: target.namespace, name: target.name } : undefined;
      this.deps.showTimeline(target.journeyId, object);
      return target.journeyId;
    }
    const candidates = target?.type === 'manifest' ? (this.deps.session.manifest(target.manifestKey)?.entries ?? []) : this.deps.session.manifests().flatMap((m) => m.entries);
    const journeys = candidates.flatMap((e) => (e.journeyId ? [this.deps.session.journey(e.journeyId)] : [])).filter((j) => j !== undefined);
    if (journeys.length === 0) {
      void vscode.window.showInformationMessage('No journey yet: run Apply and Trace on a manifest first.');
      return undefined;
    }
    const picked =
      journeys.length === 1
        ? journeys[0]
        : (await vscode.window.showQuickPick(
            journeys.map((j) => ({ label: `${j.root.kind} ${j.root.name}`, description: `${j.root.namespace} · ${journeySummary(j)}`, journey: j })),
            { title: 'Open the timeline of' },
          ))?.journey;
    if (!picked) return undefined;
    this.deps.showTimeline(picked.id);
    return picked.id;
  }

  private objectNode(node: JourneyTreeNode | undefined): ObjectNode | undefined {
    if (node?.type === 'object') return node;
    const selected = this.deps.treeView()?.selection[0];
    return selected?.type === 'object' ? selected : undefined;
  }

  /** Quick pick of the recorded versions of the node's object, then the chosen one as read-only YAML. */
  async showObjectYaml(node?: JourneyTreeNode): Promise<vscode.TextDocument | undefined> {
    const target = this.objectNode(node);
    if (!target) return undefined;
    const key: ObjectKey = { kind: target.kind, namespace: target.namespace, name: target.name };
    const versions = this.deps.session.history.versions(key);
    if (versions.length === 0) {
      void vscode.window.showInformationMessage(`No recorded version of ${target.kind} ${target.name} (it was not seen on the watch, or was forgotten).`);
      return undefined;
    }
    const appliedAt = this.deps.session.journey(target.journeyId)?.appliedAt ?? versions[0].receivedAt;
    const items = versions.map((version, i) => ({
      label: `$(history) ${offset(version.receivedAt - appliedAt)}`,
      description: `${version.type} · resourceVersion ${version.resourceVersion}`,
      detail: describeChange(versions[i - 1], version),
      version,
    }));
    const picked = versions.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { title: `${target.kind} ${target.name}: which moment?`, placeHolder: 'Times are from the apply', matchOnDetail: true });
    if (!picked) return undefined;
    return this.openVersion(key, picked.version.resourceVersion, target.journeyId);
  }

  private async openVersion(key: ObjectKey, resourceVersion: string, journeyId: string): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument(contentUri({ type: 'object', key, resourceVersion, journeyId }));
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Active });
    return document;
  }

  /** For the timeline: the first version delivered at or after `time` (the stage's own moment), else the last one. */
  async openObjectYamlAt(journeyId: string, object: JourneyObjectRef, time?: number): Promise<boolean> {
    const key: ObjectKey = { kind: object.kind, namespace: object.namespace, name: object.name };
    const versions = this.deps.session.history.versions(key);
    if (versions.length === 0) return false;
    const version = (time === undefined ? undefined : versions.find((v) => v.receivedAt >= time)) ?? versions[versions.length - 1];
    await this.openVersion(key, version.resourceVersion, journeyId);
    return true;
  }

  async showSchedulerVerdicts(node?: JourneyTreeNode): Promise<vscode.TextDocument | undefined> {
    const target = this.objectNode(node);
    if (!target || target.kind !== 'Pod') return undefined;
    const uri = contentUri({ type: 'scheduler', namespace: target.namespace, name: target.name, journeyId: target.journeyId });
    this.deps.refreshContent(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
    return document;
  }

  async revealInTree(journeyId: string, object: JourneyObjectRef): Promise<boolean> {
    const view = this.deps.treeView();
    const node = this.deps.model.nodeForObject(journeyId, object);
    if (!view || !node) return false;
    await view.reveal(node, { select: true, focus: false, expand: false });
    return true;
  }
}
