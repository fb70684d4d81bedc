/**
 * The control-plane view of a journey: the path of one pod (the root's stages, its ReplicaSet's,
 * the pod's own) as steps in time order, each with the messages it took between the components
 * (client → kube-apiserver → etcd, watches fanning out to controllers, scheduler and kubelet, CRI
 * calls to the runtime). Requests are inferred from the stage kind; etcd writes and watch
 * deliveries come from the simulator's internals and are shown only when present.
 */
import { formatOffset } from '../../common/duration-format';
import { STAGE_RANK } from '../../common/stage-rank';
import type { Journey, JourneyObjectRef, ObjectJourney, Stage } from '../../core/journey/types';
import { componentGroup } from './components';
import { findObject, isTroubled, objectKey, pathTo } from './lanes';

export type Actor = 'kubectl' | 'apiserver' | 'etcd' | 'controllerManager' | 'scheduler' | 'kubelet' | 'runtime';

export const ACTORS: readonly Actor[] = ['kubectl', 'apiserver', 'etcd', 'controllerManager', 'scheduler', 'kubelet', 'runtime'];

export const ACTOR_LABELS: Readonly<Record<Actor, string>> = {
  kubectl: 'kubectl',
  apiserver: 'kube-apiserver',
  etcd: 'etcd',
  controllerManager: 'kube-controller-manager',
  scheduler: 'kube-scheduler',
  kubelet: 'kubelet',
  runtime: 'container runtime',
};

export type ArrowKind = 'request' | 'write' | 'watch' | 'cri' | 'status';

export interface Arrow {
  readonly from: Actor;
  readonly to: Actor;
  readonly kind: ArrowKind;
  readonly label: string;
  /** Only arrows from the internals stream are exact; the others are implied by the stage. */
  readonly observed: boolean;
}

export interface ControlPlaneStep {
  readonly object: JourneyObjectRef;
  readonly stageIndex: number;
  readonly stage: Stage;
  /** Ms from the apply. */
  readonly offsetMs: number;
  /** The component that acted. */
  readonly actor: Actor;
  /** `+0.025s default-scheduler: Bound to node-3`. */
  readonly title: string;
  readonly arrows: readonly Arrow[];
  /** etcd keys written and watches delivered, when the internals stream recorded them. */
  readonly internals: readonly string[];
}

export function actorOf(component: string): Actor {
  if (component === 'etcd') return 'etcd';
  switch (componentGroup(component)) {
    case 'apiServer':
      return 'apiserver';
    case 'controllerManager':
      return 'controllerManager';
    case 'scheduler':
      return 'scheduler';
    case 'kubelet':
      return 'kubelet';
    case 'runtime':
      return 'runtime';
    default:
      return 'kubectl';
  }
}

function resourceOf(kind: string): string {
  return kind === 'ReplicationController' ? 'replicationcontrollers' : `${kind.toLowerCase()}s`;
}

function inferred(from: Actor, to: Actor, kind: ArrowKind, label: string): Arrow {
  return { from, to, kind, label, observed: false };
}

