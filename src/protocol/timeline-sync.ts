/**
 * The host's side of the timeline stream: turns the journeys the panel shows into one snapshot,
 * then deltas. Journeys are the tracer's immutable snapshots, which share every ObjectJourney
 * whose journey did not change between two reads (src/core/journey/snapshot.ts), so an object is
 * unchanged exactly when it is the same object as the one sent last, and so is its whole subtree:
 * a delta walks only the paths down to what changed. Pure: no `vscode`.
 */
import type { Journey, ObjectJourney } from '../core/journey/types';
import { countPods, DEFAULT_SIMPLIFY_ABOVE_PODS, foldPods, foldsAny, keptPods } from './simplified-lanes';
import { encodeLanes, type JourneyHeader, type LaneToEncode } from './timeline-lanes';
import { journeyObjectKey, type DeltaMessage, type FoldedPods, type JourneyLanes, type SnapshotMessage } from './timeline-protocol';

export interface SnapshotOptions {
  readonly focusJourneyId?: string;
  readonly source?: string;
  readonly now?: number;
  /** Pods per owner that carry their evidence and messages, in order (default 5; the others' on request). */
  readonly detailedPods?: number;
  /** Objects that carry their evidence whatever happens, by `journeyObjectKey` (the webview's selection). */
  readonly keep?: ReadonlySet<string>;
  /** Journeys with more pods than this are sent simplified (default: above the webview's own simplification threshold, 1,000). */
  readonly partialAbovePods?: number;
  /** Journeys the user asked to see whole, by id: never simplified. */
  readonly wholeJourneys?: ReadonlySet<string>;
}

export const DEFAULT_PARTIAL_ABOVE_PODS = DEFAULT_SIMPLIFY_ABOVE_PODS;
const DEFAULT_DETAILED_PODS = 5;

/** What the host last sent of a journey: the objects by key and their children's keys. */
interface SentJourney {
  readonly journeyId: string;
  version: number;
  readonly partial: boolean;
  readonly objects: Map<string, ObjectJourney>;
  readonly childKeys: Map<string, readonly string[]>;
}

function headerOf(journey: Journey): JourneyHeader {
  const { tree: _tree, ...header } = journey;
  return header;
}

function isDetailed(object: ObjectJourney, podIndex: number, key: string, options: SnapshotOptions): boolean {
  if (object.ref.kind !== 'Pod') return true;
  return podIndex < (options.detailedPods ?? DEFAULT_DETAILED_PODS) || object.status === 'stuck' || object.status === 'failed' || options.keep?.has(key) === true;
}

/** Every object of a journey (a simplified one: the objects shown, the other pods folded), in tree order. */
function journeyLanes(journey: Journey, options: SnapshotOptions, sent: SentJourney): JourneyLanes {
  const lanes: LaneToEncode[] = [];
  const folded: FoldedPods[] = [];
  const partial = sent.partial;
  const now = options.now ?? journey.lastChangeAt;
  const visit = (node: ObjectJourney, parent: string | undefined, podIndex: number): void => {
    const key = journeyObjectKey(node.ref);
    let children = node.children;
    if (partial) {
      const pods = children.filter((child) => child.ref.kind === 'Pod');
      if (foldsAny(pods.length, {})) {
        const keep = keptPods(pods, now, { pinnedKeys: options.keep });
        children = children.filter((child) => child.ref.kind !== 'Pod' || keep.has(child));
        folded.push(foldPods(key, pods.filter((pod) => !keep.has(pod)), journey.appliedAt));
      }
    }
    const childKeys = children.map((child) => journeyObjectKey(child.ref));
    lanes.push({ object: node, parent, children: childKeys, detailed: isDetailed(node, podIndex, key, options) });
    sent.objects.set(key, node);
    sent.childKeys.set(key, childKeys);
    let pods = 0;
    for (const child of children) visit(child, key, child.ref.kind === 'Pod' ? pods++ : -1);
  };
  if (journey.tree) visit(journey.tree, undefined, -1);
  return { lanes: encodeLanes(lanes), ...(partial ? { folded } : {}) };
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}

