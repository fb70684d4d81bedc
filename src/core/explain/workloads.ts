/**
 * How each workload kind reads in the views (tree, CodeLens, hover, CLI): its counts in its own
 * terms (a StatefulSet's revision, a DaemonSet's nodes, a Job's successes and failures, a
 * CronJob's schedule), its pods in the order that kind gives them meaning, and the goal a
 * journey of that kind reaches. Pure: journey snapshots in, text and lists out.
 */
import type { Journey, ObjectJourney, TraceableKind } from '../journey/types';
import { TRACEABLE_PARENTS } from '../../common/traceable-kinds';
import { plural } from './format';

/** Whether objects of this kind own pods directly (a Deployment owns ReplicaSets, a CronJob Jobs). */
export function ownsPods(kind: TraceableKind): boolean {
  return TRACEABLE_PARENTS.Pod.includes(kind);
}

/** The ordinal of a StatefulSet pod (`web-10` → 10), or undefined for a name without one. */
export function ordinalOf(podName: string, setName: string): number | undefined {
  if (!podName.startsWith(`${setName}-`)) return undefined;
  const rest = podName.slice(setName.length + 1);
  return /^\d+$/.test(rest) ? Number(rest) : undefined;
}

const byName = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/**
 * An owner's pods in the order its kind gives them: a StatefulSet's by ordinal (web-9 before
 * web-10), a DaemonSet's by node (unscheduled ones last), others by creation (the tracer's order,
 * which for a Job is the order of its tries).
 */
export function podsInOrder(owner: ObjectJourney): ObjectJourney[] {
  const pods = owner.children;
  if (owner.ref.kind === 'StatefulSet') {
    const rank = (pod: ObjectJourney): number => ordinalOf(pod.ref.name, owner.ref.name) ?? Number.MAX_SAFE_INTEGER;
    return [...pods].sort((a, b) => rank(a) - rank(b) || byName(a.ref.name, b.ref.name));
  }
  if (owner.ref.kind === 'DaemonSet') {
    return [...pods].sort((a, b) => {
      const na = a.pod?.node;
      const nb = b.pod?.node;
      if (na === undefined || nb === undefined) return na === nb ? 0 : na === undefined ? 1 : -1;
      return byName(na, nb);
    });
  }
  return pods.slice();
}

/** Distinct nodes the live pods run on. */
export function nodesOf(pods: readonly ObjectJourney[]): number {
  const nodes = new Set<string>();
  for (const pod of pods) if (pod.status !== 'deleted' && pod.pod?.node) nodes.add(pod.pod.node);
  return nodes.size;
}

/** `HH:MM` in local time, as a CronJob's schedule is read. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * A workload's counts in its own terms: `2/2 ready · revision web-7b9b`, `3/3 ready on 3 nodes`,
 * `1/1 succeeded · 1 failed`, `schedule 0 3 * * * · last run 03:00`, `1/3 ready`.
 */
export function workloadState(object: ObjectJourney): string | undefined {
  const r = object.replicas;
  if (!r) return undefined;
  switch (object.ref.kind) {
    case 'StatefulSet': {
      const revision = r.revision ? (r.currentRevision ? ` · revision ${r.currentRevision} → ${r.revision}` : ` · revision ${r.revision}`) : '';
      return `${r.ready}/${r.desired} ready${revision}`;
    }
    case 'DaemonSet': {
      const nodes = nodesOf(object.children);
      return `${r.ready}/${r.desired} ready on ${plural(nodes, 'node')}`;
    }
    case 'Job': {
      const job = r.job;
      if (!job) return undefined;
      const parts = [`${job.succeeded}/${job.completions ?? 1} succeeded`];
      if (job.active > 0) parts.push(`${job.active} active`);
      if (job.failed > 0) parts.push(`${job.failed} failed`);
      if (job.suspended) parts.push('suspended');
      return parts.join(' · ');
    }
    case 'CronJob': {
      const cron = r.cronJob;
      if (!cron) return undefined;
      const parts = [`schedule ${cron.schedule}${cron.timeZone ? ` (${cron.timeZone})` : ''}`];
      if (cron.lastScheduleTime !== undefined) parts.push(`last run ${clockTime(cron.lastScheduleTime)}`);
      if (cron.active > 0) parts.push(`${cron.active} running`);
      if (cron.suspended) parts.push('suspended');
      return parts.join(' · ');
    }
    default:
      return `${r.ready}/${r.desired} ready`;
  }
}

