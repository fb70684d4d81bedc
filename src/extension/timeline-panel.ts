/**
 * The journey timeline panel (webview). The host side of src/protocol/timeline-protocol.ts:
 * - nothing is posted before the webview says `ready` (a webview hidden and shown again is
 *   rebuilt and says `ready` again, so the latest snapshot is sent each time);
 * - one snapshot, then deltas with only the objects that changed (TimelineSync), at most one
 *   per SNAPSHOT_MS and only when a journey's `version` moved; a webview that missed one asks
 *   for a `resync` and gets a snapshot; while a journey is unfinished and the panel visible, an
 *   empty delta moves `now` now and then, so that the lines of a stuck pod keep growing;
 * - a journey above 1,000 pods (where the webview would simplify it) is sent simplified until the
 *   user asks for every pod: its updates are simplified snapshots, at most one per SNAPSHOT_MS
 *   (per SIMPLIFIED_MS above HUGE_JOURNEY_PODS, where re-simplifying walks that many pods);
 * - a panel follows its root object (`Deployment/default/web`): applying the manifest again
 *   shows the new journey in the same panel;
 * - panels come back after a reload through the WebviewPanelSerializer; the webview's own state
 *   names the journey, and the panel waits for that root to be traced again;
 * - the webview may load only media/.
 */
import * as vscode from 'vscode';
import type { Journey, JourneyObjectRef } from '../core/journey/types';
import { isTraceableKind, type TraceableKind } from '../common/traceable-kinds';
import {
  TIMELINE_PROTOCOL_VERSION,
  TIMELINE_VIEW_TYPE,
  answerObjectDetail,
  isWebviewToHostMessage,
  journeyObjectKey,
  persistedJourneyId,
  type HostToWebviewMessage,
  type RequestResultMessage,
  type StageRef,
  type WebviewRequest,
  type WebviewToHostMessage,
} from '../protocol/timeline-protocol';
import { TimelineSync } from '../protocol/timeline-sync';
import { Batcher } from './headless/batcher';
import { Disposable } from './headless/disposable';
import type { Log } from './log';
import { buildTimelineHtml } from './headless/timeline-html';
import type { TraceSession } from './headless/trace-session';

const SNAPSHOT_MS = 300;
/** How often an unfinished journey's snapshot is resent with a later `now` (slower for big ones). */
const CLOCK_MS = 1000;
const CLOCK_MS_LARGE = 5000;
const LARGE_JOURNEY_PODS = 1000;
/** A journey of more than HUGE_JOURNEY_PODS sent simplified is re-simplified (a walk over all its pods) at most this often. */
const SIMPLIFIED_MS = 2000;
const HUGE_JOURNEY_PODS = 20_000;

export interface TimelineDeps {
  extensionUri: vscode.Uri;
  session: TraceSession;
  log: Log;
  /** Where the journeys come from, for the header (`built-in simulator`, a context). */
  sourceLabel: () => string;
  openObjectYaml: (journeyId: string, object: JourneyObjectRef, time?: number) => Promise<boolean>;
  revealInTree: (journeyId: string, object: JourneyObjectRef) => Promise<boolean>;
}

/** `Deployment/default/web@1767268800000#2` → `Deployment/default/web`. */
export function rootKeyOf(journeyId: string): string {
  const at = journeyId.lastIndexOf('@');
  return at > 0 ? journeyId.slice(0, at) : journeyId;
}

function rootQuery(rootKey: string): { kind: TraceableKind; namespace: string; name: string } | undefined {
  const [kind, namespace, ...name] = rootKey.split('/');
  if (!isTraceableKind(kind) || !namespace || name.length === 0) return undefined;
  return { kind, namespace, name: name.join('/') };
}

export class TimelinePanel extends Disposable {
  private static readonly open = new Set<TimelinePanel>();

