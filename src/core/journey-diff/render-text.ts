/**
 * `kube-journey diff` as text: for each journey in both traces its outcome, the phases' p50/p90/max
 * in A and B with B − A, the stages one trace has and the other lacks, and where pods ran; then the
 * journeys found in one trace only and one closing line saying whether the outcome is the same.
 * Fits 80 columns: the phase table is one row per phase where that fits (100 columns for small
 * pod counts), else it stacks A, B and Δ on three rows. Long messages wrap under their column.
 */
import { formatDuration } from '../../common/duration-format';
import { journeyGoal } from '../../common/kind-order';
import { wrap } from '../journey/render-text';
import type { JourneyStatus } from '../journey/types';
import { rootText } from './match';
import { phaseChanged } from './phases';
import { DIFF_STATS, type JourneyDiff, type MatchedJourneyDiff, type OutcomeSide, type PhaseDelta, type PhaseSideStats, type PlacementDelta, type StageDelta, type UnmatchedJourney } from './types';

export interface DiffRenderOptions {
  /** Terminal width (default 100). */
  width?: number;
  /** ANSI colours (on a TTY). */
  color?: boolean;
}

const ANSI = { red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' };

interface Ctx {
  width: number;
  color: boolean;
}

function paint(ctx: Ctx, code: keyof typeof ANSI, text: string): string {
  return ctx.color ? `${ANSI[code]}${text}${ANSI.reset}` : text;
}

/** Colours go on after padding, so that escape codes never upset the columns. */
function padStartPainted(ctx: Ctx, text: string, width: number, code: keyof typeof ANSI | undefined): string {
  const padded = text.padStart(width);
  if (!code || !ctx.color) return padded;
  const start = padded.length - text.length;
  return padded.slice(0, start) + paint(ctx, code, text);
}

function statusPaint(status: JourneyStatus): keyof typeof ANSI | undefined {
  if (status === 'complete') return 'green';
  if (status === 'stuck') return 'yellow';
  if (status === 'failed') return 'red';
  return undefined;
}

function statusText(ctx: Ctx, status: JourneyStatus): string {
  const code = statusPaint(status);
  return code ? paint(ctx, code, status) : status;
}

/** A signed duration: `+1.25s`, `-15ms`, `±0` (also for less than half a millisecond, which would print as `-0ms`). */
export function formatDelta(ms: number): string {
  if (Math.abs(ms) < 0.5) return '±0';
  return ms > 0 ? `+${formatDuration(ms)}` : formatDuration(ms);
}

/** Slower in B is yellow, faster green. */
function deltaPaint(ms: number | undefined): keyof typeof ANSI | undefined {
  if (ms === undefined || Math.abs(ms) < 0.5) return undefined;
  return ms > 0 ? 'yellow' : 'green';
}

/** `label` then `text` wrapped under a column that starts after the label. */
function labelled(ctx: Ctx, indent: string, label: string, text: string, labelWidth = 10): string[] {
  const head = `${indent}${label.padEnd(labelWidth)} `;
  const lines = wrap(text, ctx.width - head.length);
  return lines.map((line, i) => (i === 0 ? head : ' '.repeat(head.length)) + line);
}

function ratio(side: OutcomeSide): string {
  return `${side.ready}/${side.desired}`;
}

function outcomeLines(ctx: Ctx, m: MatchedJourneyDiff): string[] {
  const { a, b } = m.outcome;
  const lines: string[] = [];
  const status = a.status === b.status ? `${statusText(ctx, a.status)} in both` : `${statusText(ctx, a.status)} → ${statusText(ctx, b.status)}`;
  lines.push(...labelled(ctx, '  ', 'outcome', status));
  for (const [name, side, other] of [['A', a, b] as const, ['B', b, a] as const]) {
    if (!side.stuck || (other.stuck?.reason === side.stuck.reason && other.stuck.message === side.stuck.message)) continue;
    lines.push(...labelled(ctx, '  ', `  ${name} stuck`, `${side.stuck.reason} (${side.stuck.object}): ${side.stuck.message}`).map((line) => paint(ctx, side.status === 'failed' ? 'red' : 'yellow', line)));
  }
  if (a.stuck && b.stuck && a.stuck.reason === b.stuck.reason && a.stuck.message === b.stuck.message) {
    lines.push(...labelled(ctx, '  ', '  stuck', `${a.stuck.reason} in both: ${a.stuck.message}`));
  }
  if (a.ready !== b.ready || a.desired !== b.desired) lines.push(...labelled(ctx, '  ', 'ready', `${ratio(a)} → ${ratio(b)}`));
  if (a.restarts !== b.restarts) lines.push(...labelled(ctx, '  ', 'restarts', `${a.restarts} → ${b.restarts}`));
  if (a.totalDurationMs !== b.totalDurationMs) {
    const goal = `apply → ${journeyGoal(m.root.kind)}`;
    // A journey can be complete without a duration: an apply that changed nothing had nothing to wait for.
    const fmt = (ms: number | undefined, side: OutcomeSide): string => (ms !== undefined ? formatDuration(ms) : side.status === 'complete' ? NONE : 'not reached');
    const delta = a.totalDurationMs !== undefined && b.totalDurationMs !== undefined ? ` (${formatDelta(b.totalDurationMs - a.totalDurationMs)})` : '';
    lines.push(...labelled(ctx, '  ', 'took', `${goal} ${fmt(a.totalDurationMs, a)} → ${fmt(b.totalDurationMs, b)}${delta}`));
  }
  return lines;
}

const NONE = '-';

function statCell(stats: PhaseSideStats | undefined, stat: (typeof DIFF_STATS)[number]): string {
  return stats ? formatDuration(stats[stat]) : NONE;
}

const PHASE_COLUMN = 19;
const WIDE_CELL = 8;
const STACKED_CELL = 10;

function podsText(p: PhaseDelta): string {
  return `${p.a?.pods ?? 0}→${p.b?.pods ?? 0}`;
}

/** The pods column of the wide table: `3→6` in 7 columns, wider for 10,000-pod journeys. */
function widePodsWidth(phases: readonly PhaseDelta[]): number {
  return Math.max(7, ...phases.map((p) => podsText(p).length + 2));
}

/** Columns the one-row-per-phase table takes: exactly 100 for pod counts up to 2 digits each. */
function wideTableWidth(phases: readonly PhaseDelta[], indent: string): number {
  return indent.length + PHASE_COLUMN + widePodsWidth(phases) + DIFF_STATS.length * 3 * WIDE_CELL;
}

/** One row per phase: pods A→B, then A, B and Δ for each statistic. */
function wideTable(ctx: Ctx, phases: readonly PhaseDelta[], indent: string): string[] {
  const podsWidth = widePodsWidth(phases);
  const head = `${indent}${'phase'.padEnd(PHASE_COLUMN)}${'pods'.padStart(podsWidth)}${DIFF_STATS.flatMap((s) => [`A ${s}`, `B ${s}`, `Δ ${s}`]).map((h) => h.padStart(WIDE_CELL)).join('')}`;
  const lines = [paint(ctx, 'dim', head)];
  for (const p of phases) {
    const cells = DIFF_STATS.flatMap((stat) => {
      const delta = p.delta?.[stat];
      return [statCell(p.a, stat).padStart(WIDE_CELL), statCell(p.b, stat).padStart(WIDE_CELL), padStartPainted(ctx, delta === undefined ? NONE : formatDelta(delta), WIDE_CELL, deltaPaint(delta))];
    });
    lines.push(`${indent}${p.phase.padEnd(PHASE_COLUMN)}${podsText(p).padStart(podsWidth)}${cells.join('')}`);
  }
  return lines;
}

/** Three rows per phase (A, B, Δ) for narrow terminals. */
function stackedTable(ctx: Ctx, phases: readonly PhaseDelta[], indent: string): string[] {
  const podsWidth = Math.max(6, ...phases.flatMap((p) => [p.a?.pods ?? 0, p.b?.pods ?? 0]).map((n) => String(n).length + 2));
  const lines = [paint(ctx, 'dim', `${indent}${'phase'.padEnd(PHASE_COLUMN)}${'  '}${'pods'.padStart(podsWidth)}${DIFF_STATS.map((s) => s.padStart(STACKED_CELL)).join('')}`)];
  for (const p of phases) {
    const row = (stats: PhaseSideStats | undefined): string => `${stats ? String(stats.pods) : NONE}`.padStart(podsWidth) + DIFF_STATS.map((stat) => statCell(stats, stat).padStart(STACKED_CELL)).join('');
    lines.push(`${indent}${p.phase.padEnd(PHASE_COLUMN)}A ${row(p.a)}`);
    lines.push(`${indent}${''.padEnd(PHASE_COLUMN)}B ${row(p.b)}`);
    const deltas = DIFF_STATS.map((stat) => {
      const delta = p.delta?.[stat];
      return padStartPainted(ctx, delta === undefined ? NONE : formatDelta(delta), STACKED_CELL, deltaPaint(delta));
    });
    lines.push(`${indent}${''.padEnd(PHASE_COLUMN)}Δ ${''.padStart(podsWidth)}${deltas.join('')}`);
  }
  return lines;
}

function phaseLines(ctx: Ctx, phases: readonly PhaseDelta[], indent: string): string[] {
  if (phases.length === 0) return [];
  if (!phases.some(phaseChanged)) return labelled(ctx, indent, 'phases', `same p50/p90/max (${plural(phases[0].a?.pods ?? 0, 'pod')})`);
  const table = wideTableWidth(phases, indent) <= ctx.width ? wideTable(ctx, phases, indent) : stackedTable(ctx, phases, indent);
  return [`${indent}phases (Δ = B − A)`, ...table];
}

/**
 * `killing ×3`, `podCreated (SuccessfulCreate) ×3`: the stage kind as the trace's timeline names it,
 * with the Kubernetes reason unless the kind already says it (`containerCreated`, `Created`).
 */
export function stageLabel(delta: StageDelta): string {
  const count = Math.max(delta.a, delta.b);
  const reason = delta.reason && !delta.kind.toLowerCase().includes(delta.reason.toLowerCase()) ? ` (${delta.reason})` : '';
  return `${delta.kind}${reason} ×${count}`;
}

/** Items joined by ` · `, packed into lines of `width` without breaking an item. */
function packItems(items: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line === '') line = item;
    else if (line.length + 3 + item.length <= width) line += ` · ${item}`;
    else {
      lines.push(`${line} ·`);
      line = item;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function stageLines(ctx: Ctx, stages: readonly StageDelta[]): string[] {
  if (stages.length === 0) return [];
  const lines = ['  stages seen in one trace only'];
  const groups = [...new Set(stages.map((s) => s.group))];
  for (const group of groups) {
    lines.push(`    ${group}`);
    for (const [side, pick] of [['A', (s: StageDelta) => s.a > 0] as const, ['B', (s: StageDelta) => s.b > 0] as const]) {
      const items = stages.filter((s) => s.group === group && pick(s)).map(stageLabel);
      if (items.length === 0) continue;
      const head = `      ${`only in ${side}`.padEnd(10)} `;
      lines.push(...packItems(items, ctx.width - head.length).map((line, i) => (i === 0 ? head : ' '.repeat(head.length)) + line));
    }
  }
  return lines;
}

const PLACEMENT_TITLES: Readonly<Record<PlacementDelta['by'], string>> = {
  node: 'pods per node',
  ordinal: 'node of each pod',
  daemon: 'pod on each node',
};

/** Placement rows printed before the rest are counted: 1,000 nodes would bury the rest of the diff. */
export const PLACEMENT_ROWS_SHOWN = 12;

const PLACEMENT_ROW_NOUNS: Readonly<Record<PlacementDelta['by'], string>> = { node: 'node', ordinal: 'pod', daemon: 'node' };

function placementLines(ctx: Ctx, placement: PlacementDelta | undefined): string[] {
  if (!placement) return [];
  const shown = placement.rows.slice(0, PLACEMENT_ROWS_SHOWN);
  const keyWidth = Math.min(40, Math.max(...shown.map((row) => row.key.length)));
  const lines = [`  placement: ${PLACEMENT_TITLES[placement.by]} (A → B)`];
  for (const row of shown) lines.push(...labelled(ctx, '    ', row.key, `${row.a} → ${row.b}`, keyWidth + 1));
  const more = placement.rows.length - shown.length;
  if (more > 0) lines.push(`    … ${plural(more, `more ${PLACEMENT_ROW_NOUNS[placement.by]}`)} differ (--json lists every one)`);
  return lines;
}

function matchedLines(ctx: Ctx, m: MatchedJourneyDiff): string[] {
  const nth = m.occurrence > 1 ? ` (apply #${m.occurrence})` : '';
  const title = `${paint(ctx, 'bold', rootText(m.root))}${nth}`;
  const { a, b } = m.outcome;
  const status = a.status === b.status ? statusText(ctx, a.status) : `${statusText(ctx, a.status)} → ${statusText(ctx, b.status)}`;
  if (m.same) return [`${title}  [${status}]  no differences`];
  return [`${title}  [${status}]`, ...outcomeLines(ctx, m), ...phaseLines(ctx, m.phases, '  '), ...stageLines(ctx, m.stages), ...placementLines(ctx, m.placement)];
}

function unmatchedText(entry: UnmatchedJourney): string {
  return `${rootText(entry.root)}${entry.occurrence > 1 ? ` (apply #${entry.occurrence})` : ''} [${entry.status}]`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The closing line: the verdict `diff`'s exit code gives. */
export function verdictLine(diff: JourneyDiff): string {
  if (diff.same) return `no differences: ${plural(diff.matched.length, 'journey')}, same outcome, phases, stages and placement`;
  if (diff.sameOutcome) return `same outcome: every journey ended as in A (${diff.matched.filter((m) => !m.same).length} got there another way)`;
  const reasons: string[] = [];
  for (const m of diff.matched) {
    if (!m.outcome.changed) continue;
    const { a, b } = m.outcome;
    const why = b.stuck && b.stuck.reason !== a.stuck?.reason ? ` (${b.stuck.reason})` : '';
    reasons.push(`${rootText(m.root)} ${a.status} → ${b.status}${why}`);
  }
  if (diff.onlyInA.length > 0) reasons.push(`${plural(diff.onlyInA.length, 'journey')} only in A`);
  if (diff.onlyInB.length > 0) reasons.push(`${plural(diff.onlyInB.length, 'journey')} only in B`);
  return `outcome differs: ${reasons.join('; ')}`;
}

export function renderDiff(diff: JourneyDiff, options: DiffRenderOptions = {}): string {
  const ctx: Ctx = { width: options.width ?? 100, color: options.color ?? false };
  const out: string[] = [];
  out.push(...labelled(ctx, '', 'A', `${diff.a.label} (${plural(diff.a.journeys, 'journey')})`, 2));
  out.push(...labelled(ctx, '', 'B', `${diff.b.label} (${plural(diff.b.journeys, 'journey')})`, 2));
  for (const m of diff.matched) out.push('', ...matchedLines(ctx, m));
  if (diff.onlyInA.length > 0 || diff.onlyInB.length > 0) out.push('');
  for (const [side, entries] of [['A', diff.onlyInA] as const, ['B', diff.onlyInB] as const]) {
    for (const entry of entries) out.push(paint(ctx, 'yellow', `only in ${side}: ${unmatchedText(entry)}`));
  }
  if (diff.phases && diff.phases.some(phaseChanged)) out.push('', 'All journeys', ...phaseLines(ctx, diff.phases, '  '));
  const verdict = verdictLine(diff);
  out.push('', ...wrap(verdict, ctx.width).map((line) => (diff.same ? line : paint(ctx, diff.sameOutcome ? 'bold' : 'red', line))));
  return `${out.join('\n')}\n`;
}