/** The messages a stage implies, before the observed etcd writes and watch deliveries. */
function requestArrows(stage: Stage, ref: JourneyObjectRef, actor: Actor): Arrow[] {
  const what = `${ref.kind} ${ref.name}`;
  const container = stage.container ?? 'container';
  const write = (label: string): Arrow => inferred(actor, 'apiserver', 'request', label);
  switch (stage.kind) {
    case 'submitted':
      return [inferred('kubectl', 'apiserver', 'request', `apply ${what}`)];
    case 'stored':
      return [inferred('apiserver', 'etcd', 'write', `store ${what}`)];
    case 'replicaSetCreated':
      return [write(`create ReplicaSet ${ref.name}`)];
    case 'jobCreated':
      return [write(ref.kind === 'Job' ? `create Job ${ref.name}` : `create Job for ${stage.title}`)];
    case 'waiting':
    case 'suspended':
      return [];
    case 'scaled':
      // A DaemonSet's "scale" is its controller counting eligible nodes into its status.
      if (ref.kind === 'DaemonSet') return [inferred(actor, 'apiserver', 'status', `update daemonsets/status: ${stage.title}`)];
      return [write(ref.kind === 'Deployment' ? 'scale ReplicaSet (spec.replicas)' : `scale ${what} (spec.replicas)`)];
    case 'podCreated':
      return [inferred(actorOf(stage.component), 'apiserver', 'request', `create Pod ${ref.name}`)];
    case 'failedScheduling':
      return [write('event FailedScheduling; pod stays Pending')];
    case 'scheduled':
      return [write(`bind ${ref.name} (pods/binding)`)];
    case 'sandboxReady':
      return [inferred('kubelet', 'runtime', 'cri', 'RunPodSandbox'), inferred('kubelet', 'apiserver', 'status', 'patch pod status: PodReadyToStartContainers')];
    case 'pulling':
      return [inferred('kubelet', 'runtime', 'cri', `PullImage ${stage.message?.match(/"([^"]+)"/)?.[1] ?? ''}`.trim())];
    case 'pulled':
      return [inferred('runtime', 'kubelet', 'cri', 'image pulled')];
    case 'imagePresent':
      return [inferred('runtime', 'kubelet', 'cri', 'image already present')];
    case 'containerCreated':
      return [inferred('kubelet', 'runtime', 'cri', `CreateContainer ${container}`)];
    case 'containerStarted':
      return [inferred('kubelet', 'runtime', 'cri', `StartContainer ${container}`)];
    case 'containerTerminated':
      return [inferred('runtime', 'kubelet', 'cri', `${container} exited${stage.reason ? ` (${stage.reason})` : ''}`)];
    case 'killing':
      return [inferred('kubelet', 'runtime', 'cri', `StopContainer ${container}`)];
    case 'initialized':
    case 'running':
    case 'containersReady':
    case 'ready':
    case 'notReady':
    case 'succeeded':
      return [inferred('kubelet', 'apiserver', 'status', `patch pod status: ${stage.title}`)];
    case 'backOff':
    case 'unhealthy':
      return [inferred(actor, 'apiserver', 'request', `event ${stage.reason ?? stage.kind}`)];
    case 'failed':
      return [inferred(actor, 'apiserver', actor === 'kubelet' ? 'status' : 'request', `${stage.reason ?? 'failed'}`)];
    case 'available':
    case 'unavailable':
    case 'progressing':
    case 'complete':
      return [inferred(actor, 'apiserver', 'status', `update ${resourceOf(ref.kind)}/status: ${stage.title}`)];
    case 'terminating':
      return [inferred(actor, 'apiserver', 'request', `delete ${what}`)];
    case 'deleted':
      return [inferred('apiserver', 'etcd', 'write', `delete ${what}`)];
    case 'event':
      return [inferred(actor, 'apiserver', 'request', `event ${stage.reason ?? ''}`.trim())];
    case 'ipAllocated':
      return [inferred('apiserver', 'etcd', 'write', `allocate ClusterIP for ${what}`)];
    case 'endpointAdded':
    case 'endpointRemoved':
      return [write(`update EndpointSlice: ${stage.title}`)];
    case 'programmed':
    case 'servingTraffic':
      return [inferred('apiserver', 'kubelet', 'watch', `kube-proxy: ${stage.title}`)];
    default: {
      const unhandled: never = stage.kind;
      return [inferred(actor, 'apiserver', 'request', String(unhandled))];
    }
  }
}

function stepOf(journey: Journey, object: ObjectJourney, stageIndex: number): ControlPlaneStep {
  const stage = object.stages[stageIndex];
  const origin = journey.appliedAt;
  const actor = actorOf(stage.component);
  const arrows = requestArrows(stage, object.ref, actor);
  const internals: string[] = [];
  const etcd = stage.evidence.internals?.etcd ?? [];
  const watch = stage.evidence.internals?.watch ?? [];
  if (etcd.length > 0) {
    // The observed write replaces the inferred one for the stored stage.
    if (stage.kind === 'stored' || stage.kind === 'deleted') arrows.length = 0;
    for (const w of etcd) {
      arrows.push({ from: 'apiserver', to: 'etcd', kind: 'write', label: `${w.verb} ${w.key}`, observed: true });
      internals.push(`etcd key written: ${w.key} (${w.verb}, resourceVersion ${w.resourceVersion}, ${formatOffset(w.time - origin)})`);
    }
  }
  const watchedBy = new Set<Actor>();
  for (const d of watch) {
    const to = actorOf(d.component);
    internals.push(`watch delivered: ${d.eventType} ${d.object.kind} ${d.object.name} to ${d.component} (resourceVersion ${d.resourceVersion}, ${formatOffset(d.time - origin)})`);
    if (watchedBy.has(to)) continue;
    watchedBy.add(to);
    arrows.push({ from: 'apiserver', to, kind: 'watch', label: `watch ${d.eventType} ${d.object.kind}`, observed: true });
  }
  const cycle = stage.evidence.internals?.scheduling;
  if (cycle) internals.push(`scheduling cycle: ${cycle.feasibleNodes}/${cycle.evaluatedNodes} evaluated nodes feasible of ${cycle.totalNodes}${cycle.node ? `, picked ${cycle.node}` : ''}`);
  return {
    object: object.ref,
    stageIndex,
    stage,
    offsetMs: stage.time - origin,
    actor,
    title: `${formatOffset(stage.time - origin)} ${stage.component}: ${stage.title}`,
    arrows,
    internals,
  };
}

/**
 * The pod whose path is shown: `preferredKey` if it is a pod of the journey, else the first stuck
 * pod, else the first pod. Undefined for a journey without pods.
 */
