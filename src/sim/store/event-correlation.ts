/**
 * client-go's event correlator (tools/record/events_cache.go), which every legacy recorder runs
 * before writing an Event: an aggregator folds events that differ only in their message into one
 * "(combined from similar events): …" event once 10 distinct messages were seen within 10 minutes;
 * a logger counts identical events into one object; a spam filter lets a source write 25 events
 * about one object, then one more every 5 minutes. Each keeps an LRU of 4,096 entries.
 *
 * client-go keys each cache by a string joined from the event's fields. Here the three caches file
 * their entries under one record per involved object and match them field by field: at 150,000
 * pods, building and hashing those keys, and a map entry per cache and object, cost more than
 * writing the events.
 */

const CORRELATOR_LRU_ENTRIES = 4096;
/** `defaultAggregateMaxEvents` / `defaultAggregateIntervalInSeconds`. */
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600 * 1000;
/** `defaultSpamBurst` / `defaultSpamQPS`. */
const SPAM_BURST = 25;
const SPAM_TOKENS_PER_MS = 1 / 300 / 1000;

/** What the correlator remembers about one involved object: each cache's entries, as linked lists. */
export interface ObjectMemory {
  readonly uid: string;
  groups: SimilarGroup | undefined;
  observed: ObservedEvent | undefined;
  buckets: TokenBucket | undefined;
  /** The recorder's involvedObject for the object's latest version and fieldPath, shared by its events. */
  involvedObject?: Readonly<Record<string, string | undefined>>;
  /** The `source` of the recorder's last legacy event about the object (a pod's events come from one node). */
  source?: Readonly<Record<string, string>>;
}

/** An entry of one cache: in its object's list (`sibling`) and in the cache's recency order. */
interface Entry<E> {
  readonly memory: ObjectMemory;
  sibling: E | undefined;
  older: E | undefined;
  newer: E | undefined;
}

/** The aggregator's record of events differing only in their message. */
interface SimilarGroup extends Entry<SimilarGroup> {
  readonly type: string;
  readonly reason: string;
  readonly host: string;
  /** The distinct messages seen lately, oldest first, at most `AGGREGATE_MAX_EVENTS`. */
  messages: string[];
  last: number;
}

/** The logger's record of an event: the Event object it went to and how often it was seen. */
export interface ObservedEvent extends Entry<ObservedEvent> {
  readonly type: string;
  readonly reason: string;
  readonly host: string;
  /** `involvedObject.fieldPath`, '' for none: each container's pulls are counted apart. */
  readonly fieldPath: string;
  /** The message, or the combined prefix alone for the one combined event of a group. */
  readonly message: string;
  readonly namespace: string;
  /** Set by the recorder when the event is first seen. */
  name: string;
  count: number;
  readonly firstSeen: number;
}

/** The spam filter's token bucket for one source and object. */
interface TokenBucket extends Entry<TokenBucket> {
  readonly host: string;
  tokens: number;
  last: number;
}

/**
 * A cache's recency order, evicting the least recently used beyond its capacity. A linked list:
 * a Map used as an LRU, deleted from and re-inserted into, leaves holes at its front that every
 * eviction walks over again.
 */
class Recency<E extends Entry<E>> {
  private size = 0;
  private oldest: E | undefined;
  private newest: E | undefined;

  constructor(private readonly evicted: (entry: E) => void) {}

  add(entry: E): void {
    this.append(entry);
    if (++this.size > CORRELATOR_LRU_ENTRIES) {
      const oldest = this.oldest!;
      this.remove(oldest);
      this.evicted(oldest);
    }
  }

  touch(entry: E): void {
    if (entry === this.newest) return;
    this.unlink(entry);
    this.append(entry);
  }

  remove(entry: E): void {
    this.unlink(entry);
    this.size--;
  }

  private append(entry: E): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: E): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = undefined;
  }
}

/** The list starting at `first` without `entry`. */
function without<E extends Entry<E>>(first: E | undefined, entry: E): E | undefined {
  if (first === entry) return entry.sibling;
  for (let at = first; at; at = at.sibling) {
    if (at.sibling === entry) {
      at.sibling = entry.sibling;
      break;
    }
  }
  return first;
}

