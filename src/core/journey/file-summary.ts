/**
 * The summary of a whole file's journeys (`kube-journey trace` of a multi-document manifest): pod
 * counts summed over every journey, phase percentiles over every pod of every journey (merged from
 * the per-pod values, not averaged from per-journey percentiles), and the stuck objects of all
 * journeys, worst first. Built one journey at a time, so a caller can let each journey go once it
 * was printed.
 */
import { durationStats } from './snapshot';
import { PHASE_NAMES, type DurationStats, type Journey, type JourneyStatus, type PhaseName, type PodCounts, type StuckEntry } from './types';

/** A stuck object of a file's summary, with the journey it belongs to. */
export interface FileStuckEntry extends StuckEntry {
  journeyId: string;
}

export interface FileSummary {
  /** Journeys traced (one per applied object the tracer follows). */
  journeys: number;
  /** Journeys by their status. */
  statuses: Partial<Record<JourneyStatus, number>>;
  /** Journeys whose root reached an end state (complete, failed or deleted). */
  done: number;
  /** Journeys with something stuck or failed in them. */
  stuckJourneys: number;
  /** The pod counts of every journey but Jobs and CronJobs, summed. */
  counts: PodCounts;
  /** The pod counts of the Jobs and CronJobs, summed (their pods end: ready says nothing of how far they got); absent without any. */
  batchCounts?: PodCounts;
  /** Phase distributions over the pods of every journey. */
  phaseStats: Partial<Record<PhaseName, DurationStats>>;
  /** Stuck or failed objects of every journey, worst first (failed before stuck, then oldest), at most `stuckListLimit` (10). */
  stuckObjects: FileStuckEntry[];
  /** How many objects are stuck or failed in all. */
  stuckCount: number;
  /** Distinct assumptions of every journey, summed (an assumption shared by many pods of one journey counts once). */
  assumptionCount: number;
  /** How many objects at least one assumption applies to, over every journey; absent when a journey does not say (a file saved before it was counted). */
  assumedObjects?: number;
  /** The first apply, ms. */
  appliedAt: number;
  /** The latest change seen in any journey, ms. */
  lastChangeAt: number;
  /** First apply → the last journey complete, when every journey completed. */
  totalDurationMs?: number;
}

/** Per phase, one value per pod (NaN: none), as the tracer keeps them. */
export type PhaseValues = Readonly<Record<PhaseName, ArrayLike<number>>>;

const SEVERITY: Readonly<Record<JourneyStatus, number>> = { failed: 0, stuck: 1, pending: 2, progressing: 3, complete: 4, deleted: 5 };

function worstFirst(a: StuckEntry, b: StuckEntry): number {
  return SEVERITY[a.status] - SEVERITY[b.status] || a.stuck.since - b.stuck.since;
}

/** Jobs and CronJobs: their pods end (Succeeded or Failed), so their counts are read apart. */
export function isBatchKind(kind: string): boolean {
  return kind === 'Job' || kind === 'CronJob';
}

function emptyCounts(): PodCounts {
  return { desired: 0, live: 0, scheduled: 0, running: 0, ready: 0, stuck: 0, terminating: 0, deleted: 0, oldLive: 0, restarts: 0 };
}

export class FileSummaryBuilder {
  private journeys = 0;
  private readonly statuses: Partial<Record<JourneyStatus, number>> = {};
  private done = 0;
  private stuckJourneys = 0;
  private readonly counts = emptyCounts();
  private batchCounts: PodCounts | undefined;
  private readonly values = Object.fromEntries(PHASE_NAMES.map((name) => [name, [] as number[]])) as Record<PhaseName, number[]>;
  private stuckObjects: FileStuckEntry[] = [];
  private stuckCount = 0;
  private assumptionCount = 0;
  private assumedObjects: number | undefined = 0;
  private appliedAt = Infinity;
  private lastChangeAt = 0;
  private lastCompletedAt = 0;
  private allComplete = true;

  constructor(private readonly stuckListLimit = 10) {}

  add(journey: Journey, phaseValues: PhaseValues | undefined): void {
    this.journeys++;
    this.statuses[journey.status] = (this.statuses[journey.status] ?? 0) + 1;
    if (journey.done) this.done++;
    if (journey.stuck) this.stuckJourneys++;
    const counts = isBatchKind(journey.root.kind) ? (this.batchCounts ??= emptyCounts()) : this.counts;
    for (const key of Object.keys(counts) as (keyof PodCounts)[]) {
      const value = journey.counts[key];
      if (Number.isFinite(value)) counts[key] += value;
    }
    if (phaseValues) {
      for (const name of PHASE_NAMES) {
        const from = phaseValues[name];
        const into = this.values[name];
        for (let i = 0; i < from.length; i++) if (Number.isFinite(from[i])) into.push(from[i]);
      }
    }
    this.stuckCount += journey.stuckCount;
    if (journey.stuckObjects.length > 0) {
      const merged = [...this.stuckObjects, ...journey.stuckObjects.map((entry) => ({ ...entry, journeyId: journey.id }))];
      this.stuckObjects = merged.sort(worstFirst).slice(0, this.stuckListLimit);
    }
    this.assumptionCount += journey.assumptionCount ?? 0;
    // Each object belongs to one journey: the sum counts none twice.
    if (journey.assumptionCount) this.assumedObjects = journey.assumedObjects === undefined || this.assumedObjects === undefined ? undefined : this.assumedObjects + journey.assumedObjects;
    this.appliedAt = Math.min(this.appliedAt, journey.appliedAt);
    this.lastChangeAt = Math.max(this.lastChangeAt, journey.lastChangeAt);
    if (journey.status === 'complete' && journey.completedAt !== undefined) this.lastCompletedAt = Math.max(this.lastCompletedAt, journey.completedAt);
    else this.allComplete = false;
  }

  finish(): FileSummary {
    const phaseStats: Partial<Record<PhaseName, DurationStats>> = {};
    for (const name of PHASE_NAMES) {
      const stats = durationStats(this.values[name]);
      if (stats) phaseStats[name] = stats;
    }
    const appliedAt = this.journeys > 0 ? this.appliedAt : 0;
    const summary: FileSummary = {
      journeys: this.journeys,
      statuses: { ...this.statuses },
      done: this.done,
      stuckJourneys: this.stuckJourneys,
      counts: { ...this.counts },
      ...(this.batchCounts ? { batchCounts: { ...this.batchCounts } } : {}),
      phaseStats,
      stuckObjects: [...this.stuckObjects],
      stuckCount: this.stuckCount,
      assumptionCount: this.assumptionCount,
      ...(this.assumptionCount > 0 && this.assumedObjects !== undefined ? { assumedObjects: this.assumedObjects } : {}),
      appliedAt,
      lastChangeAt: Math.max(appliedAt, this.lastChangeAt),
    };
    if (this.journeys > 0 && this.allComplete) summary.totalDurationMs = this.lastCompletedAt - appliedAt;
    return summary;
  }
}
