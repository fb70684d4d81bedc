/**
 * Live facts for a hovered field, read from a traced journey: how many replicas are ready and on
 * which nodes, how long each node took to pull an image, why pods wait for a node. Pure: a
 * journey snapshot in, Markdown lines out.
 */
import type { Journey, ObjectJourney, Stage } from '../journey/types';
import type { LiveFact } from './field-roles';
import { escapeMarkdown, humanDuration, inlineCode, plural } from './format';
import { cronJobSummary, jobSummary, latestJob, podExit, workloadState } from './workloads';
import { ownsPods, podsInOrder } from '../../common/kind-order';

/** Nodes listed before the rest are counted. */
const NODES_SHOWN = 8;

/**
 * Pods of the journey's current generation: the newest ReplicaSet's for a Deployment, the newest
 * Job's for a CronJob, the owner's own for the other workloads, or the root pod itself.
 */
export function currentPods(journey: Journey): ObjectJourney[] {
  const tree = journey.tree;
  if (!tree) return [];
  if (tree.ref.kind === 'Pod') return [tree];
  if (ownsPods(tree.ref.kind)) return podsInOrder(tree);
  const current = tree.children[tree.children.length - 1];
  return current ? podsInOrder(current) : [];
}

/** Every pod the journey has seen, under all its ReplicaSets or Jobs. */
export function allPods(journey: Journey): ObjectJourney[] {
  const tree = journey.tree;
  if (!tree) return [];
  if (tree.ref.kind === 'Pod') return [tree];
  if (ownsPods(tree.ref.kind)) return tree.children;
  return tree.children.flatMap((owner) => owner.children);
}

function livePods(pods: readonly ObjectJourney[]): ObjectJourney[] {
  return pods.filter((pod) => pod.status !== 'deleted');
}

