/**
 * A journey file (`*.journey.json`): one `kube-journey trace` kept whole, so that `kube-journey
 * show` prints again exactly what the trace printed (text or NDJSON, exit code included) and the
 * timeline can be drawn again without the cluster. This is its decoded form; the file itself is
 * compact (see encode.ts) and docs/journey-file.md describes both.
 *
 * Never holds Secret data or credentials: journeys carry none (the tracer keeps no object bodies,
 * only the fields it shows, and Secret values never reach them), and the file adds only the trace's
 * own words.
 */
import type { DocumentResult } from '../document-result';
import type { PhaseName, Journey } from '../journey/types';
import type { StoredOnlyJourney } from '../journey/stored-only';

export type { DocumentResult } from '../document-result';

/** The `kind` every journey file starts with. */
export const JOURNEY_FILE_KIND = 'KubeJourneyFile';

/** The version this Kube Journey writes; it reads this one and every older one (migrate.ts). */
export const JOURNEY_FILE_VERSION = 2;

/** What the trace ran against. */
export type JourneyTarget =
  | {
      type: 'simulator';
      nodes: number;
      /** Zones the nodes were spread over (absent: none, as kind). */
      zones?: number;
      seed: number;
      /** Virtual seconds per wall second (absent: as fast as possible). */
      speed?: number;
      /** The pod budget given with --max-pods (absent: what fitted in the heap). */
      maxPods?: number;
    }
  | {
      type: 'context';
      /** The kubeconfig context's name (never its credentials or server address). */
      context: string;
    };

/** About the trace as a whole. */
export interface JourneyFileMeta {
  /** Kube Journey's version that wrote the file (`0.1.0`). */
  toolVersion: string;
  /** When the file was written, ISO 8601. */
  createdAt: string;
  /** The manifest as named on the command line (`examples/nginx-deployment.yaml`): the results' lines point into it. */
  source: string;
  target: JourneyTarget;
  /** The trace's exit code: 0 every journey finished, 1 something did not (or a document was refused). */
  exitCode: number;
  /** `done`, `timeout` or `pod budget used up`. */
  outcome: string;
  /** How long was waited: `within 300s of simulated time`. */
  limit: string;
}

/** Per phase, one value per pod the journey created, in ms; `NaN` where a pod has no such phase. */
export type SavedPhaseValues = Record<PhaseName, number[]>;

/** One journey as the trace printed it. */
export interface SavedJourney {
  journey: Journey;
  /** The per-pod values the file summary's percentiles merge (absent: the journey created no pods). */
  phaseValues?: SavedPhaseValues;
}

/** Everything `kube-journey trace` printed, as data. */
export interface JourneyFile {
  meta: JourneyFileMeta;
  /** Each applied document's result, in manifest order. */
  results: DocumentResult[];
  /** Lines written to stderr after the results and before the journeys (a cluster's warnings: RBAC, lost connections). */
  warnings: string[];
  /** Lines written to stdout before the journeys (text output only): what the applied PersistentVolumeClaims do. */
  claimNotes: string[];
  journeys: SavedJourney[];
  /** Applied objects nothing acts on: complete once stored. */
  stored: StoredOnlyJourney[];
  /** The lines that said why journeys did not finish (stderr, after the journeys). */
  unfinished: string[];
  /** Lines written to stderr last (`stopped at the pod budget: …`). */
  closing: string[];
  /** More fields of the JSON output's summary record (a cluster's `context` and `problems`). */
  extra?: Record<string, unknown>;
}
