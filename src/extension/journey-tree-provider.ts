/**
 * The Journeys view's data provider: converts the tree model's item models into TreeItems, and
 * turns the tracer's stream of changes into few, small refreshes. Changes are batched (at most
 * one flush per REFRESH_MS), and only nodes VS Code has shown are compared: a node whose look or
 * list of children changed is refreshed, and only the topmost of a changed chain.
 */
import * as vscode from 'vscode';
import { Batcher } from './headless/batcher';
import { CONTEXT_KEYS } from './commands';
import { Disposable } from './headless/disposable';
import { JourneyTreeModel, type JourneyTreeNode, type TreeItemModel } from './headless/journey-tree-model';
import type { TraceSession } from './headless/trace-session';

const REFRESH_MS = 250;
/** Past this many changed nodes, one full refresh is cheaper than many small ones. */
const FULL_REFRESH_ABOVE = 100;

const COLLAPSIBLE: Record<TreeItemModel['collapsible'], vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

export class JourneyTreeProvider extends Disposable implements vscode.TreeDataProvider<JourneyTreeNode> {
  readonly model: JourneyTreeModel;
  /** Signature of each node as VS Code last rendered it. */
  private readonly rendered = new Map<string, string>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<JourneyTreeNode | JourneyTreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly batcher: Batcher<string>;
  private readonly refreshedEmitter = this._register(new vscode.EventEmitter<void>());
  /** After each batch of refreshes was sent (tests wait on it instead of sleeping). */
  readonly onDidRefresh = this.refreshedEmitter.event;

  constructor(private readonly session: TraceSession) {
    super();
    this.model = new JourneyTreeModel(session);
    this.batcher = this._register(new Batcher<string>(REFRESH_MS, (ids) => this.flush(ids)));
    this._register(session.onDidChangeJourney((id) => this.batcher.add(id)));
    this._register(
      session.onDidChangeManifests(() => {
        void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasJourneys, session.manifests().length > 0);
        this.rendered.clear();
        this.changeEmitter.fire(undefined);
        this.refreshedEmitter.fire();
      }),
    );
    this._register(
      session.onDidClear(() => {
        this.batcher.dispose();
        this.model.reset();
        this.rendered.clear();
      }),
    );
  }

  getTreeItem(node: JourneyTreeNode): vscode.TreeItem {
    const model = this.model.item(node);
    this.rendered.set(node.id, this.model.signature(node));
    if (!model) return new vscode.TreeItem('(gone)', vscode.TreeItemCollapsibleState.None);
    const item = new vscode.TreeItem(model.label, COLLAPSIBLE[model.collapsible]);
    item.id = node.id;
    item.description = model.description;
    if (model.tooltip) {
      const tooltip = new vscode.MarkdownString(model.tooltip, true);
      item.tooltip = tooltip;
    }
    item.iconPath = new vscode.ThemeIcon(model.icon.id, model.icon.color ? new vscode.ThemeColor(model.icon.color) : undefined);
    item.contextValue = model.contextValue;
    if (node.type === 'applied') {
      const entry = this.session.manifest(node.manifestKey)?.entries.find((e) => e.documentIndex === node.documentIndex);
      if (entry) {
        const line = Math.max(0, entry.line - 1);
        item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.parse(node.manifestKey), { selection: new vscode.Range(line, 0, line, 0) }] };
      }
    }
    return item;
  }

  getChildren(node?: JourneyTreeNode): JourneyTreeNode[] {
    return this.model.children(node);
  }

  getParent(node: JourneyTreeNode): JourneyTreeNode | undefined {
    return this.model.parentOf(node);
  }

  /** Sends pending refreshes now (tests, and before revealing a node). */
  flushNow(): void {
    this.batcher.flushNow();
  }

  private flush(journeyIds: ReadonlySet<string>): void {
    const changed = new Set<JourneyTreeNode>();
    for (const journeyId of journeyIds) {
      for (const node of this.model.nodesOfJourney(journeyId)) {
        const before = this.rendered.get(node.id);
        if (before === undefined) continue;
        if (this.model.signature(node) !== before) changed.add(node);
      }
    }
    if (changed.size === 0) {
      this.refreshedEmitter.fire();
      return;
    }
    const topmost = [...changed].filter((node) => {
      for (let parent = this.model.parentOf(node); parent; parent = this.model.parentOf(parent)) if (changed.has(parent)) return false;
      return true;
    });
    // VS Code re-reads a refreshed node and its children; forget their signatures so the next read records them again.
    for (const node of changed) this.rendered.delete(node.id);
    this.changeEmitter.fire(topmost.length > FULL_REFRESH_ABOVE ? undefined : topmost);
    this.refreshedEmitter.fire();
  }
}
