/**
 * `kube-journey diff`: what changed between two traces of (usually) the same manifest, e.g. 3
 * replicas against 6, a pod that schedules against the same pod pinned by a nodeSelector, a
 * rollout against none. The input is what a journey file holds (core/journey-file: its
 * `SavedJourney` fits `DiffJourneyInput`); the output is plain data that the text renderer and
 * `--json` both read (docs/diff.md describes every field).
 */
import type { Journey, JourneyStatus, PhaseName, StageKind, TraceableKind } from '../journey/types';
import type { PhaseValues } from '../journey/file-summary';

/** One journey of a trace, with the per-pod phase values its percentiles come from. */
export interface DiffJourneyInput {
  journey: Journey;
  /** Per phase, one value per pod (NaN: none). Absent: the journey's own `phaseStats` are read. */
  phaseValues?: PhaseValues;
}

/** One side of a diff: the journeys of one trace. */
export interface DiffSide {
  /** How the output names this side: the file as the user named it. */
  label: string;
  journeys: readonly DiffJourneyInput[];
}

/** clusterloader2's PodStartupLatency phases, in the order they are shown (the names status.ts and file-summary.ts use). */
export const DIFF_PHASES: readonly PhaseName[] = ['create_to_schedule', 'schedule_to_run', 'run_to_watch', 'schedule_to_watch', 'pod_startup'];

/** The statistics compared for each phase. */
export const DIFF_STATS = ['p50', 'p90', 'max'] as const;
export type DiffStat = (typeof DIFF_STATS)[number];

/** One phase's distribution on one side, ms. */
export interface PhaseSideStats {
  /** Pods that have the phase. */
  pods: number;
  p50: number;
  p90: number;
  max: number;
}

/** One phase compared: both sides' values and the signed change (B − A; positive: B is slower). */
export interface PhaseDelta {
  phase: PhaseName;
  /** Absent: no pod of A has this phase. */
  a?: PhaseSideStats;
  b?: PhaseSideStats;
  /** B − A per statistic, ms; absent unless both sides have the phase. */
  delta?: Record<DiffStat, number>;
}

/** The root of a journey, as journeys are matched: kind, namespace and name. */
export interface RootKey {
  kind: TraceableKind;
  namespace: string;
  name: string;
}

/** Where a journey ended, on one side. */
export interface OutcomeSide {
  status: JourneyStatus;
  /** Pods ready and asked for (a Deployment's newest ReplicaSet; 1 for a bare Pod). */
  ready: number;
  desired: number;
  /** Container restarts summed over the journey's live pods. */
  restarts: number;
  /** apply → complete, ms, when it completed. */
  totalDurationMs?: number;
  /** Why it is stuck or failed (the worst stuck object's reason), as Kubernetes says it. */
  stuck?: { reason: string; message: string; object: string };
}

export interface OutcomeDelta {
  a: OutcomeSide;
  b: OutcomeSide;
  /** The status or the stuck reason differ: what makes `diff` exit 1. A new replica count alone does not. */
  changed: boolean;
}

/**
 * A stage (by kind and reason) seen in one trace and not the other, within one group of objects:
 * the root, a ReplicaSet by revision, or the pods of an owner.
 */
export interface StageDelta {
  /** `Deployment default/web`, `ReplicaSet revision 2`, `pods of ReplicaSet revision 1`. */
  group: string;
  kind: StageKind;
  /** The Kubernetes reason (`Killing`, `FailedScheduling`), when the stage has one. */
  reason?: string;
  /** Occurrences in each trace (one of them is 0). */
  a: number;
  b: number;
}

/** How pods were placed, compared row by row. */
export interface PlacementDelta {
  /**
   * `node`: pods per node (a Deployment's, a Job's…); `ordinal`: each StatefulSet pod's node;
   * `daemon`: whether each node runs the DaemonSet's pod.
   */
  by: 'node' | 'ordinal' | 'daemon';
  /** Only the rows that differ. `key` is a node name, or a pod name for `ordinal`. */
  rows: PlacementRow[];
}

/**
 * One row: for `node`, the number of pods on the node in A and B; for `ordinal`, the pod's node
 * (`-` when the pod does not exist, `not scheduled`); for `daemon`, the pod's status on that node (`-` for none).
 */
export interface PlacementRow {
  key: string;
  a: number | string;
  b: number | string;
}

/** A journey found in both traces, compared. */
export interface MatchedJourneyDiff {
  root: RootKey;
  /** The nth journey of that root in each trace (a file that applies the same object twice): 1 for the first. */
  occurrence: number;
  outcome: OutcomeDelta;
  /** Every phase either side has; a phase whose values are equal has a delta of zeros. */
  phases: PhaseDelta[];
  stages: StageDelta[];
  /** Absent when placement is the same (or the journey has no pods). */
  placement?: PlacementDelta;
  /** Nothing above differs. */
  same: boolean;
}

/** A journey found in one trace only. */
export interface UnmatchedJourney {
  root: RootKey;
  occurrence: number;
  status: JourneyStatus;
}

/** Two traces compared. */
export interface JourneyDiff {
  a: { label: string; journeys: number };
  b: { label: string; journeys: number };
  matched: MatchedJourneyDiff[];
  onlyInA: UnmatchedJourney[];
  onlyInB: UnmatchedJourney[];
  /** Phases over every pod of every journey (merged per-pod values); only when either trace has more than one journey. */
  phases?: PhaseDelta[];
  /** Every journey is in both traces with the same status and stuck reason: `diff` exits 0. */
  sameOutcome: boolean;
  /** Nothing differs at all ("no differences"). */
  same: boolean;
}
