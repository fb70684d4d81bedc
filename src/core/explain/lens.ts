/**
 * What the CodeLens row above each Kubernetes document of a manifest says: apply it, open its
 * timeline once traced, and a live summary (`3/3 ready · 4.1 s`). Pure, from the parsed manifest
 * and a journey lookup; the provider maps each entry to a command.
 */
import type { Journey, TraceableKind } from '../journey/types';
import type { ParsedManifest } from '../manifest';
import { humanDuration } from './format';
import { documentIdentity, type JourneyLookup } from './hover';
import { TRACEABLE_KINDS } from '../../common/traceable-kinds';
import { cronJobSummary, jobSummary } from './workloads';

export type LensAction = 'apply' | 'openTimeline';

export interface DocumentLens {
  /** Index of the document in the file (ManifestDocument.index). */
  documentIndex: number;
  /** 1-based line the lens sits above: the document's first content line. */
  line: number;
  /** Character range of the document, for applying just this document. */
  startOffset: number;
  endOffset: number;
  title: string;
  action: LensAction;
  /** For openTimeline: the journey to open. */
  journeyId?: string;
  tooltip?: string;
}


/**
 * `3/3 ready · 4.1 s`, `1/3 ready · in progress`, `0/3 ready · stuck: FailedScheduling`; a Job's
 * `completed · 12 s` or `failed: BackoffLimitExceeded`, a CronJob's `next Job pending` or
 * `last Job completed · 1 min 5 s`.
 */
export function journeySummary(journey: Journey): string {
  if (journey.root.kind === 'Job') return jobSummary(journey, humanDuration);
  if (journey.root.kind === 'CronJob') return cronJobSummary(journey, humanDuration);
  const service = journey.root.kind === 'Service' ? journey.tree?.service : undefined;
  // A Service counts endpoints, not pods of its own.
  const ready = service ? `${service.readyEndpoints} endpoint${service.readyEndpoints === 1 ? '' : 's'}` : `${journey.counts.ready}/${journey.counts.desired} ready`;
  switch (journey.status) {
    case 'complete':
      return journey.totalDurationMs !== undefined ? `${ready} · ${humanDuration(journey.totalDurationMs)}` : ready;
    case 'stuck':
    case 'failed': {
      const reason = journey.stuckObjects[0]?.stuck.reason;
      return `${ready} · ${journey.status}${reason ? `: ${reason}` : ''}`;
    }
    case 'deleted':
      return 'deleted';
    case 'pending':
      return `${ready} · waiting for the API server`;
    case 'progressing':
      return `${ready} · in progress`;
  }
}

const SUMMARY_TOOLTIPS: Readonly<Record<TraceableKind, string>> = {
  Deployment: 'Ready pods of the current ReplicaSet · time from apply to rolled out',
  ReplicaSet: 'Ready pods · time from apply to all pods ready',
  ReplicationController: 'Ready pods · time from apply to all pods ready',
  StatefulSet: 'Ready pods · time from apply to all pods ready on the update revision',
  DaemonSet: 'Ready daemon pods · time from apply to one ready pod on every eligible node',
  Job: 'How the Job ended · time from apply to Complete',
  CronJob: 'Its latest Job · time from apply to the first Job Complete',
  Pod: 'Whether the pod is Ready · time from apply to Ready',
  Service: 'Ready endpoints programmed by kube-proxy · time from apply to every selected pod serving',
  EndpointSlice: 'Ready endpoints of the slice',
};

/** Lenses for every Kubernetes document of the file; none for other YAML. */
export function documentLenses(manifest: ParsedManifest, lookup?: JourneyLookup): DocumentLens[] {
  const lenses: DocumentLens[] = [];
  for (const document of manifest.documents) {
    const identity = documentIdentity(document);
    if (!identity) continue;
    const base = { documentIndex: document.index, line: document.startLine, startOffset: document.startOffset, endOffset: document.endOffset };
    lenses.push({ ...base, action: 'apply', title: 'Apply and Trace', tooltip: `Apply this ${identity.kind} and follow its journey` });
    if (!lookup || !identity.name || !TRACEABLE_KINDS.has(identity.kind)) continue;
    const journey = lookup({ kind: identity.kind as TraceableKind, name: identity.name, namespace: identity.namespace });
    if (!journey) continue;
    lenses.push({ ...base, action: 'openTimeline', title: 'Open Timeline', journeyId: journey.id });
    lenses.push({ ...base, action: 'openTimeline', title: journeySummary(journey), journeyId: journey.id, tooltip: SUMMARY_TOOLTIPS[journey.root.kind] });
  }
  return lenses;
}
