/**
 * Input on the lanes view: keys move the cursor (announced for screen readers) and select, zoom
 * and fit; the wheel zooms (with Ctrl) and pans; the pointer hovers (tooltip), clicks and
 * double-clicks stages and lanes. Changes of selection or time window go out through callbacks;
 * the cursor and hover live in the view's state.
 */
import type { Stage } from '../core/journey/types';
import { formatOffset } from '../common/duration-format';
import { GROUP_STYLES, componentGroup } from './model/components';
import { hitTest } from './model/layout';
import type { Lane } from './model/lanes';
import { keyAction, moveCursor, type Cursor, type KeyAction } from './model/navigation';
import { panWindow, zoomWindow, type TimeWindow } from './model/scale';
import { AXIS_HEIGHT, ROW_HEIGHT, boundsOf, lanesHeight, type Hover, type LanesState } from './lanes-state';

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

/** What the input handlers ask of the view. */
export interface LanesInputHost {
  readonly state: LanesState;
  readonly scroller: HTMLElement;
  readonly tooltip: HTMLElement;
  /** The live region that announces the cursor's stage. */
  readonly live: HTMLElement;
  requestDraw(): void;
  revealRow(index: number): void;
}

export class LanesInput {
  constructor(
    private readonly host: LanesInputHost,
    private readonly callbacks: LanesCallbacks,
  ) {
    const scroller = host.scroller;
    scroller.addEventListener('keydown', (event) => this.onKey(event));
    scroller.addEventListener('wheel', (event) => this.onWheel(event), { passive: false });
    scroller.addEventListener('mousemove', (event) => this.onPointerMove(event));
    scroller.addEventListener('mouseleave', () => this.setHover(undefined));
    scroller.addEventListener('click', (event) => this.onClick(event));
    scroller.addEventListener('dblclick', (event) => this.onDoubleClick(event));
  }

  private get state(): LanesState {
    return this.host.state;
  }

  private announce(text: string): void {
    this.host.live.textContent = text;
  }

  private describe(lane: Lane | undefined, stageIndex: number | undefined): string {
    const data = this.state.data;
    if (!lane || !data) return '';
    if (lane.type === 'summary') return `${lane.podCount} more pods folded. Press Enter to list all pods.`;
    const o = lane.object;
    const base = `${o.ref.kind} ${o.ref.name}, ${o.status}`;
    if (stageIndex === undefined) return `${base}, ${o.stages.length} stages`;
    const stage: Stage | undefined = o.stages[stageIndex];
    if (!stage) return base;
    return `${stage.title}, ${formatOffset(stage.time - data.journey.appliedAt)}, by ${stage.component} (${GROUP_STYLES[componentGroup(stage.component)].label}). ${o.ref.kind} ${o.ref.name}. Stage ${stageIndex + 1} of ${o.stages.length}.`;
  }

  private onKey(event: KeyboardEvent): void {
    const state = this.state;
    const data = state.data;
    if (!data) return;
    const action = keyAction(event);
    if (!action) return;
    event.preventDefault();
    const lanes = data.list.lanes;
    switch (action.type) {
      case 'move': {
        const pageRows = Math.max(1, Math.floor(lanesHeight(state) / ROW_HEIGHT) - 1);
        state.cursor = moveCursor(lanes, state.cursor, action.key, action.toEdge, pageRows);
        if (state.cursor) {
          this.host.revealRow(state.cursor.laneIndex);
          this.revealStage(state.cursor);
          this.announce(this.describe(lanes[state.cursor.laneIndex], state.cursor.stageIndex));
        }
        this.host.requestDraw();
        return;
      }
      case 'select': {
        const cursor = state.cursor ?? moveCursor(lanes, undefined, 'ArrowDown', false, 1);
        if (!cursor) return;
        state.cursor = cursor;
        const lane = lanes[cursor.laneIndex];
        if (lane?.type === 'summary') this.callbacks.expandSummary(cursor.laneIndex);
        else this.callbacks.select(cursor.laneIndex, cursor.stageIndex);
        return;
      }
      case 'clearSelection':
        this.callbacks.clearSelection();
        return;
      case 'zoom': {
        if (!state.scale) return;
        const anchor = this.cursorX() ?? (state.scale.x0 + state.scale.x1) / 2;
        this.zoom(action.factor, anchor);
        return;
      }
      case 'fit':
        this.callbacks.windowChanged(undefined);
        return;
      default:
        this.callbacks.action(action, state.cursor);
    }
  }

