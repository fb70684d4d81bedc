/**
 * The shared time axis: milliseconds from the apply to pixels. A journey's control-plane steps
 * take milliseconds and its image pulls take seconds, so besides the linear scale there is a
 * logarithmic one (symmetric around the apply, since whole-second stamps can fall just before it).
 */
import type { TimeScaleMode } from '../../protocol/timeline-protocol';

export interface TimeWindow {
  /** Ms from the apply. */
  readonly startMs: number;
  readonly endMs: number;
}

export interface Tick {
  readonly ms: number;
  readonly x: number;
  readonly label: string;
}

export interface TimeScale {
  readonly mode: TimeScaleMode;
  readonly window: TimeWindow;
  /** Pixel range the window maps to. */
  readonly x0: number;
  readonly x1: number;
  toX(ms: number): number;
  toMs(x: number): number;
}

/** The log scale's unit: one millisecond, so 0 → 0, 9 ms → 1, 99 ms → 2, 999 ms → 3. */
function logOf(ms: number): number {
  return Math.sign(ms) * Math.log10(1 + Math.abs(ms));
}

function expOf(v: number): number {
  return Math.sign(v) * (10 ** Math.abs(v) - 1);
}

export function createTimeScale(mode: TimeScaleMode, window: TimeWindow, x0: number, x1: number): TimeScale {
  const f = mode === 'log' ? logOf : (ms: number) => ms;
  const inverse = mode === 'log' ? expOf : (v: number) => v;
  const a = f(window.startMs);
  const span = f(window.endMs) - a || 1;
  const width = x1 - x0;
  return {
    mode,
    window,
    x0,
    x1,
    toX: (ms) => x0 + ((f(ms) - a) / span) * width,
    toMs: (x) => inverse(a + ((x - x0) / width) * span),
  };
}

/** The whole journey, with a little room after the last change so its mark is not on the edge. */
export function fitWindow(lastMs: number, firstMs = 0): TimeWindow {
  const start = Math.min(0, firstMs);
  const end = Math.max(lastMs, start + 100);
  return { startMs: start, endMs: end + (end - start) * 0.03 };
}

const MIN_SPAN_MS = 2;

/** Zooms around `anchorMs` (kept at the same pixel): factor < 1 zooms in. Clamped to `bounds`. */
export function zoomWindow(scale: TimeScale, factor: number, anchorX: number, bounds: TimeWindow): TimeWindow {
  const mode = scale.mode;
  const f = mode === 'log' ? logOf : (ms: number) => ms;
  const inverse = mode === 'log' ? expOf : (v: number) => v;
  const a = f(scale.window.startMs);
  const b = f(scale.window.endMs);
  const t = Math.min(1, Math.max(0, (anchorX - scale.x0) / (scale.x1 - scale.x0 || 1)));
  const anchor = a + (b - a) * t;
  let start = anchor - (anchor - a) * factor;
  let end = anchor + (b - anchor) * factor;
  const lo = f(bounds.startMs);
  const hi = f(bounds.endMs);
  if (end - start >= hi - lo) return bounds;
  if (start < lo) [start, end] = [lo, lo + (end - start)];
  if (end > hi) [start, end] = [hi - (end - start), hi];
  const window = { startMs: inverse(start), endMs: inverse(end) };
  if (window.endMs - window.startMs < MIN_SPAN_MS) return scale.window;
  return window;
}

/** Pans by `dx` pixels (positive moves later in time), clamped to `bounds`. */
export function panWindow(scale: TimeScale, dx: number, bounds: TimeWindow): TimeWindow {
  const f = scale.mode === 'log' ? logOf : (ms: number) => ms;
  const inverse = scale.mode === 'log' ? expOf : (v: number) => v;
  const a = f(scale.window.startMs);
  const b = f(scale.window.endMs);
  const shift = ((b - a) * dx) / (scale.x1 - scale.x0 || 1);
  const lo = f(bounds.startMs);
  const hi = f(bounds.endMs);
  const clamped = Math.max(lo - a, Math.min(hi - b, shift));
  return { startMs: inverse(a + clamped), endMs: inverse(b + clamped) };
}

/** `0`, `250ms`, `1.5s`, `2m`, `1m30s`, `1h`: short labels for axis ticks. */
export function tickLabel(ms: number): string {
  if (ms === 0) return '0';
  const sign = ms < 0 ? '−' : '';
  const abs = Math.abs(ms);
  if (abs < 1) return `${sign}${Number(abs.toPrecision(2))}ms`;
  if (abs < 1000) return `${sign}${Number(abs.toPrecision(3))}ms`;
  if (abs < 60_000) return `${sign}${Number((abs / 1000).toPrecision(4))}s`;
  if (abs < 3_600_000) {
    const m = Math.floor(abs / 60_000);
    const s = Math.round((abs % 60_000) / 1000);
    return s === 0 ? `${sign}${m}m` : `${sign}${m}m${String(s).padStart(2, '0')}s`;
  }
  const h = Math.floor(abs / 3_600_000);
  const m = Math.round((abs % 3_600_000) / 60_000);
  return m === 0 ? `${sign}${h}h` : `${sign}${h}h${String(m).padStart(2, '0')}m`;
}

const NICE_STEPS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000];

/** Ticks at round times, at least `minGapPx` apart. */
export function ticks(scale: TimeScale, minGapPx = 80): Tick[] {
  const { startMs, endMs } = scale.window;
  const out: Tick[] = [];
  if (scale.mode === 'log') {
    const candidates = [0];
    for (let p = 0; p <= 7; p++) candidates.push(10 ** p, -(10 ** p));
    candidates.sort((x, y) => x - y);
    let lastX = -Infinity;
    for (const ms of candidates) {
      if (ms < startMs || ms > endMs) continue;
      const x = scale.toX(ms);
      if (x - lastX < minGapPx) continue;
      out.push({ ms, x, label: tickLabel(ms) });
      lastX = x;
    }
    return out;
  }
  const pxPerMs = (scale.x1 - scale.x0) / (endMs - startMs || 1);
  const step = NICE_STEPS_MS.find((s) => s * pxPerMs >= minGapPx) ?? Math.ceil(minGapPx / pxPerMs / 3_600_000) * 3_600_000;
  for (let ms = Math.ceil(startMs / step) * step; ms <= endMs; ms += step) out.push({ ms, x: scale.toX(ms), label: tickLabel(ms) });
  return out;
}
