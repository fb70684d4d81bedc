/** Go's time layouts the CronJob controller prints, for an instant in an IANA zone. */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** The zone's offset from UTC at `ms`, in minutes. */
function offsetMinutes(ms: number, zone: string): number {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

function offsetText(minutes: number, colon: boolean): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${colon ? ':' : ''}${pad(abs % 60)}`;
}

/** `time.RFC3339` in the zone: `2026-01-01T07:00:00-05:00`, `Z` for UTC. */
export function formatRFC3339InZone(ms: number, zone: string): string {
  const offset = offsetMinutes(ms, zone);
  const local = new Date(ms + offset * 60_000);
  const date = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  return offset === 0 ? `${date}Z` : `${date}${offsetText(offset, true)}`;
}

/** `time.RFC1123Z` of the UTC instant: `Mon, 02 Jan 2006 15:04:05 +0000`. */
export function formatRFC1123Z(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}