export function controlPlanePod(journey: Journey, preferredKey?: string): ObjectJourney | undefined {
  if (preferredKey) {
    const preferred = findObject(journey.tree, preferredKey);
    if (preferred?.ref.kind === 'Pod') return preferred;
  }
  let first: ObjectJourney | undefined;
  let troubled: ObjectJourney | undefined;
  const visit = (node: ObjectJourney): void => {
    if (troubled) return;
    if (node.ref.kind === 'Pod') {
      first ??= node;
      if (isTroubled(node.status)) troubled = node;
      return;
    }
    for (const child of node.children) visit(child);
  };
  if (journey.tree) visit(journey.tree);
  return troubled ?? first;
}

/**
 * The objects on the way from the root to `leaf` (inclusive), found by key so that `leaf` may be
 * a fuller copy of the tree's object (fetched detail); the root alone without a leaf.
 */
function chain(tree: ObjectJourney, leaf: ObjectJourney | undefined): ObjectJourney[] {
  if (!leaf) return [tree];
  const path = pathTo(tree, objectKey(leaf.ref));
  if (path.length === 0) return [tree];
  path[path.length - 1] = leaf;
  return path;
}

/** The steps of the path to `pod` (see `controlPlanePod`), ordered by time, ties in lifecycle order. */
export function controlPlaneSteps(journey: Journey, pod: ObjectJourney | undefined): ControlPlaneStep[] {
  if (!journey.tree) return [];
  const entries: { object: ObjectJourney; index: number; depth: number }[] = [];
  chain(journey.tree, pod).forEach((object, depth) => object.stages.forEach((_, index) => entries.push({ object, index, depth })));
  entries.sort((a, b) => {
    const sa = a.object.stages[a.index];
    const sb = b.object.stages[b.index];
    return sa.time - sb.time || STAGE_RANK[sa.kind] - STAGE_RANK[sb.kind] || a.depth - b.depth || a.index - b.index;
  });
  return entries.map((e) => stepOf(journey, e.object, e.index));
}

/** The step showing `stageKey` of the object `key`, if it is on the path. */
export function stepIndexOf(steps: readonly ControlPlaneStep[], key: string, stageKey: string): number | undefined {
  const index = steps.findIndex((s) => s.stage.key === stageKey && objectKey(s.object) === key);
  return index < 0 ? undefined : index;
}

// ---------------------------------------------------------------------------------------------
// Diagram geometry (SVG user units; the view scales the SVG to its box).

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export const DIAGRAM_SIZE = { width: 600, height: 320 } as const;

/** Client left, API server in the middle with etcd under it, the watchers above, the node right. */
export const ACTOR_BOXES: Readonly<Record<Actor, Box>> = {
  kubectl: { x: 8, y: 138, w: 100, h: 44 },
  apiserver: { x: 196, y: 138, w: 160, h: 44 },
  etcd: { x: 211, y: 262, w: 130, h: 44 },
  controllerManager: { x: 40, y: 14, w: 210, h: 44 },
  scheduler: { x: 330, y: 14, w: 160, h: 44 },
  kubelet: { x: 452, y: 138, w: 120, h: 44 },
  runtime: { x: 432, y: 262, w: 160, h: 44 },
};

function centre(b: Box): { x: number; y: number } {
  return { x: b.x + b.w / 2, y: b.y + b.h / 2 };
}

/** Where the line from the box's centre towards (dx, dy) leaves the box. */
function edgePoint(b: Box, dx: number, dy: number): { x: number; y: number } {
  const c = centre(b);
  if (dx === 0 && dy === 0) return c;
  const sx = dx === 0 ? Infinity : b.w / 2 / Math.abs(dx);
  const sy = dy === 0 ? Infinity : b.h / 2 / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x: c.x + dx * s, y: c.y + dy * s };
}

export interface ArrowGeometry {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  /** Where the arrow's number badge goes (its middle). */
  readonly lx: number;
  readonly ly: number;
}

/**
 * A straight arrow between two boxes, leaving and entering at their edges. `lane` shifts parallel
 * arrows apart (requests one way and watches back must not overlap).
 */
export function arrowGeometry(from: Actor, to: Actor, lane = 0): ArrowGeometry {
  const a = ACTOR_BOXES[from];
  const b = ACTOR_BOXES[to];
  const ca = centre(a);
  const cb = centre(b);
  const dx = cb.x - ca.x;
  const dy = cb.y - ca.y;
  const length = Math.hypot(dx, dy) || 1;
  // Perpendicular offset, always to the same side of the from→to direction.
  const ox = (-dy / length) * lane * 10;
  const oy = (dx / length) * lane * 10;
  const p1 = edgePoint(a, dx, dy);
  const p2 = edgePoint(b, -dx, -dy);
  const x1 = p1.x + ox;
  const y1 = p1.y + oy;
  const x2 = p2.x + ox;
  const y2 = p2.y + oy;
  return { x1, y1, x2, y2, lx: (x1 + x2) / 2, ly: (y1 + y2) / 2 };
}
