/**
 * The FailedScheduling message (framework `FitError.Error()`): `0/N nodes are available: `, each
 * reason with how many nodes gave it, sorted as strings, then the PostFilter (preemption) message.
 *
 * Two upstream forms exist. From 1.25 (kubernetes#110894) to 1.29 FitError appended every part
 * with `SeparatorFormat = " %v."`, so the preemption message ends in a second period
 * (`...incoming pod..`, the example in lifecycle-facts §5); 1.30 dropped it (kubernetes#123301),
 * so 1.30+ clusters print `...incoming pod.`.
 */
export type FitErrorStyle = 'doublePeriod' | 'singlePeriod';

/** The error the scheduler reports when the cluster has no nodes at all (`ErrNoNodesAvailable`). */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

export class ReasonHistogram {
  private readonly counts = new Map<string, number>();

  add(reasons: readonly string[], times = 1): void {
    for (const reason of reasons) this.counts.set(reason, (this.counts.get(reason) ?? 0) + times);
  }

  /** `"<count> <reason>"` entries sorted as Go's sort.Strings sorts them (so "10 x" precedes "2 y"). */
  sorted(): string[] {
    const out: string[] = [];
    for (const [reason, count] of this.counts) out.push(`${count} ${reason}`);
    return out.sort(compareBytes);
  }
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function fitErrorMessage(numAllNodes: number, reasons: ReasonHistogram, postFilterMessage = '', style: FitErrorStyle = 'singlePeriod'): string {
  let message = `0/${numAllNodes} nodes are available:`;
  const sorted = reasons.sorted();
  if (sorted.length > 0) message += ` ${sorted.join(', ')}.`;
  if (postFilterMessage !== '') message += style === 'doublePeriod' ? ` ${postFilterMessage}.` : ` ${postFilterMessage}`;
  return message;
}

/** The FitError message when a PreFilter plugin rejected the pod: its message stands for every node's. */
export function preFilterFitErrorMessage(numAllNodes: number, preFilterMessage: string, postFilterMessage = '', style: FitErrorStyle = 'singlePeriod'): string {
  let message = `0/${numAllNodes} nodes are available: ${preFilterMessage}.`;
  if (postFilterMessage !== '') message += style === 'doublePeriod' ? ` ${postFilterMessage}.` : ` ${postFilterMessage}`;
  return message;
}

/** Event messages are cut to the API's note length limit (`truncateMessage` in schedule_one.go). */
export const EVENT_NOTE_LENGTH_LIMIT = 1024;

export function truncateEventMessage(message: string): string {
  if (message.length <= EVENT_NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, EVENT_NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}