  /** Shows the journey in its panel (the one following the same root), creating it if needed. */
  static show(deps: TimelineDeps, journeyId: string, reveal?: StageRef): TimelinePanel {
    const rootKey = rootKeyOf(journeyId);
    for (const panel of TimelinePanel.open) {
      if (panel.rootKey === rootKey) {
        panel.panel.reveal(undefined, false);
        panel.focus(journeyId, reveal);
        return panel;
      }
    }
    const panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, 'Journey', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, TimelinePanel.webviewOptions(deps.extensionUri));
    const created = new TimelinePanel(panel, deps, journeyId);
    if (reveal) created.pendingReveal = reveal;
    return created;
  }

  /** For the serializer: a panel from before a reload. */
  static restore(deps: TimelineDeps, panel: vscode.WebviewPanel, state: unknown): TimelinePanel {
    panel.webview.options = TimelinePanel.webviewOptions(deps.extensionUri);
    return new TimelinePanel(panel, deps, persistedJourneyId(state) ?? '');
  }

  static webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')], enableFindWidget: true };
  }

  /** Every open panel (tests, and closing them all on a reset). */
  static panels(): readonly TimelinePanel[] {
    return [...TimelinePanel.open];
  }

  private ready = false;
  private rootKey: string;
  private journeyId: string;
  private pendingReveal: StageRef | undefined;
  /**
   * The webview's selected (or revealed) object, by `journeyObjectKey`: sent with its evidence,
   * and listed when a journey is sent simplified.
   */
  private selected: string | undefined;
  private clockTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly sync = new TimelineSync();
  /** The journey id and version last posted. */
  private sent: { id: string; version: number } | undefined;
  /** Journeys the user asked to see with every pod (never sent simplified). */
  private readonly wholeJourneys = new Set<string>();
  private lastPostAt = 0;
  private simplifiedTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly snapshots: Batcher<string>;
  private readonly postedEmitter = this._register(new vscode.EventEmitter<HostToWebviewMessage>());
  /** Every message posted to the webview (tests follow the protocol with it). */
  readonly onDidPost = this.postedEmitter.event;

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly deps: TimelineDeps,
    journeyId: string,
  ) {
    super();
    this.journeyId = journeyId;
    this.rootKey = rootKeyOf(journeyId);
    TimelinePanel.open.add(this);
    this.snapshots = this._register(new Batcher<string>(SNAPSHOT_MS, () => this.postSnapshot(false)));
    const webview = panel.webview;
    try {
      webview.html = buildTimelineHtml({
        cspSource: webview.cspSource,
        scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'media', 'timeline.js')).toString(),
        styleUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'media', 'timeline.css')).toString(),
      });
    } catch (error) {
      // A panel that cannot be built says so in place, instead of failing the command that opened it.
      deps.log.error(`timeline: ${error instanceof Error ? error.message : String(error)}`);
      webview.html = `<!DOCTYPE html><html lang="en"><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body><p>The timeline could not be shown. Run “Kube Journey: Show Log” for the reason.</p></body></html>`;
    }
    this.updateTitle();
    this._register(webview.onDidReceiveMessage((message: unknown) => this.receive(message)));
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(
      deps.session.onDidChangeJourney((id) => {
        if (rootKeyOf(id) !== this.rootKey) return;
        if (id !== this.journeyId && this.isNewer(id)) this.journeyId = id;
        this.snapshots.add(id);
      }),
    );
    this._register(deps.session.onDidClear(() => this.postSnapshot(true)));
    this._register(panel.onDidChangeViewState(() => this.scheduleClock()));
    this._register({ dispose: () => clearTimeout(this.clockTimer) });
    this._register({ dispose: () => clearTimeout(this.simplifiedTimer) });
  }

  /** Resends an unfinished journey with a later `now` while the panel is visible. */
  private scheduleClock(): void {
    clearTimeout(this.clockTimer);
    this.clockTimer = undefined;
    const journey = this.deps.session.journey(this.journeyId);
    if (!this.ready || !this.panel.visible || !journey || journey.done) return;
    const delay = journey.counts.live > LARGE_JOURNEY_PODS ? CLOCK_MS_LARGE : CLOCK_MS;
    this.clockTimer = setTimeout(() => {
      this.clockTimer = undefined;
      this.postSnapshot(true);
    }, delay);
  }

  get shownJourneyId(): string {
    return this.journeyId;
  }

  get isReady(): boolean {
    return this.ready;
  }

  private isNewer(id: string): boolean {
    const current = this.deps.session.journey(this.journeyId);
    const candidate = this.deps.session.journey(id);
    return !current || (candidate !== undefined && candidate.appliedAt >= current.appliedAt);
  }

  private focus(journeyId: string, reveal?: StageRef): void {
    this.journeyId = journeyId;
    this.rootKey = rootKeyOf(journeyId);
    // Before the snapshot: a journey sent simplified lists the revealed pod only when it is pinned.
    if (reveal) this.selected = journeyObjectKey(reveal.object);
    this.postSnapshot(true);
    if (reveal) this.post({ type: 'reveal', target: reveal });
  }

  private journey(): Journey | undefined {
    const exact = this.deps.session.journey(this.journeyId);
    if (exact) return exact;
    // After a reload the id is from the previous session: show the root's newest journey, once traced again.
    const query = rootQuery(this.rootKey);
    const newest = query ? this.deps.session.lookup(query) : undefined;
    if (newest) this.journeyId = newest.id;
    return newest;
  }

  private updateTitle(journey = this.journey()): void {
    const query = rootQuery(this.rootKey);
    this.panel.title = query ? `Journey: ${query.name}` : 'Journey';
    if (journey) this.panel.title += journey.done ? '' : ' ●';
  }

  private post(message: HostToWebviewMessage): void {
    if (!this.ready) return;
    void this.panel.webview.postMessage(message);
    this.postedEmitter.fire(message);
  }

  /**
   * Sends what changed in the current journey since the last message (a delta, or a snapshot when
   * the journey is another one or after a reset); only when it changed, unless `force`.
   */
  private postSnapshot(force: boolean): void {
    if (!this.ready) return;
    const journey = this.journey();
    this.updateTitle(journey);
    const unchanged = journey ? this.sent?.id === journey.id && this.sent.version === journey.version : this.sent === undefined;
    if (unchanged && !force) return;
    const huge = journey !== undefined && journey.counts.desired > HUGE_JOURNEY_PODS;
    const wait = this.sync.sentSimplified && huge && !force ? this.lastPostAt + SIMPLIFIED_MS - Date.now() : 0;
    if (wait > 0) {
      this.simplifiedTimer ??= setTimeout(() => {
        this.simplifiedTimer = undefined;
        this.postSnapshot(false);
      }, wait);
      return;
    }
    this.lastPostAt = Date.now();
    this.sent = journey ? { id: journey.id, version: journey.version } : undefined;
    const keep = this.selected ? new Set([this.selected]) : undefined;
    const options = { focusJourneyId: journey?.id, source: this.deps.sourceLabel(), now: Date.now(), keep, wholeJourneys: this.wholeJourneys };
    this.post(this.sync.next(journey ? [journey] : [], options));
    this.scheduleClock();
  }

  /** Forgets what the webview holds: the next message is a full snapshot. */
  private resync(): void {
    this.sync.reset();
    this.postSnapshot(true);
  }

  private receive(raw: unknown): void {
    if (!isWebviewToHostMessage(raw)) {
      this.deps.log.warn(`timeline: ignored a malformed message from the webview`);
      return;
    }
    const message: WebviewToHostMessage = raw;
    switch (message.type) {
      case 'ready':
        if (message.protocolVersion !== TIMELINE_PROTOCOL_VERSION) this.deps.log.warn(`timeline: the webview speaks protocol ${message.protocolVersion}, the host ${TIMELINE_PROTOCOL_VERSION}`);
        this.ready = true;
        if (this.pendingReveal) this.selected = journeyObjectKey(this.pendingReveal.object);
        this.resync();
        if (this.pendingReveal) {
          this.post({ type: 'reveal', target: this.pendingReveal });
          this.pendingReveal = undefined;
        }
        return;
      case 'selectionChanged':
        this.selected = message.selection ? journeyObjectKey(message.selection.object) : undefined;
        return;
      case 'resync':
        this.resync();
        return;
      case 'requestAllPods':
        this.wholeJourneys.add(message.journeyId);
        this.resync();
        return;
      case 'requestObjectDetail':
        this.post(answerObjectDetail(this.deps.session.journey(message.journeyId), message));
        return;
      case 'openObjectYaml':
      case 'revealInTree':
        void this.answer(message);
        return;
      case 'webviewError':
        this.deps.log.error(`timeline webview: ${message.message}`);
        return;
      default: {
        const _unhandled: never = message;
        return;
      }
    }
  }

  private async answer(request: WebviewRequest): Promise<void> {
    let result: RequestResultMessage;
    try {
      const ok =
        request.type === 'openObjectYaml'
          ? await this.deps.openObjectYaml(request.journeyId, request.object, request.time)
          : await this.deps.revealInTree(request.journeyId, request.object);
      result = ok
        ? { type: 'requestResult', requestId: request.requestId, ok: true }
        : { type: 'requestResult', requestId: request.requestId, ok: false, error: `${request.object.kind} ${request.object.namespace}/${request.object.name} is no longer recorded.` };
    } catch (error) {
      result = { type: 'requestResult', requestId: request.requestId, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    this.post(result);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    TimelinePanel.open.delete(this);
    super.dispose();
    this.panel.dispose();
  }
}

/** Brings timeline panels back after a window reload. */
export class TimelineSerializer implements vscode.WebviewPanelSerializer {
  constructor(private readonly deps: TimelineDeps) {}

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    TimelinePanel.restore(this.deps, panel, state);
  }
}
