/**
 * Columns of leaf values (one value per row of a shape group, see compact.ts), each stored in
 * whichever of a few forms is shortest as JSON:
 * - `{"c": v}`: every row holds v;
 * - `{"v": [...]}`: the values as they are;
 * - `{"s": [...]}`: indices into the file's string table (strings that repeat);
 * - `{"p": [...], "x"?: 4096}`: numbers as the difference to the previous row's (rising times);
 * - `{"r": j, "d": [...] | "c": d, "x"?: 4096}`: numbers as the difference to column j of the same
 *   row (a time as the offset from an earlier stage's), or a constant difference.
 * - `{"e": j}`: the same values as column j (an event's message, also the stage's);
 * - `{"a": i, "b": j, "c"|"d"…}`: numbers as column i minus column j plus a difference (a pod's
 *   phase durations are differences of its marks);
 * - `{"t": column, "n": [columns]}`: strings as templates whose numbers (`10.244.3.7`, `in 397ms`)
 *   are taken out into columns of their own, the k-th number of each row in the k-th column.
 * `x: 4096` says the differences are stored times 4096: epoch milliseconds as doubles in 2^40..2^41
 * are multiples of 2^-12, so their differences are whole numbers at that scale, shorter than their
 * decimals. Every difference is checked to give back the exact double.
 */
import { FieldError } from './errors';
import { array, integer, join, number, record } from './fields';

/** A leaf after the row's transforms (compact.ts): strings may be templates. */
export type Leaf = string | number | boolean | null;

export type Column =
  | { c: Leaf }
  | { e: number }
  | { a: number; b: number; c: number; x?: number }
  | { a: number; b: number; d: number[]; x?: number }
  | { t: Column; n: Column[] }
  | { v: Leaf[] }
  | { s: number[] }
  | { p: number[]; x?: number }
  | { r: number; d: number[]; x?: number }
  | { r: number; c: number; x?: number };

/** Milliseconds since the epoch, as far as choosing a reference column goes (after 1973). */
const EPOCH_LIKE = 1e11;
const FRACTION_SCALE = 4096;

function digits(values: readonly Leaf[] | readonly number[]): number {
  let length = 0;
  for (const value of values) length += JSON.stringify(value).length + 1;
  return length;
}

/** Differences `values[i] - base(i)`, scaled when that is exact and shorter; undefined when one does not give back its value. */
function differences(values: readonly number[], base: (row: number) => number): { d: number[]; x?: number } | undefined {
  const d = new Array<number>(values.length);
  let whole = true;
  let scalable = true;
  for (let i = 0; i < values.length; i++) {
    const b = base(i);
    const diff = values[i] - b;
    if (b + diff !== values[i] || !Number.isFinite(diff)) return undefined;
    d[i] = diff;
    if (!Number.isInteger(diff)) {
      whole = false;
      if (!Number.isInteger(diff * FRACTION_SCALE) || Math.abs(diff * FRACTION_SCALE) > Number.MAX_SAFE_INTEGER) scalable = false;
    }
  }
  if (whole || !scalable) return { d };
  const scaled = d.map((value) => value * FRACTION_SCALE);
  return digits(scaled) < digits(d) ? { d: scaled, x: FRACTION_SCALE } : { d };
}

function allEqual(values: readonly Leaf[]): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}

function columnLength(column: Column): number {
  return JSON.stringify(column).length;
}

/** Rows sampled to find which pair of columns a number column is the difference of. */
const PAIR_SAMPLE = 16;
/** Non-epoch number columns a number column is compared with, the nearest before it. */
const REFERENCE_WINDOW = 48;
/** Numbers taken out of strings: canonical decimal integers (no leading zero), safe as doubles. */
const NUMBER_RUN = /(?<![0-9])(0|[1-9][0-9]{0,14})(?![0-9])/g;
/** Where a number was taken out of a template. */
const NUMBER_MARK = '\uE0F0';

/** What choosing a reference column asks of every earlier column, worked out once per column. */
interface ColumnFacts {
  numbers: boolean;
  constant: boolean;
  epoch: boolean;
}

const facts = new WeakMap<readonly Leaf[], ColumnFacts>();

function factsOf(values: readonly Leaf[]): ColumnFacts {
  let known = facts.get(values);
  if (!known) {
    let numbers = true;
    for (const value of values) {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        numbers = false;
        break;
      }
    }
    known = { numbers, constant: allEqual(values), epoch: numbers && values.length > 0 && Math.abs(values[0] as number) >= EPOCH_LIKE };
    facts.set(values, known);
  }
  return known;
}

