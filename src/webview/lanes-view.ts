/**
 * The lanes view: one canvas, redrawn in a requestAnimationFrame with only the rows in view, so
 * scrolling a 10,000-pod journey costs the same as a 3-pod one. The canvas sits sticky inside a
 * native scroll container (a spacer gives the full height), so scrolling, scroll bars and wheel
 * behave as everywhere else in VS Code. Painting is lanes-painter.ts, input is lanes-input.ts;
 * this file holds the DOM, the size and the frame loop.
 */
import { h } from './dom';
import { visibleRange, scrollToRow } from './model/layout';
import type { Cursor } from './model/navigation';
import { tickLabel } from './model/scale';
import { LanesInput, type LanesCallbacks } from './lanes-input';
import { LanesPainter } from './lanes-painter';
import { AXIS_HEIGHT, ROW_HEIGHT, lanesHeight, type LanesData, type LanesState } from './lanes-state';
import { recordDraw } from './perf';

export class LanesView {
  readonly element: HTMLElement;
  private readonly state: LanesState = { width: 0, height: 0, rows: [] };
  private readonly scroller: HTMLDivElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly spacer: HTMLDivElement;
  /** The time axis in words (the canvas is hidden from screen readers). */
  private readonly axisText: HTMLDivElement;
  private readonly painter: LanesPainter;
  private readonly resizeObserver: ResizeObserver;
  private frame = 0;

  constructor(private readonly callbacks: LanesCallbacks) {
    this.canvas = h('canvas', { class: 'lanes-canvas', 'aria-hidden': 'true' });
    this.spacer = h('div', { class: 'lanes-spacer' });
    this.scroller = h(
      'div',
      {
        class: 'lanes-scroll',
        tabindex: 0,
        role: 'application',
        'aria-roledescription': 'timeline',
        'aria-label': 'Journey lanes. Arrow keys move between stages and lanes, Enter selects, plus and minus zoom, 0 fits, L toggles the log scale.',
      },
      this.canvas,
      this.spacer,
    );
    const live = h('div', { class: 'sr-only', 'aria-live': 'polite' });
    this.axisText = h('div', { class: 'sr-only lanes-axis' });
    const tooltip = h('div', { class: 'lanes-tooltip', role: 'tooltip', hidden: true });
    this.element = h('section', { class: 'lanes-view' }, this.scroller, tooltip, this.axisText, live);
    const context = this.canvas.getContext('2d', { alpha: false });
    if (!context) throw new Error('The timeline needs a 2D canvas.');
    this.painter = new LanesPainter(context);

    this.scroller.addEventListener('scroll', () => {
      this.callbacks.scrolled(this.scroller.scrollTop);
      this.requestDraw();
    });
    this.scroller.addEventListener('focus', () => this.requestDraw());
    this.scroller.addEventListener('blur', () => this.requestDraw());
    // Listens on the scroller for as long as the view lives.
    new LanesInput({ state: this.state, scroller: this.scroller, tooltip, live, requestDraw: () => this.requestDraw(), revealRow: (index) => this.revealRow(index) }, callbacks);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.scroller);
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.frame);
  }

  setData(data: LanesData): void {
    const state = this.state;
    const previous = state.data;
    state.data = data;
    if (state.cursor && state.cursor.laneIndex >= data.list.lanes.length) state.cursor = undefined;
    if (!state.cursor && data.selection) state.cursor = data.selection;
    if (previous?.list !== data.list) this.updateSpacer();
    this.requestDraw();
  }

  /** Moves the keyboard cursor (and scrolls to it), e.g. after a reveal. */
  setCursor(cursor: Cursor | undefined, reveal: boolean): void {
    this.state.cursor = cursor;
    if (cursor && reveal) this.revealRow(cursor.laneIndex);
    this.requestDraw();
  }

  scrollTop(): number {
    return this.scroller.scrollTop;
  }

  setScrollTop(value: number): void {
    this.scroller.scrollTop = value;
  }

  focus(): void {
    this.scroller.focus({ preventScroll: true });
  }

  themeChanged(): void {
    this.painter.themeChanged();
    this.requestDraw();
  }

  private revealRow(index: number): void {
    const top = scrollToRow(index, ROW_HEIGHT, this.scroller.scrollTop, lanesHeight(this.state));
    if (top !== this.scroller.scrollTop) this.scroller.scrollTop = top;
  }

  requestDraw(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.drawNow();
    });
  }

  /** Rows currently drawn (for tests and the perf harness). */
  drawnRows(): number {
    return this.state.rows.length;
  }

  visibleRowRange(): { first: number; end: number } {
    return visibleRange(this.state.data?.list.lanes.length ?? 0, ROW_HEIGHT, this.scroller.scrollTop, lanesHeight(this.state), 0);
  }

  private updateSpacer(): void {
    const rows = this.state.data?.list.lanes.length ?? 0;
    const content = AXIS_HEIGHT + rows * ROW_HEIGHT + 8;
    this.spacer.style.height = `${Math.max(0, content - this.state.height)}px`;
  }

  private resize(): void {
    const rect = this.scroller.getBoundingClientRect();
    const width = Math.floor(this.scroller.clientWidth || rect.width);
    const height = Math.floor(this.scroller.clientHeight || rect.height);
    if (width === this.state.width && height === this.state.height) return;
    this.state.width = width;
    this.state.height = height;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.floor(width * dpr));
    this.canvas.height = Math.max(1, Math.floor(height * dpr));
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.updateSpacer();
    this.drawNow();
  }

  private drawNow(): void {
    const { data, width, height } = this.state;
    if (!data || width === 0 || height === 0) return;
    const started = performance.now();
    this.painter.paint(this.state, data, { scrollTop: this.scroller.scrollTop, focused: document.activeElement === this.scroller });
    const shown = this.state.scale?.window;
    const axis = shown ? `Time axis from ${tickLabel(shown.startMs)} to ${tickLabel(shown.endMs)}${data.window ? ', zoomed' : ''}.` : '';
    if (this.axisText.textContent !== axis) this.axisText.textContent = axis;
    recordDraw(performance.now() - started, this.state.rows.length, data.list.lanes.length);
  }
}
