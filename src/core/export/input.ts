/**
 * What the exporters read: the journeys of one trace and a few facts about it. A journey file
 * (core/journey-file) gives one; so can journeys traced in memory (tests, the extension).
 */
import type { JourneyFile } from '../journey-file/types';
import type { Journey } from '../journey/types';

/** The journeys to export and where they came from. */
export interface ExportInput {
  /** One per applied root object; each becomes one trace (OTLP) or one process (Chrome). */
  journeys: readonly Journey[];
  /** The manifest the trace applied (`examples/nginx-deployment.yaml`), when known. */
  source?: string;
  /** Kube Journey's version that traced it. */
  toolVersion?: string;
  /** `simulator` or the kubeconfig context's name (never its server or credentials). */
  target?: string;
}

/** The exporters' input from a decoded journey file. */
export function exportInputOf(file: JourneyFile): ExportInput {
  return {
    journeys: file.journeys.map((saved) => saved.journey),
    source: file.meta.source,
    toolVersion: file.meta.toolVersion,
    target: file.meta.target.type === 'simulator' ? 'simulator' : `context ${file.meta.target.context}`,
  };
}