function isNumberColumn(values: readonly Leaf[]): values is readonly number[] {
  return factsOf(values).numbers;
}

function sameValues(a: readonly Leaf[], b: readonly Leaf[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Remembers the shortest candidate. */
class Best {
  length: number;
  constructor(public column: Column) {
    this.length = columnLength(column);
  }
  consider(column: Column): void {
    const length = columnLength(column);
    if (length < this.length) {
      this.column = column;
      this.length = length;
    }
  }
}

function withDifferences(head: Record<string, number>, diff: { d: number[]; x?: number }): Column {
  const scale = diff.x ? { x: diff.x } : {};
  return (allEqual(diff.d) ? { ...head, c: diff.d[0], ...scale } : { ...head, d: diff.d, ...scale }) as Column;
}

function encodeNumbers(numbers: readonly number[], earlier: readonly (readonly Leaf[])[], best: Best): void {
  const previous = differences(numbers, (row) => (row === 0 ? 0 : numbers[row - 1]));
  if (previous) best.consider({ p: previous.d, ...(previous.x ? { x: previous.x } : {}) });
  const epoch = Math.abs(numbers[0]) >= EPOCH_LIKE;
  const candidates: number[] = [];
  for (let j = earlier.length - 1; j >= 0; j--) {
    const other = earlier[j];
    const known = factsOf(other);
    if (!known.numbers || known.constant) continue;
    if (epoch !== known.epoch) {
      // Epoch times are compared with epoch times; other numbers with the nearest others, and as differences of two times.
      if (!epoch) candidates.push(j);
      continue;
    }
    if (!epoch && j < earlier.length - REFERENCE_WINDOW) continue;
    const diff = differences(numbers, (row) => other[row] as number);
    if (diff) best.consider(withDifferences({ r: j }, diff));
    if (epoch) candidates.push(j);
  }
  if (epoch || best.length < numbers.length) return;
  // A duration: the difference of two earlier times, tried on a sample before all rows.
  const sample = Math.min(PAIR_SAMPLE, numbers.length);
  for (const a of candidates) {
    const columnA = earlier[a] as readonly number[];
    for (const b of candidates) {
      if (a === b) continue;
      const columnB = earlier[b] as readonly number[];
      let matches = true;
      for (let row = 0; row < sample && matches; row++) matches = columnA[row] - columnB[row] === numbers[row];
      if (!matches) continue;
      const diff = differences(numbers, (row) => columnA[row] - columnB[row]);
      if (diff) best.consider(withDifferences({ a, b }, diff));
      if (best.length < 40) return;
    }
  }
}

/** Strings as templates and the numbers taken out of them; undefined when a string already holds the mark. */
function splitNumbers(strings: readonly string[]): { templates: string[]; numbers: number[][] } | undefined {
  const templates: string[] = [];
  const numbers: number[][] = [];
  for (const text of strings) {
    if (text.includes(NUMBER_MARK)) return undefined;
    let k = 0;
    templates.push(
      text.replace(NUMBER_RUN, (run) => {
        (numbers[k++] ??= []).push(Number(run));
        return NUMBER_MARK;
      }),
    );
  }
  return { templates, numbers };
}

/**
 * The shortest form of `values`. `earlier` are the row's columns before it (a column may be
 * stored against them); `intern` puts a string into the file's string table, `interned` says
 * whether it is there already.
 */
export function encodeColumn(values: readonly Leaf[], earlier: readonly (readonly Leaf[])[], intern: (text: string) => number, interned: (text: string) => boolean, splitting = true): Column {
  if (values.length > 0 && allEqual(values)) return { c: values[0] };
  for (let j = earlier.length - 1; j >= 0; j--) if (sameValues(values, earlier[j])) return { e: j };
  const best = new Best({ v: [...values] });
  if (isNumberColumn(values)) {
    encodeNumbers(values, earlier, best);
    return best.column;
  }
  if (values.every((value) => typeof value === 'string')) {
    const strings = values as readonly string[];
    // Indexed when the strings repeat enough to pay for their table entries.
    let distinct = 0;
    for (const text of new Set(strings)) if (!interned(text)) distinct += JSON.stringify(text).length + 1;
    if (distinct + strings.length * 4 < best.length) best.consider({ s: strings.map(intern) });
    const split = splitting ? splitNumbers(strings) : undefined;
    if (split && split.numbers.length > 0) {
      const templates = encodeColumn(split.templates, [], intern, interned, false);
      best.consider({ t: templates, n: split.numbers.map((column) => encodeColumn(column, [], intern, interned, false)) });
    }
  }
  return best.column;
}

/** The values of a column of `rows` rows; `earlier` are the row's columns decoded before it. */
export function decodeColumn(value: unknown, rows: number, earlier: readonly (readonly Leaf[])[], strings: readonly string[], path: string): Leaf[] {
  const column = record(value, path);
  const leaf = (item: unknown, at: string): Leaf => {
    if (item === null || typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return item;
    throw new FieldError(at, 'a string, number, true, false or null', item);
  };
  const listOf = (key: string): unknown[] => {
    const list = array(column[key], join(path, key));
    if (list.length !== rows) throw new FieldError(join(path, key), `${rows} values`, `${list.length}`);
    return list;
  };
  const scale = column.x === undefined ? 1 : number(column.x, join(path, 'x'));
  if ('r' in column) {
    const reference = integer(column.r, join(path, 'r'));
    const base = earlier[reference];
    if (!base) throw new FieldError(join(path, 'r'), `an earlier column (0 to ${earlier.length - 1})`, reference);
    if ('c' in column) {
      const d = number(column.c, join(path, 'c')) / scale;
      return base.map((b) => (b as number) + d);
    }
    return listOf('d').map((d, row) => (base[row] as number) + number(d, join(join(path, 'd'), row)) / scale);
  }
  if ('a' in column) {
    const at = (key: string): readonly Leaf[] => {
      const index = integer(column[key], join(path, key));
      const values = earlier[index];
      if (!values) throw new FieldError(join(path, key), `an earlier column (0 to ${earlier.length - 1})`, index);
      return values;
    };
    const a = at('a');
    const b = at('b');
    const base = (row: number): number => (a[row] as number) - (b[row] as number);
    if ('c' in column) {
      const d = number(column.c, join(path, 'c')) / scale;
      return a.map((_, row) => base(row) + d);
    }
    return listOf('d').map((d, row) => base(row) + number(d, join(join(path, 'd'), row)) / scale);
  }
  if ('e' in column) {
    const index = integer(column.e, join(path, 'e'));
    const values = earlier[index];
    if (!values) throw new FieldError(join(path, 'e'), `an earlier column (0 to ${earlier.length - 1})`, index);
    return [...values];
  }
  if ('t' in column) {
    const templates = decodeColumn(column.t, rows, [], strings, join(path, 't'));
    const numberColumns = array(column.n, join(path, 'n'));
    // The k-th number column has a value for each row with more than k numbers.
    const counts = numberColumns.map(() => 0);
    for (const template of templates) {
      const marks = String(template).split(NUMBER_MARK).length - 1;
      for (let k = 0; k < marks; k++) counts[k]++;
      if (marks > numberColumns.length) throw new FieldError(join(path, 'n'), `${marks} number columns`, `${numberColumns.length}`);
    }
    const numbers = numberColumns.map((item, k) => decodeColumn(item, counts[k], [], strings, join(join(path, 'n'), k)));
    const next = counts.map(() => 0);
    return templates.map((template) => {
      let k = 0;
      return String(template).replaceAll(NUMBER_MARK, () => {
        const value = numbers[k][next[k]++];
        k++;
        return String(value);
      });
    });
  }
  if ('c' in column) {
    const constant = leaf(column.c, join(path, 'c'));
    return new Array<Leaf>(rows).fill(constant);
  }
  if ('v' in column) return listOf('v').map((item, row) => leaf(item, join(join(path, 'v'), row)));
  if ('s' in column) {
    return listOf('s').map((index, row) => {
      const at = join(join(path, 's'), row);
      const text = strings[integer(index, at)];
      if (text === undefined) throw new FieldError(at, `an index into strings (0 to ${strings.length - 1})`, index);
      return text;
    });
  }
  if ('p' in column) {
    let previous = 0;
    return listOf('p').map((d, row) => (previous += number(d, join(join(path, 'p'), row)) / scale));
  }
  throw new FieldError(path, 'a column ({"c"}, {"v"}, {"s"}, {"e"}, {"p"}, {"r"}, {"a"} or {"t"})', value);
}
