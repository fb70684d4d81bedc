/**
 * Version 2 of the journey file: compact. The pods of a Deployment are alike: the same stages with
 * the same words, at other times, on other nodes. So every object of every journey (an
 * ObjectJourney without its children, and each journey's head without its tree) is split into its
 * *shape* (keys and array lengths, the values left out) and its *leaves* (the values, in order);
 * objects of one shape form a group, and each leaf position of a group is a column over its rows
 * (columns.ts stores each the shortest way: constant, differences to another column, indices into
 * a string table, …). Before that, each string leaf has the object's own names taken out (its name,
 * its parent's, its uid, its node), so that `Successfully assigned default/web-x to node-3` becomes
 * the same template for every pod; and an Event name's time in hex is stored as its offset from the
 * stage's time. Long arrays (the scheduler's node lists) are stored once in `values`.
 *
 * Decoding walks the same steps back and gives the same objects, key order included (the NDJSON
 * of `show --json` prints them as trace did).
 */
import type { PhaseValues } from '../journey/file-summary';
import { PHASE_NAMES, type Journey, type ObjectJourney } from '../journey/types';
import { decodeColumn, encodeColumn, type Column, type Leaf } from './columns';
import { FieldError } from './errors';
import { array, integer, isRecord, join, record, strings as readStrings, type Json } from './fields';
import { readCommon } from './meta';
import type { JourneyFile, SavedJourney, SavedPhaseValues } from './types';

/**
 * Marks in leaf strings, from Unicode's private use area (JSON writes them as they are, where a
 * control character would take six bytes); a string that holds any of them is stored escaped,
 * without templates.
 */
const ESCAPE = '\uE000';
/** The row's names, in the order they are taken out of strings (and put back in reverse). */
const NAME = '\uE001';
const PARENT = '\uE002';
const UID = '\uE003';
const NODE = '\uE004';
/** A number JSON cannot hold (NaN, ±Infinity), as a string leaf. */
const NON_FINITE = '\uE005';
/** An Event name's time: `<name>.<hex ns>` stored as the offset `ms.ns` from the last time before it. */
const HEX_TIME = '\uE006';
/** A uid stored in base64 (22 characters instead of 36). */
const PACKED_UID = '\uE007';
const MARKS = /[\uE000-\uE0FF]/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EVENT_NAME = /^(.*\.)([0-9a-f]{15,20})$/s;
const EPOCH_LIKE = 1e11;
/** Arrays of at least this many primitives are stored once in `values` and shared. */
const SHARED_ARRAY = 16;

/** Which of the row's names a leaf is: those are stored plain (the name only without its parent's). */
type NameLeaf = 'name' | 'uid' | 'node' | undefined;

interface RowNames {
  parent: string;
  name: string;
  uid: string;
  node: string;
}

/**
 * The latest epoch-like number of a row, which Event names' times are stored against: the latest
 * finer than a second when there is one (an Event's own times are whole seconds, its name's are not).
 */
interface RowState {
  names: RowNames;
  lastTime: number | undefined;
  lastFineTime?: number;
}

function noteTime(state: RowState, value: number): void {
  if (Math.abs(value) < EPOCH_LIKE) return;
  state.lastTime = value;
  if (value % 1000 !== 0) state.lastFineTime = value;
}

function timeBase(state: RowState): bigint | undefined {
  const time = state.lastFineTime ?? state.lastTime;
  return time === undefined ? undefined : BigInt(Math.floor(time)) * 1_000_000n;
}

/** `text` with every `name` (of at least 3 characters) replaced by `mark`. */
function replaceName(text: string, name: string, mark: string): string {
  return name.length >= 3 && text.includes(name) ? text.split(name).join(mark) : text;
}

function substitute(text: string, names: RowNames, leaf: NameLeaf): string {
  if (leaf === 'uid' || leaf === 'node') return text;
  let out = text;
  if (leaf !== 'name') out = replaceName(out, names.name, NAME);
  out = replaceName(out, names.parent, PARENT);
  if (leaf === 'name') return out;
  out = replaceName(out, names.uid, UID);
  return replaceName(out, names.node, NODE);
}

