/**
 * Go's `time.Duration.String()` for whole milliseconds, because kubelet messages print durations
 * that way: `441ms`, `1.2s`, `5m0s`, `1m20s`, `1h2m3.4s`.
 */
export function formatGoDuration(ms: number): string {
  const total = Math.max(0, Math.trunc(ms));
  if (total === 0) return '0s';
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const millis = total % 60_000;
  const whole = Math.floor(millis / 1000);
  const fraction = millis % 1000;
  const seconds = fraction === 0 ? `${whole}` : `${whole}.${millisecondDigits(fraction)}`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** 1–999 ms as the digits after the decimal point of seconds, without trailing zeros: 5 → `005`, 50 → `05`, 500 → `5`. */
function millisecondDigits(ms: number): string {
  if (ms % 100 === 0) return String(ms / 100);
  if (ms % 10 === 0) return String(ms / 10).padStart(2, '0');
  return String(ms).padStart(3, '0');
}
