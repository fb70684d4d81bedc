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


/** `3/3 ready · 4.1 s`, `1/3 ready · in progress`, `0/3 ready · stuck: FailedScheduling`. */
export function journeySummary(journey: Journey): string {
  const ready = `${journey.counts.ready}/${journey.counts.desired} ready`;
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
    lenses.push({ ...base, action: 'openTimeline', title: journeySummary(journey), journeyId: journey.id, tooltip: 'Ready pods of the current ReplicaSet · time from apply to rolled out' });
  }
  return lenses;
}
