/**
 * The compare view: two journey files, A and B, on one time axis (each from its own apply) in two
 * colour-coded bands, their per-phase p50/p90/max with B − A, and a readout of the stage under the
 * mouse (or the keyboard focus). Everything is built with dom.ts (text through textContent only).
 */
import type { CompareLane, CompareMark, CompareModel, ComparePhaseRow, CompareSide } from '../../protocol/journey-compare';
import { h, replaceChildren, svg } from '../dom';
import { axisTicks, formatDelta, formatDuration, formatTick } from './format';

const GUTTER = 300;
const ROW = 18;
const BAND_GAP = 26;
const AXIS = 22;
const RIGHT_PAD = 16;
const STATS = ['p50', 'p90', 'max'] as const;

const SIDE_NAMES = { a: 'A', b: 'B' } as const;

function sideHeading(side: CompareSide): HTMLElement {
  return h(
    'div',
    { class: `side side-${side.id}` },
    h('div', { class: 'side-title' }, h('span', { class: `swatch swatch-${side.id}`, 'aria-hidden': 'true' }), h('strong', undefined, `${SIDE_NAMES[side.id]}  `), side.label),
    ...side.summaries.map((line) => h('div', { class: 'side-summary' }, line)),
  );
}

function deltaClass(ms: number | undefined): string {
  if (ms === undefined || Math.abs(ms) < 0.5) return 'delta same';
  return ms > 0 ? 'delta slower' : 'delta faster';
}

function phaseTable(rows: readonly ComparePhaseRow[]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'muted' }, 'Neither file has pod phases to compare (no pods were created).');
  const head = h('tr', undefined, h('th', { scope: 'col' }, 'phase'), h('th', { scope: 'col', class: 'num' }, 'pods A / B'), ...STATS.flatMap((stat) => [h('th', { scope: 'col', class: 'num' }, `${stat} A`), h('th', { scope: 'col', class: 'num' }, `${stat} B`), h('th', { scope: 'col', class: 'num' }, `Δ ${stat}`)]));
  const body = rows.map((row) =>
    h(
      'tr',
      undefined,
      h('th', { scope: 'row' }, row.phase),
      h('td', { class: 'num' }, `${row.podsA} / ${row.podsB}`),
      ...STATS.flatMap((stat) => [
        h('td', { class: 'num side-a-text' }, row.a ? formatDuration(row.a[stat]) : '–'),
        h('td', { class: 'num side-b-text' }, row.b ? formatDuration(row.b[stat]) : '–'),
        h('td', { class: `num ${deltaClass(row.delta?.[stat])}` }, row.delta ? formatDelta(row.delta[stat]) : '–'),
      ]),
    ),
  );
  return h('table', { class: 'phases', 'aria-label': 'Pod startup phases, clusterloader2 names: A, B and B − A' }, h('thead', undefined, head), h('tbody', undefined, ...body));
}

interface Placed {
  lane: CompareLane;
  y: number;
}

/** The lanes of both sides, A's band above B's, each band headed by its file. */
function placeLanes(model: CompareModel): { placed: Placed[]; bands: { side: CompareSide; y: number; height: number }[]; height: number } {
  const placed: Placed[] = [];
  const bands: { side: CompareSide; y: number; height: number }[] = [];
  let y = AXIS;
  for (const side of [model.a, model.b]) {
    const top = y;
    y += BAND_GAP - 8;
    for (const lane of side.lanes) {
      placed.push({ lane, y });
      y += ROW;
    }
    if (side.hiddenPods > 0) y += ROW;
    bands.push({ side, y: top, height: y - top });
    y += 6;
  }
  return { placed, bands, height: y + AXIS };
}

function markLabel(lane: CompareLane, mark: CompareMark): string {
  return `${SIDE_NAMES[lane.side]} · ${lane.label} · ${mark.title} · +${formatDuration(mark.atMs)} from the apply`;
}

export class CompareView {
  private model: CompareModel | undefined;
  private readonly readout = h('div', { class: 'readout', 'aria-live': 'polite' }, 'Hover a stage to read it; Tab moves through them.');
  private readonly chart = h('div', { class: 'chart' });

