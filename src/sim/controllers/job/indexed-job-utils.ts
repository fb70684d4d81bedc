/**
 * Completion indexes of Indexed Jobs (pkg/controller/job/indexed_job_utils.go): the index a pod
 * carries, and the compressed interval lists `status.completedIndexes`/`failedIndexes` use.
 */
import type { PodObject } from '../controller-types';
import { JOB_COMPLETION_INDEX_ANNOTATION, JOB_INDEX_FAILURE_COUNT_ANNOTATION } from './job-types';

/** `getCompletionIndex`: the pod's index, or undefined when missing or not a valid one. */
export function completionIndexOf(pod: PodObject, completions: number): number | undefined {
  const value = pod.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION] ?? pod.metadata?.labels?.[JOB_COMPLETION_INDEX_ANNOTATION];
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const index = Number(value);
  return index < completions ? index : undefined;
}

/** `getIndexFailureCount`: the failures of the pod's index recorded before it was created. */
export function indexFailureCountOf(pod: PodObject): number {
  const value = pod.metadata?.annotations?.[JOB_INDEX_FAILURE_COUNT_ANNOTATION];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : 0;
}

/** `orderedIntervals.String`: `1,3-5,7`. */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** `parseIndexesFromString`: the indexes of an interval list below `completions`. */
export function parseIndexes(text: string | undefined, completions: number): Set<number> {
  const indexes = new Set<number>();
  if (!text) return indexes;
  for (const part of text.split(',')) {
    const [first, last] = part.split('-').map(Number);
    if (!Number.isInteger(first)) continue;
    const end = Number.isInteger(last) ? last : first;
    for (let i = first; i <= end && i < completions; i++) indexes.add(i);
  }
  return indexes;
}

/** `podGenerateNameWithIndex`: `<job>-<index>-`. */
export function generateNameWithIndex(jobName: string, index: number): string {
  const prefix = `${jobName}-${index}-`;
  return prefix.length > 58 ? `${jobName.slice(0, 58 - `-${index}-`.length)}-${index}-` : prefix;
}
