/**
 * Draws the lanes view on its canvas: the time axis and grid, one row per lane in view (label,
 * lifeline with durations, a mark per stage coloured by the acting component) and the summary
 * lanes' density strips. Geometry comes from model/layout.ts; this file only paints.
 */
import { layoutRows, type ObjectRowLayout, type RowLayout, type SummaryRowLayout } from './model/layout';
import { SUMMARY_STAGE_KINDS, type SummaryStageKind } from './model/lanes';
import { ticks, type TimeScale } from './model/scale';
import { AXIS_HEIGHT, ROW_HEIGHT, gutterWidth, lanesHeight, timeScaleFor, type LanesData, type LanesState } from './lanes-state';
import { readPalette, type Palette } from './theme';

const MARK_RADIUS = 4.5;
const INDENT = 14;

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

/** What one frame needs besides the view's state. */
export interface PaintInput {
  readonly scrollTop: number;
  /** The lanes have the keyboard focus: the cursor is drawn. */
  readonly focused: boolean;
}

export class LanesPainter {
  private palette: Palette = readPalette();
  private readonly textWidths = new Map<string, number>();
  /** The frame being painted. */
  private state!: LanesState;
  private data!: LanesData;
  private focused = false;

  constructor(private readonly context: CanvasRenderingContext2D) {}

  themeChanged(): void {
    this.palette = readPalette();
    this.textWidths.clear();
  }

  /** Lays out the rows in view and paints the frame; the state keeps the scale and rows drawn. */
  paint(state: LanesState, data: LanesData, input: PaintInput): void {
    this.state = state;
    this.data = data;
    this.focused = input.focused;
    const ctx = this.context;
    const p = this.palette;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, state.width, state.height);

    const scale = timeScaleFor(state, data);
    ctx.font = p.monoFont;
    const rows = layoutRows(data.list, scale, data.journey.appliedAt, {
      rowHeight: ROW_HEIGHT,
      scrollTop: input.scrollTop,
      viewportHeight: lanesHeight(state),
      nowMs: data.nowMs,
      measure: this.measure,
    });
    state.scale = scale;
    state.rows = rows;

    this.drawGrid(scale);
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, AXIS_HEIGHT, state.width, lanesHeight(state));
    ctx.clip();
    for (const row of rows) this.drawRowBackground(row);
    for (const row of rows) {
      if (row.type === 'object') this.drawObjectRow(row, scale);
      else this.drawSummaryRow(row, scale);
    }
    ctx.restore();
    this.drawAxis(scale);
  }

  /** Width of `text` in the font last set (cached: labels repeat on every frame). */
  measure = (text: string): number => {
    let width = this.textWidths.get(text);
    if (width === undefined) {
      width = this.context.measureText(text).width;
      if (this.textWidths.size > 5000) this.textWidths.clear();
      this.textWidths.set(text, width);
    }
    return width;
  };

  private drawGrid(scale: TimeScale): void {
    const ctx = this.context;
    const { height } = this.state;
    ctx.strokeStyle = this.palette.grid;
    ctx.globalAlpha = 0.5;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const tick of ticks(scale)) {
      const x = Math.round(tick.x) + 0.5;
      ctx.moveTo(x, AXIS_HEIGHT);
      ctx.lineTo(x, height);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
    const gutter = gutterWidth(this.state);
    ctx.beginPath();
    ctx.moveTo(gutter + 0.5, 0);
    ctx.lineTo(gutter + 0.5, height);
    ctx.stroke();
  }

  private drawAxis(scale: TimeScale): void {
    const ctx = this.context;
    const p = this.palette;
    const { width } = this.state;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, AXIS_HEIGHT);
    ctx.strokeStyle = p.grid;
    ctx.beginPath();
    ctx.moveTo(0, AXIS_HEIGHT - 0.5);
    ctx.lineTo(width, AXIS_HEIGHT - 0.5);
    ctx.stroke();
    ctx.font = p.monoFont;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = p.muted;
    ctx.textAlign = 'left';
    const list = this.data.list;
    const lanes = `${list.lanes.length.toLocaleString('en-US')} lanes`;
    const folded = list.foldedPods.toLocaleString('en-US');
    // The longest heading that fits the gutter: a narrow panel must not write it over the axis.
    const headings = list.simplified ? [`${lanes} · ${folded} pods folded`, `${lanes} · ${folded} folded`, `${folded} folded`] : [lanes];
    const room = scale.x0 - 16;
    const heading = headings.find((text) => this.measure(text) <= room) ?? headings[headings.length - 1];
    ctx.fillText(heading, 8, AXIS_HEIGHT / 2);
    ctx.textAlign = 'center';
    for (const tick of ticks(scale)) {
      const w = this.measure(tick.label);
      const x = Math.min(Math.max(tick.x, scale.x0 + w / 2), width - w / 2 - 2);
      ctx.fillText(tick.label, x, AXIS_HEIGHT / 2);
    }
    ctx.textAlign = 'right';
    ctx.fillText(scale.mode === 'log' ? 'log time' : '', width - 4, AXIS_HEIGHT - 6);
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
    const { width, cursor, hover } = this.state;
    const selected = this.data.selection?.laneIndex === row.index;
    const onCursor = cursor?.laneIndex === row.index;
    const hovered = hover?.laneIndex === row.index;
    if (!selected && !onCursor && !hovered) return;
    ctx.fillStyle = selected ? this.palette.selection : this.palette.hover;
    ctx.globalAlpha = selected ? 0.55 : 0.6;
    ctx.fillRect(0, this.rowTop(row), width, ROW_HEIGHT);
    ctx.globalAlpha = 1;
    if (onCursor && this.focused && cursor?.stageIndex === undefined) {
      ctx.strokeStyle = this.palette.focus;
      ctx.lineWidth = 1;
      ctx.strokeRect(0.5, this.rowTop(row) + 0.5, width - 1, ROW_HEIGHT - 1);
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
    const gutter = gutterWidth(this.state);
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
    ctx.rect(scale.x0 - MARK_RADIUS - 2, AXIS_HEIGHT, scale.x1 - scale.x0 + 2 * MARK_RADIUS + 4, lanesHeight(this.state));
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
    for (const wait of row.waits) {
      // A wait is a band on the lifeline in the controllers' colour, outlined dashed while it lasts.
      ctx.fillStyle = p.group.controllerManager;
      ctx.globalAlpha = 0.22;
      ctx.fillRect(wait.x0, mid - 5, wait.x1 - wait.x0, 10);
      ctx.globalAlpha = 0.8;
      ctx.strokeStyle = p.group.controllerManager;
      ctx.lineWidth = 1;
      ctx.setLineDash(wait.open || wait.kind === 'suspended' ? [3, 3] : []);
      ctx.strokeRect(wait.x0, mid - 5, wait.x1 - wait.x0, 10);
      ctx.globalAlpha = 1;
      ctx.setLineDash([]);
      if (wait.label) {
        ctx.fillStyle = p.group.controllerManager;
        ctx.fillText(wait.label, (wait.x0 + wait.x1) / 2, mid - 7);
      }
    }
    const stages = row.lane.object.stages;
    const selection = this.data.selection;
    const cursor = this.state.cursor;
    const emphasised: { x: number; ring: string; width: number; radius: number }[] = [];
    row.marks.forEach((mark, i) => {
      const next = row.marks[i + 1];
      const selected = selection?.laneIndex === row.index && selection.stageIndex === mark.stageIndex;
      const focused = cursor?.laneIndex === row.index && cursor.stageIndex === mark.stageIndex && this.focused;
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
}

