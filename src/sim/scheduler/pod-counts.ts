/**
 * How many placed pods each matcher selects on each node row, kept current as pods come and go:
 * the per-node counts upstream's PodTopologySpread and InterPodAffinity PreFilter/PreScore compute
 * by walking every node's pods, here paid once per pod change instead of once per attempt. A
 * matcher is counted from scratch the first time an attempt asks for it; afterwards a placed pod
 * reaches only the matchers anchored on one of its labels (or those without an anchor).
 */
import type { MatchablePod, PodMatcher } from './pod-matcher';
import { matcherMatches } from './pod-matcher';
import { anchorOf } from './label-selector';
import type { TopologyDomains } from './topology-domains';

/** Per domain of one topology key: the matching pods on all its nodes, kept current with `counts`. */
interface DomainTotals {
  /** The domain table the totals were summed by: a rebuilt table (nodes changed) means summing again. */
  readonly domains: TopologyDomains;
  readonly totals: Float64Array;
}

interface Entry {
  readonly matcher: PodMatcher;
  counts: Int32Array;
  lastUsed: number;
  /** By topology key. */
  readonly byDomain: Map<string, DomainTotals>;
}

/** Matchers kept at most; the least recently asked for is dropped past it. */
const MAX_ENTRIES = 512;

export interface CountedNode {
  readonly index: number;
  readonly pods: ReadonlyMap<string, MatchablePod>;
}

export class PodCountIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly anchored = new Map<string, Entry[]>();
  private readonly unanchored: Entry[] = [];
  private capacity = 0;
  private clock = 0;

  constructor(private readonly nodes: () => readonly CountedNode[]) {}

  /** Per node row: how many placed pods `matcher` selects. Valid until the next pod or node change. */
  counts(matcher: PodMatcher): Int32Array {
    let entry = this.entries.get(matcher.key);
    if (!entry) entry = this.register(matcher);
    entry.lastUsed = ++this.clock;
    return entry.counts;
  }

  /**
   * Per domain of `domains`: how many placed pods `matcher` selects on its nodes (the sum of
   * `counts` over the domain's rows). Valid until the next pod or node change.
   */
  domainTotals(matcher: PodMatcher, domains: TopologyDomains): Float64Array {
    const entry = this.entries.get(matcher.key) ?? this.register(matcher);
    entry.lastUsed = ++this.clock;
    const kept = entry.byDomain.get(domains.key);
    if (kept && kept.domains === domains) return kept.totals;
    const totals = new Float64Array(domains.values.length);
    const { domainOf } = domains;
    const counts = entry.counts;
    for (let row = 0; row < domainOf.length; row++) {
      const domain = domainOf[row];
      if (domain >= 0) totals[domain] += counts[row];
    }
    entry.byDomain.set(domains.key, { domains, totals });
    return totals;
  }

  podAdded(row: number, pod: MatchablePod): void {
    if (this.entries.size > 0) this.apply(row, pod, 1);
  }

  podRemoved(row: number, pod: MatchablePod): void {
    if (this.entries.size > 0) this.apply(row, pod, -1);
  }

  /** The node at `from` now sits at `to` (the cache fills a removed node's gap with the last one). */
  moveRow(from: number, to: number): void {
    for (const entry of this.entries.values()) {
      entry.counts[to] = entry.counts[from];
      entry.counts[from] = 0;
    }
  }

  /** Room for `rows` node rows. */
  ensure(rows: number): void {
    if (rows <= this.capacity) return;
    this.capacity = Math.max(rows, this.capacity * 2, 16);
    for (const entry of this.entries.values()) {
      const grown = new Int32Array(this.capacity);
      grown.set(entry.counts);
      entry.counts = grown;
    }
  }

  private apply(row: number, pod: MatchablePod, delta: 1 | -1): void {
    for (const entry of this.unanchored) if (matcherMatches(entry.matcher, pod)) count(entry, row, delta);
    for (const key in pod.labels) {
      const entries = this.anchored.get(anchorOf(key, pod.labels[key]));
      if (entries) for (const entry of entries) if (matcherMatches(entry.matcher, pod)) count(entry, row, delta);
    }
  }

  private register(matcher: PodMatcher): Entry {
    if (this.entries.size >= MAX_ENTRIES) this.evictLeastRecentlyUsed();
    const counts = new Int32Array(Math.max(this.capacity, 16));
    for (const node of this.nodes()) {
      let count = 0;
      for (const pod of node.pods.values()) if (matcherMatches(matcher, pod)) count++;
      counts[node.index] = count;
    }
    const entry: Entry = { matcher, counts, lastUsed: 0, byDomain: new Map() };
    this.entries.set(matcher.key, entry);
    const anchor = matcher.selector.anchor;
    if (matcher.selector.nothing) return entry;
    if (anchor === undefined) this.unanchored.push(entry);
    else {
      let list = this.anchored.get(anchor);
      if (!list) this.anchored.set(anchor, (list = []));
      list.push(entry);
    }
    return entry;
  }

  private evictLeastRecentlyUsed(): void {
    let oldest: Entry | undefined;
    for (const entry of this.entries.values()) if (!oldest || entry.lastUsed < oldest.lastUsed) oldest = entry;
    if (!oldest) return;
    this.entries.delete(oldest.matcher.key);
    const anchor = oldest.matcher.selector.anchor;
    const list = anchor === undefined ? this.unanchored : this.anchored.get(anchor);
    if (list) list.splice(list.indexOf(oldest), 1);
    if (anchor !== undefined && list && list.length === 0) this.anchored.delete(anchor);
  }
}

function count(entry: Entry, row: number, delta: 1 | -1): void {
  entry.counts[row] += delta;
  // A row past a table's end, or a table rebuilt since, is summed afresh when next asked for.
  for (const { domains, totals } of entry.byDomain.values()) {
    const domain = domains.domainOf[row];
    if (domain >= 0) totals[domain] += delta;
  }
}
