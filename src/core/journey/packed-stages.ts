/**
 * A folded pod's stages packed into a few arrays instead of two objects per stage (a StageRecord
 * and its Stage, each with boxed numbers). At 150,000 pods the stage objects were most of the
 * tracer's memory, yet a folded pod is read once more, when its journey is printed. What repeats
 * from pod to pod (stage keys, kinds, components, which optional parts a stage has) is one shared
 * layout; each pod keeps only its numbers, its texts and its evidence.
 *
 * Packing loses nothing: `unpackStages` gives back records equal to the packed ones, and
 * `packedStage` the same public Stage (property for property, in the same order).
 */
import { makeStage, NO_EVIDENCE, type StageRecord } from './records';
import type { TimeValue } from './time';
import type { Component, Stage, StageEvidence, StageKind, TimeSource } from './types';

/** What one stage shares with the same stage of other pods. */
interface LayoutEntry {
  key: string;
  kind: StageKind;
  timeSource: TimeSource;
  component: Component;
  rank: number;
  /** Which optional parts the stage has (the bits below). */
  flags: number;
  /** Where its numbers start in `PackedStages.numbers`, and its texts in `texts`. */
  numbersAt: number;
  textsAt: number;
}

/** The shared part of a pod's stages: one entry per stage, in the pod's order. */
interface StageLayout {
  entries: readonly LayoutEntry[];
  numberCount: number;
  textCount: number;
  /** The texts of the first pod packed with this layout: equal texts of later pods share these strings. */
  texts?: readonly string[];
}

/** A pod's stages, packed (see the file comment). */
export interface PackedStages {
  layout: StageLayout;
  /**
   * Per stage: time, seq, observedAt, then the optional numbers its flags name, in the order
   * below; seq and count as they are, times as offsets from `base` in steps of 1/4096 ms when
   * they are exactly that (see `SCALE`), else `scale` is 1 and `base` 0. They are a stretch of
   * the journey's column from `at` when they all fit 32 bits, else in `numbers`.
   */
  column: PackedColumn | undefined;
  at: number;
  numbers: number[] | undefined;
  base: number;
  scale: number;
  /**
   * Per stage: title, then message, reason, container and assumed where its flags name them.
   * Only those that differ from the layout's (`StageLayout.texts`): index, text, index, text…
   */
  texts: (number | string)[] | undefined;
  /** The stages that have evidence: index, evidence, index, evidence…; absent when none has. */
  evidence: (number | StageEvidence)[] | undefined;
}

const CHUNK = 65_536;
const INT32 = 2 ** 31;

/**
 * The numbers of many packed pods in chunks of 32-bit integers, 4 bytes a number: one array per
 * pod would cost 8 bytes a number and its own header. A pod's numbers never straddle two chunks.
 */
export class PackedColumn {
  private readonly chunks: Int32Array[] = [];
  private used = CHUNK;

