/** Small hand-built journeys for the diff's unit tests: only the fields the diff reads are meaningful. */
import type { Journey, JourneyStatus, ObjectJourney, Stage, StageKind, TraceableKind } from '../../../src/core/journey/types';

export function stage(kind: StageKind, reason?: string): Stage {
  return { key: `${kind}:${reason ?? ''}`, kind, time: 0, timeSource: 'observed', component: 'kubelet', title: kind, ...(reason ? { reason } : {}), evidence: {} };
}

export function pod(name: string, node: string | undefined, options: { status?: JourneyStatus; stages?: Stage[] } = {}): ObjectJourney {
  return {
    ref: { kind: 'Pod', namespace: 'default', name },
    status: options.status ?? 'complete',
    stages: options.stages ?? [],
    children: [],
    pod: { ...(node ? { node } : {}), readyContainers: 1, totalContainers: 1, restarts: 0, containers: [], marks: {}, phases: {} },
  };
}

export function workload(kind: TraceableKind, name: string, children: ObjectJourney[], options: { revision?: string; stages?: Stage[]; ready?: number; desired?: number } = {}): ObjectJourney {
  return {
    ref: { kind, namespace: 'default', name },
    status: 'complete',
    stages: options.stages ?? [],
    children,
    replicas: { desired: options.desired ?? children.length, current: children.length, ready: options.ready ?? children.length, available: children.length, images: [], ...(options.revision ? { revision: options.revision } : {}) },
  };
}

export function journey(tree: ObjectJourney, options: Partial<Pick<Journey, 'status' | 'stuckObjects' | 'phaseStats' | 'totalDurationMs'>> & { restarts?: number } = {}): Journey {
  return {
    id: `${tree.ref.kind}/${tree.ref.namespace}/${tree.ref.name}@0`,
    root: tree.ref,
    appliedAt: 0,
    status: options.status ?? tree.status,
    done: true,
    stuck: false,
    lastChangeAt: 0,
    version: 1,
    counts: { desired: 1, live: 1, scheduled: 1, running: 1, ready: 1, stuck: 0, terminating: 0, deleted: 0, oldLive: 0, restarts: options.restarts ?? 0 },
    phaseStats: options.phaseStats ?? {},
    stuckObjects: options.stuckObjects ?? [],
    stuckCount: options.stuckObjects?.length ?? 0,
    ...(options.totalDurationMs !== undefined ? { totalDurationMs: options.totalDurationMs } : {}),
    tree,
  };
}