function restore(template: string, names: RowNames, leaf: NameLeaf): string {
  if (leaf === 'uid' || leaf === 'node') return template;
  let out = template;
  if (leaf !== 'name') {
    if (out.includes(NODE)) out = out.split(NODE).join(names.node);
    if (out.includes(UID)) out = out.split(UID).join(names.uid);
  }
  if (out.includes(PARENT)) out = out.split(PARENT).join(names.parent);
  if (leaf !== 'name' && out.includes(NAME)) out = out.split(NAME).join(names.name);
  return out;
}

function encodeString(text: string, state: RowState, leaf: NameLeaf): string {
  if (MARKS.test(text)) return ESCAPE + text;
  let template = substitute(text, state.names, leaf);
  const match = leaf ? null : EVENT_NAME.exec(template);
  const base = timeBase(state);
  if (match && base !== undefined) {
    const offset = BigInt(`0x${match[2]}`) - base;
    if ((base + offset).toString(16) === match[2]) {
      const size = offset < 0n ? -offset : offset;
      template = `${match[1]}${HEX_TIME}${offset < 0n ? '-' : ''}${size / 1_000_000n}.${size % 1_000_000n}`;
    }
  }
  if (leaf === 'uid' && UUID.test(template)) template = PACKED_UID + packUid(template);
  return template;
}

function decodeString(template: string, state: RowState, leaf: NameLeaf): string {
  if (template.startsWith(ESCAPE)) return template.slice(1);
  let text = template;
  const at = text.lastIndexOf(HEX_TIME);
  const base = timeBase(state);
  if (at !== -1 && base !== undefined) {
    const [ms, ns] = text.slice(at + 1).split('.');
    const size = BigInt(ms.replace('-', '')) * 1_000_000n + BigInt(ns ?? '0');
    text = text.slice(0, at) + (base + (ms.startsWith('-') ? -size : size)).toString(16);
  }
  if (leaf === 'uid' && text.startsWith(PACKED_UID)) return unpackUid(text.slice(1));
  return restore(text, state.names, leaf);
}

