/**
 * The journeys the webview holds, kept in the compact form they arrived in (timeline-lanes.ts):
 * per object its header and where its stages sit in the columns of the message that brought it.
 * Stage objects are made only for the objects drawn or selected, and only the latest few
 * thousand are kept (`StageCache`), so a 10,000-pod journey costs its columns, not 120,000
 * Stage objects. A snapshot replaces everything; a delta replaces the objects it carries.
 */
import type { Journey, ObjectJourney, Stage } from '../../core/journey/types';
import type { StageVisitor } from '../../protocol/simplified-lanes';
import { decodeHeader, decodeStages, encodeLanes, objectCount, stageCount, stageKindAt, type EncodedLanes, type JourneyHeader, type LaneHeader } from '../../protocol/timeline-lanes';
import type { DeltaMessage, FoldedPods, SnapshotMessage } from '../../protocol/timeline-protocol';

interface StageSlot {
  readonly lanes: EncodedLanes;
  readonly index: number;
}

/** Where each stored object's stages are, to read them without making Stage objects. */
const slots = new WeakMap<ObjectJourney, StageSlot>();

/** The first and last stage time of an object (the latest repeat of the last), without decoding its stages. */
export function stageBounds(object: ObjectJourney): { first: number; last: number } | undefined {
  const slot = slots.get(object);
  if (!slot) {
    const stages = object.stages;
    if (stages.length === 0) return undefined;
    const last = stages[stages.length - 1];
    return { first: stages[0].time, last: last.lastTime ?? last.time };
  }
  const { lanes, index } = slot;
  const start = lanes.stageStart[index];
  const end = lanes.stageStart[index + 1];
  if (end === start) return undefined;
  const lastTime = lanes.lastTime[end - 1];
  return { first: lanes.time[start], last: Number.isNaN(lastTime) ? lanes.time[end - 1] : lastTime };
}

/** Visits an object's stage kinds and times, from the columns when it is stored. */
export const visitStages: StageVisitor = (object, visit) => {
  const slot = slots.get(object);
  if (!slot) {
    for (const stage of object.stages) visit(stage.kind, stage.time);
    return;
  }
  const { lanes, index } = slot;
  for (let s = lanes.stageStart[index]; s < lanes.stageStart[index + 1]; s++) visit(stageKindAt(lanes, s), lanes.time[s]);
};

/** Stage arrays of the objects used most recently; older ones are decoded again when needed. */
export class StageCache {
  private readonly arrays = new Map<ObjectJourney, Stage[]>();

  constructor(private readonly capacity = 4000) {}


  get size(): number {
    return this.arrays.size;
  }

  stagesOf(object: ObjectJourney, slot: StageSlot): Stage[] {
    let stages = this.arrays.get(object);
    if (stages) {
      this.arrays.delete(object);
    } else {
      stages = decodeStages(slot.lanes, slot.index);
    }
    this.arrays.set(object, stages);
    if (this.arrays.size > this.capacity) this.arrays.delete(this.arrays.keys().next().value as ObjectJourney);
    return stages;
  }
}

/** Where a stored object's stages are decoded from, and the cache they are kept in. */
const stageSources = new WeakMap<ObjectJourney, { readonly slot: StageSlot; readonly cache: StageCache }>();

/**
 * An object as the views read it: its fields, and `stages` decoded from the columns on access.
 * (A prototype getter keeps every instance's shape plain, which matters for 10,000 of them.)
 */
class StoredObject {
  children: ObjectJourney[] = [];

  get stages(): Stage[] {
    const source = stageSources.get(this as unknown as ObjectJourney);
    return source ? source.cache.stagesOf(this as unknown as ObjectJourney, source.slot) : [];
  }
}

function storedObject(header: LaneHeader, slot: StageSlot, cache: StageCache): ObjectJourney {
  const object = Object.assign(new StoredObject(), header.fields) as unknown as ObjectJourney;
  stageSources.set(object, { slot, cache });
  slots.set(object, slot);
  return object;
}

interface Entry {
  readonly header: LaneHeader;
  readonly slot: StageSlot;
  readonly childKeys: readonly string[];
  readonly object: ObjectJourney;
}

/** One journey: its header, its objects by key, and the messages their stages live in. */
export class StoredJourney {
  private readonly entries = new Map<string, Entry>();
  private rootKey?: string;
  /** Messages still holding stages of a stored object, with how many objects use each. */
  private readonly batches = new Map<EncodedLanes, number>();
  private liveStages = 0;
  private journeyCache?: Journey;
  /** Objects whose stages carry evidence (the rest is fetched with `requestObjectDetail`). */
  readonly detailed = new Set<string>();

  constructor(
    public header: JourneyHeader,
    lanes: EncodedLanes,
    /** Set for a journey sent simplified: the pods not sent, per owner. */
    readonly folded: readonly FoldedPods[] | undefined,
    private readonly cache: StageCache,
    /** Stages held beyond twice the live ones before they are compacted. */
    private readonly compactSlack: number,
  ) {
    this.put(lanes);
  }

  get version(): number {
    return this.header.version;
  }

  /** Objects held. */
  get size(): number {
    return this.entries.size;
  }

  /** Stages held in messages, used or not (what compaction keeps within twice the live ones). */
  get heldStages(): number {
    let held = 0;
    for (const lanes of this.batches.keys()) held += lanes.time.length;
    return held;
  }

