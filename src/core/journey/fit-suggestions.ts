/**
 * The smallest changes that would make a pod the scheduler refused fit somewhere: a lower request,
 * a toleration, a node label a selector could use, fewer replicas, the missing claim, a free host
 * port, a node to uncordon. The simulator computes them (src/sim/scheduler/counterfactual) by
 * re-running its filters with the change; this file is the plain-data shape every consumer reads
 * (the CLI's `fits if:` lines, `--json`, the HTTP route the VS Code Quick Fix reads), and the pure
 * helpers that word an edit and apply it to a manifest object.
 */
import type { KubeObject } from '../k8s';
import type { Journey, JourneyObjectRef, ObjectJourney, StuckDetail } from './types';

/** Which filter the change answers. */
export type FitSuggestionKind =
  | 'cpu'
  | 'memory'
  | 'toleration'
  | 'nodeSelector'
  | 'nodeAffinity'
  | 'replicas'
  | 'claim'
  | 'hostPort'
  | 'uncordon'
  | 'topologySpread'
  | 'podAffinity';

/**
 * One change to a manifest object, its `path` in the dotted form `lineOfField` reads
 * (`spec.template.spec.containers[0].resources.requests.cpu`):
 * - `set`: the value (a scalar, or a whole map such as a nodeSelector whose keys hold dots) at
 *   `path` (missing maps on the way are created);
 * - `add`: append `value` to the list at `path` (created when missing);
 * - `remove`: delete the map key or list item at `path`;
 * - `create`: a new object (a new document in the file), for a missing claim.
 */
export type FitEdit =
  | { op: 'set'; path: string; value: unknown }
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'create'; object: KubeObject };

/** The manifest object a suggestion edits: the pod's topmost owner (a Deployment, a StatefulSet, the Pod itself) or a claim. */
export interface FitTarget {
  kind: string;
  namespace: string;
  name: string;
}

/** One change, on its own, and where the pod would then fit. */
export interface FitSuggestion {
  kind: FitSuggestionKind;
  /** The change in a few words: `requests.cpu ≤ 3920m`, `toleration dedicated=gpu:NoSchedule`, `kubectl uncordon node-2`. */
  summary: string;
  /** Nodes the pod would fit on with this change alone (the scheduler's filters re-run with it). */
  nodes: number;
  /** Nodes in the cluster. */
  totalNodes: number;
  /** The object to edit; absent for a change to the cluster (`command`). */
  target?: FitTarget;
  /** The field the change is about, in `target` (the line a Quick Fix or the CLI points at). */
  path?: string;
  /** The edits to `target` (or new objects) that make the change; empty for a `command`. */
  edits: FitEdit[];
  /** A change to the cluster instead of the manifest: `kubectl uncordon node-2`. */
  command?: string;
  /** The manifest line of `path`, when the reader knows the file (the CLI sets it). */
  line?: number;
  /** Two changes needed together (no single one is enough): their kinds; `kind` is the first's. */
  together?: FitSuggestionKind[];
}

/** When a stuck rollout gives up: the Deployment's Progressing condition turns False, reason ProgressDeadlineExceeded. */
export interface ProgressDeadline {
  deployment: string;
  /** lastUpdateTime of Progressing (the last progress) + progressDeadlineSeconds, ms. */
  at: number;
  seconds: number;
  /** The condition already says ProgressDeadlineExceeded. */
  exceeded: boolean;
}

/** Everything computed for one pending pod. */
export interface FitSuggestions {
  /** When they were computed (the simulator's clock), ms. */
  computedAt: number;
  totalNodes: number;
  /** The pod fits some node already (the scheduler will place it on its next attempt). */
  fitsNow?: number;
  /** Each change on its own, the ones opening the most nodes first within a kind. */
  suggestions: FitSuggestion[];
  progressDeadline?: ProgressDeadline;
}

/** `(fits on 3 of 3 nodes)`. */
export function fitNodesText(s: Pick<FitSuggestion, 'nodes' | 'totalNodes'>): string {
  return `fits on ${s.nodes} of ${s.totalNodes} node${s.totalNodes === 1 ? '' : 's'}`;
}

