/**
 * The timeline panel: owns the journeys the host sent (a LaneStore: one snapshot, then deltas)
 * and the persisted view state, derives what the views need (lane list, control-plane steps)
 * once per journey version, and keeps the lanes, the
 * control-plane view and the evidence pane pointing at the same stage. Derived data is cached on
 * the journey's `version`, so a snapshot that changed nothing costs nothing.
 */
import type { Journey, ObjectJourney } from '../core/journey/types';
import type { HostToWebviewMessage, StageRef, TimelineViewMode, TimelineViewState, WebviewRequest } from '../protocol/timeline-protocol';
import { TIMELINE_PROTOCOL_VERSION } from '../protocol/timeline-protocol';
import { h, replaceChildren } from './dom';
import { ControlPlaneView } from './control-plane-view';
import { EvidencePane } from './evidence-view';
import { HeaderView } from './header-view';
import { LanesView } from './lanes-view';
import { journeyBounds, visibleWindow } from './model/axis-fit';
import { controlPlanePod, controlPlaneSteps, stepIndexOf, type ControlPlaneStep } from './model/control-plane';
import { objectEvidence, stageEvidence } from './model/evidence';
import { LaneStore } from './model/lane-store';
import { buildLanes, findObject, isTroubled, objectKey, DEFAULT_SIMPLIFY_ABOVE_PODS, type LaneList } from './model/lanes';
import { restoreViewState, type Cursor, type KeyAction } from './model/navigation';
import { createTimeScale, zoomWindow } from './model/scale';
import { recordMessage } from './perf';
import { watchTheme } from './theme';
import type { VsCodeApi } from './vscode-api';

/** Pods offered in the control-plane picker besides the stuck ones. */
const PICKER_FIRST_PODS = 50;

interface LaneCache {
  readonly journeyId: string;
  readonly version: number;
  readonly showAllPods: boolean;
  readonly list: LaneList;
}

interface StepCache {
  readonly journeyId: string;
  readonly version: number;
  readonly podKey?: string;
  /** The pod's fetched detail was used (a compacted snapshot's pod without it has no internals). */
  readonly detailed: boolean;
  readonly steps: ControlPlaneStep[];
  readonly choices: { key: string; label: string }[];
  readonly totalPods: number;
}

