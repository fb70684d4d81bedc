/**
 * Save Journey…: one journey of the session as a journey file (core/journey-file), the same file
 * `kube-journey trace --save` writes, so `kube-journey show`, `diff` and the extension read it back.
 * Pure (no `vscode`): the caller reads the settings and writes the file.
 */
import type { DocumentResult } from '../../core/document-result';
import type { PhaseValues } from '../../core/journey/file-summary';
import { PHASE_NAMES, type Journey } from '../../core/journey/types';
import type { JourneyFile, JourneyTarget, SavedJourney, SavedPhaseValues } from '../../core/journey-file/types';
import { TOOL_VERSION } from '../../common/tool-version';
import type { AppliedManifest } from './trace-session';

export interface SaveJourneyInput {
  journey: Journey;
  /** The tracer's per-pod phase values of the journey (absent: it created no pods). */
  phaseValues?: PhaseValues;
  /** The Apply and Trace that began the journey, for its document's result and the manifest's name. */
  manifest?: AppliedManifest;
  /** The manifest as the user would name it (a workspace-relative path). */
  source: string;
  target: JourneyTarget;
  /** When the file is written (now, unless a test fixes it). */
  createdAt?: Date;
}

/** `nginx-deployment.journey.json`: the root's name, safe as a file name on every platform. */
export function defaultJourneyFileName(journey: Journey): string {
  const safe = journey.root.name.replace(/[^\w.-]+/g, '-').replace(/^[.-]+/, '') || journey.root.kind.toLowerCase();
  return `${safe}.journey.json`;
}

function resultsOf(journey: Journey, manifest: AppliedManifest | undefined): DocumentResult[] {
  const entries = manifest?.entries.filter((entry) => entry.journeyId === journey.id) ?? [];
  return entries.map((entry) => ({
    document: entry.documentIndex,
    line: entry.line,
    object: entry.display,
    ...(entry.action ? { action: entry.action } : {}),
    ...(entry.error ? { error: entry.error } : {}),
  }));
}

function savedJourney(journey: Journey, phaseValues: PhaseValues | undefined): SavedJourney {
  const saved: SavedJourney = { journey };
  // As trace --save keeps them: only when the journey created pods.
  if (phaseValues && PHASE_NAMES.some((name) => phaseValues[name].length > 0)) {
    saved.phaseValues = Object.fromEntries(PHASE_NAMES.map((name) => [name, Array.from(phaseValues[name])])) as SavedPhaseValues;
  }
  return saved;
}

/**
 * The journey file of one journey as the session holds it now. A journey still going is saved as
 * far as it got: the file says so in its outcome and exit code (1), as a trace that timed out.
 */
export function journeyFileOf(input: SaveJourneyInput): JourneyFile {
  const { journey } = input;
  const finished = journey.done && journey.status === 'complete';
  const waitedMs = Math.max(0, journey.lastChangeAt - journey.appliedAt);
  return {
    meta: {
      toolVersion: TOOL_VERSION,
      createdAt: (input.createdAt ?? new Date()).toISOString(),
      source: input.source,
      target: input.target,
      exitCode: finished ? 0 : 1,
      outcome: journey.done ? 'done' : 'saved before it finished',
      limit: `saved from VS Code ${(waitedMs / 1000).toFixed(1)}s after the apply`,
    },
    results: resultsOf(journey, input.manifest),
    warnings: [],
    claimNotes: [],
    journeys: [savedJourney(journey, input.phaseValues)],
    stored: [],
    unfinished: finished ? [] : [`${journey.root.kind} ${journey.root.namespace}/${journey.root.name} was ${journey.status} when it was saved`],
    closing: [],
  };
}
