/** Durations and axis ticks of the compare view. Pure (no DOM), shared by its parts. */

/** `0`, `850ms`, `3.41s`, `1m05s`: as the timeline labels durations. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '−' : '';
  if (abs === 0) return '0';
  if (abs < 1000) return `${sign}${Math.round(abs)}ms`;
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(abs < 10_000 ? 2 : 1)}s`;
  const minutes = Math.floor(abs / 60_000);
  const seconds = Math.round((abs % 60_000) / 1000);
  return `${sign}${minutes}m${String(seconds).padStart(2, '0')}s`;
}

/** A signed change, `+1.20s` / `−350ms` / `±0`. */
export function formatDelta(ms: number): string {
  if (Math.abs(ms) < 0.5) return '±0';
  return ms > 0 ? `+${formatDuration(ms)}` : formatDuration(ms);
}

/** A tick's label: `0`, `500ms`, `1s`, `2.5s` (no trailing zeros). */
export function formatTick(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(2))}s`;
  return formatDuration(ms);
}

/** Round tick positions from 0 to `endMs`, about `count` of them. */
export function axisTicks(endMs: number, count = 6): number[] {
  if (!(endMs > 0)) return [0];
  const raw = endMs / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = 0; t <= endMs + step * 1e-9; t += step) ticks.push(t);
  return ticks;
}