export class TimelineApp {
  private readonly store = new LaneStore();
  private state: TimelineViewState;
  private readonly header: HeaderView;
  private readonly lanes: LanesView;
  private readonly controlPlane: ControlPlaneView;
  private readonly evidence: EvidencePane;
  private readonly viewHost: HTMLDivElement;
  private readonly emptyNote: HTMLParagraphElement;
  private laneCache?: LaneCache;
  private stepCache?: StepCache;
  private nextRequestId = 1;
  private readonly pending = new Map<number, string>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Full objects fetched for objects sent without evidence, by `<journeyId>|<objectKey>`, with the
   * stored object they detail: deltas keep an unchanged object's identity, so while it is the one
   * stored the detail is current, whatever else changed in the journey.
   */
  private readonly details = new Map<string, { version: number; object: ObjectJourney; source?: ObjectJourney }>();
  /** Detail requests in flight, by the same key, with the journey version asked for and the stored object. */
  private readonly detailRequests = new Map<string, { requestId: number; version: number; source: ObjectJourney }>();
  private restoredScroll = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly vscode: VsCodeApi,
  ) {
    this.state = restoreViewState(vscode.getState());
    this.header = new HeaderView({
      chooseJourney: (id) => this.update({ journeyId: id, selection: undefined, scrollTop: 0, window: undefined, controlPlanePod: undefined, controlPlaneStep: 0 }),
      setView: (view) => this.setView(view),
      setScale: (scale) => this.update({ scale, window: undefined }),
      zoom: (factor) => this.zoomBy(factor),
      fit: () => this.update({ window: undefined }),
      setShowAllPods: (showAllPods) => this.setShowAllPods(showAllPods),
    });
    this.lanes = new LanesView({
      select: (laneIndex, stageIndex) => this.selectLane(laneIndex, stageIndex),
      clearSelection: () => this.select(undefined),
      expandSummary: () => this.setShowAllPods(true),
      windowChanged: (window) => this.update({ window }),
      scrolled: (scrollTop) => {
        this.state = { ...this.state, scrollTop };
        this.saveSoon();
      },
      action: (action, cursor) => this.laneAction(action, cursor),
    });
    this.controlPlane = new ControlPlaneView({
      step: (index) => this.stepTo(index),
      choosePod: (key) => this.update({ controlPlanePod: key, controlPlaneStep: 0 }),
      showStep: (step) => this.selectStep(step),
    });
    this.evidence = new EvidencePane({
      openYaml: () => this.requestForSelection('openObjectYaml'),
      revealInTree: () => this.requestForSelection('revealInTree'),
    });
    this.emptyNote = h('p', { class: 'placeholder' });
    this.viewHost = h('div', { class: 'view', id: 'view', role: 'tabpanel' });
    watchTheme(() => this.lanes.themeChanged());
  }

  /** Tell the host we are listening. */
  start(): void {
    this.vscode.postMessage({ type: 'ready', protocolVersion: TIMELINE_PROTOCOL_VERSION });
  }

  receive(message: HostToWebviewMessage): void {
    switch (message.type) {
      case 'snapshot': {
        const arrived = performance.now();
        this.store.applySnapshot(message);
        const shown = this.journey();
        if (shown && this.state.showAllPods && this.store.find(shown.id)?.folded) this.vscode.postMessage({ type: 'requestAllPods', journeyId: shown.id });
        this.render();
        recordMessage(arrived);
        return;
      }
      case 'delta': {
        const arrived = performance.now();
        const outcome = this.store.applyDelta(message);
        // A hidden panel missed messages: ask for a fresh snapshot (once; later deltas wait for it).
        if (outcome === 'resync') this.vscode.postMessage({ type: 'resync', lastSeq: this.store.lastSeq });
        if (outcome !== 'applied') return;
        this.render();
        recordMessage(arrived);
        return;
      }
      case 'reveal':
        this.reveal(message.target, message.view);
        return;
      case 'requestResult': {
        const what = this.pending.get(message.requestId);
        if (what === undefined) return;
        this.pending.delete(message.requestId);
        if (message.ok) this.evidence.setStatus('', false);
        else this.evidence.setStatus(`${what}: ${message.error}`, true);
        return;
      }
      case 'objectDetail': {
        const key = `${message.journeyId}|${objectKey(message.object.ref)}`;
        const request = this.detailRequests.get(key);
        const answers = request?.requestId === message.requestId;
        if (answers) this.detailRequests.delete(key);
        this.pending.delete(message.requestId);
        this.details.set(key, { version: message.version, object: message.object, ...(answers ? { source: request.source } : {}) });
        this.render();
        return;
      }
      default: {
        const unhandled: never = message;
        void unhandled;
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // State

  private journey(): Journey | undefined {
    const journeys = this.store.journeys();
    return journeys.find((j) => j.id === this.state.journeyId) ?? journeys.find((j) => j.id === this.store.focusJourneyId) ?? journeys[0];
  }

  /** Now on the journey's clock: the snapshot's `now`, never before the journey's last change. */
  private nowFor(journey: Journey): number {
    const now = this.store.now;
    return now === undefined ? journey.lastChangeAt : Math.max(now, journey.lastChangeAt);
  }

  private update(change: Partial<TimelineViewState>): void {
    this.state = { ...this.state, ...change };
    this.saveSoon();
    this.render();
  }

  private saveSoon(): void {
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.vscode.setState(this.state);
    }, 150);
  }

  /** Every pod, or the simplified list; a journey the host sent simplified is asked for whole. */
  private setShowAllPods(showAllPods: boolean): void {
    const journey = this.journey();
    if (showAllPods && journey && this.store.find(journey.id)?.folded) this.vscode.postMessage({ type: 'requestAllPods', journeyId: journey.id });
    this.update({ showAllPods });
  }

  private setView(view: TimelineViewMode): void {
    this.update({ view });
    if (view === 'lanes') this.lanes.focus();
    else this.controlPlane.focus();
  }

  private laneList(journey: Journey): LaneList {
    const cache = this.laneCache;
    const selectedKey = this.state.selection?.journeyId === journey.id ? objectKey(this.state.selection.object) : undefined;
    const selectionListed = selectedKey === undefined || cache?.list.indexByKey.has(selectedKey) === true;
    if (cache && cache.journeyId === journey.id && cache.version === journey.version && cache.showAllPods === this.state.showAllPods && selectionListed) return cache.list;
    const list = buildLanes(journey.tree, journey.appliedAt, this.nowFor(journey), {
      showAllPods: this.state.showAllPods,
      pinnedKeys: selectedKey ? new Set([selectedKey]) : undefined,
      folded: this.store.find(journey.id)?.folded,
    });
    this.laneCache = { journeyId: journey.id, version: journey.version, showAllPods: this.state.showAllPods, list };
    return list;
  }

  private steps(journey: Journey): StepCache {
    const cache = this.stepCache;
    const treePod = controlPlanePod(journey, this.state.controlPlanePod);
    const pod = treePod ? this.detailOf(journey, treePod) : undefined;
    const detailed = pod !== undefined && pod !== treePod;
    if (cache && cache.journeyId === journey.id && cache.version === journey.version && cache.podKey === this.state.controlPlanePod && cache.detailed === detailed) return cache;
    const steps = controlPlaneSteps(journey, pod);
    const choices: { key: string; label: string }[] = [];
    let totalPods = 0;
    const seen = new Set<string>();
    const offer = (o: ObjectJourney): void => {
      const key = objectKey(o.ref);
      if (seen.has(key)) return;
      seen.add(key);
      choices.push({ key, label: `${o.ref.name} · ${o.status}${o.stuck ? ` (${o.stuck.reason})` : ''}` });
    };
    const pods: ObjectJourney[] = [];
    const visit = (o: ObjectJourney): void => {
      if (o.ref.kind === 'Pod') {
        totalPods++;
        pods.push(o);
      } else o.children.forEach(visit);
    };
    if (journey.tree) visit(journey.tree);
    // A journey sent simplified holds only the pods it lists: the folded ones count too.
    for (const folded of this.store.find(journey.id)?.folded ?? []) totalPods += folded.podCount;
    if (pod) offer(pod);
    for (const o of pods) if (isTroubled(o.status) && choices.length < 200) offer(o);
    for (const o of pods.slice(0, PICKER_FIRST_PODS)) offer(o);
    const next: StepCache = { journeyId: journey.id, version: journey.version, podKey: this.state.controlPlanePod, detailed, steps, choices, totalPods };
    this.stepCache = next;
    return next;
  }

  /**
   * The object with its evidence: itself unless it was sent without (a lean pod); then
   * the fetched detail if there is one (asking the host for it, or for a newer one, if needed).
   */
  private detailOf(journey: Journey, object: ObjectJourney): ObjectJourney {
    const objectId = objectKey(object.ref);
    const detailed = this.store.find(journey.id)?.detailed;
    if (!detailed || detailed.has(objectId)) return object;
    const key = `${journey.id}|${objectId}`;
    const cached = this.details.get(key);
    const inFlight = this.detailRequests.get(key);
    const current = cached !== undefined && (cached.source === object || cached.version >= journey.version);
    if (!current && (!inFlight || (inFlight.source !== object && inFlight.version < journey.version))) {
      const requestId = this.nextRequestId++;
      this.detailRequests.set(key, { requestId, version: journey.version, source: object });
      this.pending.set(requestId, 'Load evidence');
      this.vscode.postMessage({ type: 'requestObjectDetail', requestId, journeyId: journey.id, object: object.ref });
    }
    return cached?.object ?? object;
  }

  /** The object's evidence is still on its way from the host. */
  private awaitingDetail(journey: Journey, object: ObjectJourney): boolean {
    const objectId = objectKey(object.ref);
    const detailed = this.store.find(journey.id)?.detailed;
    return detailed !== undefined && !detailed.has(objectId) && !this.details.has(`${journey.id}|${objectId}`);
  }

  // -------------------------------------------------------------------------------------------
  // Selection

  private select(selection: StageRef | undefined): void {
    this.update({ selection });
    this.vscode.postMessage({ type: 'selectionChanged', selection });
  }

  private selectLane(laneIndex: number, stageIndex: number | undefined): void {
    const journey = this.journey();
    const lane = this.laneCache?.list.lanes[laneIndex];
    if (!journey || lane?.type !== 'object') return;
    const object = lane.object;
    const stage = stageIndex === undefined ? undefined : object.stages[stageIndex];
    const selection: StageRef = stage ? { journeyId: journey.id, object: object.ref, stageKey: stage.key } : { journeyId: journey.id, object: object.ref };
    // The control-plane view follows: the selected pod's path, at the selected stage.
    this.state = { ...this.state, selection, ...(object.ref.kind === 'Pod' ? { controlPlanePod: lane.key } : {}) };
    if (stage) {
      const index = stepIndexOf(this.steps(journey).steps, lane.key, stage.key);
      if (index !== undefined) this.state = { ...this.state, controlPlaneStep: index };
    }
    this.saveSoon();
    this.render();
    this.vscode.postMessage({ type: 'selectionChanged', selection });
  }

  private selectStep(step: ControlPlaneStep): void {
    const journey = this.journey();
    if (!journey) return;
    this.select({ journeyId: journey.id, object: step.object, stageKey: step.stage.key });
  }

  private stepTo(index: number): void {
    const journey = this.journey();
    if (!journey) return;
    const step = this.steps(journey).steps[index];
    this.state = { ...this.state, controlPlaneStep: index };
    if (step) this.selectStep(step);
    else this.update({});
  }

  private reveal(target: StageRef, view: TimelineViewMode | undefined): void {
    const journeys = this.store.journeys();
    if (!journeys.some((j) => j.id === target.journeyId)) return;
    this.state = {
      ...this.state,
      journeyId: target.journeyId,
      selection: target,
      ...(view ? { view } : {}),
      ...(target.object.kind === 'Pod' ? { controlPlanePod: objectKey(target.object) } : {}),
    };
    const journey = this.journey();
    if (journey && target.stageKey && target.object.kind === 'Pod') {
      const index = stepIndexOf(this.steps(journey).steps, objectKey(target.object), target.stageKey);
      if (index !== undefined) this.state = { ...this.state, controlPlaneStep: index };
    }
    this.saveSoon();
    this.render();
    const selected = this.selectedIndices();
    if (selected) this.lanes.setCursor(selected, true);
  }

  private selectedIndices(): Cursor | undefined {
    const selection = this.state.selection;
    const list = this.laneCache?.list;
    if (!selection || !list) return undefined;
    const laneIndex = list.indexByKey.get(objectKey(selection.object));
    if (laneIndex === undefined) return undefined;
    const lane = list.lanes[laneIndex];
    if (lane.type !== 'object' || selection.stageKey === undefined) return { laneIndex };
    const stageIndex = lane.object.stages.findIndex((s) => s.key === selection.stageKey);
    return stageIndex < 0 ? { laneIndex } : { laneIndex, stageIndex };
  }

  // -------------------------------------------------------------------------------------------
  // Actions

  private zoomBy(factor: number): void {
    const journey = this.journey();
    if (!journey) return;
    const bounds = journeyBounds(journey, this.laneList(journey).extent, this.nowFor(journey) - journey.appliedAt);
    const scale = createTimeScale(this.state.scale, visibleWindow(this.state.window, bounds), 0, 1000);
    const next = zoomWindow(scale, factor, 500, bounds);
    this.update({ window: next === bounds ? undefined : next });
  }

  private laneAction(action: KeyAction, _cursor: Cursor | undefined): void {
    if (action.type === 'toggleScale') this.update({ scale: this.state.scale === 'log' ? 'linear' : 'log', window: undefined });
    else if (action.type === 'openYaml') this.requestForSelection('openObjectYaml');
  }

  private requestForSelection(type: WebviewRequest['type']): void {
    const journey = this.journey();
    const selection = this.state.selection;
    if (!journey || !selection) return;
    const object = findObject(journey.tree, objectKey(selection.object));
    if (!object) return;
    const requestId = this.nextRequestId++;
    if (type === 'openObjectYaml') {
      const stage = selection.stageKey === undefined ? undefined : object.stages.find((s) => s.key === selection.stageKey);
      this.pending.set(requestId, 'Open YAML');
      this.vscode.postMessage({ type, requestId, journeyId: journey.id, object: object.ref, time: stage?.time });
    } else {
      this.pending.set(requestId, 'Reveal in tree');
      this.vscode.postMessage({ type, requestId, journeyId: journey.id, object: object.ref });
    }
    this.evidence.setStatus('…', false);
  }

  // -------------------------------------------------------------------------------------------
  // Rendering

  private render(): void {
    const journey = this.journey();
    if (!journey) {
      this.emptyNote.textContent = this.store.received ? 'No journeys yet. Apply a manifest with Kube Journey to follow it here.' : 'Waiting for a journey…';
      replaceChildren(this.root, this.emptyNote);
      return;
    }
    if (this.state.journeyId !== journey.id) this.state = { ...this.state, journeyId: journey.id };
    this.mount();
    const list = this.laneList(journey);
    this.header.update({
      journeys: this.store.journeys(),
      journey,
      source: this.store.source,
      view: this.state.view,
      scale: this.state.scale,
      zoomed: this.state.window !== undefined,
      totalPods: list.totalPods,
      large: list.totalPods > DEFAULT_SIMPLIFY_ABOVE_PODS,
      showAllPods: this.state.showAllPods,
      folded: this.store.find(journey.id)?.folded,
    });
    const selected = this.selectedIndices();
    const lanesShown = this.state.view === 'lanes';
    this.lanes.element.hidden = !lanesShown;
    this.controlPlane.element.hidden = lanesShown;
    this.emptyNote.hidden = journey.tree !== undefined;
    if (!journey.tree) this.emptyNote.textContent = `Waiting for ${journey.root.kind} ${journey.root.namespace}/${journey.root.name} to be stored…`;
    if (lanesShown) {
      this.lanes.setData({ journey, list, scale: this.state.scale, window: this.state.window, selection: selected, nowMs: this.nowFor(journey) - journey.appliedAt });
      if (!this.restoredScroll) {
        this.restoredScroll = true;
        this.lanes.setScrollTop(this.state.scrollTop);
      }
    } else {
      const cache = this.steps(journey);
      const index = Math.min(this.state.controlPlaneStep, Math.max(0, cache.steps.length - 1));
      this.controlPlane.setData({ steps: cache.steps, index, podChoices: cache.choices, podKey: objectKeyOfPod(journey, this.state.controlPlanePod), totalPods: cache.totalPods });
    }
    this.renderEvidence(journey, list);
  }

  private mounted = false;

  private mount(): void {
    if (this.mounted) return;
    this.mounted = true;
    this.root.removeAttribute('aria-busy');
    replaceChildren(this.viewHost, this.emptyNote, this.lanes.element, this.controlPlane.element);
    replaceChildren(this.root, this.header.element, h('div', { class: 'main' }, this.viewHost, this.evidence.element));
  }

  private renderEvidence(journey: Journey, list: LaneList): void {
    const selection = this.state.selection;
    if (!selection || selection.journeyId !== journey.id) {
      const hint = list.simplified ? `This journey has ${list.totalPods.toLocaleString('en-US')} pods: stuck pods, the slowest and the first are listed, the rest are folded into a summary lane (press Enter on it, or "Show all pods").` : undefined;
      this.evidence.show(undefined, false, hint);
      return;
    }
    const inTree = findObject(journey.tree, objectKey(selection.object));
    if (!inTree) {
      this.evidence.show(undefined, false, `${selection.object.kind} ${selection.object.name} is no longer part of this journey.`);
      return;
    }
    const object = this.detailOf(journey, inTree);
    const stageIndex = selection.stageKey === undefined ? -1 : object.stages.findIndex((s) => s.key === selection.stageKey);
    const view = stageIndex >= 0 ? stageEvidence(journey, object, stageIndex) : objectEvidence(journey, object);
    this.evidence.show(view, true);
    if (this.awaitingDetail(journey, inTree)) this.evidence.setStatus('Loading the evidence of this pod…', false);
  }
}

/** The pod the control-plane view shows, as a key (the preferred one when it is a pod of the journey). */
function objectKeyOfPod(journey: Journey, preferred: string | undefined): string | undefined {
  const pod = controlPlanePod(journey, preferred);
  return pod ? objectKey(pod.ref) : undefined;
}

