/**
 * `Scheduler.suggestFits`: for a pod the scheduler refused, each kind of change on its own (see
 * the files beside this one), checked by re-running the scheduler's filters on the current cache
 * with the change applied, and turned into edits of the object the user wrote (the Deployment's
 * `spec.template.spec…`, not the pod's). Preemption is not considered: a change is suggested only
 * when it makes the pod fit without evicting anything.
 */
import { applyFitEdits, type FitEdit, type FitSuggestion, type FitSuggestions } from '../../../core/journey/fit-suggestions';
import type { PodObject } from '../../store/pod-binding';
import { suggestClaims } from './claims';
import { suggestPair } from './combined';
import { suggestUncordon } from './cordoned';
import { suggestHostPorts } from './host-ports';
import { suggestNodeLabels } from './node-labels';
import { podOwner, type PodOwner } from './owner';
import { suggestPodPlacement } from './pod-placement';
import type { FitProbe } from './probe';
import { progressDeadlineOf } from './progress-deadline';
import { suggestReplicas } from './replicas';
import { suggestRequests } from './resources';
import { suggestTolerations } from './taints';
import type { Candidate, Suggester, SuggestionInput } from './types';

export { FitProbe, type ProbeSources } from './probe';

/** In the order the CLI lists them: the pod's own requests and rules first, the cluster and the replica count last. */
const SUGGESTERS: readonly Suggester[] = [suggestRequests, suggestTolerations, suggestNodeLabels, suggestHostPorts, suggestClaims, suggestPodPlacement, suggestUncordon, suggestReplicas];

function inOwner(owner: PodOwner, edit: FitEdit): FitEdit {
  return edit.op === 'create' ? edit : { ...edit, path: owner.prefix + edit.path };
}

function toSuggestion(input: SuggestionInput, candidate: Candidate, nodes: number, totalNodes: number): FitSuggestion {
  const { owner } = input;
  const own = candidate.target === undefined && candidate.command === undefined;
  const suggestion: FitSuggestion = { kind: candidate.kind, summary: candidate.summary, nodes, totalNodes, edits: own ? candidate.edits.map((edit) => inOwner(owner, edit)) : candidate.edits };
  if (candidate.command === undefined) suggestion.target = candidate.target ?? owner.target;
  else suggestion.command = candidate.command;
  if (candidate.path !== undefined) suggestion.path = own ? owner.prefix + candidate.path : candidate.path;
  return suggestion;
}

function isLive(pod: PodObject): boolean {
  const phase = pod.status?.phase;
  return !pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

function siblingsOf(probe: FitProbe, owner: PodOwner): PodObject[] {
  const controller = owner.controller;
  if (!controller) return [];
  const uid = controller.metadata?.uid;
  return probe.store.list<PodObject>('Pod', { namespace: controller.metadata?.namespace }).items.filter((pod) => isLive(pod) && pod.metadata?.ownerReferences?.some((ref) => ref.controller === true && ref.uid === uid));
}

export function suggestFits(probe: FitProbe, pod: PodObject, now: number): FitSuggestions {
  const owner = podOwner(probe.store, pod);
  const totalNodes = probe.nodes.length;
  const result: FitSuggestions = { computedAt: now, totalNodes, suggestions: [] };
  const deadline = progressDeadlineOf(owner.scaled);
  if (deadline) result.progressDeadline = deadline;
  const prepared = probe.prepare(pod);
  const masks = probe.masks(prepared);
  if (prepared.volumeRejection === undefined) {
    const fitsNow = masks.reduce((count, mask) => count + (mask === 0 ? 1 : 0), 0);
    if (fitsNow > 0) result.fitsNow = fitsNow;
  }
  const input: SuggestionInput = { probe, pod, prepared, masks, owner, siblings: siblingsOf(probe, owner) };
  for (const suggest of SUGGESTERS) {
    for (const candidate of suggest(input)) {
      const nodes = candidate.nodes ?? probe.countFits(applyFitEdits(pod, candidate.edits));
      if (nodes > 0) result.suggestions.push(toSuggestion(input, candidate, nodes, totalNodes));
    }
  }
  if (result.suggestions.length === 0 && result.fitsNow === undefined && prepared.volumeRejection === undefined) {
    const pair = suggestPair(input);
    if (pair) result.suggestions.push({ ...toSuggestion(input, pair.candidate, pair.nodes, totalNodes), together: pair.parts.map((part) => part.kind) });
  }
  return result;
}
