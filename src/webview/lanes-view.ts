/**
 * The lanes view: one canvas, redrawn in a requestAnimationFrame with only the rows in view, so
 * scrolling a 10,000-pod journey costs the same as a 3-pod one. The canvas sits sticky inside a
 * native scroll container (a spacer gives the full height), so scrolling, scroll bars and wheel
 * behave as everywhere else in VS Code. Geometry comes from model/layout.ts; this file only paints
 * and turns input into cursor moves and selections.
 */
import type { Journey, Stage } from '../core/journey/types';
import type { TimeScaleMode } from '../protocol/timeline-protocol';
import { h } from './dom';
import { formatOffset } from '../common/duration-format';
import { GROUP_STYLES, componentGroup } from './model/components';
import { hitTest, layoutRows, scrollToRow, visibleRange, type ObjectRowLayout, type RowLayout, type SummaryRowLayout } from './model/layout';
import { SUMMARY_STAGE_KINDS, type Lane, type LaneList, type SummaryStageKind } from './model/lanes';
import { keyAction, moveCursor, type Cursor, type KeyAction } from './model/navigation';
import { createTimeScale, fitWindow, panWindow, ticks, zoomWindow, type TimeScale, type TimeWindow } from './model/scale';
import { readPalette, type Palette } from './theme';
import { recordDraw } from './perf';

export const ROW_HEIGHT = 30;
const AXIS_HEIGHT = 26;
const MARK_RADIUS = 4.5;
const INDENT = 14;

export interface LanesData {
  readonly journey: Journey;
  readonly list: LaneList;
  readonly scale: TimeScaleMode;
  /** Visible time window; undefined fits the whole journey. */
  readonly window?: TimeWindow;
  /** Selected lane and stage (index into the lane's stages). */
  readonly selection?: { readonly laneIndex: number; readonly stageIndex?: number };
  /** Ms from the apply that counts as now (open lifelines end here). */
  readonly nowMs: number;
}

export interface LanesCallbacks {
  /** Enter or click: select a lane (and stage). */
  select(laneIndex: number, stageIndex: number | undefined): void;
  clearSelection(): void;
  /** Enter on a summary lane: list all pods. */
  expandSummary(laneIndex: number): void;
  /** The user zoomed or panned; undefined means "fit". */
  windowChanged(window: TimeWindow | undefined): void;
  scrolled(scrollTop: number): void;
  /** Keys the view does not handle itself (scale toggle, open YAML). */
  action(action: KeyAction, cursor: Cursor | undefined): void;
}

const STATUS_COLOUR: Record<string, (p: Palette) => string> = {
  complete: (p) => p.group.kubelet,
  stuck: (p) => p.warning,
  failed: (p) => p.warning,
  progressing: (p) => p.group.apiServer,
  pending: (p) => p.muted,
  deleted: (p) => p.muted,
  summary: (p) => p.muted,
};

const SUMMARY_GROUP: Record<SummaryStageKind, keyof Palette['group']> = { podCreated: 'controllerManager', scheduled: 'scheduler', running: 'kubelet', ready: 'kubelet' };

/** The whole journey on the time axis: from its earliest stage (or the apply) to now. */
export function journeyBounds(journey: Journey, list: LaneList, nowMs: number): TimeWindow {
  return fitWindow(Math.max(journey.lastChangeAt - journey.appliedAt, nowMs, list.extent.lastMs), list.extent.firstMs);
}

export class LanesView {
  readonly element: HTMLElement;
  private readonly scroller: HTMLDivElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly spacer: HTMLDivElement;
  private readonly live: HTMLDivElement;
  private readonly tooltip: HTMLDivElement;
  private readonly context: CanvasRenderingContext2D;
  private readonly resizeObserver: ResizeObserver;
  private palette: Palette = readPalette();
  private data?: LanesData;
  private cursor?: Cursor;
  private hover?: { laneIndex: number; stageIndex?: number; x: number; y: number };
  private rows: RowLayout[] = [];
  private scale?: TimeScale;
  private width = 0;
  private height = 0;
  private frame = 0;
  private readonly textWidths = new Map<string, number>();

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
    this.live = h('div', { class: 'sr-only', 'aria-live': 'polite' });
    this.tooltip = h('div', { class: 'lanes-tooltip', role: 'tooltip', hidden: true });
    this.element = h('section', { class: 'lanes-view' }, this.scroller, this.tooltip, this.live);
    const context = this.canvas.getContext('2d', { alpha: false });
    if (!context) throw new Error('The timeline needs a 2D canvas.');
    this.context = context;

