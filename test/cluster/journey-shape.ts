/**
 * Comparing journeys traced in different ways (in process, over the HTTP API) by what must be
 * the same — stages, their components, their order — and not by what differs (times, latencies).
 */
import assert from 'node:assert/strict';
import type { Journey, ObjectJourney, Stage } from '../../src/core/journey/types';

/** `kind component` of each stage, sorted: what an object went through, whatever the timing. */
export function stageSet(object: ObjectJourney): string[] {
  return object.stages.map((s) => `${s.kind} ${s.component}`).sort();
}

/** The tree as `Kind: stage set` lines, siblings sorted, so two traces can be compared whole. */
export function treeShape(journey: Journey): string[] {
  const lines: string[] = [];
  const visit = (object: ObjectJourney, depth: number): void => {
    lines.push(`${'  '.repeat(depth)}${object.ref.kind} [${object.status}]: ${stageSet(object).join(', ')}`);
    const children = object.children.map((child) => ({ child, key: JSON.stringify(stageSet(child)) })).sort((a, b) => a.key.localeCompare(b.key));
    for (const { child } of children) visit(child, depth + 1);
  };
  if (journey.tree) visit(journey.tree, 0);
  return lines;
}

/**
 * Stages of `actual` come in `reference`'s order, allowing two stages to swap only when they are
 * within `toleranceMs` of each other (over a network, arrival latency decides ties of a few ms).
 * Stages are matched by key; a stage missing from either side fails.
 */
export function assertStageOrder(actual: readonly Stage[], reference: readonly Stage[], toleranceMs: number, what: string): void {
  assert.deepEqual(
    actual.map((s) => s.key).sort(),
    reference.map((s) => s.key).sort(),
    `${what}: the same stages`,
  );
  const time = new Map(actual.map((s) => [s.key, s.time]));
  for (let i = 0; i < reference.length; i++) {
    for (let j = i + 1; j < reference.length; j++) {
      const earlier = time.get(reference[i].key)!;
      const later = time.get(reference[j].key)!;
      assert.ok(
        earlier <= later + toleranceMs,
        `${what}: ${reference[i].key} comes before ${reference[j].key} in process, but ${earlier - later} ms after it over the API`,
      );
    }
  }
}

/** Every pod object in the journey. */
export function podsOf(journey: Journey): ObjectJourney[] {
  const out: ObjectJourney[] = [];
  const visit = (object: ObjectJourney): void => {
    if (object.ref.kind === 'Pod') out.push(object);
    object.children.forEach(visit);
  };
  if (journey.tree) visit(journey.tree);
  return out;
}

/** Every object in the journey, root first. */
export function objectsOf(journey: Journey): ObjectJourney[] {
  const out: ObjectJourney[] = [];
  const visit = (object: ObjectJourney): void => {
    out.push(object);
    object.children.forEach(visit);
  };
  if (journey.tree) visit(journey.tree);
  return out;
}
