/**
 * client-go's event correlator (tools/record/events_cache.go), which every legacy recorder runs
 * before writing an Event: an aggregator folds events that differ only in their message into one
 * "(combined from similar events): …" event once 10 distinct messages were seen within 10 minutes;
 * a logger counts identical events into one object; a spam filter lets a source write 25 events
 * about one object, then one more every 5 minutes. Each keeps an LRU of 4,096 entries.
 *
 * The caches are filed by the involved object's uid and matched field by field: building a key
 * string per event (as client-go does) cost more than everything else the recorder does.
 */

export const CORRELATOR_LRU_ENTRIES = 4096;
/** `defaultAggregateMaxEvents` / `defaultAggregateIntervalInSeconds`. */
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600 * 1000;
/** `defaultSpamBurst` / `defaultSpamQPS`. */
const SPAM_BURST = 25;
const SPAM_TOKENS_PER_MS = 1 / 300 / 1000;

interface Filed {
  involvedUid: string;
  /** Neighbours in recency order. */
  older: Filed | undefined;
  newer: Filed | undefined;
}

/**
 * Entries filed by involved object, evicting the least recently used beyond a capacity. A linked
 * list keeps the recency order: a Map used as an LRU, deleted from and re-inserted into, leaves
 * holes at its front that every eviction walks over again.
 */
class ObjectLru<E extends Filed> {
  private readonly byInvolved = new Map<string, E[]>();
  private size = 0;
  private oldest: E | undefined;
  private newest: E | undefined;

  constructor(private readonly capacity: number) {}

  /** The entries about one object, for the caller to match; `touch` the one it uses. */
  entriesOf(involvedUid: string): readonly E[] | undefined {
    return this.byInvolved.get(involvedUid);
  }

  touch(entry: E): void {
    if (entry === this.newest) return;
    this.unlink(entry);
    this.append(entry);
  }

  add(entry: E): void {
    const filed = this.byInvolved.get(entry.involvedUid);
    if (filed) filed.push(entry);
    else this.byInvolved.set(entry.involvedUid, [entry]);
    this.size++;
    this.append(entry);
    if (this.size > this.capacity) this.remove(this.oldest!);
  }

  remove(entry: E): void {
    const filed = this.byInvolved.get(entry.involvedUid);
    const index = filed ? filed.indexOf(entry) : -1;
    if (index < 0) return;
    filed!.splice(index, 1);
    if (filed!.length === 0) this.byInvolved.delete(entry.involvedUid);
    this.size--;
    this.unlink(entry);
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
    else this.oldest = entry.newer as E | undefined;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older as E | undefined;
    entry.older = entry.newer = undefined;
  }
}

/** What makes two events the same (client-go's `getEventKey`, less the uid they are filed under). */
export interface EventIdentity {
  type: string;
  reason: string;
  /** The message, or `COMBINED_EVENT_PREFIX` alone for the one combined event of a group. */
  message: string;
  host: string;
}

/** The logger's record of an event: the Event object it went to and how often it was seen. */
export interface ObservedEvent extends EventIdentity, Filed {
  namespace: string;
  name: string;
  count: number;
  firstSeen: number;
}

/** `eventLogger`: identical events become one Event whose count grows. */
export class EventLogger {
  private readonly lru = new ObjectLru<ObservedEvent>(CORRELATOR_LRU_ENTRIES);

  /** The record of this event seen before, now counted once more; undefined when new. */
  repeat(involvedUid: string, identity: EventIdentity): ObservedEvent | undefined {
    const entries = this.lru.entriesOf(involvedUid);
    if (!entries) return undefined;
    for (const entry of entries) {
      if (entry.message === identity.message && entry.reason === identity.reason && entry.type === identity.type && entry.host === identity.host) {
        entry.count++;
        this.lru.touch(entry);
        return entry;
      }
    }
    return undefined;
  }

  first(involvedUid: string, identity: EventIdentity, namespace: string, name: string, now: number): ObservedEvent {
    const entry: ObservedEvent = {
      type: identity.type,
      reason: identity.reason,
      message: identity.message,
      host: identity.host,
      involvedUid,
      namespace,
      name,
      count: 1,
      firstSeen: now,
      older: undefined,
      newer: undefined,
    };
    this.lru.add(entry);
    return entry;
  }

  forget(entry: ObservedEvent): void {
    this.lru.remove(entry);
  }
}

interface SimilarGroup extends Filed {
  type: string;
  reason: string;
  host: string;
  /** The distinct messages seen lately, oldest first, at most `AGGREGATE_MAX_EVENTS`. */
  messages: string[];
  last: number;
}

/** `EventAggregator` keyed by `EventAggregatorByReasonFunc`: events that differ only in their message. */
export class EventAggregator {
  private readonly lru = new ObjectLru<SimilarGroup>(CORRELATOR_LRU_ENTRIES);

  /** Whether this event is to be folded into its group's combined event. */
  combines(involvedUid: string, type: string, reason: string, host: string, message: string, now: number): boolean {
    let group: SimilarGroup | undefined;
    for (const entry of this.lru.entriesOf(involvedUid) ?? []) {
      if (entry.reason === reason && entry.type === type && entry.host === host) {
        group = entry;
        break;
      }
    }
    if (!group) {
      group = { type, reason, host, messages: [], last: now, involvedUid, older: undefined, newer: undefined };
      this.lru.add(group);
    } else {
      this.lru.touch(group);
      if (now - group.last > AGGREGATE_INTERVAL_MS) group.messages = [];
    }
    group.last = now;
    if (!group.messages.includes(message)) group.messages.push(message);
    if (group.messages.length < AGGREGATE_MAX_EVENTS) return false;
    // client-go pops an arbitrary message to stay at the limit; the oldest keeps runs deterministic.
    group.messages.shift();
    return true;
  }
}

interface TokenBucket extends Filed {
  host: string;
  tokens: number;
  last: number;
}

/** `EventSourceObjectSpamFilter`: a token bucket per source and object. */
export class EventSpamFilter {
  private readonly lru = new ObjectLru<TokenBucket>(CORRELATOR_LRU_ENTRIES);

  /** Takes a token; false when the source has used up its budget for this object. */
  allows(involvedUid: string, host: string, now: number): boolean {
    let bucket: TokenBucket | undefined;
    for (const entry of this.lru.entriesOf(involvedUid) ?? []) {
      if (entry.host === host) {
        bucket = entry;
        break;
      }
    }
    if (!bucket) {
      bucket = { host, tokens: SPAM_BURST, last: now, involvedUid, older: undefined, newer: undefined };
      this.lru.add(bucket);
    } else {
      this.lru.touch(bucket);
      bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + (now - bucket.last) * SPAM_TOKENS_PER_MS);
      bucket.last = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

/** One recorder's correlator. Each component runs its own recorder, so each gets its own caches. */
export class EventCorrelator {
  readonly aggregator = new EventAggregator();
  readonly logger = new EventLogger();
  readonly spamFilter = new EventSpamFilter();
}
