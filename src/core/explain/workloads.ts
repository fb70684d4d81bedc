/**
 * How each workload kind reads in the views (tree, CodeLens, hover): its counts in its own terms
 * (a StatefulSet's revision, a DaemonSet's nodes, a Job's successes and failures, a CronJob's
 * schedule), a Job pod's exit and a Job or CronJob journey in a few words. Pure: journey
 * snapshots in, text out.
 */
import type { Journey, ObjectJourney } from '../journey/types';
import { plural } from './format';


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
