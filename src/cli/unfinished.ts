/**
 * The stderr lines that say why journeys did not finish: one line per journey, as
 * `kube-journey: deployment/web did not finish within 300s of simulated time: pod/web-…:
 * FailedScheduling: 0/3 nodes are available: …`; journeys that failed the same way (same verdict,
 * same kind of stuck object, same Kubernetes reason) share one line naming the first few of them,
 * so a file of 50 Deployments stuck at the pod budget gives one line, not 50.
 */
import { NO_ENDPOINTS } from '../core/journey/service-status';
import type { Journey, JourneyObjectRef } from '../core/journey/types';

/** What is kept of an unfinished journey once it was printed. */
export interface UnfinishedJourney {
  root: JourneyObjectRef;
  /** `did not finish within 300s of simulated time`, `routes no traffic`, … */
  verdict: string;
  /** `pod/web-…: FailedScheduling: message`, or `still progressing`. */
  why: string;
  /** Journeys with the same key failed the same way. */
  key: string;
}

/** Names shown in a shared line before `and N more`. */
const NAMES_SHOWN = 3;

export function isUnfinished(journey: Pick<Journey, 'done' | 'status' | 'stuck'>): boolean {
  return !journey.done || journey.status !== 'complete' || journey.stuck;
}

/** `limit` completes the verdict of a journey that ran out of time: `within 300s of simulated time`. */
export function unfinishedJourney(journey: Journey, limit: string): UnfinishedJourney {
  const reason = journey.stuckObjects[0];
  const why = reason ? `${reason.ref.kind.toLowerCase()}/${reason.ref.name}: ${reason.stuck.reason}: ${reason.stuck.message}` : `still ${journey.status}`;
  const verdict = journey.done && journey.status === 'complete' ? 'became available but is not healthy' : reason?.stuck.reason === NO_ENDPOINTS ? 'routes no traffic' : `did not finish ${limit}`;
  const key = [verdict, reason ? `${reason.ref.kind} ${reason.stuck.reason}` : `still ${journey.status}`].join('\0');
  return { root: journey.root, verdict, why, key };
}

function rootName(root: JourneyObjectRef): string {
  return `${root.kind.toLowerCase()}/${root.name}`;
}

/** One line per group of journeys that failed the same way; a group of one reads as it always did. */
export function unfinishedLines(journeys: readonly UnfinishedJourney[]): string[] {
  const groups = new Map<string, UnfinishedJourney[]>();
  for (const journey of journeys) {
    const group = groups.get(journey.key);
    if (group) group.push(journey);
    else groups.set(journey.key, [journey]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group;
    if (group.length === 1) return `kube-journey: ${rootName(first.root)} ${first.verdict}: ${first.why}`;
    const kinds = new Set(group.map((journey) => journey.root.kind));
    const what = kinds.size === 1 ? `${first.root.kind.toLowerCase()}s` : 'journeys';
    const names = group.slice(0, NAMES_SHOWN).map((journey) => rootName(journey.root));
    const more = group.length - names.length;
    const list = more > 0 ? `${names.join(', ')} and ${more} more` : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
    const sameWhy = group.every((journey) => journey.why === first.why);
    return `kube-journey: ${group.length} ${what} ${first.verdict}: ${list}; ${sameWhy ? 'each' : `the first, ${rootName(first.root)}`}: ${first.why}`;
  });
}