  /** Stores the numbers; returns where they start. */
  append(values: readonly number[]): number {
    if (this.used + values.length > CHUNK) {
      this.chunks.push(new Int32Array(CHUNK));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    this.chunks[chunk].set(values, this.used);
    const at = chunk * CHUNK + this.used;
    this.used += values.length;
    return at;
  }

  get(at: number): number {
    return this.chunks[Math.floor(at / CHUNK)][at % CHUNK];
  }
}

// Texts a stage has beyond its title.
const MESSAGE = 1 << 0;
const REASON = 1 << 1;
const CONTAINER = 1 << 2;
const ASSUMED = 1 << 3;
const WARNING = 1 << 4;
// Numbers a stage has beyond time, seq and observedAt (in this order in `numbers`).
const COUNT = 1 << 5;
const LAST_TIME = 1 << 6;
const OBJECT_TIME = 1 << 7;
const EVENT_TIME = 1 << 8;
const INTERNAL_TIME = 1 << 9;
const APPLIED_TIME = 1 << 10;
const FLOAT_BASE = 1 << 11;
const OBJECT_TIME_PRECISE = 1 << 12;
const EVENT_TIME_PRECISE = 1 << 13;
// Who wrote the message, and whether the event was a secondary one (undefined, false, true).
const MESSAGE_FROM_SHIFT = 14;
const MESSAGE_FROM: readonly (StageRecord['messageFrom'] | undefined)[] = [undefined, 'event', 'state', 'secondary'];
const EVENT_SECONDARY_SHIFT = 16;
const EVENT_SECONDARY: readonly (boolean | undefined)[] = [undefined, false, true];

const OPTIONAL_NUMBERS = [COUNT, LAST_TIME, OBJECT_TIME, EVENT_TIME, INTERNAL_TIME, APPLIED_TIME, FLOAT_BASE];
const OPTIONAL_TEXTS = [MESSAGE, REASON, CONTAINER, ASSUMED];

/**
 * Layouts are shared by every pod of a template, found by walking a trie of each stage's six
 * layout values in turn (no key string is built per pod). The trie is bounded and starts over
 * when full (sharing lost, nothing else).
 */
const LAYOUT_LIMIT = 4096;
interface LayoutNode {
  readonly next: Map<string | number | undefined, LayoutNode>;
  layout?: StageLayout;
}
let layoutRoot: LayoutNode = { next: new Map() };
let layoutCount = 0;

function step(node: LayoutNode, value: string | number | undefined): LayoutNode {
  let next = node.next.get(value);
  if (next === undefined) node.next.set(value, (next = { next: new Map() }));
  return next;
}

function bitCount(flags: number, bits: readonly number[]): number {
  let n = 0;
  for (const bit of bits) if (flags & bit) n++;
  return n;
}

function flagsOf(record: StageRecord): number {
  const { stage } = record;
  let flags = 0;
  if (stage.message !== undefined) flags |= MESSAGE;
  if (stage.reason !== undefined) flags |= REASON;
  if (stage.container !== undefined) flags |= CONTAINER;
  if (stage.assumed !== undefined) flags |= ASSUMED;
  if (stage.warning) flags |= WARNING;
  if (stage.count !== undefined) flags |= COUNT;
  if (stage.lastTime !== undefined) flags |= LAST_TIME;
  if (record.objectTime) flags |= OBJECT_TIME | (record.objectTime.precise ? OBJECT_TIME_PRECISE : 0);
  if (record.eventTime) flags |= EVENT_TIME | (record.eventTime.precise ? EVENT_TIME_PRECISE : 0);
  if (record.internalTime !== undefined) flags |= INTERNAL_TIME;
  if (record.appliedTime !== undefined) flags |= APPLIED_TIME;
  if (record.floatBase !== undefined) flags |= FLOAT_BASE;
  flags |= MESSAGE_FROM.indexOf(record.messageFrom) << MESSAGE_FROM_SHIFT;
  flags |= EVENT_SECONDARY.indexOf(record.eventSecondary) << EVENT_SECONDARY_SHIFT;
  return flags;
}

function layoutNode(root: LayoutNode, records: readonly StageRecord[], flags: readonly number[]): LayoutNode {
  let node = root;
  // Every stage adds exactly six steps, so a shorter list never ends where a longer one passes.
  for (let i = 0; i < records.length; i++) {
    const { stage, rank } = records[i];
    node = step(step(step(step(step(step(node, stage.key), stage.kind), stage.timeSource), stage.component), rank), flags[i]);
  }
  return node;
}

function layoutOf(records: readonly StageRecord[], flags: readonly number[]): StageLayout {
  let node = layoutNode(layoutRoot, records, flags);
  if (node.layout) return node.layout;
  const entries: LayoutEntry[] = [];
  let numberCount = 0;
  let textCount = 0;
  for (let i = 0; i < records.length; i++) {
    const { stage, rank } = records[i];
    entries.push({ key: stage.key, kind: stage.kind, timeSource: stage.timeSource, component: stage.component, rank, flags: flags[i], numbersAt: numberCount, textsAt: textCount });
    numberCount += 3 + bitCount(flags[i], OPTIONAL_NUMBERS);
    textCount += 1 + bitCount(flags[i], OPTIONAL_TEXTS);
  }
  const layout: StageLayout = { entries, numberCount, textCount, texts: undefined };
  if (layoutCount >= LAYOUT_LIMIT) {
    layoutRoot = { next: new Map() };
    layoutCount = 0;
    node = layoutNode(layoutRoot, records, flags);
  }
  node.layout = layout;
  layoutCount++;
  return layout;
}

/** Time offsets this small fit the column's 32-bit integers (with room for seq and count). */
const SMALL = 2 ** 30;
/**
 * Times since the epoch are doubles whose last bit is 1/4096 ms (from 2^40 ms, the year 2004, to
 * 2^41): offsets in those steps are whole numbers. Any time that does not fit is kept as it is.
 */
const SCALE = 4096;

function timesOf(record: StageRecord, f: number): number[] {
  const { stage } = record;
  const times = [stage.time, record.observedAt];
  if (f & LAST_TIME) times.push(stage.lastTime!);
  if (f & OBJECT_TIME) times.push(record.objectTime!.ms);
  if (f & EVENT_TIME) times.push(record.eventTime!.ms);
  if (f & INTERNAL_TIME) times.push(record.internalTime!);
  if (f & APPLIED_TIME) times.push(record.appliedTime!);
  if (f & FLOAT_BASE) times.push(record.floatBase!);
  return times;
}

/** Packs a pod's stage records (they are left as they are); its numbers go to `column` when they fit. */
export function packStages(records: readonly StageRecord[], column: PackedColumn): PackedStages {
  const flags = records.map(flagsOf);
  const layout = layoutOf(records, flags);
  // Offsets from the first stage's time when every time is one exactly (checked by reading it back); else the times themselves.
  let base = records.length > 0 ? records[0].stage.time : 0;
  let scale = SCALE;
  const fits = (value: number): boolean => {
    const offset = (value - base) * scale;
    return Number.isInteger(offset) && Math.abs(offset) < SMALL && base + offset / scale === value;
  };
  if (!records.every((record, i) => timesOf(record, flags[i]).every(fits))) {
    base = 0;
    scale = 1;
  }
  const time = (value: number): number => (value - base) * scale;
  const numbers = new Array<number>(layout.numberCount).fill(0);
  const texts = new Array<string>(layout.textCount);
  const shared = layout.texts;
  let evidence: (number | StageEvidence)[] | undefined;
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    const { stage } = record;
    const entry = layout.entries[i];
    const f = flags[i];
    let n = entry.numbersAt;
    numbers[n++] = time(stage.time);
    numbers[n++] = record.seq;
    numbers[n++] = time(record.observedAt);
    if (f & COUNT) numbers[n++] = stage.count!;
    if (f & LAST_TIME) numbers[n++] = time(stage.lastTime!);
    if (f & OBJECT_TIME) numbers[n++] = time(record.objectTime!.ms);
    if (f & EVENT_TIME) numbers[n++] = time(record.eventTime!.ms);
    if (f & INTERNAL_TIME) numbers[n++] = time(record.internalTime!);
    if (f & APPLIED_TIME) numbers[n++] = time(record.appliedTime!);
    if (f & FLOAT_BASE) numbers[n++] = time(record.floatBase!);
    let t = entry.textsAt;
    texts[t++] = stage.title;
    if (f & MESSAGE) texts[t++] = stage.message!;
    if (f & REASON) texts[t++] = stage.reason!;
    if (f & CONTAINER) texts[t++] = stage.container!;
    if (f & ASSUMED) texts[t++] = stage.assumed!;
    if (stage.evidence !== NO_EVIDENCE) (evidence ??= []).push(i, stage.evidence);
  }
  // Texts repeat from pod to pod (even the messages built per event are equal strings): keep those that differ.
  let differing: (number | string)[] | undefined;
  if (!shared) layout.texts = texts;
  else for (let i = 0; i < texts.length; i++) if (texts[i] !== shared[i]) (differing ??= []).push(i, texts[i]);
  const inColumn = numbers.length <= CHUNK && numbers.every((value) => Number.isInteger(value) && value >= -INT32 && value < INT32);
  const at = inColumn ? column.append(numbers) : 0;
  // slice(): an array grown by push keeps spare slots (17 for 2 items); a copy has none.
  return { layout, column: inColumn ? column : undefined, at, numbers: inColumn ? undefined : numbers, base, scale, texts: differing?.slice(), evidence: evidence?.slice() };
}

