/** Scale rows: a port of `printScale`. */
import type { KubeObject } from '../../core/k8s';
import type { PrintedRow } from './row';
import { ageSince, parseTime } from './time';

export function printScale(scale: KubeObject, now: number): PrintedRow {
  const spec = scale.spec as { replicas?: number } | undefined;
  const status = scale.status as { replicas?: number } | undefined;
  return { cells: [scale.metadata?.name ?? '', spec?.replicas ?? 0, status?.replicas ?? 0, ageSince(parseTime(scale.metadata?.creationTimestamp), now)] };
}