  constructor(private readonly root: HTMLElement) {
    new ResizeObserver(() => this.drawChart()).observe(root);
  }

  showError(error: string): void {
    this.root.removeAttribute('aria-busy');
    replaceChildren(this.root, h('div', { class: 'problem', role: 'alert' }, h('h1', undefined, 'The journeys cannot be compared'), ...error.split('\n').map((line) => h('p', { class: 'problem-line' }, line))));
  }

  show(model: CompareModel): void {
    this.model = model;
    this.root.removeAttribute('aria-busy');
    const notes = model.notes.length > 0 ? h('ul', { class: 'notes' }, ...model.notes.map((note) => h('li', undefined, note))) : undefined;
    replaceChildren(
      this.root,
      h('header', { class: 'sides' }, sideHeading(model.a), sideHeading(model.b)),
      notes,
      h('h2', undefined, 'Pod startup phases (B − A: positive is slower in B)'),
      phaseTable(model.phases),
      h('h2', undefined, 'Both journeys from their apply'),
      this.readout,
      this.chart,
    );
    this.drawChart();
  }

  private drawChart(): void {
    const model = this.model;
    if (!model) return;
    const width = Math.max(GUTTER + 200, this.chart.clientWidth || this.root.clientWidth);
    const plot = width - GUTTER - RIGHT_PAD;
    const x = (ms: number): number => GUTTER + (Math.max(0, ms) / model.axisEndMs) * plot;
    const { placed, bands, height } = placeLanes(model);
    const ticks = axisTicks(model.axisEndMs);
    const parts: SVGElement[] = [];
    for (const band of bands) {
      parts.push(svg('rect', { class: `band band-${band.side.id}`, x: 0, y: band.y, width, height: band.height }));
      parts.push(svg('text', { class: `band-label side-${band.side.id}-fill`, x: 6, y: band.y + 13 }, `${SIDE_NAMES[band.side.id]} · ${band.side.label}`));
      if (band.side.hiddenPods > 0) parts.push(svg('text', { class: 'muted-fill', x: 18, y: band.y + band.height - 5 }, `+ ${band.side.hiddenPods} more pods not drawn`));
    }
    for (const tick of ticks) {
      parts.push(svg('line', { class: 'tick', x1: x(tick), x2: x(tick), y1: AXIS - 4, y2: height - AXIS }));
      parts.push(svg('text', { class: 'tick-label', x: x(tick), y: AXIS - 8, 'text-anchor': 'middle' }, formatTick(tick)));
      parts.push(svg('text', { class: 'tick-label', x: x(tick), y: height - AXIS + 14, 'text-anchor': 'middle' }, formatTick(tick)));
    }
    for (const { lane, y } of placed) {
      const mid = y + ROW / 2;
      const label = svg('text', { class: 'lane-label', x: 18 + lane.depth * 12, y: mid + 4 }, lane.label);
      label.appendChild(svg('title', undefined, `${SIDE_NAMES[lane.side]} · ${lane.label} · ${lane.status}${lane.node ? ` · on ${lane.node}` : ''}`));
      parts.push(label);
      parts.push(svg('rect', { class: `lane-bar side-${lane.side}-bar status-${lane.status}`, x: x(lane.startMs), y: mid - 3, width: Math.max(2, x(lane.endMs) - x(lane.startMs)), height: 6, rx: 2 }));
      for (const mark of lane.marks) {
        const text = markLabel(lane, mark);
        const dot = svg('circle', { class: `mark side-${lane.side}-mark${mark.warning ? ' warning' : ''}`, cx: x(mark.atMs), cy: mid, r: 4, tabindex: 0, role: 'img', 'aria-label': text });
        dot.appendChild(svg('title', undefined, text));
        const read = (): void => {
          this.readout.textContent = text;
          this.readout.className = `readout side-${lane.side}-text`;
        };
        dot.addEventListener('mouseenter', read);
        dot.addEventListener('focus', read);
        parts.push(dot);
      }
    }
    const chart = svg('svg', { class: 'compare-chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': `Time axis from 0 to ${formatDuration(model.axisEndMs)}; A above, B below.` }, ...parts);
    replaceChildren(this.chart, chart);
  }
}
