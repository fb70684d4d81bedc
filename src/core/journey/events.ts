/**
 * Kubernetes Events, read in both shapes a core/v1 watch delivers:
 * - written by core/v1 recorders (kubelet, controllers): `source.component`, whole-second
 *   `firstTimestamp`/`lastTimestamp`, `count` for repeats;
 * - written through events.k8s.io (the scheduler): empty `source`, null first/lastTimestamp,
 *   `eventTime` with microseconds, `reportingComponent`, `action`, and `series` for repeats.
 * Message wording differs between Kubernetes versions; the parsers accept every known form.
 */
import type { KubeObject } from '../k8s';
import { read } from './digest';
import { parseTime, type TimeValue } from './time';

export interface NormalizedEvent {
  /** The Event object's own name: repeats of one event share it. */
  name: string;
  namespace: string;
  involved: { kind: string; namespace: string; name: string; uid?: string; fieldPath?: string };
  /** From `fieldPath` `spec.containers{nginx}` / `spec.initContainers{…}`. */
  container?: string;
  type: string;
  reason: string;
  message: string;
  count: number;
  first?: TimeValue;
  last?: TimeValue;
  component: string;
  host?: string;
  action?: string;
}

/**
 * client-go's recorders fold events about one object that differ only in their message into one
 * event with this prefix once 10 distinct messages were seen within 10 minutes
 * (`EventAggregatorByReasonMessageFunc`): a ReplicaSet's 10th and later "Created pod: …".
 */
export const COMBINED_EVENT_PREFIX = '(combined from similar events): ';

const CONTAINER_PATH = /^spec\.(?:initContainers|containers|ephemeralContainers)\{(.+)\}$/;

export function normalizeEvent(object: KubeObject): NormalizedEvent | undefined {
  const { record, str, num } = read;
  const metadata = record(object.metadata);
  const involved = record(object.involvedObject) ?? record(object.regarding);
  const name = str(metadata?.name);
  const kind = str(involved?.kind);
  const involvedName = str(involved?.name);
  if (!name || !kind || !involvedName) return undefined;
  const namespace = str(metadata?.namespace) ?? 'default';
  const fieldPath = str(involved?.fieldPath);
  const source = record(object.source) ?? record(object.deprecatedSource);
  const series = record(object.series);
  // events.k8s.io/v1 read from its own API names the core/v1 fields deprecatedFirstTimestamp etc.
  const first = parseTime(object.eventTime) ?? parseTime(object.firstTimestamp) ?? parseTime(object.deprecatedFirstTimestamp) ?? parseTime(metadata?.creationTimestamp);
  const last = parseTime(series?.lastObservedTime) ?? parseTime(object.lastTimestamp) ?? parseTime(object.deprecatedLastTimestamp) ?? first;
  const text = str(object.message) ?? str(object.note) ?? '';
  // A combined event speaks of its latest message only; its count is of all the messages it folded.
  const combined = text.startsWith(COMBINED_EVENT_PREFIX);
  const count = combined ? 1 : Math.max(1, num(series?.count) ?? 0, num(object.count) ?? 0, num(object.deprecatedCount) ?? 0);
  return {
    name,
    namespace,
    involved: { kind, namespace: str(involved?.namespace) ?? namespace, name: involvedName, uid: str(involved?.uid), fieldPath },
    container: fieldPath ? CONTAINER_PATH.exec(fieldPath)?.[1] : undefined,
    type: str(object.type) ?? 'Normal',
    reason: str(object.reason) ?? '',
    message: combined ? text.slice(COMBINED_EVENT_PREFIX.length) : text,
    count,
    first,
    last,
    component: str(source?.component) ?? str(object.reportingComponent) ?? str(object.reportingController) ?? '',
    host: str(source?.host) ?? str(object.reportingInstance),
    action: str(object.action),
  };
}

/** "Scaled up replica set web-5d567cc74c to 3" (older) or "… from 0 to 3" (newer). */
export function parseScaling(message: string): { direction: 'up' | 'down'; replicaSet: string; from?: number; to: number } | undefined {
  const m = /^Scaled (up|down) replica set (\S+) (?:from (\d+) )?to (\d+)$/.exec(message);
  if (!m) return undefined;
  return { direction: m[1] === 'up' ? 'up' : 'down', replicaSet: m[2], from: m[3] === undefined ? undefined : Number(m[3]), to: Number(m[4]) };
}

/** "Created pod: web-5d567cc74c-ss4lb" / "Deleted pod: …" (replicaset-controller). */
export function parsePodMessage(message: string): { verb: 'Created' | 'Deleted'; pod: string } | undefined {
  const m = /^(Created|Deleted) pod: (\S+)$/.exec(message);
  if (!m) return undefined;
  return { verb: m[1] === 'Created' ? 'Created' : 'Deleted', pod: m[2] };
}

/** "Successfully assigned default/web-… to node-1". */
export function parseScheduledNode(message: string): string | undefined {
  return /^Successfully assigned \S+ to (\S+)$/.exec(message)?.[1];
}

/** "Created container nginx" (older) / "Created container: nginx" (newer), same for Started. */
export function parseContainerMessage(message: string): string | undefined {
  return /^(?:Created|Started) container:? (\S+)$/.exec(message)?.[1];
}

/** The image of a Pulling / Pulled message, whichever of the known forms it is. */
export function parseImage(message: string): string | undefined {
  return /image "([^"]+)"/.exec(message)?.[1];
}

export function isImageAlreadyPresent(message: string): boolean {
  return /already present on machine/.test(message);
}

/** `Error: ErrImagePull` → `ErrImagePull` (kubelet's Failed events that mirror a waiting reason). */
export function parseErrorReason(message: string): string | undefined {
  return /^Error: ([A-Za-z]+)$/.exec(message)?.[1];
}
