/**
 * One string per repeated word: each line parsed from a watch or the internals stream brings its
 * own copy of words that thousands of lines repeat (`kubelet`, `Scheduled`, `node-12`), and the
 * tracer keeps many of them as evidence. Bounded: past its limit the table starts afresh.
 */
export class SharedWords {
  private readonly words = new Map<string, string>();

  constructor(private readonly limit = 50_000) {}

  /** The first instance seen of a string equal to `value`. */
  share(value: string): string {
    const known = this.words.get(value);
    if (known !== undefined) return known;
    if (this.words.size >= this.limit) this.words.clear();
    this.words.set(value, value);
    return value;
  }
}