/** `requests.cpu ≤ 3920m (fits on 3 of 3 nodes) · line 22`: one suggestion as the CLI prints it. */
export function fitSuggestionText(s: FitSuggestion): string {
  return `${s.summary} (${fitNodesText(s)})${s.line !== undefined ? ` · line ${s.line}` : ''}`;
}

/** Where a pod's spec sits in the object that makes it: `spec.template.` for workloads, `` for a bare Pod. */
export function podSpecPrefix(kind: string): string {
  switch (kind) {
    case 'Pod':
      return '';
    case 'CronJob':
      return 'spec.jobTemplate.spec.template.';
    default:
      return 'spec.template.';
  }
}

type Segment = string | number;

/** `a.b[0].c` → `['a', 'b', 0, 'c']`. */
export function fieldSegments(path: string): Segment[] {
  const out: Segment[] = [];
  for (const part of path.split('.')) {
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      out.push(part);
      continue;
    }
    if (match[1] !== '') out.push(match[1]);
    for (const index of match[2].matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]));
  }
  return out;
}

type Container = Record<string | number, unknown>;

function childOf(parent: Container, key: Segment, next: Segment | undefined): Container {
  let child = parent[key];
  if (child === undefined || child === null || typeof child !== 'object') {
    child = typeof next === 'number' ? [] : {};
    parent[key] = child;
  }
  return child as Container;
}

/**
 * Applies one edit to a copy of `object` (a `create` edit leaves it unchanged: it is a new object).
 * Used to verify a suggestion and by tests that re-apply the manifest.
 */
export function applyFitEdit<T extends object>(object: T, edit: FitEdit): T {
  const copy = structuredClone(object) as unknown as Container;
  if (edit.op === 'create') return copy as unknown as T;
  const segments = fieldSegments(edit.path);
  const last = segments[segments.length - 1];
  let at = copy;
  for (let i = 0; i < segments.length - 1; i++) at = childOf(at, segments[i], segments[i + 1]);
  if (edit.op === 'set') at[last] = structuredClone(edit.value);
  else if (edit.op === 'add') {
    const list = childOf(at, last, 0) as unknown as unknown[];
    list.push(structuredClone(edit.value));
  } else if (Array.isArray(at) && typeof last === 'number') at.splice(last, 1);
  else delete at[last];
  return copy as unknown as T;
}

/** Every edit of a suggestion, in order. */
export function applyFitEdits<T extends object>(object: T, edits: readonly FitEdit[]): T {
  let out = object;
  for (const edit of edits) out = applyFitEdit(out, edit);
  return out;
}

/** A pod the scheduler refused, as its journey shows it. */
function refusedPod(object: ObjectJourney): boolean {
  const stuck = object.stuck;
  return object.ref.kind === 'Pod' && stuck !== undefined && stuck.reason === 'FailedScheduling' && stuck.object.uid === object.ref.uid;
}

/**
 * The journey with `fitsFor`'s suggestions on the stuck detail of each pod the scheduler refused
 * (its tree and its `stuckObjects`). Snapshots are shared and never mutated: the objects on the way
 * to a changed pod are copied, the rest kept.
 */
export function attachFits(journey: Journey, fitsFor: (pod: JourneyObjectRef) => FitSuggestions | undefined): Journey {
  const withFits = (stuck: StuckDetail, ref: JourneyObjectRef): StuckDetail => {
    const fits = fitsFor(ref);
    return fits ? { ...stuck, fits } : stuck;
  };
  const visit = (object: ObjectJourney): ObjectJourney => {
    let children = object.children;
    for (let i = 0; i < children.length; i++) {
      const next = visit(children[i]);
      if (next === children[i]) continue;
      if (children === object.children) children = [...children];
      children[i] = next;
    }
    const stuck = refusedPod(object) ? withFits(object.stuck!, object.ref) : object.stuck;
    return children === object.children && stuck === object.stuck ? object : { ...object, stuck, children };
  };
  const tree = journey.tree && visit(journey.tree);
  const stuckObjects = journey.stuckObjects.map((entry) => (entry.ref.kind === 'Pod' && entry.stuck.reason === 'FailedScheduling' && entry.stuck.object.uid === entry.ref.uid ? { ...entry, stuck: withFits(entry.stuck, entry.ref) } : entry));
  return { ...journey, stuckObjects, ...(tree ? { tree } : {}) };
}
