/** Durations as the journey shows them, in the text report and on the timeline. */

/** `+1.234s` / `-0.500s`: a duration from the journey's start, for timelines. */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  return `${sign}${(Math.abs(ms) / 1000).toFixed(3)}s`;
}

/** A duration for summaries: `412ms`, `7.41s`, `2m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '-' : '';
  if (abs < 1000) return `${sign}${Math.round(abs)}ms`;
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(abs < 10_000 ? 2 : 1)}s`;
  if (abs < 3_600_000) {
    const minutes = Math.floor(abs / 60_000);
    const seconds = Math.floor((abs % 60_000) / 1000);
    return `${sign}${minutes}m${String(seconds).padStart(2, '0')}s`;
  }
  const hours = Math.floor(abs / 3_600_000);
  const minutes = Math.floor((abs % 3_600_000) / 60_000);
  return `${sign}${hours}h${String(minutes).padStart(2, '0')}m`;
}
