/**
 * Stages seen in one trace and not in the other. Objects are grouped by what they are to the
 * journey, not by name (names carry hashes and random suffixes that differ between traces): the
 * root, a Deployment's ReplicaSet by revision, and the pods (EndpointSlices, Jobs) of an owner
 * together. Within a group, stages are counted by kind and reason: "killing (Killing) ×3 only in B"
 * for a rollout's three old pods.
 */
import { STAGE_RANK } from '../journey/records';
import type { ObjectJourney, StageKind } from '../journey/types';
import type { StageDelta } from './types';

/** Plural names of the kinds an owner has many of, counted together. */
const GROUPED_KINDS: Readonly<Record<string, string>> = { Pod: 'pods', EndpointSlice: 'EndpointSlices', Job: 'Jobs' };

/** The group a child object belongs to, given its parent's group (`''` for the root). */
export function childGroup(child: ObjectJourney, parent: ObjectJourney, parentGroup: string): string {
  const plural = GROUPED_KINDS[child.ref.kind];
  const of = parentGroup === '' ? '' : ` of ${parentGroup}`;
  if (plural) return `${plural}${of}`;
  const revision = parent.ref.kind === 'Deployment' && child.replicas?.revision !== undefined ? `revision ${child.replicas.revision}` : child.ref.name;
  return `${child.ref.kind} ${revision}${of}`;
}

interface StageCount {
  group: string;
  kind: StageKind;
  reason?: string;
  count: number;
}

/** Occurrences of each (group, stage kind, reason) in a journey's tree, in the order first seen. */
export function countStages(root: ObjectJourney | undefined): Map<string, StageCount> {
  const counts = new Map<string, StageCount>();
  const visit = (o: ObjectJourney, group: string): void => {
    // The root's group is its kind: the journey's heading already names it.
    const label = group === '' ? o.ref.kind : group;
    for (const stage of o.stages) {
      // A NUL cannot occur in a group, a stage kind or a reason: the key is unambiguous.
      const key = `${label}\0${stage.kind}\0${stage.reason ?? ''}`;
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { group: label, kind: stage.kind, ...(stage.reason ? { reason: stage.reason } : {}), count: 1 });
    }
    for (const child of o.children) visit(child, childGroup(child, o, group));
  };
  if (root) visit(root, '');
  return counts;
}

/** The stages present in exactly one trace, grouped as first seen (A's order, then B's); within a group A's first, in lifecycle order. */
export function stageDeltas(a: ObjectJourney | undefined, b: ObjectJourney | undefined): StageDelta[] {
  const inA = countStages(a);
  const inB = countStages(b);
  const groups: string[] = [];
  for (const entry of [...inA.values(), ...inB.values()]) if (!groups.includes(entry.group)) groups.push(entry.group);
  const deltas: StageDelta[] = [];
  for (const [key, entry] of inA) if (!inB.has(key)) deltas.push({ group: entry.group, kind: entry.kind, ...(entry.reason ? { reason: entry.reason } : {}), a: entry.count, b: 0 });
  for (const [key, entry] of inB) if (!inA.has(key)) deltas.push({ group: entry.group, kind: entry.kind, ...(entry.reason ? { reason: entry.reason } : {}), a: 0, b: entry.count });
  return deltas.sort((x, y) => groups.indexOf(x.group) - groups.indexOf(y.group) || Number(x.a === 0) - Number(y.a === 0) || STAGE_RANK[x.kind] - STAGE_RANK[y.kind] || (x.reason ?? '').localeCompare(y.reason ?? ''));
}
