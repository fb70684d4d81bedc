/**
 * The Journeys view as data: applied manifest → Deployment → ReplicaSet(s) → Pods, StatefulSet →
 * pods by ordinal, DaemonSet → pods by node, Job → pods (its tries), CronJob → Jobs → pods,
 * ReplicationController → pods, Service → EndpointSlices → the pods each routes to. Tree nodes
 * are a union keyed by `type`, each kind with one descriptor function that turns the latest
 * journey snapshot into a plain item model (label, description, Markdown tooltip, codicon and
 * theme colour ids, context value); the VS Code provider only converts models into TreeItems.
 *
 * Node objects are stable (one instance per id), because VS Code identifies tree elements by
 * object. A node holds identity only; its look is computed from the session each time, and its
 * signature tells the provider whether a refresh is needed.
 *
 * Above GROUP_ABOVE pods under one owner, the view groups them by state (stuck ones first), then
 * by node (see pod-groups.ts), so no parent lists thousands of rows.
 */
import { describeDependency } from './dependency-diagnostics';
import { escapeMarkdown, humanDuration, inlineCode, plural } from '../../core/explain/format';
import { journeySummary } from '../../core/explain/lens';
import { clockTime, podExit, workloadState } from '../../core/explain/workloads';
import { journeyGoal, ownsPods, podsInOrder } from '../../common/kind-order';
import type { EndpointDetails, Journey, JourneyStatus, ObjectJourney, PodDetails, TraceableKind } from '../../core/journey/types';
import { serviceFacts } from '../../core/journey/render-text';
import { GROUP_ABOVE, groupLayout, pathOfPod, stateGroups, type PodGroup, type PodLayoutEntry } from './pod-groups';
import type { AppliedEntry, AppliedManifest, TraceSession } from './trace-session';

/** Endpoints listed under one EndpointSlice. */
export const ENDPOINT_LIMIT = 200;

export interface ManifestNode {
  readonly type: 'manifest';
  readonly id: string;
  readonly manifestKey: string;
}

/** A document of an applied manifest that has no journey (a ConfigMap, a Secret, or one that failed). */
export interface AppliedNode {
  readonly type: 'applied';
  readonly id: string;
  readonly manifestKey: string;
  readonly documentIndex: number;
}

export interface ObjectNode {
  readonly type: 'object';
  readonly id: string;
  readonly journeyId: string;
  readonly kind: TraceableKind;
  readonly namespace: string;
  readonly name: string;
}

/** `Running · 9,800`, `node-17 · 12 pods`: a group of an owner's pods (see pod-groups.ts). */
export interface PodGroupNode {
  readonly type: 'podGroup';
  readonly id: string;
  readonly journeyId: string;
  /** The owner's (ReplicaSet, Job, DaemonSet…) object node id. */
  readonly ownerId: string;
  /** Group keys from the owner down to this group. */
  readonly path: readonly string[];
}

/** One endpoint of an EndpointSlice: a pod the Service routes to (the pod's own journey is its workload's). */
export interface EndpointNode {
  readonly type: 'endpoint';
  readonly id: string;
  readonly journeyId: string;
  /** The EndpointSlice node id. */
  readonly parentId: string;
  readonly namespace: string;
  readonly slice: string;
  readonly pod: string;
}

export type JourneyTreeNode = ManifestNode | AppliedNode | ObjectNode | PodGroupNode | EndpointNode;

export interface ItemIcon {
  /** Codicon id, with `~spin` where it should turn. */
  id: string;
  /** Theme colour id. */
  color?: string;
}

export interface TreeItemModel {
  label: string;
  description?: string;
  /** Markdown. */
  tooltip?: string;
  icon: ItemIcon;
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
}

export const CONTEXT_VALUES = {
  manifest: 'kubeJourney.manifest',
  applied: 'kubeJourney.applied',
  deployment: 'kubeJourney.deployment',
  replicaSet: 'kubeJourney.replicaSet',
  statefulSet: 'kubeJourney.statefulSet',
  daemonSet: 'kubeJourney.daemonSet',
  job: 'kubeJourney.job',
  cronJob: 'kubeJourney.cronJob',
  replicationController: 'kubeJourney.replicationController',
  service: 'kubeJourney.service',
  endpointSlice: 'kubeJourney.endpointSlice',
  pod: 'kubeJourney.pod',
  /** A pod the scheduler has not bound: offers the scheduler's per-node verdicts. */
  unscheduledPod: 'kubeJourney.pod.unscheduled',
  /** Not `kubeJourney.pod…`: the menus' patterns for pod rows must not match a group of pods. */
  podGroup: 'kubeJourney.group',
  endpoint: 'kubeJourney.endpoint',
} as const;