function numberAt(packed: PackedStages, index: number): number {
  return packed.column ? packed.column.get(packed.at + index) : packed.numbers![index];
}

function textAt(packed: PackedStages, index: number): string {
  const list = packed.texts;
  if (list) for (let i = 0; i < list.length; i += 2) if (list[i] === index) return list[i + 1] as string;
  return packed.layout.texts![index];
}

function evidenceAt(packed: PackedStages, index: number): StageEvidence {
  const list = packed.evidence;
  if (list) for (let i = 0; i < list.length; i += 2) if (list[i] === index) return list[i + 1] as StageEvidence;
  return NO_EVIDENCE;
}

/** How many stages are packed. */
export function packedCount(packed: PackedStages): number {
  return packed.layout.entries.length;
}

/** The index of the packed stage with this key, or -1. */
export function packedIndex(packed: PackedStages, key: string): number {
  const entries = packed.layout.entries;
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].key === key) return i;
  return -1;
}

/** The public Stage at `index`, made afresh: equal to the one that was packed. */
export function packedStage(packed: PackedStages, index: number): Stage {
  const entry = packed.layout.entries[index];
  const f = entry.flags;
  const n = entry.numbersAt;
  let t = entry.textsAt;
  const base: Stage = {
    key: entry.key,
    kind: entry.kind,
    time: packed.base + numberAt(packed, n) / packed.scale,
    timeSource: entry.timeSource,
    component: entry.component,
    title: textAt(packed, t++),
    evidence: NO_EVIDENCE,
  };
  if (f & MESSAGE) base.message = textAt(packed, t++);
  if (f & REASON) base.reason = textAt(packed, t++);
  if (f & CONTAINER) base.container = textAt(packed, t++);
  if (f & ASSUMED) base.assumed = textAt(packed, t++);
  if (f & WARNING) base.warning = true;
  let optional = n + 3;
  if (f & COUNT) base.count = numberAt(packed, optional++);
  if (f & LAST_TIME) base.lastTime = packed.base + numberAt(packed, optional++) / packed.scale;
  return makeStage(base, evidenceAt(packed, index));
}

