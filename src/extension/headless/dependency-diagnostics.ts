/**
 * A pod stuck for want of a ConfigMap, Secret or claim, as a problem on the manifest line that
 * names the missing object (the `configMapKeyRef.name` of the env var, the volume's `secretName`,
 * the missing item's `key`): what the journey's stuck detail says, where the user can fix it.
 */
import { dependencyReferencePaths, podSpecPath } from '../../core/journey/dependencies';
import type { Journey, MissingDependency, StuckEntry } from '../../core/journey/types';
import type { PodSpec } from '../../core/k8s';
import { lineOfField } from '../../core/manifest';
import type { ApplyPlan, PlannedDiagnostic } from './apply-plan';

/** `ConfigMap "web-config"`, `key "greeting" of ConfigMap "web-config"`. */
export function describeDependency(dependency: MissingDependency): string {
  const object = dependency.name !== undefined ? `${dependency.kind} "${dependency.name}"` : `the ${dependency.kind} of volume "${dependency.volume ?? ''}"`;
  return dependency.key !== undefined ? `key "${dependency.key}" of ${object}` : object;
}

function podSpecOf(object: unknown, path: string): PodSpec | undefined {
  let value: unknown = object;
  for (const key of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === 'object' && value !== null ? (value as PodSpec) : undefined;
}

/** The stuck entries of a journey grouped by the object they wait for, in first-seen order. */
function byDependency(entries: readonly StuckEntry[]): Map<string, { dependency: MissingDependency; entries: StuckEntry[] }> {
  const groups = new Map<string, { dependency: MissingDependency; entries: StuckEntry[] }>();
  for (const entry of entries) {
    const dependency = entry.stuck.dependency;
    if (!dependency) continue;
    const key = JSON.stringify([dependency.kind, dependency.name, dependency.key, dependency.volume]);
    const group = groups.get(key);
    if (group) group.entries.push(entry);
    else groups.set(key, { dependency, entries: [entry] });
  }
  return groups;
}

/**
 * Warnings for the applied documents whose journey is stuck on a missing object: one per field
 * that names it (the document's first line when no field can be found), `journeys[i]` being
 * the journey of `plan.documents[i]`.
 */
export function dependencyDiagnostics(plan: ApplyPlan, journeys: readonly (Journey | undefined)[]): PlannedDiagnostic[] {
  const diagnostics: PlannedDiagnostic[] = [];
  plan.documents.forEach((document, i) => {
    const journey = journeys[i];
    if (!journey?.stuck) return;
    const specPath = podSpecPath(document.object?.kind ?? '');
    const spec = specPath ? podSpecOf(document.object, specPath) : undefined;
    for (const { dependency, entries } of byDependency(journey.stuckObjects).values()) {
      const first = entries[0];
      const who = entries.length === 1 ? `${first.ref.kind} ${first.ref.name} waits` : `${entries.length} pods wait`;
      const message = `${who} for ${describeDependency(dependency)}: ${first.stuck.reason}: ${first.stuck.message}`;
      const paths = specPath ? dependencyReferencePaths(spec, dependency).map((path) => `${specPath}.${path}`) : [];
      const lines = paths.length > 0 ? paths.map((path) => lineOfField(plan.manifest, document, path)) : [document.startLine];
      for (const line of new Set(lines)) diagnostics.push({ line: line + plan.lineOffset, message, severity: 'warning', code: first.stuck.reason });
    }
  });
  return diagnostics;
}