/** A lowercase uuid's 16 bytes in base64url. */
function packUid(uid: string): string {
  const hex = uid.replaceAll('-', '');
  let binary = '';
  for (let i = 0; i < 32; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function unpackUid(packed: string): string {
  const binary = atob(packed.replaceAll('-', '+').replaceAll('_', '/'));
  let hex = '';
  for (let i = 0; i < binary.length; i++) hex += binary.charCodeAt(i).toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Node lists: long lists of names that many scheduling attempts share. */
function isStringArray(value: unknown[]): boolean {
  return value.every((item) => typeof item === 'string');
}

/**
 * Shapes are hash-consed: each distinct (sub)shape gets a number once, so a row's shape is found by
 * short keys (an object's keys and its children's numbers) rather than by its whole text.
 */
type ShapeNode = { leaf: true } | { shared: true } | { items: number[] } | { keys: string[]; values: number[] };
const LEAF_SHAPE = 0;
const SHARED_SHAPE = 1;

function parseShapeKey(key: string): ShapeNode {
  if (key.startsWith('[')) return { items: key.slice(1).split(',').slice(0, -1).map(Number) };
  const keys: string[] = [];
  const values: number[] = [];
  let at = 1;
  while (at < key.length) {
    const colon = key.indexOf(':', at);
    const length = Number(key.slice(at, colon));
    keys.push(key.slice(colon + 1, colon + 1 + length));
    const comma = key.indexOf(',', colon + 1 + length);
    values.push(Number(key.slice(colon + 1 + length, comma)));
    at = comma + 1;
  }
  return { keys, values };
}

/** One shape and the leaves of its rows, column by column. */
interface Group {
  index: number;
  shape: number;
  rows: number;
  columns: Leaf[][];
  /** Columns of the row's name, uid and node (-1: the shape has none), read first when decoding. */
  names: [number, number, number];
}

/** Builds a version-2 document one journey at a time, keeping leaves only (not the journeys). */
export class CompactEncoder {
  private readonly groups = new Map<number, Group>();
  private readonly groupList: Group[] = [];
  private readonly shapeIds = new Map<string, number>();
  private readonly shapes: ShapeNode[] = [{ leaf: true }, { shared: true }];
  private readonly sharedIndex = new Map<string, number>();
  private readonly shared: Json[] = [];
  private readonly sharedByIdentity = new WeakMap<object, number>();
  private readonly journeys: Json[] = [];

  addJourney(journey: Journey, phaseValues?: PhaseValues): void {
    const { tree, ...head } = journey;
    const headGroup = this.addRow(head, { parent: '', name: '', uid: '', node: '' }, false);
    const treeRuns: number[] = [];
    const treeOrder: ObjectJourney[] = [];
    if (tree) {
      const stack: { object: ObjectJourney; parent: string }[] = [{ object: tree, parent: '' }];
      while (stack.length > 0) {
        const { object, parent } = stack.pop()!;
        treeOrder.push(object);
        const group = this.addRow(object, { parent, name: object.ref?.name ?? '', uid: object.ref?.uid ?? '', node: object.pod?.node ?? '' }, true);
        const children = object.children?.length ?? 0;
        const last = treeRuns.length - 3;
        if (last >= 0 && treeRuns[last] === group && treeRuns[last + 1] === children) treeRuns[last + 2]++;
        else treeRuns.push(group, children, 1);
        for (let i = children - 1; i >= 0; i--) stack.push({ object: object.children[i], parent: object.ref?.name ?? '' });
      }
    }
    const entry: Record<string, Json> = { head: headGroup };
    if (tree) entry.tree = treeRuns;
    if (phaseValues) entry.phases = this.encodePhases(phaseValues, treeOrder);
    this.journeys.push(entry);
  }

  /** The document, given the parts every version shares. */
  finish(common: Omit<JourneyFile, 'journeys'>, kind: string, version: number): Record<string, unknown> {
    const stringIndex = new Map<string, number>();
    const strings: string[] = [];
    const intern = (text: string): number => {
      let index = stringIndex.get(text);
      if (index === undefined) {
        index = strings.length;
        strings.push(text);
        stringIndex.set(text, index);
      }
      return index;
    };
    const known = (text: string): boolean => stringIndex.has(text);
    const groups = this.groupList.map((group) => {
      const columns: Column[] = [];
      for (let c = 0; c < group.columns.length; c++) columns.push(encodeColumn(group.columns[c], group.columns.slice(0, c), intern, known));
      return { shape: this.shapeJson(group.shape), rows: group.rows, names: group.names, columns };
    });
    const { meta, results, warnings, claimNotes, stored, unfinished, closing, extra } = common;
    return { kind, version, meta, results, warnings, claimNotes, stored, unfinished, closing, ...(extra ? { extra } : {}), strings, values: this.shared, groups, journeys: this.journeys };
  }

  /** Adds an object as a row of its shape's group; returns the group's index. */
  private addRow(object: object, names: RowNames, isTreeNode: boolean): number {
    const leaves: Leaf[] = [];
    const nameColumns: [number, number, number] = [-1, -1, -1];
    const state: RowState = { names, lastTime: undefined };
    const shape = this.flatten(object, leaves, state, isTreeNode ? 'row' : undefined, undefined, nameColumns);
    let group = this.groups.get(shape);
    if (!group) {
      group = { index: this.groupList.length, shape, rows: 0, columns: leaves.map(() => []), names: nameColumns };
      this.groups.set(shape, group);
      this.groupList.push(group);
    }
    for (let i = 0; i < leaves.length; i++) group.columns[i].push(leaves[i]);
    group.rows++;
    return group.index;
  }

  /**
   * The number of a shape, given its key (`[` then each item's number and a comma; `{` then each
   * key as `length:name` followed by its value's number and a comma); new shapes are numbered as
   * they come. The key is read back only for a new shape, so a row of a known shape allocates no
   * lists.
   */
  private shapeId(key: string): number {
    let id = this.shapeIds.get(key);
    if (id === undefined) {
      id = this.shapes.length;
      this.shapes.push(parseShapeKey(key));
      this.shapeIds.set(key, id);
    }
    return id;
  }

  /** A shape as the file writes it: leaves as 0, shared lists as "@". */
  private shapeJson(id: number): Json {
    const node = this.shapes[id];
    if ('leaf' in node) return 0;
    if ('shared' in node) return '@';
    if ('items' in node) return node.items.map((item) => this.shapeJson(item));
    return Object.fromEntries(node.keys.map((key, i) => [key, this.shapeJson(node.values[i])]));
  }

  /**
   * The shape of `value` (its number), its leaves appended to `leaves`. `role` follows the row's
   * own `ref` and `pod` for its names.
   */
  private flatten(value: unknown, leaves: Leaf[], state: RowState, role: 'row' | 'ref' | 'pod' | undefined, leaf: NameLeaf, nameColumns: [number, number, number]): number {
    if (value === null || typeof value === 'boolean') {
      leaves.push(value);
      return LEAF_SHAPE;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) leaves.push(NON_FINITE + String(value));
      else {
        leaves.push(value);
        noteTime(state, value);
      }
      return LEAF_SHAPE;
    }
    if (typeof value === 'string') {
      if (leaf) nameColumns[leaf === 'name' ? 0 : leaf === 'uid' ? 1 : 2] = leaves.length;
      leaves.push(encodeString(value, state, leaf));
      return LEAF_SHAPE;
    }
    if (Array.isArray(value)) {
      if (value.length >= SHARED_ARRAY) {
        const index = this.sharedArray(value);
        if (index !== undefined) {
          leaves.push(index);
          return SHARED_SHAPE;
        }
      }
      let key = '[';
      // JSON writes a hole or undefined in an array as null.
      for (let i = 0; i < value.length; i++) key += `${this.flatten(value[i] ?? null, leaves, state, undefined, undefined, nameColumns)},`;
      return this.shapeId(key);
    }
    if (typeof value === 'object') {
      let key = '{';
      for (const name of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[name];
        if (item === undefined || typeof item === 'function') continue;
        if (role === 'row' && name === 'children') continue;
        const childRole = role === 'row' && (name === 'ref' || name === 'pod') ? name : undefined;
        const childLeaf: NameLeaf = role === 'ref' && (name === 'name' || name === 'uid') ? name : role === 'pod' && name === 'node' ? 'node' : undefined;
        // The length before each key says where it ends, whatever it holds.
        key += `${name.length}:${name}${this.flatten(item, leaves, state, childRole, childLeaf, nameColumns)},`;
      }
      return this.shapeId(key);
    }
    throw new TypeError(`a journey holds a ${typeof value}, which a journey file cannot store`);
  }

  private sharedArray(value: unknown[]): number | undefined {
    const byIdentity = this.sharedByIdentity.get(value);
    if (byIdentity !== undefined) return byIdentity;
    if (!isStringArray(value)) return undefined;
    const text = JSON.stringify(value);
    let index = this.sharedIndex.get(text);
    if (index === undefined) {
      index = this.shared.length;
      this.shared.push(value as Json[]);
      this.sharedIndex.set(text, index);
    }
    this.sharedByIdentity.set(value, index);
    return index;
  }

  /**
   * The journey's per-pod phase values: most are a pod's `pod.phases` in the tree (in another
   * order: by creation, where the tree is by name), stored as that node's index in the tree's
   * order; the others (pods deleted since) as their values.
   */
  private encodePhases(values: PhaseValues, treeOrder: readonly ObjectJourney[]): Json {
    const key = (phases: readonly number[]): string => phases.map(String).join(',');
    const byValues = new Map<string, number[]>();
    treeOrder.forEach((object, index) => {
      if (!object.pod) return;
      const k = key(PHASE_NAMES.map((name) => object.pod!.phases[name] ?? NaN));
      const list = byValues.get(k);
      if (list) list.push(index);
      else byValues.set(k, [index]);
    });
    const length = values[PHASE_NAMES[0]].length;
    const refs: number[] = [];
    const rest: Json[] = [];
    for (let i = 0; i < length; i++) {
      const phases = PHASE_NAMES.map((name) => values[name][i]);
      const match = byValues.get(key(phases))?.shift();
      if (match !== undefined) refs.push(match);
      else {
        refs.push(-1);
        rest.push(phases.map((v) => (Number.isFinite(v) ? v : String(v))));
      }
    }
    const column = encodeColumn(refs, [], () => 0, () => false);
    return { length, refs: column as unknown as Json, ...(rest.length > 0 ? { rest } : {}) };
  }
}

/** Reads a version-2 document. */
export function decodeCompact(document: Record<string, unknown>): JourneyFile {
  const strings = readStrings(document.strings ?? [], 'strings');
  const shared = new SharedValues(array(document.values ?? [], 'values'));
  const groups = array(document.groups, 'groups').map((item, index) => new GroupReader(record(item, join('groups', index)), join('groups', index), strings, shared));
  const journeys = array(document.journeys, 'journeys').map((item, index): SavedJourney => {
    const path = join('journeys', index);
    const entry = record(item, path);
    const group = (at: string, value: unknown): GroupReader => {
      const reader = groups[integer(value, at)];
      if (!reader) throw new FieldError(at, `a group index (0 to ${groups.length - 1})`, value);
      return reader;
    };
    const head = group(join(path, 'head'), entry.head).next({ parent: '', name: '', uid: '', node: '' }, false, join(path, 'head')) as unknown as Journey;
    const treeOrder: ObjectJourney[] = [];
    if (entry.tree !== undefined) {
      const runs = array(entry.tree, join(path, 'tree'));
      if (runs.length % 3 !== 0) throw new FieldError(join(path, 'tree'), '(group, children, repeat) triples', `${runs.length} numbers`);
      // Pre-order with child counts: a stack of parents still waiting for children.
      const waiting: { object: ObjectJourney; left: number }[] = [];
      let root: ObjectJourney | undefined;
      for (let r = 0; r < runs.length; r += 3) {
        const at = join(join(path, 'tree'), r);
        const reader = group(at, runs[r]);
        const children = integer(runs[r + 1], join(join(path, 'tree'), r + 1));
        const repeat = integer(runs[r + 2], join(join(path, 'tree'), r + 2));
        for (let n = 0; n < repeat; n++) {
          const parent = waiting.at(-1);
          if (!parent && root) throw new FieldError(at, 'one tree (its objects all under the first)', 'more');
          const names = { parent: parent?.object.ref?.name ?? '', name: '', uid: '', node: '' };
          const object = reader.next(names, true, at) as unknown as ObjectJourney;
          object.children = [];
          treeOrder.push(object);
          if (parent) {
            parent.object.children.push(object);
            if (--parent.left === 0) waiting.pop();
          } else root = object;
          if (children > 0) waiting.push({ object, left: children });
        }
      }
      if (waiting.length > 0) throw new FieldError(join(path, 'tree'), 'every object its children', 'fewer');
      if (root) head.tree = root;
    }
    const saved: SavedJourney = { journey: head };
    if (entry.phases !== undefined) saved.phaseValues = decodePhases(entry.phases, treeOrder, join(path, 'phases'));
    return saved;
  });
  return { ...readCommon(document), journeys };
}

function decodePhases(value: unknown, treeOrder: readonly ObjectJourney[], path: string): SavedPhaseValues {
  const entry = record(value, path);
  const length = integer(entry.length, join(path, 'length'));
  const refs = decodeColumn(entry.refs, length, [], [], join(path, 'refs'));
  const rest = array(entry.rest ?? [], join(path, 'rest'));
  const out = Object.fromEntries(PHASE_NAMES.map((name) => [name, new Array<number>(length)])) as SavedPhaseValues;
  let next = 0;
  refs.forEach((ref, i) => {
    const at = join(join(path, 'refs'), i);
    if (ref === -1) {
      const values = array(rest[next], join(join(path, 'rest'), next));
      next++;
      PHASE_NAMES.forEach((name, p) => (out[name][i] = typeof values[p] === 'number' ? (values[p] as number) : Number(values[p])));
      return;
    }
    const object = treeOrder[integer(ref, at)];
    if (!object?.pod) throw new FieldError(at, 'the index of a pod in the tree', ref);
    for (const name of PHASE_NAMES) out[name][i] = object.pod.phases[name] ?? NaN;
  });
  return out;
}

/** Builds one value of a row from the group's columns; `Row` is the row being built. */
type Builder = (row: Row) => unknown;

interface Row {
  index: number;
  state: RowState;
}

/** Shared lists decoded once for the whole file, so every row that refers to one holds the same array. */
class SharedValues {
  private readonly decoded = new Map<number, unknown[]>();
  constructor(private readonly values: readonly unknown[]) {}

  get(index: unknown): unknown[] {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= this.values.length) throw new FieldError('values', `an entry ${String(index)}`, 'none');
    let value = this.decoded.get(index);
    if (value === undefined) {
      value = readStrings(this.values[index], join('values', index));
      this.decoded.set(index, value);
    }
    return value;
  }
}

/** Gives a group's rows one after the other, as the journeys name its index. */
class GroupReader {
  private readonly rows: number;
  private readonly columns: Leaf[][] = [];
  private readonly shape: unknown;
  private readonly names: number[];
  private nextRow = 0;
  /** The shape compiled once (per role: a journey's head or an object of its tree) into builders that read the columns. */
  private readonly compiled = new Map<boolean, Builder>();

  constructor(
    group: Record<string, unknown>,
    private readonly path: string,
    strings: readonly string[],
    private readonly shared: SharedValues,
  ) {
    this.rows = integer(group.rows, join(path, 'rows'));
    this.shape = group.shape;
    if (!isRecord(this.shape)) throw new FieldError(join(path, 'shape'), 'an object', this.shape);
    this.names = array(group.names ?? [-1, -1, -1], join(path, 'names')).map((n, i) => integer(n, join(join(path, 'names'), i)));
    const columns = array(group.columns, join(path, 'columns'));
    columns.forEach((column, c) => this.columns.push(decodeColumn(column, this.rows, this.columns, strings, join(join(path, 'columns'), c))));
  }

  /** The next row, its names completed from its own columns. */
  next(names: RowNames, isTreeNode: boolean, at: string): Record<string, unknown> {
    const index = this.nextRow++;
    if (index >= this.rows) throw new FieldError(at, `a group with a row left (${this.path} has ${this.rows})`, 'none');
    let build = this.compiled.get(isTreeNode);
    if (!build) {
      let leaves = 0;
      build = this.compile(this.shape, isTreeNode ? 'row' : undefined, undefined, () => leaves++);
      if (leaves !== this.columns.length) throw new FieldError(join(this.path, 'columns'), `a column for each of the shape's ${leaves} leaves`, `${this.columns.length}`);
      this.compiled.set(isTreeNode, build);
    }
    const state: RowState = { names, lastTime: undefined };
    const [nameColumn, uidColumn, nodeColumn] = this.names;
    if (nameColumn >= 0) names.name = decodeString(String(this.columns[nameColumn]?.[index]), state, 'name');
    if (uidColumn >= 0) names.uid = decodeString(String(this.columns[uidColumn]?.[index]), state, 'uid');
    if (nodeColumn >= 0) names.node = decodeString(String(this.columns[nodeColumn]?.[index]), state, 'node');
    return build({ index, state }) as Record<string, unknown>;
  }

  /** A builder for `shape`; `nextLeaf` numbers the leaves in the order they are read, which is the order they were written. */
  private compile(shape: unknown, role: 'row' | 'ref' | 'pod' | undefined, nameLeaf: NameLeaf, nextLeaf: () => number): Builder {
    if (shape === 0) {
      const column = this.columns[nextLeaf()] ?? [];
      return (row) => {
        const value = column[row.index];
        if (typeof value === 'number') {
          noteTime(row.state, value);
          return value;
        }
        if (typeof value === 'string') {
          if (value.startsWith(NON_FINITE)) return Number(value.slice(1));
          return decodeString(value, row.state, nameLeaf);
        }
        return value;
      };
    }
    if (shape === '@') {
      const column = this.columns[nextLeaf()] ?? [];
      return (row) => this.shared.get(column[row.index]);
    }
    if (Array.isArray(shape)) {
      const items = shape.map((item) => this.compile(item, undefined, undefined, nextLeaf));
      return (row) => items.map((item) => item(row));
    }
    if (isRecord(shape)) {
      const keys = Object.keys(shape);
      const builders = keys.map((key) => {
        const childRole = role === 'row' && (key === 'ref' || key === 'pod') ? key : undefined;
        const childLeaf: NameLeaf = role === 'ref' && (key === 'name' || key === 'uid') ? key : role === 'pod' && key === 'node' ? 'node' : undefined;
        return this.compile(shape[key], childRole, childLeaf, nextLeaf);
      });
      return (row) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) out[keys[i]] = builders[i](row);
        return out;
      };
    }
    throw new FieldError(join(this.path, 'shape'), 'objects, arrays, 0 and "@"', shape);
  }
}
