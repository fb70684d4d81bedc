/**
 * Go's `time.Parse(time.RFC3339, value)` errors, as metav1.Time.UnmarshalJSON returns them for a
 * timestamp that is not RFC 3339 (`parsing time "yesterday" as "2006-01-02T15:04:05Z07:00":
 * cannot parse "yesterday" as "2006"`). Ported from Go's time/format.go: the layout's elements
 * are matched in order; a literal or a number that does not match names the rest of the value
 * and the element, a number out of its range says so.
 */
const RFC3339 = '2006-01-02T15:04:05Z07:00';

/** time's own quote: like strconv.Quote for the printable ASCII timestamps are made of. */
function quote(text: string): string {
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (code < 0x20 || code >= 0x80) out += code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : c;
    else out += c === '"' || c === '\\' ? `\\${c}` : c;
  }
  return `${out}"`;
}

const isDigit = (text: string, index: number): boolean => index < text.length && text[index] >= '0' && text[index] <= '9';

/** time.getnum: one or two digits (exactly two when `fixed`). */
function getnum(text: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(text, 0)) return undefined;
  if (!isDigit(text, 1)) return fixed ? undefined : [Number(text[0]), text.slice(1)];
  return [Number(text.slice(0, 2)), text.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

type Element = { literal: string } | { std: '2006' | '01' | '02' | '15' | '04' | '05' | 'Z07:00' };

const ELEMENTS: readonly Element[] = [
  { std: '2006' }, { literal: '-' }, { std: '01' }, { literal: '-' }, { std: '02' }, { literal: 'T' },
  { std: '15' }, { literal: ':' }, { std: '04' }, { literal: ':' }, { std: '05' }, { std: 'Z07:00' },
];

/** The error time.Parse(time.RFC3339, value) returns, or undefined when the value parses. */
export function rfc3339ParseError(value: string): string | undefined {
  const cannotParse = (rest: string, element: string): string => `parsing time ${quote(value)} as ${quote(RFC3339)}: cannot parse ${quote(rest)} as ${quote(element)}`;
  const outOfRange = (what: string): string => `parsing time ${quote(value)}: ${what} out of range`;
  let rest = value;
  let year = 0;
  let month = 0;
  let day = 0;
  for (const element of ELEMENTS) {
    if ('literal' in element) {
      if (!rest.startsWith(element.literal)) return cannotParse(rest, element.literal);
      rest = rest.slice(element.literal.length);
      continue;
    }
    const hold = rest;
    switch (element.std) {
      case '2006': {
        const digits = rest.slice(0, 4);
        if (rest.length < 4 || !/^[+-]?\d+$/.test(digits)) return cannotParse(hold, element.std);
        year = Number(digits);
        rest = rest.slice(4);
        break;
      }
      case 'Z07:00': {
        if (rest.startsWith('Z')) {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':' || !getnum(rest.slice(1, 3), true) || !getnum(rest.slice(4, 6), true) || (rest[0] !== '+' && rest[0] !== '-')) return cannotParse(hold, element.std);
        const [hours, minutes] = [Number(rest.slice(1, 3)), Number(rest.slice(4, 6))];
        if (hours > 24) return outOfRange('time zone offset hour');
        if (minutes > 60) return outOfRange('time zone offset minute');
        rest = rest.slice(6);
        break;
      }
      default: {
        const parsed = getnum(rest, element.std !== '15');
        if (!parsed) return cannotParse(hold, element.std);
        const [number, after] = parsed;
        rest = after;
        if (element.std === '01') {
          month = number;
          if (month <= 0 || month > 12) return outOfRange('month');
        } else if (element.std === '02') {
          day = number;
        } else if (element.std === '15' && number >= 24) {
          return outOfRange('hour');
        } else if (element.std === '04' && number >= 60) {
          return outOfRange('minute');
        } else if (element.std === '05') {
          if (number >= 60) return outOfRange('second');
          // Fractional seconds are accepted after the seconds though the layout has none.
          if (rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
            let n = 2;
            while (isDigit(rest, n)) n++;
            rest = rest.slice(n);
          }
        }
      }
    }
  }
  if (rest.length > 0) return `parsing time ${quote(value)}: extra text: ${quote(rest)}`;
  if (day < 1 || day > daysIn(month, year)) return `parsing time ${quote(value)}: day out of range`;
  return undefined;
}