function timeValue(ms: number, precise: boolean): TimeValue {
  return Object.freeze({ ms, precise });
}

/** The stage records back, to be changed again. */
export function unpackStages(packed: PackedStages): StageRecord[] {
  const { base, scale } = packed;
  const time = (offset: number): number => base + offset / scale;
  const number = (index: number): number => numberAt(packed, index);
  return packed.layout.entries.map((entry, index) => {
    const f = entry.flags;
    const n = entry.numbersAt;
    // Past the optional stage numbers (count, lastTime), the record's own, in packing order.
    let at = n + 3 + bitCount(f, [COUNT, LAST_TIME]);
    const objectTime = f & OBJECT_TIME ? timeValue(time(number(at++)), (f & OBJECT_TIME_PRECISE) !== 0) : undefined;
    const eventTime = f & EVENT_TIME ? timeValue(time(number(at++)), (f & EVENT_TIME_PRECISE) !== 0) : undefined;
    const internalTime = f & INTERNAL_TIME ? time(number(at++)) : undefined;
    const appliedTime = f & APPLIED_TIME ? time(number(at++)) : undefined;
    const floatBase = f & FLOAT_BASE ? time(number(at++)) : undefined;
    return {
      stage: packedStage(packed, index),
      rank: entry.rank,
      seq: number(n + 1),
      objectTime,
      eventTime,
      internalTime,
      appliedTime,
      observedAt: time(number(n + 2)),
      messageFrom: MESSAGE_FROM[(f >> MESSAGE_FROM_SHIFT) & 3],
      eventSecondary: EVENT_SECONDARY[(f >> EVENT_SECONDARY_SHIFT) & 3],
      floatBase,
    };
  });
}
