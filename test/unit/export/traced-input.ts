/** Exporter input from manifests traced in process (as trace does), cached per manifest: tracing is the slow part. */
import type { ExportInput } from '../../../src/core/export/input';
import { traceJourneys } from '../journey-file/traced';

const cache = new Map<string, ExportInput>();

export function tracedInput(...manifests: string[]): ExportInput {
  const key = manifests.join('\n');
  let input = cache.get(key);
  if (!input) {
    input = { journeys: manifests.flatMap((manifest) => traceJourneys(manifest).map((saved) => saved.journey)), source: manifests.join(', '), toolVersion: '0.1.0', target: 'simulator' };
    cache.set(key, input);
  }
  return input;
}

export const NGINX = 'examples/nginx-deployment.yaml';
export const CRASH_LOOP = 'examples/crash-loop.yaml';
export const STATEFULSET = 'examples/statefulset.yaml';
export const CRONJOB = 'examples/cronjob.yaml';
export const DAEMONSET = 'test/fixtures/docs-examples/daemonset/daemonset.yaml';
export const SERVICE = 'examples/web-service.yaml';