/** `node-1, node-2 (2 pods), node-3`, the busiest nodes first when there are many. */
export function nodeSpread(pods: readonly ObjectJourney[]): string | undefined {
  const perNode = new Map<string, number>();
  for (const pod of pods) {
    const node = pod.pod?.node;
    if (node) perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  if (perNode.size === 0) return undefined;
  let entries = [...perNode];
  if (entries.length > NODES_SHOWN) entries = entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  else entries = entries.sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true }));
  const shown = entries.slice(0, NODES_SHOWN).map(([node, count]) => (count > 1 ? `${node} (${count} pods)` : node));
  const rest = entries.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${plural(rest, 'more node')}` : shown.join(', ');
}

/** The time kubelet reported for a pull: `5.870196872s` from "Successfully pulled image "x" in 5.870196872s …". */
export function reportedPullTime(message: string | undefined): string | undefined {
  return message ? /\bin ([0-9][0-9.]*(?:h|m(?!s)|s|ms|µs|us|ns)(?:[0-9.]+(?:m(?!s)|s|ms))*)/.exec(message)?.[1] : undefined;
}

interface PullOutcome {
  node: string;
  text: string;
}

function stageFor(pod: ObjectJourney, kinds: readonly Stage['kind'][], container: string | undefined): Stage | undefined {
  return pod.stages.find((s) => kinds.includes(s.kind) && (container === undefined || s.container === undefined || s.container === container));
}

/** The first pull outcome seen on each node for a container's image. */
export function pullsPerNode(pods: readonly ObjectJourney[], container: string | undefined): PullOutcome[] {
  const byNode = new Map<string, PullOutcome>();
  for (const pod of pods) {
    const node = pod.pod?.node;
    if (!node || byNode.has(node)) continue;
    const pulled = stageFor(pod, ['pulled'], container);
    if (pulled) {
      const pulling = stageFor(pod, ['pulling'], container);
      const reported = reportedPullTime(pulled.message);
      const measured = pulling ? humanDuration(pulled.time - pulling.time) : undefined;
      byNode.set(node, { node, text: `pulled in ${reported ?? measured ?? 'an unknown time'}` });
      continue;
    }
    if (stageFor(pod, ['imagePresent'], container)) {
      byNode.set(node, { node, text: 'already present on the node' });
      continue;
    }
    const failure = pod.stages.find((s) => (s.kind === 'failed' || s.kind === 'backOff') && (s.reason === 'ErrImagePull' || s.reason === 'ImagePullBackOff' || s.reason === 'ErrImageNeverPull') && (container === undefined || s.container === container));
    if (failure) {
      byNode.set(node, { node, text: `${failure.reason}${failure.message ? `: ${inlineCode(failure.message)}` : ''}` });
      continue;
    }
    if (stageFor(pod, ['pulling'], container)) byNode.set(node, { node, text: 'pulling…' });
  }
  return [...byNode.values()].sort((a, b) => a.node.localeCompare(b.node, undefined, { numeric: true }));
}

function replicaLines(journey: Journey): string[] {
  const tree = journey.tree;
  const lines: string[] = [];
  const r = tree?.replicas;
  const counts = journey.counts;
  const kind = tree?.ref.kind;
  if (tree && r && kind !== 'Deployment' && kind !== 'ReplicaSet' && kind !== 'ReplicationController') lines.push(escapeMarkdown(workloadState(tree) ?? ''));
  else if (r) lines.push(`${r.desired} desired · ${r.ready} ready · ${r.available} available${r.updated !== undefined && r.updated !== r.desired ? ` · ${r.updated} up to date` : ''}`);
  else lines.push(`${counts.desired} desired · ${counts.ready} ready`);
  const pods = livePods(currentPods(journey));
  const spread = nodeSpread(pods);
  if (spread) lines.push(`running on ${escapeMarkdown(spread)}`);
  const unscheduled = pods.filter((p) => !p.pod?.node).length;
  if (unscheduled > 0) lines.push(`${plural(unscheduled, 'pod')} not on a node yet`);
  if (counts.oldLive > 0) lines.push(`${plural(counts.oldLive, 'pod')} of older ${kind === 'CronJob' ? 'Jobs' : 'ReplicaSets'} still running`);
  return lines;
}

function schedulingLines(journey: Journey): string[] {
  const lines: string[] = [];
  const pods = livePods(currentPods(journey));
  const bound = pods.filter((p) => p.pod?.node);
  if (bound.length > 0) lines.push(`${plural(bound.length, 'pod')} scheduled: ${escapeMarkdown(nodeSpread(bound) ?? '')}`);
  const waiting = pods.filter((p) => !p.pod?.node);
  const unschedulable = waiting.find((p) => p.stuck?.reason === 'FailedScheduling');
  if (unschedulable?.stuck) {
    const others = waiting.filter((p) => p.stuck?.reason === 'FailedScheduling').length - 1;
    lines.push(`${plural(waiting.length, 'pod')} Pending. default-scheduler: ${inlineCode(unschedulable.stuck.message)}${others > 0 ? ` (and ${plural(others, 'other pod')})` : ''}`);
  } else if (waiting.length > 0) lines.push(`${plural(waiting.length, 'pod')} waiting for the scheduler`);
  return lines;
}

function imageLines(journey: Journey, container: string | undefined): string[] {
  const pulls = pullsPerNode(allPods(journey), container);
  if (pulls.length === 0) return ['no pull seen yet'];
  const shown = pulls.slice(0, NODES_SHOWN).map((p) => `${escapeMarkdown(p.node)}: ${p.text}`);
  if (pulls.length > shown.length) shown.push(`and ${plural(pulls.length - shown.length, 'more node')}`);
  return shown;
}

function readinessLines(journey: Journey): string[] {
  const pods = livePods(currentPods(journey));
  const ready = pods.filter((p) => p.pod && p.pod.readyContainers === p.pod.totalContainers && p.pod.totalContainers > 0 && p.status === 'complete').length;
  const lines = [`${ready}/${pods.length} pods Ready`];
  const stats = journey.phaseStats.create_to_ready;
  if (stats) lines.push(`created → Ready: ${stats.count > 1 ? `median ${humanDuration(stats.p50)}, slowest ${humanDuration(stats.max)}` : humanDuration(stats.max)}`);
  const unhealthy = pods.find((p) => p.stuck?.reason === 'Unhealthy');
  if (unhealthy?.stuck) lines.push(`kubelet: ${inlineCode(unhealthy.stuck.message)}`);
  return lines;
}

function restartLines(journey: Journey): string[] {
  const lines = [`${plural(journey.counts.restarts, 'container restart')}`];
  const looping = allPods(journey).find((p) => p.stuck?.reason === 'CrashLoopBackOff');
  if (looping?.stuck) {
    const last = looping.stuck.lastTermination;
    const how = last ? ` (last exit: ${last.reason ?? 'exit'}${last.exitCode !== undefined ? `, code ${last.exitCode}` : ''})` : '';
    lines.push(`${escapeMarkdown(looping.ref.name)} is in CrashLoopBackOff${how}`);
  }
  return lines;
}

function revisionLines(journey: Journey): string[] {
  const tree = journey.tree;
  if (tree?.ref.kind === 'StatefulSet' || tree?.ref.kind === 'DaemonSet') {
    const r = tree.replicas;
    if (!r) return [];
    const lines = [`${r.updated ?? 0}/${r.desired} pods on the newest template`];
    if (r.revision) lines.push(r.currentRevision ? `rolling from revision ${escapeMarkdown(r.currentRevision)} to ${escapeMarkdown(r.revision)}` : `revision ${escapeMarkdown(r.revision)}`);
    return lines;
  }
  if (!tree || tree.ref.kind !== 'Deployment') return [];
  const current = tree.children[tree.children.length - 1];
  if (!current) return ['no ReplicaSet yet'];
  const revision = current.replicas?.revision;
  const lines = [`current ReplicaSet ${escapeMarkdown(current.ref.name)}${revision ? ` (revision ${revision})` : ''}`];
  const older = tree.children.length - 1;
  if (older > 0) lines.push(`${plural(older, 'older ReplicaSet')}`);
  return lines;
}

/** A Job's tries and how each ended, or a CronJob's runs: what its batch fields produced. */
function runLines(journey: Journey): string[] {
  const tree = journey.tree;
  if (!tree) return [];
  const job = tree.ref.kind === 'CronJob' ? latestJob(tree) : tree.ref.kind === 'Job' ? tree : undefined;
  const lines: string[] = [];
  if (tree.ref.kind === 'CronJob') {
    const state = workloadState(tree);
    if (state) lines.push(escapeMarkdown(state));
    lines.push(job ? `latest Job ${escapeMarkdown(job.ref.name)}: ${job.status}` : 'no Job created yet');
  }
  if (!job) return lines;
  if (tree.ref.kind === 'Job') lines.push(escapeMarkdown(workloadState(job) ?? ''));
  const tries = podsInOrder(job);
  tries.slice(0, NODES_SHOWN).forEach((pod, i) => lines.push(`try ${i + 1}: ${escapeMarkdown(pod.ref.name)} ${podExit(pod) ?? pod.pod?.phase ?? 'Pending'}${pod.pod?.node ? ` on ${escapeMarkdown(pod.pod.node)}` : ''}`));
  if (tries.length > NODES_SHOWN) lines.push(`and ${plural(tries.length - NODES_SHOWN, 'more pod')}`);
  if (job.stuck) lines.push(`${escapeMarkdown(job.stuck.reason)}: ${inlineCode(job.stuck.message)}`);
  return lines.filter((line) => line.length > 0);
}

/** Markdown list items for one live fact; empty when the journey has nothing to say yet. */
export function liveFactLines(fact: LiveFact, journey: Journey, container?: string): string[] {
  switch (fact) {
    case 'replicas':
      return replicaLines(journey);
    case 'scheduling':
      return schedulingLines(journey);
    case 'image':
      return imageLines(journey, container);
    case 'readiness':
      return readinessLines(journey);
    case 'restarts':
      return restartLines(journey);
    case 'revision':
      return revisionLines(journey);
    case 'podTemplate':
      return replicaLines(journey);
    case 'runs':
      return runLines(journey);
  }
}

/** `complete in 4.1 s`, `stuck: FailedScheduling`, `in progress`; a Job's `failed: BackoffLimitExceeded`, a CronJob's `next Job pending`. */
export function journeyState(journey: Journey): string {
  if (journey.root.kind === 'Job') return jobSummary(journey, humanDuration);
  if (journey.root.kind === 'CronJob') return cronJobSummary(journey, humanDuration);
  if (journey.status === 'complete' && journey.totalDurationMs !== undefined) return `complete in ${humanDuration(journey.totalDurationMs)}`;
  if (journey.status === 'stuck' || journey.status === 'failed') {
    const reason = journey.stuckObjects[0]?.stuck.reason;
    return reason ? `${journey.status}: ${reason}` : journey.status;
  }
  if (journey.status === 'progressing') return 'in progress';
  return journey.status;
}
