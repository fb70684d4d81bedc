/**
 * The header: which journey, its status and counts, per-phase statistics across its pods, the
 * colour legend, and the toolbar (view, scale, zoom, large-journey simplification).
 */
import type { Journey } from '../core/journey/types';
import type { FoldedPods, TimeScaleMode, TimelineViewMode } from '../protocol/timeline-protocol';
import { h, replaceChildren } from './dom';
import { GROUP_ORDER, GROUP_STYLES } from './model/components';
import { countsLine, phaseRows, statsCells } from './model/stats';
import { STATUS_GLYPHS } from './model/layout';

export interface HeaderCallbacks {
  chooseJourney(id: string): void;
  setView(view: TimelineViewMode): void;
  setScale(scale: TimeScaleMode): void;
  zoom(factor: number): void;
  fit(): void;
  setShowAllPods(show: boolean): void;
}

export interface HeaderData {
  readonly journeys: readonly Journey[];
  readonly journey: Journey;
  readonly source?: string;
  readonly view: TimelineViewMode;
  readonly scale: TimeScaleMode;
  readonly zoomed: boolean;
  /** Pods in the journey and whether the list is large enough to simplify. */
  readonly totalPods: number;
  readonly large: boolean;
  readonly showAllPods: boolean;
  /** Set for a journey sent simplified: the pods its tree does not hold. */
  readonly folded?: readonly FoldedPods[];
}

const numberFormat = new Intl.NumberFormat('en-US');

export class HeaderView {
  readonly element: HTMLElement;
  private readonly title: HTMLDivElement;
  private readonly stats: HTMLDivElement;
  private readonly picker: HTMLSelectElement;
  private readonly lanesTab: HTMLButtonElement;
  private readonly controlPlaneTab: HTMLButtonElement;
  private readonly logToggle: HTMLInputElement;
  private readonly showAll: HTMLInputElement;
  private readonly showAllLabel: HTMLLabelElement;
  private readonly showAllText: HTMLSpanElement;
  private readonly zoomControls: HTMLDivElement;
  private readonly fitButton: HTMLButtonElement;
  private statsFor?: { id: string; version: number };

