/**
 * Things that arrived before what they belong to (an Event before its Pod, a Pod before its
 * ReplicaSet, the simulator's internals before the watch event). Kept under a key until the
 * owner shows up, within a global budget: when it is exhausted the oldest key goes first, so a
 * busy cluster's unrelated traffic can never grow the tracer without bound.
 */
export class PendingBuffer<T> {
  private readonly entries = new Map<string, T[]>();
  private size = 0;

  constructor(private readonly limit: number) {}

  add(key: string, item: T): void {
    let bucket = this.entries.get(key);
    if (!bucket) {
      bucket = [];
      this.entries.set(key, bucket);
    }
    bucket.push(item);
    this.size++;
    while (this.size > this.limit) this.evictOldest();
  }

  /** Removes and returns what was kept under `key`. */
  take(key: string): T[] | undefined {
    const bucket = this.entries.get(key);
    if (!bucket) return undefined;
    this.entries.delete(key);
    this.size -= bucket.length;
    return bucket;
  }

  get count(): number {
    return this.size;
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done) return;
    const bucket = this.entries.get(oldest.value);
    this.entries.delete(oldest.value);
    this.size -= bucket?.length ?? 0;
  }
}