export class TimelineSync {
  private seq = -1;
  private sent?: SentJourney;

  /** The last message sent a journey simplified: its updates are whole (simplified) snapshots, not deltas. */
  get sentSimplified(): boolean {
    return this.sent?.partial === true;
  }

  /** Forget what was sent: the next message is a snapshot (a webview that said `ready` or asked for a resync). */
  reset(): void {
    this.sent = undefined;
  }

  /** A snapshot of `journeys`; deltas follow for the first one. */
  snapshot(journeys: readonly Journey[], options: SnapshotOptions = {}): SnapshotMessage {
    const partialAbove = options.partialAbovePods ?? DEFAULT_PARTIAL_ABOVE_PODS;
    const sentAll = journeys.map((journey) => ({
      journeyId: journey.id,
      version: journey.version,
      partial: !options.wholeJourneys?.has(journey.id) && countPods(journey.tree) > partialAbove,
      objects: new Map<string, ObjectJourney>(),
      childKeys: new Map<string, readonly string[]>(),
    }));
    const lanes = journeys.map((journey, i) => journeyLanes(journey, options, sentAll[i]));
    this.sent = sentAll[0];
    return {
      type: 'snapshot',
      seq: ++this.seq,
      journeys: journeys.map(headerOf),
      lanes,
      ...(options.focusJourneyId !== undefined ? { focusJourneyId: options.focusJourneyId } : {}),
      ...(options.source !== undefined ? { source: options.source } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
    };
  }

  /**
   * The next message for `journeys`: a delta when it is the one journey last sent whole, else a
   * snapshot. A delta is sent even when nothing changed, to move `now`.
   */
  next(journeys: readonly Journey[], options: SnapshotOptions = {}): SnapshotMessage | DeltaMessage {
    const sent = this.sent;
    const journey = journeys[0];
    if (!sent || journeys.length !== 1 || journey.id !== sent.journeyId || sent.partial || !journey.tree || journey.version < sent.version) return this.snapshot(journeys, options);
    const changed: LaneToEncode[] = [];
    const removed: string[] = [];
    const remove = (key: string): void => {
      removed.push(key);
      sent.objects.delete(key);
      for (const child of sent.childKeys.get(key) ?? []) remove(child);
      sent.childKeys.delete(key);
    };
    const visit = (node: ObjectJourney, parent: string | undefined, podIndex: number): void => {
      const key = journeyObjectKey(node.ref);
      if (sent.objects.get(key) === node) return;
      const childKeys = node.children.map((child) => journeyObjectKey(child.ref));
      const before = sent.childKeys.get(key);
      const childrenChanged = !before || !sameKeys(before, childKeys);
      changed.push({ object: node, parent, ...(childrenChanged ? { children: childKeys } : {}), detailed: isDetailed(node, podIndex, key, options) });
      sent.objects.set(key, node);
      if (childrenChanged) {
        const kept = new Set(childKeys);
        for (const old of before ?? []) if (!kept.has(old)) remove(old);
        sent.childKeys.set(key, childKeys);
      }
      let pods = 0;
      for (const child of node.children) visit(child, key, child.ref.kind === 'Pod' ? pods++ : -1);
    };
    visit(journey.tree, undefined, -1);
    const baseVersion = sent.version;
    sent.version = journey.version;
    const delta: DeltaMessage = { type: 'delta', seq: ++this.seq, journeyId: journey.id, baseVersion, journey: headerOf(journey), changed: encodeLanes(changed), removed, ...(options.now !== undefined ? { now: options.now } : {}) };
    return delta;
  }
}

/** A snapshot on its own (tests, the preview page). */
export function buildSnapshot(journeys: readonly Journey[], options: SnapshotOptions = {}): SnapshotMessage {
  return new TimelineSync().snapshot(journeys, options);
}
