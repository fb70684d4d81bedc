/**
 * Cron schedules as the CronJob controller reads them (github.com/robfig/cron/v3 `ParseStandard`,
 * which kubernetes uses): five fields (minute hour day-of-month month day-of-week) with `*`, `?`,
 * lists, ranges, `/step` and month/day names, or one of the macros. Evaluated in an IANA time zone
 * through `Intl`, on the simulator's virtual clock. A small parser instead of an npm package: the
 * few cron packages that handle time zones pull in a date library, and this is the whole grammar.
 *
 * As robfig: when both day fields are restricted, a day matches either; when one starts with `*`
 * (or `?`), both must match. `@every` is accepted by robfig but rejected by kube-apiserver.
 */

export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  /** robfig's star bit: the day field started with `*` or `?`. */
  domStar: boolean;
  dowStar: boolean;
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldBounds {
  min: number;
  max: number;
  names?: string[];
  /** Value of the first name (months are 1-based). */
  nameBase?: number;
}

const BOUNDS: FieldBounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 },
  { min: 0, max: 6, names: DAY_NAMES, nameBase: 0 },
];

function parseValue(text: string, bounds: FieldBounds): number {
  const lower = text.toLowerCase();
  const named = bounds.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + (bounds.nameBase ?? 0);
  if (!/^\d+$/.test(text)) throw new Error(`failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`);
  return Number(text);
}

/** robfig `getRange` for one comma-separated part. */
function parseRange(part: string, bounds: FieldBounds, values: Set<number>): void {
  const [rangeText, stepText, extra] = part.split('/');
  if (extra !== undefined) throw new Error(`too many slashes: ${part}`);
  let start: number;
  let end: number;
  if (rangeText === '*' || rangeText === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    const [low, high, more] = rangeText.split('-');
    if (more !== undefined) throw new Error(`too many hyphens: ${part}`);
    start = parseValue(low, bounds);
    end = high === undefined ? (stepText !== undefined ? bounds.max : start) : parseValue(high, bounds);
  }
  const step = stepText === undefined ? 1 : parseValue(stepText, bounds);
  if (start < bounds.min) throw new Error(`beginning of range (${start}) below minimum (${bounds.min}): ${part}`);
  if (end > bounds.max) throw new Error(`end of range (${end}) above maximum (${bounds.max}): ${part}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${part}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${part}`);
  for (let value = start; value <= end; value += step) values.add(value);
}

function parseField(text: string, bounds: FieldBounds): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) parseRange(part, bounds, values);
  return values;
}

/** Parse a standard spec; throws with robfig's message (kube-apiserver prefixes `unparseable schedule`). */
export function parseCronSchedule(spec: string): CronSchedule {
  let text = spec.trim();
  if (text.startsWith('TZ=') || text.startsWith('CRON_TZ=')) throw new Error('TZ is not supported in the schedule');
  if (text.startsWith('@')) {
    const macro = MACROS[text];
    if (!macro) throw new Error(`unrecognized descriptor: ${text}`);
    text = macro;
  }
  const fields = text.split(/\s+/).filter((field) => field.length > 0);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = fields.map((field, i) => parseField(field, BOUNDS[i]));
  // robfig treats 7 as Sunday only through its names; numeric day-of-week is 0–6.
  return { minutes, hours, daysOfMonth, months, daysOfWeek, domStar: /^[*?]/.test(fields[2]), dowStar: /^[*?]/.test(fields[4]) };
}

interface WallTime {
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** Whether `Intl` knows the IANA zone (what `time.LoadLocation` checks). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', month: 'numeric', day: 'numeric', weekday: 'short', hour: 'numeric', minute: 'numeric' });
    formatters.set(zone, formatter);
  }
  return formatter;
}

function wallTime(ms: number, zone: string): WallTime {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(zone).formatToParts(ms)) parts[part.type] = part.value;
  return { month: Number(parts.month), day: Number(parts.day), weekday: WEEKDAYS[parts.weekday] ?? 0, hour: Number(parts.hour) % 24, minute: Number(parts.minute) };
}

function dayMatches(schedule: CronSchedule, wall: WallTime): boolean {
  const dom = schedule.daysOfMonth.has(wall.day);
  const dow = schedule.daysOfWeek.has(wall.weekday);
  return schedule.domStar || schedule.dowStar ? dom && dow : dom || dow;
}

const MINUTE_MS = 60_000;
/** robfig gives up after five years (a schedule like `0 0 30 2 *` never fires). */
const SEARCH_LIMIT_MS = 5 * 366 * 24 * 3600_000;

/** `Schedule.Next`: the first activation strictly after `after` (ms), or undefined when none within five years. */
export function nextActivation(schedule: CronSchedule, after: number, zone = 'UTC'): number | undefined {
  let t = Math.floor(after / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  const limit = after + SEARCH_LIMIT_MS;
  while (t <= limit) {
    const wall = wallTime(t, zone);
    if (!schedule.months.has(wall.month) || !dayMatches(schedule, wall)) {
      // To the next wall-clock midnight (a DST shift is caught by reading the fields again).
      t += ((24 - wall.hour) * 60 - wall.minute) * MINUTE_MS;
      continue;
    }
    if (!schedule.hours.has(wall.hour)) {
      t += (60 - wall.minute) * MINUTE_MS;
      continue;
    }
    if (!schedule.minutes.has(wall.minute)) {
      t += MINUTE_MS;
      continue;
    }
    return t;
  }
  return undefined;
}