  private cursorX(): number | undefined {
    const { data, cursor, scale } = this.state;
    if (!data || !cursor || cursor.stageIndex === undefined || !scale) return undefined;
    const lane = data.list.lanes[cursor.laneIndex];
    if (lane?.type !== 'object') return undefined;
    const stage = lane.object.stages[cursor.stageIndex];
    return stage ? scale.toX(stage.time - data.journey.appliedAt) : undefined;
  }

  /** Pans a zoomed window so the cursor's stage is in view. */
  private revealStage(cursor: Cursor): void {
    const { data, scale } = this.state;
    if (!data?.window || !scale || cursor.stageIndex === undefined) return;
    const x = this.cursorX();
    if (x === undefined) return;
    const margin = 24;
    if (x < scale.x0 + margin) this.callbacks.windowChanged(panWindow(scale, x - scale.x0 - margin * 2, boundsOf(data)));
    else if (x > scale.x1 - margin) this.callbacks.windowChanged(panWindow(scale, x - scale.x1 + margin * 2, boundsOf(data)));
  }

  private zoom(factor: number, anchorX: number): void {
    const { data, scale } = this.state;
    if (!data || !scale) return;
    const bounds = boundsOf(data);
    const next = zoomWindow(scale, factor, anchorX, bounds);
    this.callbacks.windowChanged(next === bounds ? undefined : next);
  }

  private onWheel(event: WheelEvent): void {
    const { data, scale } = this.state;
    if (!data || !scale) return;
    const x = event.offsetX;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      this.zoom(Math.exp(event.deltaY * 0.002), x);
      return;
    }
    const horizontal = event.shiftKey ? event.deltaY : event.deltaX;
    if (horizontal !== 0 && (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY))) {
      event.preventDefault();
      if (data.window) this.callbacks.windowChanged(panWindow(scale, horizontal, boundsOf(data)));
    }
  }

  private pointer(event: MouseEvent): { x: number; y: number } {
    const rect = this.host.scroller.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  /** The lane (and stage) at a point of the view, in the rows of the last frame. */
  private hitAt(x: number, y: number): { laneIndex: number; stageIndex?: number } | undefined {
    if (y < AXIS_HEIGHT) return undefined;
    const hit = hitTest(this.state.rows, x, y - AXIS_HEIGHT, ROW_HEIGHT);
    if (!hit) return undefined;
    return hit.stageIndex === undefined ? { laneIndex: hit.index } : { laneIndex: hit.index, stageIndex: hit.stageIndex };
  }

  private onPointerMove(event: MouseEvent): void {
    const { x, y } = this.pointer(event);
    const hit = this.hitAt(x, y);
    this.setHover(hit ? { ...hit, x, y } : undefined);
  }

  private setHover(hover: Hover | undefined): void {
    const state = this.state;
    const { scroller, tooltip } = this.host;
    const changed = hover?.laneIndex !== state.hover?.laneIndex || hover?.stageIndex !== state.hover?.stageIndex;
    state.hover = hover;
    const data = state.data;
    const lane = hover && data ? data.list.lanes[hover.laneIndex] : undefined;
    if (hover && lane?.type === 'object' && hover.stageIndex !== undefined && data) {
      const stage = lane.object.stages[hover.stageIndex];
      tooltip.textContent = `${formatOffset(stage.time - data.journey.appliedAt)} · ${stage.component} · ${stage.title}`;
      tooltip.hidden = false;
      const left = Math.min(hover.x + 12, Math.max(0, state.width - tooltip.offsetWidth - 4));
      tooltip.style.transform = `translate(${Math.round(left)}px, ${Math.round(hover.y + 14)}px)`;
      scroller.style.cursor = 'pointer';
    } else {
      tooltip.hidden = true;
      scroller.style.cursor = lane?.type === 'summary' ? 'pointer' : '';
    }
    if (changed) this.host.requestDraw();
  }

  private onClick(event: MouseEvent): void {
    const { x, y } = this.pointer(event);
    const hit = this.hitAt(x, y);
    if (!hit) return;
    this.state.cursor = hit;
    this.callbacks.select(hit.laneIndex, hit.stageIndex);
    this.host.requestDraw();
  }

  private onDoubleClick(event: MouseEvent): void {
    const { x, y } = this.pointer(event);
    const hit = this.hitAt(x, y);
    if (hit && this.state.data?.list.lanes[hit.laneIndex]?.type === 'summary') this.callbacks.expandSummary(hit.laneIndex);
  }
}