  applyDelta(delta: DeltaMessage): void {
    this.header = delta.journey;
    for (const key of delta.removed) this.remove(key);
    this.put(delta.changed);
    if (this.heldStages > 2 * this.liveStages + this.compactSlack) this.compact();
  }

  /** The journey as the views read it (rebuilt only after a change). */
  journey(): Journey {
    if (!this.journeyCache) {
      const root = this.rootKey === undefined ? undefined : this.entries.get(this.rootKey)?.object;
      this.journeyCache = root ? { ...this.header, tree: root } : { ...this.header };
    }
    return this.journeyCache;
  }

  private put(lanes: EncodedLanes): void {
    const added: Entry[] = [];
    const count = objectCount(lanes);
    for (let index = 0; index < count; index++) {
      const header = decodeHeader(lanes, index);
      const key = header.key;
      const old = this.entries.get(key);
      if (old) this.release(old.slot);
      const slot = { lanes, index };
      this.batches.set(lanes, (this.batches.get(lanes) ?? 0) + 1);
      this.liveStages += stageCount(lanes, index);
      const entry: Entry = { header, slot, childKeys: header.children ?? old?.childKeys ?? [], object: storedObject(header, slot, this.cache) };
      this.entries.set(key, entry);
      if (header.detailed) this.detailed.add(key);
      else this.detailed.delete(key);
      if (header.parent === undefined) this.rootKey = key;
      added.push(entry);
    }
    // Parents come before their children: link bottom-up, reusing the unchanged children.
    for (let i = added.length - 1; i >= 0; i--) {
      const entry = added[i];
      const children = entry.object.children;
      for (const key of entry.childKeys) {
        const child = this.entries.get(key);
        if (child) children.push(child.object);
      }
    }
    this.journeyCache = undefined;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.release(entry.slot);
    this.entries.delete(key);
    this.detailed.delete(key);
    this.journeyCache = undefined;
  }

  private release(slot: StageSlot): void {
    this.liveStages -= stageCount(slot.lanes, slot.index);
    const users = (this.batches.get(slot.lanes) ?? 1) - 1;
    if (users <= 0) this.batches.delete(slot.lanes);
    else this.batches.set(slot.lanes, users);
  }

  /** Copies the live objects' stages into one new message, so the old ones can be freed. */
  private compact(): void {
    const order: Entry[] = [];
    const visit = (key: string): void => {
      const entry = this.entries.get(key);
      if (!entry) return;
      order.push(entry);
      entry.childKeys.forEach(visit);
    };
    if (this.rootKey !== undefined) visit(this.rootKey);
    const lanes = encodeLanes(
      order.map((entry) => ({
        object: { ...entry.object, stages: decodeStages(entry.slot.lanes, entry.slot.index), children: [] },
        ...(entry.header.parent !== undefined ? { parent: entry.header.parent } : {}),
        children: entry.childKeys,
        detailed: entry.header.detailed,
      })),
    );
    this.entries.clear();
    this.batches.clear();
    this.detailed.clear();
    this.liveStages = 0;
    this.put(lanes);
  }
}

/**
 * `resync`: the delta does not follow what the store holds (a message was missed): ask the host
 * for a snapshot. `awaitingSnapshot`: dropped, a resync was asked for already.
 */
export type DeltaOutcome = 'applied' | 'resync' | 'awaitingSnapshot';

export interface LaneStoreOptions {
  /** Stage objects kept decoded (default 4,000 objects' worth). */
  stageCacheObjects?: number;
  /** Stale stages held beyond twice the live ones before a journey's columns are compacted (default 20,000). */
  compactSlack?: number;
}

/** Every journey the host sent, with the stream position; the app's one source of journeys. */
export class LaneStore {
  private stored: StoredJourney[] = [];
  private readonly cache: StageCache;
  private readonly compactSlack: number;
  private awaitingSnapshot = false;
  /** The last `seq` applied; -1 before the first snapshot. */
  lastSeq = -1;
  focusJourneyId?: string;
  source?: string;
  now?: number;

  constructor(options: LaneStoreOptions = {}) {
    this.cache = new StageCache(options.stageCacheObjects);
    this.compactSlack = options.compactSlack ?? 20_000;
  }

  applySnapshot(message: SnapshotMessage): void {
    this.stored = message.journeys.map((header, i) => new StoredJourney(header, message.lanes[i].lanes, message.lanes[i].folded, this.cache, this.compactSlack));
    this.awaitingSnapshot = false;
    this.lastSeq = message.seq;
    this.focusJourneyId = message.focusJourneyId;
    this.source = message.source;
    this.now = message.now;
  }

  /** Applies a delta that follows the last message applied; anything else asks (once) for a resync. */
  applyDelta(delta: DeltaMessage): DeltaOutcome {
    if (this.awaitingSnapshot) return 'awaitingSnapshot';
    const journey = this.stored.find((j) => j.header.id === delta.journeyId);
    if (delta.seq !== this.lastSeq + 1 || !journey || journey.version !== delta.baseVersion) {
      this.awaitingSnapshot = true;
      return 'resync';
    }
    journey.applyDelta(delta);
    this.lastSeq = delta.seq;
    if (delta.now !== undefined) this.now = delta.now;
    return 'applied';
  }

  get received(): boolean {
    return this.lastSeq >= 0;
  }

  journeys(): Journey[] {
    return this.stored.map((j) => j.journey());
  }

  find(journeyId: string): StoredJourney | undefined {
    return this.stored.find((j) => j.header.id === journeyId);
  }
}