  constructor(private readonly callbacks: HeaderCallbacks) {
    this.picker = h('select', { class: 'journey-picker', 'aria-label': 'Journey' });
    this.picker.addEventListener('change', () => this.callbacks.chooseJourney(this.picker.value));
    this.title = h('div', { class: 'journey-title' });
    this.stats = h('div', { class: 'journey-stats' });
    this.lanesTab = h('button', { type: 'button', role: 'tab', class: 'tab', id: 'tab-lanes', 'aria-controls': 'view' }, 'Lanes');
    this.controlPlaneTab = h('button', { type: 'button', role: 'tab', class: 'tab', id: 'tab-control-plane', 'aria-controls': 'view' }, 'Control plane');
    this.lanesTab.addEventListener('click', () => this.callbacks.setView('lanes'));
    this.controlPlaneTab.addEventListener('click', () => this.callbacks.setView('controlPlane'));
    const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'View' }, this.lanesTab, this.controlPlaneTab);
    tabs.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      const next = document.activeElement === this.lanesTab ? this.controlPlaneTab : this.lanesTab;
      next.focus();
      next.click();
    });
    this.logToggle = h('input', { type: 'checkbox' });
    this.logToggle.addEventListener('change', () => this.callbacks.setScale(this.logToggle.checked ? 'log' : 'linear'));
    const zoomIn = h('button', { type: 'button', title: 'Zoom in (+)', 'aria-label': 'Zoom in' }, '+');
    const zoomOut = h('button', { type: 'button', title: 'Zoom out (−)', 'aria-label': 'Zoom out' }, '−');
    this.fitButton = h('button', { type: 'button', title: 'Fit the whole journey (0)' }, 'Fit');
    zoomIn.addEventListener('click', () => this.callbacks.zoom(0.5));
    zoomOut.addEventListener('click', () => this.callbacks.zoom(2));
    this.fitButton.addEventListener('click', () => this.callbacks.fit());
    this.zoomControls = h('div', { class: 'zoom', role: 'group', 'aria-label': 'Time axis' }, h('label', { title: 'Logarithmic time axis (L)' }, this.logToggle, ' Log time'), zoomOut, zoomIn, this.fitButton);
    this.showAll = h('input', { type: 'checkbox' });
    this.showAll.addEventListener('change', () => this.callbacks.setShowAllPods(this.showAll.checked));
    this.showAllText = h('span', undefined, ' Show all pods');
    this.showAllLabel = h('label', { class: 'show-all', title: 'Large journeys list stuck pods, the slowest and the first pods, and fold the rest' }, this.showAll, this.showAllText);
    const legend = h(
      'ul',
      { class: 'legend', 'aria-label': 'Colours by component' },
      ...GROUP_ORDER.filter((g) => g !== 'other').map((g) => h('li', undefined, h('span', { class: `swatch group-${g}`, 'aria-hidden': 'true' }), GROUP_STYLES[g].label)),
      h('li', undefined, h('span', { class: 'swatch warning-shape', 'aria-hidden': 'true' }), 'warning'),
    );
    const toolbar = h('div', { class: 'toolbar' }, tabs, this.zoomControls, this.showAllLabel);
    this.element = h('header', { class: 'header' }, h('div', { class: 'header-top' }, this.picker, this.title), this.stats, h('div', { class: 'header-bottom' }, toolbar, legend));
  }

  update(data: HeaderData): void {
    const j = data.journey;
    this.renderPicker(data);
    const status = h('span', { class: `status status-${j.status}` }, `${STATUS_GLYPHS[j.status]} ${j.status}`);
    const root = `${j.root.kind} ${j.root.namespace}/${j.root.name}`;
    replaceChildren(this.title, h('h1', undefined, root), status, h('span', { class: 'counts' }, countsLine(j)), data.source ? h('span', { class: 'source' }, data.source) : undefined);
    if (this.statsFor?.id !== j.id || this.statsFor.version !== j.version) {
      this.statsFor = { id: j.id, version: j.version };
      this.renderStats(j, data.folded);
    }
    const lanes = data.view === 'lanes';
    this.lanesTab.setAttribute('aria-selected', String(lanes));
    this.controlPlaneTab.setAttribute('aria-selected', String(!lanes));
    this.lanesTab.tabIndex = lanes ? 0 : -1;
    this.controlPlaneTab.tabIndex = lanes ? -1 : 0;
    this.zoomControls.hidden = !lanes;
    this.logToggle.checked = data.scale === 'log';
    this.fitButton.disabled = !data.zoomed;
    this.showAllLabel.hidden = !lanes || !data.large;
    this.showAll.checked = data.showAllPods;
    this.showAllText.textContent = ` Show all ${numberFormat.format(data.totalPods)} pods`;
  }

  private renderPicker(data: HeaderData): void {
    this.picker.hidden = data.journeys.length <= 1;
    if (this.picker.hidden) return;
    const options = data.journeys.map((j) => {
      const option = h('option', { value: j.id }, `${j.root.kind} ${j.root.namespace}/${j.root.name} · ${j.status}`);
      option.selected = j.id === data.journey.id;
      return option;
    });
    replaceChildren(this.picker, ...options);
  }

  private renderStats(journey: Journey, folded: readonly FoldedPods[] | undefined): void {
    const rows = phaseRows(journey, folded);
    const head = h('tr', undefined, h('th', { scope: 'col' }, 'phase (per pod)'), ...['pods', 'p50', 'p90', 'max'].map((c) => h('th', { scope: 'col', class: 'num' }, c)));
    const body = rows.map((row) => {
      const cells = statsCells(row.stats);
      return h('tr', undefined, h('th', { scope: 'row' }, row.label), h('td', { class: 'num' }, numberFormat.format(Number(cells.count))), h('td', { class: 'num' }, cells.p50), h('td', { class: 'num' }, cells.p90), h('td', { class: 'num' }, cells.max));
    });
    replaceChildren(this.stats, h('table', { class: 'phase-stats' }, h('thead', undefined, head), h('tbody', undefined, ...body)));
  }
}