/** A finished Job pod's outcome: `Completed (exit code 0)`, `Error (exit code 1)`; undefined while it runs. */
export function podExit(pod: ObjectJourney): string | undefined {
  const exited = pod.pod?.containers.find((c) => c.exitCode !== undefined && c.exitCode !== 0) ?? pod.pod?.containers.find((c) => c.exitCode !== undefined);
  return exited ? `${exited.state} (exit code ${exited.exitCode})` : undefined;
}

/** The goal a journey of this kind reaches, as `apply → …` reads: `Available`, `all pods ready`, `Job Complete`. */
export function journeyGoal(kind: TraceableKind): string {
  switch (kind) {
    case 'Deployment':
      return 'Available';
    case 'Job':
      return 'Job Complete';
    case 'CronJob':
      return 'first Job Complete';
    case 'Pod':
      return 'Ready';
    default:
      return 'all pods ready';
  }
}

/** The newest Job of a CronJob (its children are in creation order). */
export function latestJob(cronJob: ObjectJourney): ObjectJourney | undefined {
  return cronJob.children[cronJob.children.length - 1];
}

/** What a Job or CronJob journey's first stuck or failed object says, `failed: BackoffLimitExceeded`. */
function problem(journey: Journey): string {
  const reason = journey.stuckObjects[0]?.stuck.reason;
  return `${journey.status}${reason ? `: ${reason}` : ''}`;
}

/** A Job journey in a few words: `completed · 12 s`, `failed: BackoffLimitExceeded`, `0/1 succeeded · 1 failed · in progress`. */
export function jobSummary(journey: Journey, duration: (ms: number) => string): string {
  const tree = journey.tree;
  const counts = tree ? workloadState(tree) : undefined;
  switch (journey.status) {
    case 'complete':
      return journey.totalDurationMs !== undefined ? `completed · ${duration(journey.totalDurationMs)}` : 'completed';
    case 'failed': {
      // A Job fails for its own reason (its Failed condition), not for one of its pods.
      const own = tree?.stuck?.reason;
      return own ? `failed: ${own}` : problem(journey);
    }
    case 'stuck':
      return counts ? `${counts} · ${problem(journey)}` : problem(journey);
    case 'deleted':
      return 'deleted';
    case 'pending':
      return 'waiting for the API server';
    case 'progressing':
      return counts ? `${counts} · in progress` : 'in progress';
  }
}

/** A CronJob journey in a few words: `next Job pending`, `Job hello-29034242 running`, `last Job completed · 1 min 5 s`. */
export function cronJobSummary(journey: Journey, duration: (ms: number) => string): string {
  const tree = journey.tree;
  const job = tree ? latestJob(tree) : undefined;
  if (journey.status === 'deleted') return 'deleted';
  if (tree?.replicas?.cronJob?.suspended && !job) return 'suspended';
  if (journey.status === 'stuck' || journey.status === 'failed') return problem(journey);
  if (!job) return journey.status === 'pending' && !tree ? 'waiting for the API server' : 'next Job pending';
  switch (job.status) {
    case 'complete':
      return journey.totalDurationMs !== undefined ? `last Job completed · ${duration(journey.totalDurationMs)}` : 'last Job completed';
    case 'failed':
      return `last Job failed${job.stuck ? `: ${job.stuck.reason}` : ''}`;
    case 'deleted':
      return 'next Job pending';
    default:
      return `Job ${job.ref.name} running`;
  }
}