const WORKLOAD_CONTEXT: Readonly<Record<Exclude<TraceableKind, 'Pod'>, string>> = {
  Deployment: CONTEXT_VALUES.deployment,
  ReplicaSet: CONTEXT_VALUES.replicaSet,
  StatefulSet: CONTEXT_VALUES.statefulSet,
  DaemonSet: CONTEXT_VALUES.daemonSet,
  Job: CONTEXT_VALUES.job,
  CronJob: CONTEXT_VALUES.cronJob,
  ReplicationController: CONTEXT_VALUES.replicationController,
  Service: CONTEXT_VALUES.service,
  EndpointSlice: CONTEXT_VALUES.endpointSlice,
};

export function statusIcon(status: JourneyStatus): ItemIcon {
  switch (status) {
    case 'complete':
      return { id: 'pass-filled', color: 'testing.iconPassed' };
    case 'progressing':
      return { id: 'loading~spin' };
    case 'pending':
      return { id: 'circle-large-outline', color: 'descriptionForeground' };
    case 'stuck':
      return { id: 'warning', color: 'list.warningForeground' };
    case 'failed':
      return { id: 'error', color: 'list.errorForeground' };
    case 'deleted':
      return { id: 'trash', color: 'disabledForeground' };
  }
}

function timeOfDay(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A pod whose deletion was requested (deletionTimestamp set) and that is not gone yet. */
export function isTerminating(object: ObjectJourney): boolean {
  return object.status === 'deleted' && object.stages.some((stage) => stage.kind === 'terminating') && !object.stages.some((stage) => stage.kind === 'deleted');
}

/** What `kubectl get pods` would put in STATUS: `Terminating` while a deletion runs, a waiting or terminated reason, else the phase. */
export function podStatusText(pod: PodDetails | undefined, status: JourneyStatus, terminating = false): string {
  if (terminating) return 'Terminating';
  if (status === 'deleted') return 'Deleted';
  if (!pod) return 'Pending';
  const problem = pod.containers.find((c) => c.state !== 'Running' && c.state !== 'Completed' && c.state !== 'ContainerCreating' && c.state !== 'PodInitializing' && c.state !== 'Waiting');
  if (problem) return problem.state;
  if (pod.phase === 'Pending' && pod.node && pod.containers.some((c) => c.state === 'ContainerCreating')) return 'ContainerCreating';
  return pod.phase ?? 'Pending';
}

/** Where a pod sits under its owner: a DaemonSet's pod is read by its node, a Job's by its try. */
export interface PodPlace {
  ownerKind?: TraceableKind;
  /** 1-based position among the owner's pods, in the owner's order. */
  position?: number;
}

export function podDescription(object: ObjectJourney, place: PodPlace = {}): string {
  const pod = object.pod;
  const parts: string[] = [];
  if (place.ownerKind === 'Job' && place.position !== undefined) parts.push(`try ${place.position}`);
  // A DaemonSet's pod has its node in its label.
  if (place.ownerKind !== 'DaemonSet' || !pod?.node) parts.push(pod?.node ?? 'not scheduled');
  const exit = place.ownerKind === 'Job' ? podExit(object) : undefined;
  parts.push(exit ?? podStatusText(pod, object.status, isTerminating(object)));
  if (pod && !exit) {
    parts.push(`${pod.readyContainers}/${pod.totalContainers} ready`);
    parts.push(plural(pod.restarts, 'restart'));
  } else if (pod && pod.restarts > 0) parts.push(plural(pod.restarts, 'restart'));
  return parts.join(' · ');
}

/** A DaemonSet's pods lead with their node, so hundreds of them read as the nodes they cover. */
function podLabel(object: ObjectJourney, place: PodPlace): string {
  return place.ownerKind === 'DaemonSet' && object.pod?.node ? `${object.pod.node} · ${object.ref.name}` : object.ref.name;
}

function durationsLine(pod: PodDetails): string | undefined {
  const p = pod.phases;
  const parts: string[] = [];
  if (p.create_to_schedule !== undefined) parts.push(`scheduled after ${humanDuration(p.create_to_schedule)}`);
  if (p.create_to_run !== undefined) parts.push(`running after ${humanDuration(p.create_to_run)}`);
  if (p.create_to_ready !== undefined) parts.push(`Ready after ${humanDuration(p.create_to_ready)}`);
  return parts.length > 0 ? `From creation: ${parts.join(' · ')}` : undefined;
}

export function podTooltip(object: ObjectJourney): string {
  const pod = object.pod;
  const lines = [`**Pod** ${escapeMarkdown(`${object.ref.namespace}/${object.ref.name}`)} · ${podStatusText(pod, object.status, isTerminating(object))}`];
  if (pod?.node) lines.push(`Node: ${escapeMarkdown(pod.node)}${pod.nodeReady === false ? ' (NotReady)' : ''}${pod.podIP ? ` · IP ${pod.podIP}` : ''}`);
  else if (object.status !== 'deleted') lines.push('Node: not scheduled yet');
  if (pod && pod.containers.length > 0) {
    lines.push(
      pod.containers
        .map((c) => `- ${escapeMarkdown(c.name)}: ${c.state}${c.ready ? ', ready' : ''}${c.restarts > 0 ? `, ${plural(c.restarts, 'restart')}` : ''}${c.image ? ` · ${inlineCode(c.image)}` : ''}`)
        .join('\n'),
    );
  }
  const durations = pod ? durationsLine(pod) : undefined;
  if (durations) lines.push(durations);
  for (const assumed of assumedStageTexts(object)) lines.push(`$(info) ${escapeMarkdown(assumed)}`);
  if (object.stuck) {
    const who = object.stuck.component;
    const count = object.stuck.count && object.stuck.count > 1 ? ` (×${object.stuck.count})` : '';
    lines.push(`$(warning) **${escapeMarkdown(object.stuck.reason)}**${count} — ${escapeMarkdown(String(who))}:\n\n${inlineCode(object.stuck.message)}`);
    if (object.stuck.dependency) lines.push(`Waits for ${escapeMarkdown(describeDependency(object.stuck.dependency))}, which does not exist yet.`);
  }
  return lines.join('\n\n');
}

/**
 * What the simulator assumed about this object's stages, once per distinct text (an exit, a run,
 * a pull), each with its container: a pod's container lines list no init container, so an unnamed
 * "exit 0" would read as the running container's. The root's tooltip counts them over the journey.
 */
function assumedStageTexts(object: ObjectJourney): string[] {
  const texts = new Set<string>();
  for (const stage of object.stages) {
    if (stage.assumed === undefined) continue;
    texts.add(stage.container ? `${stage.container} — ${stage.assumed}` : stage.assumed);
  }
  return [...texts];
}

/** How a journey stands, after the root's own counts: `7 s`, `in progress`, `stuck: FailedScheduling`. */
function journeyOutcome(journey: Journey): string {
  switch (journey.status) {
    case 'complete':
      return journey.totalDurationMs !== undefined ? humanDuration(journey.totalDurationMs) : 'complete';
    case 'stuck':
    case 'failed': {
      const reason = journey.tree?.stuck?.reason ?? journey.stuckObjects[0]?.stuck.reason;
      return `${journey.status}${reason ? `: ${reason}` : ''}`;
    }
    case 'progressing':
      return 'in progress';
    case 'pending':
      return 'waiting for the API server';
    case 'deleted':
      return 'deleted';
  }
}

function workloadDescription(object: ObjectJourney, journey: Journey, isRoot: boolean): string {
  const parts: string[] = [object.ref.kind];
  if (object.service || object.endpoints) {
    if (object.service) parts.push(...serviceFacts(object.service).slice(1));
    if (object.endpoints) parts.push(`${object.endpoints.filter((endpoint) => endpoint.ready).length}/${object.endpoints.length} endpoints ready`);
    if (isRoot) parts.push(journeyOutcome(journey));
    return parts.join(' · ');
  }
  const r = object.replicas;
  const kind = object.ref.kind;
  if (kind === 'ReplicaSet' && r?.revision) parts.push(`rev ${r.revision}`);
  if (kind === 'Deployment' || kind === 'ReplicaSet') {
    if (isRoot) parts.push(journeySummary(journey));
    else if (r) parts.push(`${r.ready}/${r.desired} ready`);
  } else {
    const state = workloadState(object);
    if (state) parts.push(state);
    if (isRoot) parts.push(kind === 'CronJob' ? journeySummary(journey) : journeyOutcome(journey));
    else if (kind === 'Job' && object.status !== 'progressing' && object.status !== 'pending') parts.push(object.status === 'complete' ? 'completed' : journeyStatusWord(object));
  }
  if (object.preexisting) parts.push('from before');
  return parts.join(' · ');
}

function journeyStatusWord(object: ObjectJourney): string {
  return object.stuck ? `${object.status}: ${object.stuck.reason}` : object.status;
}

/** The kind's own facts for its tooltip: revision, nodes, completions and retries, schedule. */
function kindLines(object: ObjectJourney): string[] {
  const r = object.replicas;
  if (!r) return [];
  switch (object.ref.kind) {
    case 'StatefulSet':
      return r.revision ? [r.currentRevision ? `Rolling from revision ${inlineCode(r.currentRevision)} to ${inlineCode(r.revision)}` : `Revision ${inlineCode(r.revision)}`] : [];
    case 'DaemonSet':
      return [`${plural(r.desired, 'eligible node')} · ${r.current} scheduled · ${r.ready} ready · ${r.available} available${r.updated !== undefined ? ` · ${r.updated} up to date` : ''}`];
    case 'Job': {
      const job = r.job;
      if (!job) return [];
      const lines = [`completions ${job.completions ?? 'unset (one success)'} · parallelism ${job.parallelism} · backoffLimit ${job.backoffLimit}${job.completionMode === 'Indexed' ? ' · Indexed' : ''}`];
      lines.push(`${job.succeeded} succeeded · ${job.failed} failed (${plural(job.failed, 'retry', 'retries')} of ${job.backoffLimit}) · ${job.active} active${job.suspended ? ' · suspended' : ''}`);
      if (job.startTime !== undefined) lines.push(`Started ${timeOfDay(job.startTime)}${job.completionTime !== undefined ? ` · completed ${timeOfDay(job.completionTime)}` : ''}`);
      return lines;
    }
    case 'CronJob': {
      const cron = r.cronJob;
      if (!cron) return [];
      const lines = [`Schedule ${inlineCode(cron.schedule)}${cron.timeZone ? ` in ${escapeMarkdown(cron.timeZone)}` : ''} · concurrencyPolicy ${cron.concurrencyPolicy}${cron.suspended ? ' · suspended' : ''}`];
      const runs = [cron.lastScheduleTime !== undefined ? `Last run ${clockTime(cron.lastScheduleTime)}` : 'No run yet', cron.lastSuccessfulTime !== undefined ? `last success ${clockTime(cron.lastSuccessfulTime)}` : undefined];
      lines.push([...runs.filter((x): x is string => x !== undefined), `${plural(object.children.length, 'Job')} traced`].join(' · '));
      return lines;
    }
    default:
      return [];
  }
}

function workloadTooltip(object: ObjectJourney, journey: Journey, isRoot: boolean): string {
  const lines = [`**${object.ref.kind}** ${escapeMarkdown(`${object.ref.namespace}/${object.ref.name}`)} · ${object.status}`];
  const r = object.replicas;
  const ownCounts = object.ref.kind === 'Job' || object.ref.kind === 'CronJob' || object.ref.kind === 'DaemonSet';
  if (r && !ownCounts) {
    lines.push(`${r.desired} desired · ${r.current} current · ${r.ready} ready · ${r.available} available${r.updated !== undefined ? ` · ${r.updated} up to date` : ''}`);
  }
  lines.push(...kindLines(object));
  if (r && r.images.length > 0) lines.push(`Images: ${r.images.map(inlineCode).join(', ')}`);
  if (isRoot) {
    const done = object.ref.kind === 'Deployment' ? 'rolled out' : journeyGoal(object.ref.kind);
    lines.push(`Applied at ${timeOfDay(journey.appliedAt)}${journey.totalDurationMs !== undefined ? ` · ${done} in ${humanDuration(journey.totalDurationMs)}` : ''}`);
    if (journey.stuckCount > 0) lines.push(`${plural(journey.stuckCount, 'object')} stuck or failed`);
    if (journey.assumptionCount) {
      const forPods = journey.assumedObjects === undefined ? '' : `, for ${plural(journey.assumedObjects, 'pod')}`;
      lines.push(`$(info) Assuming ${plural(journey.assumptionCount, 'outcome')} the simulator cannot know${forPods} (a program it cannot read, an image it cannot check): a real cluster may differ`);
    }
  }
  for (const assumed of assumedStageTexts(object)) lines.push(`$(info) ${escapeMarkdown(assumed)}`);
  if (object.stuck) lines.push(`$(warning) **${escapeMarkdown(object.stuck.reason)}**: ${inlineCode(object.stuck.message)}`);
  return lines.join('\n\n');
}

function entryDescription(entry: AppliedEntry): string {
  return entry.error ? 'error' : (entry.action ?? 'sent');
}

function objectKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

function objectNodeId(journeyId: string, ref: { kind: string; namespace: string; name: string }): string {
  return `object:${journeyId}:${objectKey(ref.kind, ref.namespace, ref.name)}`;
}

/** Finds objects in a journey snapshot by kind/namespace/name; built once per snapshot. */
const indexes = new WeakMap<ObjectJourney, Map<string, { object: ObjectJourney; parent?: ObjectJourney }>>();

function indexOf(tree: ObjectJourney): Map<string, { object: ObjectJourney; parent?: ObjectJourney }> {
  let index = indexes.get(tree);
  if (index) return index;
  index = new Map();
  const visit = (object: ObjectJourney, parent?: ObjectJourney): void => {
    index!.set(objectKey(object.ref.kind, object.ref.namespace, object.ref.name), { object, parent });
    for (const child of object.children) visit(child, object);
  };
  visit(tree);
  indexes.set(tree, index);
  return index;
}

/** An owner's state groups, and each deeper group's rows, built once per snapshot of the owner. */
interface OwnerLayout {
  states: PodGroup[];
  byPath: Map<string, PodLayoutEntry[]>;
}

const layouts = new WeakMap<ObjectJourney, OwnerLayout>();

function podState(pod: ObjectJourney): string {
  return podStatusText(pod.pod, pod.status, isTerminating(pod));
}

function ownerLayout(owner: ObjectJourney): OwnerLayout {
  let layout = layouts.get(owner);
  if (!layout) layouts.set(owner, (layout = { states: stateGroups(podsInOrder(owner), podState), byPath: new Map() }));
  return layout;
}

/** Whether an owner's pods are grouped rather than listed. */
function groupsPods(owner: ObjectJourney): boolean {
  return ownsPods(owner.ref.kind) && owner.children.length > GROUP_ABOVE;
}

/** The group at `path` under an owner with the rows inside it, or undefined when no such group exists any more. */
function groupAt(owner: ObjectJourney, path: readonly string[]): { group: PodGroup; rows: PodLayoutEntry[] } | undefined {
  const layout = ownerLayout(owner);
  let group = layout.states.find((candidate) => candidate.key === path[0]);
  for (let depth = 1; group && depth <= path.length; depth++) {
    const pathKey = path.slice(0, depth).join('\n');
    let rows = layout.byPath.get(pathKey);
    if (!rows) layout.byPath.set(pathKey, (rows = groupLayout(group.pods)));
    if (depth === path.length) return { group, rows };
    const key = path[depth];
    group = rows.find((row): row is { group: PodGroup } => 'group' in row && row.group.key === key)?.group;
  }
  return undefined;
}

export class JourneyTreeModel {
  private readonly nodes = new Map<string, JourneyTreeNode>();
  private readonly parents = new Map<string, string | undefined>();
  /** Journey id → its nodes handed out, so a change looks only at its own journey's rows. */
  private readonly byJourney = new Map<string, JourneyTreeNode[]>();

  constructor(private readonly session: TraceSession) {}

  private intern<T extends JourneyTreeNode>(node: T, parentId: string | undefined): T {
    const existing = this.nodes.get(node.id);
    this.parents.set(node.id, parentId);
    if (existing) return existing as T;
    this.nodes.set(node.id, node);
    if ('journeyId' in node) {
      const list = this.byJourney.get(node.journeyId);
      if (list) list.push(node);
      else this.byJourney.set(node.journeyId, [node]);
    }
    return node;
  }

  /** Forgets every node (the session was cleared). */
  reset(): void {
    this.nodes.clear();
    this.parents.clear();
    this.byJourney.clear();
  }

  node(id: string): JourneyTreeNode | undefined {
    return this.nodes.get(id);
  }

  parentOf(node: JourneyTreeNode): JourneyTreeNode | undefined {
    const parentId = this.parents.get(node.id);
    return parentId === undefined ? undefined : this.nodes.get(parentId);
  }

  /** Nodes already handed out for a journey (the only ones a change can make VS Code repaint). */
  nodesOfJourney(journeyId: string): readonly JourneyTreeNode[] {
    return this.byJourney.get(journeyId) ?? [];
  }

  manifestNodeFor(manifestKey: string): ManifestNode {
    return this.intern({ type: 'manifest', id: `manifest:${manifestKey}`, manifestKey }, undefined);
  }

  objectNode(journeyId: string, object: ObjectJourney, parentId: string | undefined): ObjectNode {
    const { kind, namespace, name } = object.ref;
    return this.intern({ type: 'object', id: objectNodeId(journeyId, object.ref), journeyId, kind, namespace, name }, parentId);
  }

  children(node?: JourneyTreeNode): JourneyTreeNode[] {
    if (!node) return this.session.manifests().map((m) => this.manifestNodeFor(m.key));
    switch (node.type) {
      case 'manifest': {
        const manifest = this.session.manifest(node.manifestKey);
        if (!manifest) return [];
        return manifest.entries.map((entry) => {
          const journey = entry.journeyId ? this.session.journey(entry.journeyId) : undefined;
          if (journey && entry.journeyId) {
            const root: ObjectJourney = journey.tree ?? { ref: journey.root, status: journey.status, stages: [], children: [] };
            return this.objectNode(entry.journeyId, root, node.id);
          }
          return this.intern({ type: 'applied', id: `applied:${manifest.key}#${entry.documentIndex}`, manifestKey: manifest.key, documentIndex: entry.documentIndex }, node.id);
        });
      }
      case 'object': {
        const object = this.objectOf(node);
        if (!object) return [];
        if (object.endpoints) {
          return object.endpoints.slice(0, ENDPOINT_LIMIT).map((endpoint) =>
            this.intern({ type: 'endpoint', id: `endpoint:${node.id}:${endpoint.pod}`, journeyId: node.journeyId, parentId: node.id, namespace: object.ref.namespace, slice: object.ref.name, pod: endpoint.pod }, node.id),
          );
        }
        if (!ownsPods(object.ref.kind)) return object.children.map((child) => this.objectNode(node.journeyId, child, node.id));
        if (!groupsPods(object)) return podsInOrder(object).map((child) => this.objectNode(node.journeyId, child, node.id));
        return ownerLayout(object).states.map((group) => this.groupNode(node, [group.key], node.id));
      }
      case 'podGroup': {
        const owner = this.nodes.get(node.ownerId);
        const object = owner?.type === 'object' ? this.objectOf(owner) : undefined;
        const rows = object ? groupAt(object, node.path)?.rows : undefined;
        if (!owner || !rows) return [];
        return rows.map((row) => ('pod' in row ? this.objectNode(node.journeyId, row.pod, node.id) : this.groupNode(owner as ObjectNode, [...node.path, row.group.key], node.id)));
      }
      case 'applied':
      case 'endpoint':
        return [];
    }
  }

  private groupNode(owner: ObjectNode, path: string[], parentId: string): PodGroupNode {
    return this.intern({ type: 'podGroup', id: `group:${owner.id}:${path.join('/')}`, journeyId: owner.journeyId, ownerId: owner.id, path }, parentId);
  }

  /**
   * The node of an object of a journey, with every node above it known (for TreeView.reveal), or
   * undefined when the journey came from no applied manifest. A pod of a grouped owner is found
   * inside its groups.
   */
  nodeForObject(journeyId: string, ref: { kind: string; namespace: string; name: string }): ObjectNode | undefined {
    const manifest = this.session.manifests().find((m) => m.entries.some((e) => e.journeyId === journeyId));
    const tree = this.session.journey(journeyId)?.tree;
    if (!manifest || !tree) return undefined;
    const index = indexOf(tree);
    const chain: ObjectJourney[] = [];
    for (let entry = index.get(objectKey(ref.kind, ref.namespace, ref.name)); entry; entry = entry.parent ? index.get(objectKey(entry.parent.ref.kind, entry.parent.ref.namespace, entry.parent.ref.name)) : undefined) {
      chain.unshift(entry.object);
    }
    if (chain.length === 0) return undefined;
    let parentNode: JourneyTreeNode = this.manifestNodeFor(manifest.key);
    let found: ObjectNode | undefined;
    let owner: ObjectJourney | undefined;
    for (const object of chain) {
      if (owner && parentNode.type === 'object' && groupsPods(owner)) {
        const path = pathOfPod(ownerLayout(owner).states, object);
        if (!path) return undefined;
        const ownerNode = parentNode;
        for (let depth = 1; depth <= path.length; depth++) parentNode = this.groupNode(ownerNode, path.slice(0, depth), parentNode.id);
      }
      const id = objectNodeId(journeyId, object.ref);
      found = this.children(parentNode).find((child): child is ObjectNode => child.id === id);
      if (!found) return undefined;
      parentNode = found;
      owner = object;
    }
    return found;
  }

  /** The object a node stands for, in the latest snapshot of its journey. */
  objectOf(node: ObjectNode): ObjectJourney | undefined {
    const tree = this.session.journey(node.journeyId)?.tree;
    return tree ? indexOf(tree).get(objectKey(node.kind, node.namespace, node.name))?.object : undefined;
  }

  journeyOf(node: JourneyTreeNode): Journey | undefined {
    return node.type === 'object' || node.type === 'podGroup' || node.type === 'endpoint' ? this.session.journey(node.journeyId) : undefined;
  }

  item(node: JourneyTreeNode): TreeItemModel | undefined {
    switch (node.type) {
      case 'manifest': {
        const manifest = this.session.manifest(node.manifestKey);
        return manifest ? manifestItem(manifest) : undefined;
      }
      case 'applied': {
        const entry = this.session.manifest(node.manifestKey)?.entries.find((e) => e.documentIndex === node.documentIndex);
        return entry ? appliedItem(entry) : undefined;
      }
      case 'object': {
        const journey = this.session.journey(node.journeyId);
        if (!journey) return undefined;
        const found = journey.tree ? indexOf(journey.tree).get(objectKey(node.kind, node.namespace, node.name)) : undefined;
        const object = found?.object ?? (journey.root.name === node.name && journey.root.kind === node.kind ? { ref: journey.root, status: journey.status, stages: [], children: [] } : undefined);
        if (!object) return undefined;
        return objectItem(object, journey, journey.root.kind === node.kind && journey.root.name === node.name, placeOf(object, found?.parent));
      }
      case 'endpoint': {
        const tree = this.session.journey(node.journeyId)?.tree;
        const slice = tree ? indexOf(tree).get(objectKey('EndpointSlice', node.namespace, node.slice))?.object : undefined;
        const endpoint = slice?.endpoints?.find((candidate) => candidate.pod === node.pod);
        return endpoint ? endpointItem(endpoint, node.slice) : undefined;
      }
      case 'podGroup': {
        const owner = this.nodes.get(node.ownerId);
        const object = owner?.type === 'object' ? this.objectOf(owner) : undefined;
        const found = object ? groupAt(object, node.path) : undefined;
        return found && object ? podGroupItem(found.group, object) : undefined;
      }
    }
  }

  /** A string that changes whenever the node's item or its list of children changes. */
  signature(node: JourneyTreeNode): string {
    const item = this.item(node);
    const childIds = node.type === 'object' || node.type === 'manifest' || node.type === 'podGroup' ? this.children(node).map((c) => c.id) : [];
    return JSON.stringify([item, childIds]);
  }
}

function manifestItem(manifest: AppliedManifest): TreeItemModel {
  const failed = manifest.entries.filter((e) => e.error).length;
  const lines = [`**${escapeMarkdown(manifest.label)}** applied to ${escapeMarkdown(manifest.target)} at ${timeOfDay(manifest.appliedAt)}`];
  lines.push(manifest.entries.map((e) => `- ${escapeMarkdown(e.display)} ${e.error ? `— error: ${escapeMarkdown(e.error)}` : entryDescription(e)}`).join('\n'));
  return {
    label: manifest.label,
    description: `${manifest.target} · ${timeOfDay(manifest.appliedAt)}${failed > 0 ? ` · ${failed} failed` : ''}`,
    tooltip: lines.join('\n\n'),
    icon: failed > 0 ? { id: 'file-code', color: 'list.errorForeground' } : { id: 'file-code' },
    contextValue: CONTEXT_VALUES.manifest,
    collapsible: 'expanded',
  };
}

function appliedItem(entry: AppliedEntry): TreeItemModel {
  return {
    label: entry.display,
    description: entryDescription(entry),
    tooltip: entry.error ? `**${escapeMarkdown(entry.display)}** (line ${entry.line})\n\n${inlineCode(entry.error)}` : `**${escapeMarkdown(entry.display)}** ${entryDescription(entry)} (line ${entry.line})`,
    icon: entry.error ? { id: 'error', color: 'list.errorForeground' } : { id: 'check', color: 'testing.iconPassed' },
    contextValue: CONTEXT_VALUES.applied,
    collapsible: 'none',
  };
}

/** A pod's owner kind, and for a Job's pods which try it was (creation order). */
function placeOf(object: ObjectJourney, parent: ObjectJourney | undefined): PodPlace {
  if (object.ref.kind !== 'Pod' || !parent) return {};
  if (parent.ref.kind !== 'Job') return { ownerKind: parent.ref.kind };
  return { ownerKind: 'Job', position: parent.children.indexOf(object) + 1 };
}

/** `ready · node-2`, `not ready`, `terminating · serving`: the endpoint's conditions as the slice holds them. */
function endpointItem(endpoint: EndpointDetails, slice: string): TreeItemModel {
  const state = endpoint.terminating ? `terminating${endpoint.serving ? ' · serving' : ''}` : endpoint.ready ? 'ready' : 'not ready';
  const description = endpoint.node ? `${state} · ${endpoint.node}` : state;
  return {
    label: endpoint.pod,
    description,
    tooltip: `**Endpoint** ${escapeMarkdown(endpoint.pod)} in EndpointSlice ${escapeMarkdown(slice)}\n\nready ${endpoint.ready} · serving ${endpoint.serving} · terminating ${endpoint.terminating}${endpoint.ready ? '\n\nThe Service sends traffic here once kube-proxy programmed it.' : ''}`,
    icon: endpoint.ready ? { id: 'pass-filled', color: 'testing.iconPassed' } : endpoint.terminating ? { id: 'trash', color: 'disabledForeground' } : { id: 'circle-large-outline', color: 'descriptionForeground' },
    contextValue: CONTEXT_VALUES.endpoint,
    collapsible: 'none',
  };
}

function objectItem(object: ObjectJourney, journey: Journey, isRoot: boolean, place: PodPlace): TreeItemModel {
  const icon = statusIcon(object.status);
  if (object.ref.kind === 'Pod') {
    const unscheduled = !object.pod?.node && object.status !== 'deleted';
    return {
      label: podLabel(object, place),
      description: isRoot ? `${podDescription(object)} · ${journeySummary(journey)}` : podDescription(object, place),
      tooltip: podTooltip(object),
      icon,
      contextValue: unscheduled ? CONTEXT_VALUES.unscheduledPod : CONTEXT_VALUES.pod,
      collapsible: 'none',
    };
  }
  const hasChildren = object.children.length > 0 || (object.endpoints?.length ?? 0) > 0;
  return {
    label: object.ref.name,
    description: workloadDescription(object, journey, isRoot),
    tooltip: workloadTooltip(object, journey, isRoot),
    icon,
    contextValue: WORKLOAD_CONTEXT[object.ref.kind],
    collapsible: hasChildren ? (object.preexisting ? 'collapsed' : 'expanded') : 'none',
  };
}

/** `9,800 pods`: plural() with thousands separated, for counts that run into thousands. */
function counted(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : `${word}s`}`;
}

/** `Pending · 150` (stuck: FailedScheduling), `node-17 · 12 pods`, `node-1 – node-10 · 100 pods`, `pods 1–100`. */
function podGroupItem(group: PodGroup, owner: ObjectJourney): TreeItemModel {
  const troubled = group.status === 'stuck' || group.status === 'failed';
  let label = `${group.label} · ${counted(group.pods.length, 'pod')}`;
  let description: string | undefined;
  if (group.kind === 'run') label = group.label;
  if (group.kind === 'state') {
    label = `${group.label} · ${group.pods.length.toLocaleString('en-US')}`;
    const nodes = new Set(group.pods.map((pod) => pod.pod?.node).filter((node) => node !== undefined)).size;
    const parts = [troubled ? `${group.status}${group.reason ? `: ${group.reason}` : ''}` : undefined, nodes > 0 ? `on ${counted(nodes, 'node')}` : undefined];
    description = parts.filter((part) => part !== undefined).join(' · ') || undefined;
  }
  const lines = [`**${counted(group.pods.length, 'pod')}** of ${owner.ref.kind} ${escapeMarkdown(`${owner.ref.namespace}/${owner.ref.name}`)} · ${escapeMarkdown(group.label)}`];
  if (troubled && (group.reason || group.message)) lines.push(`$(warning) ${group.reason ? `**${escapeMarkdown(group.reason)}**` : ''}${group.reason && group.message ? ': ' : ''}${group.message ? inlineCode(group.message) : ''}`);
  lines.push(`Above ${GROUP_ABOVE} pods the view groups them by state and node; the timeline shows every pod.`);
  return {
    label,
    description,
    tooltip: lines.join('\n\n'),
    icon: statusIcon(group.status),
    contextValue: CONTEXT_VALUES.podGroup,
    collapsible: group.kind === 'state' && troubled ? 'expanded' : 'collapsed',
  };
}
