/**
 * Where each journey ended, compared: its status (complete → stuck), why it is stuck (the reason
 * Kubernetes gave), its ready pods (3/3 → 6/6), its containers' restarts and how long it took. The status or the stuck reason
 * changing is a different outcome; more replicas ready in the same status is not.
 */
import type { Journey } from '../journey/types';
import { roundMs } from './phases';
import type { OutcomeDelta, OutcomeSide } from './types';

export function outcomeOf(journey: Journey): OutcomeSide {
  // A workload's own status counts every ready replica, also those of an apply that changed
  // nothing (whose journey made no pods); a bare Pod or a Service has only the journey's counts.
  const replicas = journey.tree?.replicas;
  const counted = replicas && !replicas.job && !replicas.cronJob ? replicas : journey.counts;
  const side: OutcomeSide = { status: journey.status, ready: counted.ready, desired: counted.desired, restarts: journey.counts.restarts };
  if (journey.totalDurationMs !== undefined) side.totalDurationMs = roundMs(journey.totalDurationMs);
  const worst = journey.stuckObjects[0];
  if (worst) {
    const { kind, namespace, name } = worst.stuck.object;
    side.stuck = { reason: worst.stuck.reason, message: worst.stuck.message, object: `${kind} ${namespace ? `${namespace}/` : ''}${name}` };
  }
  return side;
}

export function outcomeDelta(a: Journey, b: Journey): OutcomeDelta {
  const sideA = outcomeOf(a);
  const sideB = outcomeOf(b);
  return { a: sideA, b: sideB, changed: sideA.status !== sideB.status || sideA.stuck?.reason !== sideB.stuck?.reason };
}

/** Whether anything about the outcome differs, the replica counts and the duration included. */
export function outcomeDiffers(delta: OutcomeDelta): boolean {
  const { a, b } = delta;
  return delta.changed || a.ready !== b.ready || a.desired !== b.desired || a.restarts !== b.restarts || a.totalDurationMs !== b.totalDurationMs || a.stuck?.message !== b.stuck?.message;
}
