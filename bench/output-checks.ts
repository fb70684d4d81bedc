/**
 * Checks of what `kube-journey trace` wrote, fed one line at a time (outputs of 150,000 pods are
 * read as a stream, never whole): whether its summary says every pod is ready, and whether
 * `--json` output parses, as newline-delimited records or as one JSON document.
 */

export interface Readiness {
  /** `pods … ready` summary lines seen. */
  summaries: number;
  ready: number;
  desired: number;
  /** One summary counted the whole file; otherwise the per-journey summaries were added up. */
  wholeFile: boolean;
  allReady: boolean;
}

/** `  pods      10000/10000 ready · …` (digits may be grouped: 10,000). */
const PODS_READY = /^\s*pods\s+([\d,]+)\/([\d,]+) ready\b/;

const count = (digits: string): number => Number(digits.replaceAll(',', ''));

export class SummaryReadiness {
  private readonly lines: { ready: number; desired: number }[] = [];

  add(line: string): void {
    const match = PODS_READY.exec(line);
    if (match) this.lines.push({ ready: count(match[1]), desired: count(match[2]) });
  }

  /**
   * A summary of the whole file counts every pod in one line; until the trace command writes one,
   * each journey's summary counts its own pods and their sum is the file's.
   */
  result(expectedPods: number): Readiness {
    const whole = [...this.lines].reverse().find((line) => line.desired === expectedPods);
    const counted = whole ? [whole] : this.lines;
    const ready = counted.reduce((sum, line) => sum + line.ready, 0);
    const desired = counted.reduce((sum, line) => sum + line.desired, 0);
    return { summaries: this.lines.length, ready, desired, wholeFile: whole !== undefined, allReady: ready === expectedPods && desired === expectedPods };
  }
}

export function describeReadiness(r: Readiness, expectedPods: number): string {
  if (r.summaries === 0) return 'no "pods … ready" summary line';
  const where = r.wholeFile ? 'file summary' : `sum of ${r.summaries} per-journey summaries`;
  return `${r.allReady ? 'all ready' : `NOT all ready (expected ${expectedPods})`}: ${r.ready}/${r.desired} (${where})`;
}

export interface JsonLines {
  /** Non-empty lines read. */
  lines: number;
  /** Lines that parsed as JSON. */
  records: number;
  firstFailure?: { line: number; message: string };
  /** Records whose `type` is `summary`, and the last one's pod counts if it names them. */
  summaryRecords: number;
  summaryPods?: { ready: number; desired: number };
  lastRecordIsSummary: boolean;
}

export class JsonLinesCheck {
  private lineNumber = 0;
  private readonly tally: JsonLines = { lines: 0, records: 0, summaryRecords: 0, lastRecordIsSummary: false };

  add(line: string): void {
    this.lineNumber++;
    if (line.trim() === '') return;
    this.tally.lines++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.tally.firstFailure ??= { line: this.lineNumber, message: error instanceof Error ? error.message : String(error) };
      return;
    }
    this.tally.records++;
    const summary = typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'summary';
    this.tally.lastRecordIsSummary = summary;
    if (summary) {
      this.tally.summaryRecords++;
      this.tally.summaryPods = findPodCounts(value) ?? this.tally.summaryPods;
    }
  }

  result(): JsonLines {
    return { ...this.tally };
  }
}

/** The first `{ready, desired}` pair of numbers within a few levels of a record (`pods`, `counts`…). */
export function findPodCounts(value: unknown, depth = 3): { ready: number; desired: number } | undefined {
  if (typeof value !== 'object' || value === null || depth < 0) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.ready === 'number' && typeof v.desired === 'number') return { ready: v.ready, desired: v.desired };
  for (const child of Object.values(v)) {
    const found = findPodCounts(child, depth - 1);
    if (found) return found;
  }
  return undefined;
}

export type JsonFormat = 'ndjson' | 'single JSON document' | 'not JSON';

/**
 * What the output was: every line a record (one line: a single document), or, when some line did
 * not parse, whatever parsing the whole text said (a pretty-printed document spans lines).
 */
export function jsonFormat(lines: JsonLines, wholeTextParses: boolean | undefined): JsonFormat {
  if (lines.lines > 0 && lines.records === lines.lines) return lines.lines === 1 ? 'single JSON document' : 'ndjson';
  return wholeTextParses ? 'single JSON document' : 'not JSON';
}