/** One recorder's correlator. Each component runs its own recorder, so each gets its own caches. */
export class EventCorrelator {
  private readonly objects = new Map<string, ObjectMemory>();
  private readonly groupOrder = new Recency<SimilarGroup>((group) => {
    group.memory.groups = without(group.memory.groups, group);
    this.release(group.memory);
  });
  private readonly observedOrder = new Recency<ObservedEvent>((observed) => this.dropObserved(observed));
  private readonly bucketOrder = new Recency<TokenBucket>((bucket) => {
    bucket.memory.buckets = without(bucket.memory.buckets, bucket);
    this.release(bucket.memory);
  });

  memoryOf(uid: string): ObjectMemory {
    let memory = this.objects.get(uid);
    if (!memory) this.objects.set(uid, (memory = { uid, groups: undefined, observed: undefined, buckets: undefined, involvedObject: undefined, source: undefined }));
    return memory;
  }

  /** `EventAggregate`: whether this event is to be folded into its group's combined event. */
  combines(memory: ObjectMemory, type: string, reason: string, host: string, message: string, now: number): boolean {
    let group = memory.groups;
    while (group && !(group.reason === reason && group.type === type && group.host === host)) group = group.sibling;
    if (!group) {
      group = { memory, sibling: memory.groups, older: undefined, newer: undefined, type, reason, host, messages: [message], last: now };
      memory.groups = group;
      this.groupOrder.add(group);
      return false;
    }
    this.groupOrder.touch(group);
    if (now - group.last > AGGREGATE_INTERVAL_MS) group.messages = [];
    group.last = now;
    if (!group.messages.includes(message)) group.messages.push(message);
    if (group.messages.length < AGGREGATE_MAX_EVENTS) return false;
    // client-go pops an arbitrary message to stay at the limit; the oldest keeps runs deterministic.
    group.messages.shift();
    return true;
  }

  /**
   * `eventObserve`: the logger's record of this event, counted once more, or a new record (with
   * no name yet) when it was not seen before. Its key (`getEventKey`) has the involved object's
   * fieldPath, unlike the aggregator's and the spam filter's: two containers pulling one image
   * are two Events. A combined event is filed under the aggregate key, so with fieldPath ''.
   */
  observe(memory: ObjectMemory, type: string, reason: string, host: string, fieldPath: string, message: string, namespace: string, now: number): ObservedEvent {
    for (let entry = memory.observed; entry; entry = entry.sibling) {
      if (entry.message === message && entry.reason === reason && entry.type === type && entry.host === host && entry.fieldPath === fieldPath) {
        entry.count++;
        this.observedOrder.touch(entry);
        return entry;
      }
    }
    const entry: ObservedEvent = { memory, sibling: memory.observed, older: undefined, newer: undefined, type, reason, host, fieldPath, message, namespace, name: '', count: 1, firstSeen: now };
    memory.observed = entry;
    this.observedOrder.add(entry);
    return entry;
  }

  /** Forget a record whose Event is gone, so the next occurrence starts a new one. */
  forget(observed: ObservedEvent): void {
    this.observedOrder.remove(observed);
    this.dropObserved(observed);
  }

  /** `EventSourceObjectSpamFilter.Filter`: takes a token; false when the source used up its budget for this object. */
  allows(memory: ObjectMemory, host: string, now: number): boolean {
    let bucket = memory.buckets;
    while (bucket && bucket.host !== host) bucket = bucket.sibling;
    if (!bucket) {
      bucket = { memory, sibling: memory.buckets, older: undefined, newer: undefined, host, tokens: SPAM_BURST, last: now };
      memory.buckets = bucket;
      this.bucketOrder.add(bucket);
    } else {
      this.bucketOrder.touch(bucket);
      bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + (now - bucket.last) * SPAM_TOKENS_PER_MS);
      bucket.last = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private dropObserved(observed: ObservedEvent): void {
    observed.memory.observed = without(observed.memory.observed, observed);
    this.release(observed.memory);
  }

  /** An object none of the caches remembers anything about is dropped. */
  private release(memory: ObjectMemory): void {
    if (!memory.groups && !memory.observed && !memory.buckets) this.objects.delete(memory.uid);
  }
}