    this.scroller.addEventListener('scroll', () => {
      this.callbacks.scrolled(this.scroller.scrollTop);
      this.requestDraw();
    });
    this.scroller.addEventListener('keydown', (event) => this.onKey(event));
    this.scroller.addEventListener('focus', () => this.requestDraw());
    this.scroller.addEventListener('blur', () => this.requestDraw());
    this.scroller.addEventListener('wheel', (event) => this.onWheel(event), { passive: false });
    this.scroller.addEventListener('mousemove', (event) => this.onPointerMove(event));
    this.scroller.addEventListener('mouseleave', () => this.setHover(undefined));
    this.scroller.addEventListener('click', (event) => this.onClick(event));
    this.scroller.addEventListener('dblclick', (event) => this.onDoubleClick(event));
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.scroller);
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.frame);
  }

  setData(data: LanesData): void {
    const previous = this.data;
    this.data = data;
    if (this.cursor && this.cursor.laneIndex >= data.list.lanes.length) this.cursor = undefined;
    if (!this.cursor && data.selection) this.cursor = data.selection;
    if (previous?.list !== data.list) this.updateSpacer();
    this.requestDraw();
  }

  /** Moves the keyboard cursor (and scrolls to it), e.g. after a reveal. */
  setCursor(cursor: Cursor | undefined, reveal: boolean): void {
    this.cursor = cursor;
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
    this.palette = readPalette();
    this.textWidths.clear();
    this.requestDraw();
  }

  private get lanesHeight(): number {
    return Math.max(0, this.height - AXIS_HEIGHT);
  }

  private updateSpacer(): void {
    const rows = this.data?.list.lanes.length ?? 0;
    const content = AXIS_HEIGHT + rows * ROW_HEIGHT + 8;
    this.spacer.style.height = `${Math.max(0, content - this.height)}px`;
  }

  private resize(): void {
    const rect = this.scroller.getBoundingClientRect();
    const width = Math.floor(this.scroller.clientWidth || rect.width);
    const height = Math.floor(this.scroller.clientHeight || rect.height);
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.floor(width * dpr));
    this.canvas.height = Math.max(1, Math.floor(height * dpr));
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.updateSpacer();
    this.drawNow();
  }

  private revealRow(index: number): void {
    const top = scrollToRow(index, ROW_HEIGHT, this.scroller.scrollTop, this.lanesHeight);
    if (top !== this.scroller.scrollTop) this.scroller.scrollTop = top;
  }

  requestDraw(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.drawNow();
    });
  }

  // -------------------------------------------------------------------------------------------
  // Geometry

  private gutterWidth(): number {
    return Math.round(Math.min(340, Math.max(170, this.width * 0.3)));
  }

  private bounds(data: LanesData): TimeWindow {
    return journeyBounds(data.journey, data.list, data.nowMs);
  }

  private currentScale(data: LanesData): TimeScale {
    const x0 = this.gutterWidth() + 14;
    const x1 = Math.max(x0 + 40, this.width - 18);
    return createTimeScale(data.scale, data.window ?? this.bounds(data), x0, x1);
  }

  private measure = (text: string): number => {
    let width = this.textWidths.get(text);
    if (width === undefined) {
      width = this.context.measureText(text).width;
      if (this.textWidths.size > 5000) this.textWidths.clear();
      this.textWidths.set(text, width);
    }
    return width;
  };

  // -------------------------------------------------------------------------------------------
  // Painting

  private drawNow(): void {
    const data = this.data;
    if (!data || this.width === 0 || this.height === 0) return;
    const started = performance.now();
    const ctx = this.context;
    const p = this.palette;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, this.width, this.height);

    const scale = this.currentScale(data);
    this.scale = scale;
    ctx.font = p.monoFont;
    this.rows = layoutRows(data.list, scale, data.journey.appliedAt, {
      rowHeight: ROW_HEIGHT,
      scrollTop: this.scroller.scrollTop,
      viewportHeight: this.lanesHeight,
      nowMs: data.nowMs,
      measure: this.measure,
    });

    this.drawGrid(scale);
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, AXIS_HEIGHT, this.width, this.lanesHeight);
    ctx.clip();
    for (const row of this.rows) this.drawRowBackground(row);
    for (const row of this.rows) {
      if (row.type === 'object') this.drawObjectRow(row, scale);
      else this.drawSummaryRow(row, scale);
    }
    ctx.restore();
    this.drawAxis(scale);
    recordDraw(performance.now() - started, this.rows.length, data.list.lanes.length);
  }

  private drawGrid(scale: TimeScale): void {
    const ctx = this.context;
    ctx.strokeStyle = this.palette.grid;
    ctx.globalAlpha = 0.5;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const tick of ticks(scale)) {
      const x = Math.round(tick.x) + 0.5;
      ctx.moveTo(x, AXIS_HEIGHT);
      ctx.lineTo(x, this.height);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
    const gutter = this.gutterWidth();
    ctx.beginPath();
    ctx.moveTo(gutter + 0.5, 0);
    ctx.lineTo(gutter + 0.5, this.height);
    ctx.stroke();
  }

  private drawAxis(scale: TimeScale): void {
    const ctx = this.context;
    const p = this.palette;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, this.width, AXIS_HEIGHT);
    ctx.strokeStyle = p.grid;
    ctx.beginPath();
    ctx.moveTo(0, AXIS_HEIGHT - 0.5);
    ctx.lineTo(this.width, AXIS_HEIGHT - 0.5);
    ctx.stroke();
    ctx.font = p.monoFont;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = p.muted;
    ctx.textAlign = 'left';
    const list = this.data?.list;
    const heading = list ? `${list.lanes.length.toLocaleString('en-US')} lanes${list.simplified ? ` · ${list.foldedPods.toLocaleString('en-US')} pods folded` : ''}` : '';
    ctx.fillText(heading, 8, AXIS_HEIGHT / 2);
    ctx.textAlign = 'center';
    for (const tick of ticks(scale)) {
      const w = this.measure(tick.label);
      const x = Math.min(Math.max(tick.x, scale.x0 + w / 2), this.width - w / 2 - 2);
      ctx.fillText(tick.label, x, AXIS_HEIGHT / 2);
    }
    ctx.textAlign = 'right';
    ctx.fillText(scale.mode === 'log' ? 'log time' : '', this.width - 4, AXIS_HEIGHT - 6);
    ctx.textAlign = 'left';
  }

  private rowTop(row: RowLayout): number {
    return AXIS_HEIGHT + row.y;
  }

  /** The lifeline's y: a little below the middle, leaving room for duration labels above it. */
  private lineY(row: RowLayout): number {
    return this.rowTop(row) + Math.round(ROW_HEIGHT * 0.62);
  }

  private drawRowBackground(row: RowLayout): void {
    const ctx = this.context;
    const selected = this.data?.selection?.laneIndex === row.index;
    const cursor = this.cursor?.laneIndex === row.index;
    const hovered = this.hover?.laneIndex === row.index;
    if (!selected && !cursor && !hovered) return;
    ctx.fillStyle = selected ? this.palette.selection : this.palette.hover;
    ctx.globalAlpha = selected ? 0.55 : 0.6;
    ctx.fillRect(0, this.rowTop(row), this.width, ROW_HEIGHT);
    ctx.globalAlpha = 1;
    if (cursor && document.activeElement === this.scroller && this.cursor?.stageIndex === undefined) {
      ctx.strokeStyle = this.palette.focus;
      ctx.lineWidth = 1;
      ctx.strokeRect(0.5, this.rowTop(row) + 0.5, this.width - 1, ROW_HEIGHT - 1);
    }
  }

  /**
   * Fits `text` into `maxWidth` by cutting out its middle: generated names differ at the end
   * (`web-5d567cc74c-ss4lb`), so the end must stay visible.
   */
  private truncated(text: string, maxWidth: number): string {
    if (this.measure(text) <= maxWidth) return text;
    let lo = 0;
    let hi = text.length;
    const cut = (keep: number): string => {
      const tail = Math.ceil(keep * 0.55);
      return `${text.slice(0, keep - tail)}…${text.slice(text.length - tail)}`;
    };
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.measure(cut(mid)) <= maxWidth) lo = mid;
      else hi = mid - 1;
    }
    return lo === 0 ? '' : cut(lo);
  }

  private truncatedEnd(text: string, maxWidth: number): string {
    if (this.measure(text) <= maxWidth) return text;
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.measure(`${text.slice(0, mid)}…`) <= maxWidth) lo = mid;
      else hi = mid - 1;
    }
    return lo === 0 ? '' : `${text.slice(0, lo)}…`;
  }

  private drawLabel(row: RowLayout): void {
    const ctx = this.context;
    const p = this.palette;
    const mid = this.lineY(row) - 1;
    const gutter = this.gutterWidth();
    let x = 8 + row.depth * INDENT;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.font = p.font;
    ctx.fillStyle = STATUS_COLOUR[row.label.status](p);
    ctx.fillText(row.label.glyph, x, mid);
    x += 16;
    // A narrow panel needs the room for names; the indent still tells the kinds apart.
    if (gutter >= 220) {
      ctx.font = p.monoFont;
      ctx.fillStyle = p.muted;
      const kind = row.label.kind;
      ctx.fillText(kind, x, mid);
      x += this.measure(kind) + 6;
    }
    ctx.font = p.font;
    ctx.fillStyle = row.type === 'summary' ? p.muted : p.foreground;
    const room = gutter - x - 6;
    const name = this.truncated(row.label.name, room);
    ctx.fillText(name, x, mid);
    const detail = row.label.detail;
    if (detail && name === row.label.name) {
      const after = x + this.measure(name) + 6;
      const room = gutter - after - 6;
      // A detail cut to a letter or two says nothing: leave it out.
      const rest = room >= this.measure('Failed…') ? this.truncatedEnd(detail, room) : '';
      ctx.fillStyle = row.label.status === 'stuck' || row.label.status === 'failed' ? p.warning : p.muted;
      ctx.font = p.monoFont;
      if (rest) ctx.fillText(rest, after, mid);
    }
  }

  private drawObjectRow(row: ObjectRowLayout, scale: TimeScale): void {
    const ctx = this.context;
    const p = this.palette;
    this.drawLabel(row);
    const mid = this.lineY(row);
    ctx.save();
    ctx.beginPath();
    ctx.rect(scale.x0 - MARK_RADIUS - 2, AXIS_HEIGHT, scale.x1 - scale.x0 + 2 * MARK_RADIUS + 4, this.lanesHeight);
    ctx.clip();
    // Lifeline and durations.
    ctx.lineWidth = 2;
    ctx.font = p.monoFont;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'alphabetic';
    for (const segment of row.segments) {
      ctx.strokeStyle = segment.open && row.lane.object.stuck ? p.warning : p.muted;
      ctx.globalAlpha = 0.55;
      ctx.setLineDash(segment.open ? [3, 3] : []);
      ctx.beginPath();
      ctx.moveTo(segment.x0, mid);
      ctx.lineTo(segment.x1, mid);
      ctx.stroke();
      ctx.globalAlpha = 1;
      if (segment.label) {
        ctx.fillStyle = p.muted;
        ctx.fillText(segment.label, (segment.x0 + segment.x1) / 2, mid - 7);
      }
    }
    ctx.setLineDash([]);
    const stages = row.lane.object.stages;
    const selection = this.data?.selection;
    const emphasised: { x: number; ring: string; width: number; radius: number }[] = [];
    row.marks.forEach((mark, i) => {
      const next = row.marks[i + 1];
      const selected = selection?.laneIndex === row.index && selection.stageIndex === mark.stageIndex;
      const focused = this.cursor?.laneIndex === row.index && this.cursor.stageIndex === mark.stageIndex && document.activeElement === this.scroller;
      if (selected) emphasised.push({ x: mark.x, ring: p.foreground, width: 2, radius: MARK_RADIUS + 3 });
      if (focused) emphasised.push({ x: mark.x, ring: p.focus, width: 1.5, radius: MARK_RADIUS + 6 });
      // A mark covered by the next one at the same pixel would only show as a sliver of outline.
      if (next && Math.abs(next.x - mark.x) < 1.5 && !mark.warning) return;
      const colour = mark.warning ? p.warning : p.group[mark.group];
      ctx.fillStyle = colour;
      ctx.strokeStyle = p.background;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      if (mark.warning) {
        ctx.moveTo(mark.x, mid - MARK_RADIUS - 1.5);
        ctx.lineTo(mark.x + MARK_RADIUS + 1, mid + MARK_RADIUS);
        ctx.lineTo(mark.x - MARK_RADIUS - 1, mid + MARK_RADIUS);
        ctx.closePath();
      } else {
        ctx.arc(mark.x, mid, MARK_RADIUS, 0, Math.PI * 2);
      }
      ctx.fill();
      ctx.stroke();
    });
    for (const e of emphasised) {
      ctx.strokeStyle = e.ring;
      ctx.lineWidth = e.width;
      ctx.beginPath();
      ctx.arc(e.x, mid, e.radius, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.restore();
    if (stages.length === 0) {
      ctx.fillStyle = p.muted;
      ctx.font = p.monoFont;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText('not seen yet', scale.x0, mid - 3);
    }
  }

  private drawSummaryRow(row: SummaryRowLayout, scale: TimeScale): void {
    const ctx = this.context;
    const p = this.palette;
    this.drawLabel(row);
    const top = this.rowTop(row) + 3;
    const stripHeight = (ROW_HEIGHT - 6) / SUMMARY_STAGE_KINDS.length;
    row.strips.forEach((strip, i) => {
      ctx.fillStyle = p.group[SUMMARY_GROUP[strip.kind]];
      const y = top + i * stripHeight;
      for (let b = 0; b < strip.counts.length; b++) {
        const n = strip.counts[b];
        if (n === 0) continue;
        // Square root: a bucket with 1 pod must stay visible next to one with 500.
        ctx.globalAlpha = 0.25 + 0.75 * Math.sqrt(n / strip.max);
        ctx.fillRect(scale.x0 + b * strip.bucketPx, y, strip.bucketPx, stripHeight - 1);
      }
    });
    ctx.globalAlpha = 1;
  }

  // -------------------------------------------------------------------------------------------
  // Input

  private announce(text: string): void {
    this.live.textContent = text;
  }

  private describe(lane: Lane | undefined, stageIndex: number | undefined): string {
    if (!lane || !this.data) return '';
    if (lane.type === 'summary') return `${lane.podCount} more pods folded. Press Enter to list all pods.`;
    const o = lane.object;
    const base = `${o.ref.kind} ${o.ref.name}, ${o.status}`;
    if (stageIndex === undefined) return `${base}, ${o.stages.length} stages`;
    const stage: Stage | undefined = o.stages[stageIndex];
    if (!stage) return base;
    return `${stage.title}, ${formatOffset(stage.time - this.data.journey.appliedAt)}, by ${stage.component} (${GROUP_STYLES[componentGroup(stage.component)].label}). ${o.ref.kind} ${o.ref.name}. Stage ${stageIndex + 1} of ${o.stages.length}.`;
  }

  private onKey(event: KeyboardEvent): void {
    const data = this.data;
    if (!data) return;
    const action = keyAction(event);
    if (!action) return;
    event.preventDefault();
    const lanes = data.list.lanes;
    switch (action.type) {
      case 'move': {
        const pageRows = Math.max(1, Math.floor(this.lanesHeight / ROW_HEIGHT) - 1);
        this.cursor = moveCursor(lanes, this.cursor, action.key, action.toEdge, pageRows);
        if (this.cursor) {
          this.revealRow(this.cursor.laneIndex);
          this.revealStage(this.cursor);
          this.announce(this.describe(lanes[this.cursor.laneIndex], this.cursor.stageIndex));
        }
        this.requestDraw();
        return;
      }
      case 'select': {
        const cursor = this.cursor ?? moveCursor(lanes, undefined, 'ArrowDown', false, 1);
        if (!cursor) return;
        this.cursor = cursor;
        const lane = lanes[cursor.laneIndex];
        if (lane?.type === 'summary') this.callbacks.expandSummary(cursor.laneIndex);
        else this.callbacks.select(cursor.laneIndex, cursor.stageIndex);
        return;
      }
      case 'clearSelection':
        this.callbacks.clearSelection();
        return;
      case 'zoom': {
        if (!this.scale) return;
        const anchor = this.cursorX() ?? (this.scale.x0 + this.scale.x1) / 2;
        this.zoom(action.factor, anchor);
        return;
      }
      case 'fit':
        this.callbacks.windowChanged(undefined);
        return;
      default:
        this.callbacks.action(action, this.cursor);
    }
  }

  private cursorX(): number | undefined {
    const data = this.data;
    const cursor = this.cursor;
    if (!data || !cursor || cursor.stageIndex === undefined || !this.scale) return undefined;
    const lane = data.list.lanes[cursor.laneIndex];
    if (lane?.type !== 'object') return undefined;
    const stage = lane.object.stages[cursor.stageIndex];
    return stage ? this.scale.toX(stage.time - data.journey.appliedAt) : undefined;
  }

  /** Pans a zoomed window so the cursor's stage is in view. */
  private revealStage(cursor: Cursor): void {
    const data = this.data;
    if (!data?.window || !this.scale || cursor.stageIndex === undefined) return;
    const x = this.cursorX();
    if (x === undefined) return;
    const margin = 24;
    if (x < this.scale.x0 + margin) this.callbacks.windowChanged(panWindow(this.scale, x - this.scale.x0 - margin * 2, this.bounds(data)));
    else if (x > this.scale.x1 - margin) this.callbacks.windowChanged(panWindow(this.scale, x - this.scale.x1 + margin * 2, this.bounds(data)));
  }

  private zoom(factor: number, anchorX: number): void {
    const data = this.data;
    if (!data || !this.scale) return;
    const bounds = this.bounds(data);
    const next = zoomWindow(this.scale, factor, anchorX, bounds);
    this.callbacks.windowChanged(next === bounds ? undefined : next);
  }

  private onWheel(event: WheelEvent): void {
    const data = this.data;
    if (!data || !this.scale) return;
    const x = event.offsetX;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      this.zoom(Math.exp(event.deltaY * 0.002), x);
      return;
    }
    const horizontal = event.shiftKey ? event.deltaY : event.deltaX;
    if (horizontal !== 0 && (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY))) {
      event.preventDefault();
      if (data.window) this.callbacks.windowChanged(panWindow(this.scale, horizontal, this.bounds(data)));
    }
  }

  private pointer(event: MouseEvent): { x: number; y: number } {
    const rect = this.scroller.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  private hitAt(x: number, y: number): { laneIndex: number; stageIndex?: number } | undefined {
    if (y < AXIS_HEIGHT) return undefined;
    const hit = hitTest(this.rows, x, y - AXIS_HEIGHT, ROW_HEIGHT);
    if (!hit) return undefined;
    return hit.stageIndex === undefined ? { laneIndex: hit.index } : { laneIndex: hit.index, stageIndex: hit.stageIndex };
  }

  private onPointerMove(event: MouseEvent): void {
    const { x, y } = this.pointer(event);
    const hit = this.hitAt(x, y);
    this.setHover(hit ? { ...hit, x, y } : undefined);
  }

  private setHover(hover: { laneIndex: number; stageIndex?: number; x: number; y: number } | undefined): void {
    const changed = hover?.laneIndex !== this.hover?.laneIndex || hover?.stageIndex !== this.hover?.stageIndex;
    this.hover = hover;
    const data = this.data;
    const lane = hover && data ? data.list.lanes[hover.laneIndex] : undefined;
    if (hover && lane?.type === 'object' && hover.stageIndex !== undefined && data) {
      const stage = lane.object.stages[hover.stageIndex];
      this.tooltip.textContent = `${formatOffset(stage.time - data.journey.appliedAt)} · ${stage.component} · ${stage.title}`;
      this.tooltip.hidden = false;
      const left = Math.min(hover.x + 12, Math.max(0, this.width - this.tooltip.offsetWidth - 4));
      this.tooltip.style.transform = `translate(${Math.round(left)}px, ${Math.round(hover.y + 14)}px)`;
      this.scroller.style.cursor = 'pointer';
    } else {
      this.tooltip.hidden = true;
      this.scroller.style.cursor = lane?.type === 'summary' ? 'pointer' : '';
    }
    if (changed) this.requestDraw();
  }

  private onClick(event: MouseEvent): void {
    const { x, y } = this.pointer(event);
    const hit = this.hitAt(x, y);
    if (!hit) return;
    this.cursor = hit;
    this.callbacks.select(hit.laneIndex, hit.stageIndex);
    this.requestDraw();
  }

  private onDoubleClick(event: MouseEvent): void {
    const { x, y } = this.pointer(event);
    const hit = this.hitAt(x, y);
    if (hit && this.data?.list.lanes[hit.laneIndex]?.type === 'summary') this.callbacks.expandSummary(hit.laneIndex);
  }

  /** Rows currently drawn (for tests and the perf harness). */
  drawnRows(): number {
    return this.rows.length;
  }

  visibleRowRange(): { first: number; end: number } {
    return visibleRange(this.data?.list.lanes.length ?? 0, ROW_HEIGHT, this.scroller.scrollTop, this.lanesHeight, 0);
  }
}
