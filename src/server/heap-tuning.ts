/**
 * V8 heap sizing for a process that holds a simulated cluster. Such a process keeps almost
 * everything it allocates (every pod, every event for an hour), so V8's default, which lets the
 * old generation grow to two to four times what was live at the last full collection, roughly
 * doubles the resident memory of a large cluster. Growing by 60 % instead keeps 150,000 pods
 * under 2 GB, for about a fifth more garbage-collection CPU (see README, Benchmark). `trace`,
 * which holds its journeys besides the cluster, asks for 30 % (`growingPercent`).
 */
import { setFlagsFromString } from 'node:v8';
import { HeapExhaustedError, HeapGuard, heapAdvice } from './heap-guard';

/** The old generation may grow to 1.6 × the live heap before the next full collection. */
export const HEAP_GROWING_PERCENT = 60;

/** How often a served simulator looks at its heap. */
const HEAP_WATCH_MS = 1000;

let tuned = false;

export interface HeapWatchOptions {
  /** What the process is doing, for the out-of-memory line: `while simulating`. */
  doing?: () => string;
  /** How the user lowers the pod budget: `kube-journey simulate --max-pods`. */
  budgetHint?: string;
  /** False for a process that checks its heap itself (`trace` runs synchronously, from its driver loop). */
  watch?: boolean;
  /** How much the old generation may grow past the live heap before the next full collection, in percent (default `HEAP_GROWING_PERCENT`). */
  growingPercent?: number;
}

/**
 * Applies the setting to this process (V8 reads it at every collection, so calling it at any
 * time works), and watches the heap every second: a process about to run out of it writes one
 * line and exits 1 instead of V8's abort. The watch only runs while the event loop turns (a
 * served simulator); synchronous runs pass a `HeapGuard` to the driver loop instead.
 */
export function tuneHeapForSimulator(options: HeapWatchOptions = {}): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString(`--heap-growing-percent=${options.growingPercent ?? HEAP_GROWING_PERCENT}`);
  // V8 moves an allocation site's objects straight into the old generation once most of them
  // survive a young collection. A simulated cluster's objects mostly survive a while and then are
  // replaced (each pod is written five times as it starts; Events expire), so pretenured objects
  // die in the old generation: it fragments and every full collection marks more. Without
  // pretenuring the 150,000-pod trace took 83 s and 1,545 MiB instead of 137 s and 1,924 MiB
  // (2026-12-07, one run each, back to back).
  setFlagsFromString('--no-allocation-site-pretenuring');
  if (options.watch === false) return;
  const guard = new HeapGuard({ doing: options.doing ?? (() => 'while simulating'), advice: heapAdvice(options.budgetHint ?? 'a lower --max-pods') });
  setInterval(() => {
    try {
      guard.check();
    } catch (error) {
      if (!(error instanceof HeapExhaustedError)) throw error;
      process.stderr.write(`kube-journey: ${error.message}\n`);
      process.exit(1);
    }
  }, HEAP_WATCH_MS).unref();
}
