/**
 * The affinity terms placed pods carry, grouped by term (the pods of one Deployment share theirs),
 * with how many pods on each node row carry each: what InterPodAffinity reads from upstream's
 * `PodsWithAffinity` and `PodsWithRequiredAntiAffinity` lists, without walking every such pod on
 * every attempt.
 */
import type { AffinityTerm } from './affinity-terms';

export interface TermGroup {
  readonly term: AffinityTerm;
  counts: Int32Array;
  /** Pods carrying the term, all rows together. */
  total: number;
}

export class TermGroupIndex {
  private readonly groups = new Map<string, TermGroup>();
  private capacity = 16;

  get size(): number {
    return this.groups.size;
  }

  values(): IterableIterator<TermGroup> {
    return this.groups.values();
  }

  add(row: number, terms: readonly AffinityTerm[]): void {
    for (const term of terms) {
      let group = this.groups.get(term.key);
      if (!group) this.groups.set(term.key, (group = { term, counts: new Int32Array(this.capacity), total: 0 }));
      group.counts[row]++;
      group.total++;
    }
  }

  remove(row: number, terms: readonly AffinityTerm[]): void {
    for (const term of terms) {
      const group = this.groups.get(term.key);
      if (!group) continue;
      group.counts[row]--;
      if (--group.total === 0) this.groups.delete(term.key);
    }
  }

  moveRow(from: number, to: number): void {
    for (const group of this.groups.values()) {
      group.counts[to] = group.counts[from];
      group.counts[from] = 0;
    }
  }

  ensure(rows: number): void {
    if (rows <= this.capacity) return;
    this.capacity = Math.max(rows, this.capacity * 2);
    for (const group of this.groups.values()) {
      const grown = new Int32Array(this.capacity);
      grown.set(group.counts);
      group.counts = grown;
    }
  }
}
