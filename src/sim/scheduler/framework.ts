/**
 * One scheduling attempt for one pod, as `schedule_one.go` runs it: walk the nodes from where the
 * previous attempt stopped, run the filters in upstream order until enough feasible nodes are
 * found (adaptive percentageOfNodesToScore), score the feasible ones, normalize, weight, and pick
 * the highest total (ties broken at random, as the reservoir sampling in `selectHost`).
 */
import type { NodeCache } from './node-cache';
import type { NodeInfo } from './node-info';
import type { PodSchedulingInfo } from './pod-info';
import * as balanced from './plugins/balanced-allocation';
import * as imageLocality from './plugins/image-locality';
import * as nodeAffinity from './plugins/node-affinity';
import * as nodeName from './plugins/node-name';
import * as nodePorts from './plugins/node-ports';
import * as resourcesFit from './plugins/node-resources-fit';
import * as nodeUnschedulable from './plugins/node-unschedulable';
import * as taintToleration from './plugins/taint-toleration';
import { filterVolumes } from './plugins/volume-binding';
import * as spread from './plugins/pod-topology-spread';
import * as interPodAffinity from './plugins/inter-pod-affinity';
import type { CompiledSelector } from './label-selector';
import { type NodeTable, FLAG_HARD_TAINTS, FLAG_PREFER_NO_SCHEDULE_TAINTS, FLAG_UNSCHEDULABLE, FLAG_USED_PORTS } from './node-table';
import { MAX_NODE_SCORE, type FilterFailure, type FilterPluginName, type ScorePluginName } from './plugins/types';

// Module-local copies of the plugin functions: see the note in plugins/types.ts on imported bindings.
const filterNodeUnschedulable = nodeUnschedulable.filterNodeUnschedulable;
const filterNodeName = nodeName.filterNodeName;
const filterTaintToleration = taintToleration.filterTaintToleration;
const filterNodeAffinity = nodeAffinity.filterNodeAffinity;
const filterNodePorts = nodePorts.filterNodePorts;
const filterNodeResourcesFit = resourcesFit.filterNodeResourcesFit;
const scoreTaintToleration = taintToleration.scoreTaintToleration;
const scoreNodeAffinity = nodeAffinity.scoreNodeAffinity;
const nodeAffinityScoreApplies = nodeAffinity.nodeAffinityScoreApplies;
const preFilterNodeNames = nodeAffinity.preFilterNodeNames;
const leastAllocatedScore = resourcesFit.leastAllocatedScore;
const balancedScore = balanced.balancedScore;
const balancedAllocationApplies = balanced.balancedAllocationApplies;
const scaledImageScore = imageLocality.scaledImageScore;
const imageLocalityScore = imageLocality.imageLocalityScore;
const filterPodTopologySpread = spread.filterPodTopologySpread;
const preScorePodTopologySpread = spread.preScorePodTopologySpread;
const scorePodTopologySpreadRows = spread.scorePodTopologySpreadRows;
const addWeightedPodTopologySpread = spread.addWeightedPodTopologySpread;
const normalizePodTopologySpread = spread.normalizePodTopologySpread;
const filterInterPodAffinity = interPodAffinity.filterInterPodAffinity;
const preScoreInterPodAffinity = interPodAffinity.preScoreInterPodAffinity;
const scoreInterPodAffinity = interPodAffinity.scoreInterPodAffinity;
const normalizeInterPodAffinity = interPodAffinity.normalizeInterPodAffinity;
const MAX_SCORE = MAX_NODE_SCORE;

export const FILTER_PLUGINS: readonly FilterPluginName[] = ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'PodTopologySpread', 'InterPodAffinity'];

const SPREAD_WEIGHT = 2;
const INTER_POD_AFFINITY_WEIGHT = 2;

/** The default profile's score plugins in configuration order, with their weights. */
export const SCORE_PLUGINS: readonly { name: ScorePluginName; weight: number }[] = [
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'PodTopologySpread', weight: SPREAD_WEIGHT },
  { name: 'InterPodAffinity', weight: INTER_POD_AFFINITY_WEIGHT },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
];

/** What the PreFilters of PodTopologySpread and InterPodAffinity computed for one attempt (upstream's CycleState). */
export interface CycleState {
  spread: spread.SpreadFilterState | undefined;
  affinity: interPodAffinity.AffinityFilterState | undefined;
}

/** What the pod-matching plugins read from the API beyond the scheduler cache. */
export interface ClusterLookups {
  namespaces: interPodAffinity.NamespaceLabels;
  /** `helper.DefaultSelector`: the selectors of the Services and the controller that select the pod. */
  defaultSpreadSelector(pod: PodSchedulingInfo): CompiledSelector | undefined;
}

const NO_LOOKUPS: ClusterLookups = { namespaces: { labelsOf: () => ({}), all: () => [] }, defaultSpreadSelector: () => undefined };

/** PodTopologySpread's and InterPodAffinity's filters, the last in upstream's order. */
function podMatchingFilters(node: NodeInfo, state: CycleState | undefined): FilterFailure | null {
  if (!state) return null;
  return (state.spread ? filterPodTopologySpread(state.spread, node) : null) ?? (state.affinity ? filterInterPodAffinity(state.affinity, node) : null);
}

/** Filters in upstream order; evaluation stops at the first rejection. Without `state` the two pod-matching filters pass. */
export function runFilters(pod: PodSchedulingInfo, node: NodeInfo, state?: CycleState): FilterFailure | null {
  return (
    filterNodeUnschedulable(pod, node) ??
    filterNodeName(pod, node) ??
    filterTaintToleration(pod, node) ??
    filterNodeAffinity(pod, node) ??
    filterNodePorts(pod, node) ??
    filterNodeResourcesFit(pod, node) ??
    (pod.volumes === undefined ? null : filterVolumes(pod.volumes, node)) ??
    podMatchingFilters(node, state)
  );
}

const MIN_FEASIBLE_NODES_TO_FIND = 100;
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/** `numFeasibleNodesToFind`: percentage 0 means adaptive, 50% − nodes/125, at least 5% and at least 100 nodes. */
export function numFeasibleNodesToFind(numAllNodes: number, percentageOfNodesToScore = 0): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = percentageOfNodesToScore;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

/**
 * `helper.DefaultNormalizeScore`: scale to 0–100 by the highest score; `reverse` turns "fewer is
 * better" counts around (all-zero counts then score 100 each).
 */
export function normalizeScores(scores: Float64Array, length: number, reverse: boolean): void {
  let max = 0;
  for (let i = 0; i < length; i++) if (scores[i] > max) max = scores[i];
  if (max === 0) {
    if (reverse) scores.fill(MAX_SCORE, 0, length);
    return;
  }
  for (let i = 0; i < length; i++) {
    const score = Math.trunc((MAX_SCORE * scores[i]) / max);
    scores[i] = reverse ? MAX_SCORE - score : score;
  }
}

/**
 * `selectHost`: the highest total; among equal totals each node is equally likely, the outcome of
 * upstream's reservoir sampling (drawn here with one random number instead of one per tie).
 */
export function selectHost(totals: Float64Array, length: number, random: () => number): number {
  let max = -Infinity;
  let ties = 0;
  for (let i = 0; i < length; i++) {
    const total = totals[i];
    if (total > max) {
      max = total;
      ties = 1;
    } else if (total === max) ties++;
  }
  return pickTie(totals, length, max, ties, random);
}

/** `selectHost`'s choice once the highest total and how many nodes have it are known. */
function pickTie(totals: Float64Array, length: number, max: number, ties: number, random: () => number): number {
  let pick = ties === 1 ? 0 : Math.floor(random() * ties);
  for (let i = 0; i < length; i++) {
    if (totals[i] === max && pick-- === 0) return i;
  }
  return 0;
}

export interface NodeFailure {
  node: NodeInfo;
  failure: FilterFailure;
}

/** Weighted scores of the feasible nodes, one row per applied plugin. Valid until the next attempt. */
export interface ScoreTable {
  plugins: { name: ScorePluginName; weight: number; weighted: Float64Array }[];
  totals: Float64Array;
}

export interface Placement {
  /** Nodes the filters looked at. */
  evaluated: number;
  feasibleCount: number;
  /** The feasible nodes; empty when the attempt was asked not to keep its table (see `findPlacement`). */
  feasible: NodeInfo[];
  failures: NodeFailure[];
  chosen: NodeInfo | undefined;
  /**
   * Present when more than one node was feasible (a single feasible node is chosen without
   * scoring, as upstream) and the table was kept.
   */
  scores: ScoreTable | undefined;
  /** Nodes NodeAffinity's PreFilter left out (a pod that names its nodes): never filtered, counted in the FitError. */
  outsidePreFilter?: number;
  /** Where in the node list the walk began: the evaluated nodes are the `evaluated` from there, wrapping (absent for a pod that names its nodes). */
  walkStart?: number;
}

/**
 * A pod whose only node-dependent checks are resources (no node name, selector, required affinity
 * or extended resources): on nodes without flags that need the full filters, the walk checks the
 * numbers straight from the node table. The outcome is the same as running every filter.
 */
function needsOnlyResourceChecks(pod: PodSchedulingInfo): boolean {
  return pod.nodeName === '' && pod.nodeSelector.length === 0 && pod.requiredTerms === undefined && pod.resources.scalar.length === 0 && pod.volumes === undefined;
}

/**
 * NodeResourcesFit's answer read straight from the node table (pod count, then cpu, memory and
 * ephemeral storage against what is left): the walks use it before any filter object is built.
 */
function fitsOnRow(t: NodeTable, row: number, pod: PodSchedulingInfo): boolean {
  if (t.podCount[row] + 1 > t.allocatablePods[row]) return false;
  if (pod.requestsNothing) return true;
  const r = pod.resources;
  return (
    r.milliCPU <= t.allocatableMilliCPU[row] - t.requestedMilliCPU[row] &&
    r.memory <= t.allocatableMemory[row] - t.requestedMemory[row] &&
    r.ephemeralStorage <= t.allocatableEphemeralStorage[row] - t.requestedEphemeralStorage[row]
  );
}

/** The filters for one node; `resourcesOnly` when the node table already showed nothing else can refuse it. */
function filterNode(pod: PodSchedulingInfo, node: NodeInfo, resourcesOnly: boolean, state: CycleState | undefined): FilterFailure | null {
  return resourcesOnly ? (filterNodeResourcesFit(pod, node) ?? (pod.volumes === undefined ? null : filterVolumes(pod.volumes, node)) ?? podMatchingFilters(node, state)) : runFilters(pod, node, state);
}

interface PodImages {
  /** Per image some node has: its size on each node row. */
  sizes: Float64Array[];
  /** Per such image: how many nodes have it. */
  holders: number[];
}

/** Whether two pods agree on everything the resource checks and `totalOf` read. */
function sameScoreInputs(a: PodSchedulingInfo, b: PodSchedulingInfo): boolean {
  if (a === b) return true;
  const ra = a.resources;
  const rb = b.resources;
  if (ra.milliCPU !== rb.milliCPU || ra.memory !== rb.memory || ra.ephemeralStorage !== rb.ephemeralStorage) return false;
  if (ra.nonZeroMilliCPU !== rb.nonZeroMilliCPU || ra.nonZeroMemory !== rb.nonZeroMemory || a.requestsNothing !== b.requestsNothing) return false;
  if (a.images.length !== b.images.length) return false;
  for (let i = 0; i < a.images.length; i++) if (a.images[i] !== b.images[i]) return false;
  return true;
}

export class SchedulingAlgorithm {
  private nextStartNodeIndex = 0;
  private buffers: Float64Array[] = [];
  private totals = new Float64Array(0);
  private rows = new Int32Array(0);
  /** Reused across attempts so the walk does not grow a fresh array every time. */
  private readonly found: NodeInfo[] = [];
  /**
   * `placeFromMemo`'s per-row outcomes for pods scoring like `pod`: a row's total is valid while
   * the row's version is the one remembered. Table versions start at 1 and -1 marks a row as
   * unknown, so fresh and invalidated rows never match.
   */
  private readonly memo = { pod: undefined as PodSchedulingInfo | undefined, imageEpoch: -1, nodeCount: -1, versions: new Float64Array(0), totals: new Float64Array(0) };

  /** This attempt's default spread selector, asked for at most once (it reads Services and controllers). */
  private defaultSelector: { pod: PodSchedulingInfo | undefined; selector: CompiledSelector | undefined } = { pod: undefined, selector: undefined };

  constructor(
    private readonly cache: NodeCache,
    private readonly random: () => number,
    private readonly percentageOfNodesToScore = 0,
    private readonly lookups: ClusterLookups = NO_LOOKUPS,
  ) {}

  /** The PreFilters of PodTopologySpread and InterPodAffinity; undefined when both skip (most pods). */
  preFilter(pod: PodSchedulingInfo): CycleState | undefined {
    const spreadState = spread.preFilterPodTopologySpread(pod, this.cache);
    const affinityState = interPodAffinity.preFilterInterPodAffinity(pod, this.cache, this.lookups.namespaces);
    return spreadState || affinityState ? { spread: spreadState, affinity: affinityState } : undefined;
  }

  private defaultSpreadSelector(pod: PodSchedulingInfo): CompiledSelector | undefined {
    if (this.defaultSelector.pod !== pod) this.defaultSelector = { pod, selector: this.lookups.defaultSpreadSelector(pod) };
    return this.defaultSelector.selector;
  }

  /**
   * Whether PodTopologySpread or InterPodAffinity may score this pod: it has soft constraints (or
   * gets the default ones), preferred pod (anti-)affinity, or some placed pod has affinity terms.
   */
  private podMatchingScoresMayApply(pod: PodSchedulingInfo): boolean {
    if (pod.affinityTerms !== undefined || this.cache.termGroups.size > 0) return true;
    const constraints = pod.topologySpreadConstraints;
    if (constraints.length > 0) return constraints.some((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
    const selector = this.defaultSpreadSelector(pod);
    return selector !== undefined && !selector.nothing && selector.requirements.length > 0;
  }

  /**
   * `keepTable: false` (the scheduler's summary mode) returns the chosen node and the counts
   * without the feasible list and per-plugin scores; the choice is the same, and the common case
   * (no affinity preferences, no PreferNoSchedule taints) is scored in one pass without them.
   */
  findPlacement(pod: PodSchedulingInfo, keepTable = true): Placement {
    this.defaultSelector = { pod: undefined, selector: undefined };
    const state = this.preFilter(pod);
    const named = preFilterNodeNames(pod);
    if (named) return this.placeOnNamedNodes(pod, named, keepTable, state);
    if (!keepTable && !state && needsOnlyResourceChecks(pod) && !nodeAffinityScoreApplies(pod)) {
      const placement = this.placeFromMemo(pod);
      if (placement) return placement;
    }
    const nodes = this.cache.nodes;
    const count = nodes.length;
    const wanted = numFeasibleNodesToFind(count, this.percentageOfNodesToScore);
    if (this.rows.length < wanted) this.rows = new Int32Array(Math.max(wanted, this.rows.length * 2));
    const rows = this.rows;
    const t = this.cache.table;
    const flags = t.flags;
    const fast = needsOnlyResourceChecks(pod);
    const blocking = FLAG_UNSCHEDULABLE | FLAG_HARD_TAINTS | (pod.hostPorts.length > 0 ? FLAG_USED_PORTS : 0);
    const found = this.found;
    let feasibleCount = 0;
    let feasibleFlags = 0;
    const failures: NodeFailure[] = [];
    let processed = 0;
    let index = count === 0 ? 0 : this.nextStartNodeIndex % count;
    const walkStart = index;
    while (processed < count && feasibleCount < wanted) {
      const resourcesOnly = fast && (flags[index] & blocking) === 0;
      // Anything but a plain fit goes through the filters themselves (kept out of this loop, which stays small).
      const failure = resourcesOnly && fitsOnRow(t, index, pod) ? podMatchingFilters(nodes[index], state) : filterNode(pod, nodes[index], resourcesOnly, state);
      if (failure) failures.push({ node: nodes[index], failure });
      else {
        rows[feasibleCount] = index;
        feasibleFlags |= flags[index];
        if (keepTable) found[feasibleCount] = nodes[index];
        feasibleCount++;
      }
      processed++;
      index = index + 1 === count ? 0 : index + 1;
    }
    this.nextStartNodeIndex = count === 0 ? 0 : (this.nextStartNodeIndex + processed) % count;
    const evaluated = processed;
    if (feasibleCount <= 1 || !keepTable) {
      const feasible = keepTable ? found.slice(0, feasibleCount) : [];
      if (feasibleCount === 0) return { evaluated, feasibleCount, feasible, failures, chosen: undefined, scores: undefined, walkStart };
      if (feasibleCount === 1) return { evaluated, feasibleCount, feasible, failures, chosen: nodes[rows[0]], scores: undefined, walkStart };
      if (!nodeAffinityScoreApplies(pod) && (feasibleFlags & FLAG_PREFER_NO_SCHEDULE_TAINTS) === 0) {
        return { evaluated, feasibleCount, feasible, failures, chosen: nodes[rows[this.pickWithoutTable(pod, feasibleCount)]], scores: undefined, walkStart };
      }
      // Preferences that need normalising across the feasible nodes: the full scoring below.
      for (let i = 0; i < feasibleCount; i++) found[i] = nodes[rows[i]];
    }
    const scored = found.slice(0, feasibleCount);
    const scores = this.score(pod, scored);
    const chosen = scored[selectHost(scores.totals, feasibleCount, this.random)];
    return { evaluated, feasibleCount, feasible: keepTable ? scored : [], failures, chosen, scores: keepTable ? scores : undefined, walkStart };
  }

  /**
   * `findPlacement` for a pod whose placement needs no table: the summary walk, and only when it
   * finds no node, the same walk again with the table, which says why the pod is Pending. The
   * first walk leaves nothing behind: it draws no random number when nothing fits, and the next
   * walk's start is put back.
   */
  findPlacementKeepingFailures(pod: PodSchedulingInfo): { placement: Placement; tableKept: boolean } {
    const start = this.nextStartNodeIndex;
    const summary = this.findPlacement(pod, false);
    if (summary.chosen) return { placement: summary, tableKept: false };
    this.nextStartNodeIndex = start;
    return { placement: this.findPlacement(pod, true), tableKept: true };
  }

  /**
   * `findNodesThatFitPod` with a PreFilter result: only the named nodes that exist are filtered and
   * scored; the rest count as rejected by the PreFilter.
   */
  private placeOnNamedNodes(pod: PodSchedulingInfo, named: ReadonlySet<string>, keepTable: boolean, state: CycleState | undefined): Placement {
    const failures: NodeFailure[] = [];
    const found: NodeInfo[] = [];
    let candidates = 0;
    for (const name of named) {
      const node = this.cache.node(name);
      if (!node) continue;
      candidates++;
      const failure = runFilters(pod, node, state);
      if (failure) failures.push({ node, failure });
      else found.push(node);
    }
    const count = this.cache.nodeCount;
    this.nextStartNodeIndex = count === 0 ? 0 : (this.nextStartNodeIndex + candidates) % count;
    const base = { evaluated: candidates, feasibleCount: found.length, failures, outsidePreFilter: count - candidates };
    if (found.length <= 1) return { ...base, feasible: keepTable ? found : [], chosen: found[0], scores: undefined };
    if (this.rows.length < found.length) this.rows = new Int32Array(Math.max(found.length, this.rows.length * 2));
    for (let i = 0; i < found.length; i++) this.rows[i] = found[i].index;
    const scores = this.score(pod, found);
    const chosen = found[selectHost(scores.totals, found.length, this.random)];
    return { ...base, feasible: keepTable ? found : [], chosen, scores: keepTable ? scores : undefined };
  }

  /**
   * The row (index into `this.rows`) `score` + `selectHost` would choose, for a pod without
   * preferred node affinity on nodes without PreferNoSchedule taints: then TaintToleration gives
   * every node the same 100 (×3), NodeAffinity is skipped, and no other plugin normalises, so each
   * node's total is computed on its own (`totalOf`).
   */
  private pickWithoutTable(pod: PodSchedulingInfo, length: number): number {
    this.ensureCapacity(length);
    const totals = this.totals;
    const rows = this.rows;
    const images = this.podImages(pod);
    for (let i = 0; i < length; i++) totals[i] = this.totalOf(pod, rows[i], images);
    this.addPodMatchingScores(pod, length, totals);
    return selectHost(totals, length, this.random);
  }

  /**
   * PodTopologySpread's and InterPodAffinity's weighted scores for the feasible rows
   * (`this.rows[0..length)`), added to `totals`; whether any applied. Both normalise over the
   * feasible nodes, so they are added after the per-row totals, which stay cacheable without them.
   */
  private addPodMatchingScores(pod: PodSchedulingInfo, length: number, totals: Float64Array): boolean {
    if (!this.podMatchingScoresMayApply(pod)) return false;
    const rows = this.rows;
    const spreadState = preScorePodTopologySpread(pod, this.cache, rows, length, () => this.defaultSpreadSelector(pod));
    const affinityState = preScoreInterPodAffinity(pod, this.cache, this.lookups.namespaces);
    if (!spreadState && !affinityState) return false;
    this.ensureCapacity(length);
    const buffer = this.buffers[5];
    if (spreadState) {
      addWeightedPodTopologySpread(spreadState, rows, length, SPREAD_WEIGHT, buffer, totals);
    }
    if (affinityState) {
      for (let i = 0; i < length; i++) buffer[i] = scoreInterPodAffinity(affinityState, rows[i]);
      normalizeInterPodAffinity(buffer, length);
      for (let i = 0; i < length; i++) totals[i] += INTER_POD_AFFINITY_WEIGHT * buffer[i];
    }
    return true;
  }

  /** A node's weighted total as `score` sums it, under `pickWithoutTable`'s conditions. */
  private totalOf(pod: PodSchedulingInfo, row: number, images: PodImages): number {
    const t = this.cache.table;
    const r = pod.resources;
    const fit = leastAllocatedScore(t.nonZeroMilliCPU[row] + r.nonZeroMilliCPU, t.allocatableMilliCPU[row], t.nonZeroMemory[row] + r.nonZeroMemory, t.allocatableMemory[row]);
    const containers = pod.images.length;
    let image = 0;
    if (containers !== 0) {
      const { sizes, holders } = images;
      const totalNodes = this.cache.nodeCount;
      let sum = 0;
      for (let k = 0; k < sizes.length; k++) {
        const size = sizes[k][row];
        if (size > 0) sum += scaledImageScore(size, holders[k], totalNodes);
      }
      image = imageLocalityScore(sum, containers);
    }
    const balance = balancedAllocationApplies(pod) ? balancedScore(t.requestedMilliCPU[row] + r.milliCPU, t.allocatableMilliCPU[row], t.requestedMemory[row] + r.memory, t.allocatableMemory[row]) : 0;
    return MAX_SCORE * 3 + fit + image + balance;
  }

  /**
   * Summary mode for a pod that only needs resource checks and has no affinity preferences: the
   * walk and the scores of `findPlacement` and `pickWithoutTable`, with each node's outcome (does
   * not fit, or its total) remembered until that node's row changes, the pod's requests and images
   * differ from the previous pod's, or image spread changes. Between two attempts only the nodes
   * that received or lost a pod change, so most nodes are a lookup. Undefined (nothing advanced)
   * when a feasible node has PreferNoSchedule taints, whose scores need the full normalisation.
   */
  private placeFromMemo(pod: PodSchedulingInfo): Placement | undefined {
    const nodes = this.cache.nodes;
    const count = nodes.length;
    const wanted = numFeasibleNodesToFind(count, this.percentageOfNodesToScore);
    if (this.rows.length < wanted) this.rows = new Int32Array(Math.max(wanted, this.rows.length * 2));
    this.ensureCapacity(wanted);
    this.prepareMemo(pod);
    const t = this.cache.table;
    const { flags, versions } = t;
    const { versions: memoVersions, totals: memoTotals } = this.memo;
    const rows = this.rows;
    const totals = this.totals;
    const blocking = FLAG_UNSCHEDULABLE | FLAG_HARD_TAINTS | (pod.hostPorts.length > 0 ? FLAG_USED_PORTS : 0);
    let images: PodImages | undefined;
    const failures: NodeFailure[] = [];
    let feasibleCount = 0;
    let feasibleFlags = 0;
    // The highest total so far and how many nodes have it: `selectHost`'s first pass, done during the walk.
    let max = -Infinity;
    let ties = 0;
    let processed = 0;
    let index = count === 0 ? 0 : this.nextStartNodeIndex % count;
    const walkStart = index;
    while (processed < count && feasibleCount < wanted) {
      let total = -1;
      let failure: FilterFailure | null = null;
      if ((flags[index] & blocking) === 0) {
        if (memoVersions[index] === versions[index]) total = memoTotals[index];
        else {
          total = fitsOnRow(t, index, pod) ? this.totalOf(pod, index, (images ??= this.podImages(pod))) : -1;
          memoVersions[index] = versions[index];
          memoTotals[index] = total;
        }
        if (total < 0) failure = filterNodeResourcesFit(pod, nodes[index]);
      } else failure = runFilters(pod, nodes[index]);
      if (failure) failures.push({ node: nodes[index], failure });
      else {
        rows[feasibleCount] = index;
        const score = total >= 0 ? total : this.totalOf(pod, index, (images ??= this.podImages(pod)));
        totals[feasibleCount] = score;
        if (score > max) {
          max = score;
          ties = 1;
        } else if (score === max) ties++;
        feasibleFlags |= flags[index];
        feasibleCount++;
      }
      processed++;
      index = index + 1 === count ? 0 : index + 1;
    }
    if ((feasibleFlags & FLAG_PREFER_NO_SCHEDULE_TAINTS) !== 0) return undefined;
    this.nextStartNodeIndex = count === 0 ? 0 : (this.nextStartNodeIndex + processed) % count;
    const placement: Placement = { evaluated: processed, feasibleCount, feasible: [], failures, chosen: undefined, scores: undefined, walkStart };
    if (feasibleCount === 1) placement.chosen = nodes[rows[0]];
    else if (feasibleCount > 1) {
      const rescored = this.addPodMatchingScores(pod, feasibleCount, totals);
      placement.chosen = nodes[rows[rescored ? selectHost(totals, feasibleCount, this.random) : pickTie(totals, feasibleCount, max, ties, this.random)]];
    }
    return placement;
  }

  /** Forget every row's outcome when this pod scores differently from the memo's, or image spread or the node count changed. */
  private prepareMemo(pod: PodSchedulingInfo): void {
    const memo = this.memo;
    const capacity = this.cache.table.versions.length;
    if (memo.versions.length < capacity) {
      memo.versions = new Float64Array(capacity).fill(-1);
      memo.totals = new Float64Array(capacity);
    }
    const epoch = this.cache.imageEpoch;
    const nodeCount = this.cache.nodeCount;
    if (memo.pod === undefined || !sameScoreInputs(pod, memo.pod) || epoch !== memo.imageEpoch || nodeCount !== memo.nodeCount) {
      memo.versions.fill(-1);
      memo.imageEpoch = epoch;
      memo.nodeCount = nodeCount;
    }
    memo.pod = pod;
  }

  /**
   * Scores of `nodes`, whose table rows are `this.rows[0..n)`: one pass for the raw plugin scores,
   * then the normalization of the two plugins that need it, then one pass for the weighted totals.
   */
  private score(pod: PodSchedulingInfo, nodes: NodeInfo[]): ScoreTable {
    const length = nodes.length;
    this.ensureCapacity(length);
    const [taint, affinity, fit, balance, image, spreadScores, podAffinityScores] = this.buffers;
    const totals = this.totals;
    const rows = this.rows;
    const t = this.cache.table;
    const r = pod.resources;
    const withAffinity = nodeAffinityScoreApplies(pod);
    const withBalance = balancedAllocationApplies(pod);
    const spreadState = preScorePodTopologySpread(pod, this.cache, rows, length, () => this.defaultSpreadSelector(pod));
    const podAffinityState = preScoreInterPodAffinity(pod, this.cache, this.lookups.namespaces);
    const { sizes: imageSizes, holders: imageHolders } = this.podImages(pod);
    const totalNodes = this.cache.nodeCount;
    const containers = pod.images.length;
    let anyPreferNoScheduleTaint = false;
    for (let i = 0; i < length; i++) {
      const row = rows[i];
      if (t.flags[row] & FLAG_PREFER_NO_SCHEDULE_TAINTS) {
        taint[i] = scoreTaintToleration(pod, nodes[i]);
        anyPreferNoScheduleTaint = true;
      } else taint[i] = 0;
      if (withAffinity) affinity[i] = scoreNodeAffinity(pod, nodes[i]);
      fit[i] = leastAllocatedScore(t.nonZeroMilliCPU[row] + r.nonZeroMilliCPU, t.allocatableMilliCPU[row], t.nonZeroMemory[row] + r.nonZeroMemory, t.allocatableMemory[row]);
      if (withBalance) balance[i] = balancedScore(t.requestedMilliCPU[row] + r.milliCPU, t.allocatableMilliCPU[row], t.requestedMemory[row] + r.memory, t.allocatableMemory[row]);
      if (podAffinityState) podAffinityScores[i] = scoreInterPodAffinity(podAffinityState, row);
      let sum = 0;
      for (let k = 0; k < imageSizes.length; k++) {
        const size = imageSizes[k][row];
        if (size > 0) sum += scaledImageScore(size, imageHolders[k], totalNodes);
      }
      image[i] = containers === 0 ? 0 : imageLocalityScore(sum, containers);
    }
    if (spreadState) scorePodTopologySpreadRows(spreadState, rows, length, spreadScores);
    if (anyPreferNoScheduleTaint) normalizeScores(taint, length, true);
    else taint.fill(MAX_SCORE, 0, length);
    if (withAffinity) normalizeScores(affinity, length, false);
    if (spreadState) normalizePodTopologySpread(spreadScores, length);
    if (podAffinityState) normalizeInterPodAffinity(podAffinityScores, length);
    const byPlugin: Record<ScorePluginName, Float64Array | undefined> = {
      TaintToleration: taint,
      NodeAffinity: withAffinity ? affinity : undefined,
      NodeResourcesFit: fit,
      PodTopologySpread: spreadState ? spreadScores : undefined,
      InterPodAffinity: podAffinityState ? podAffinityScores : undefined,
      NodeResourcesBalancedAllocation: withBalance ? balance : undefined,
      ImageLocality: image,
    };
    const plugins: ScoreTable['plugins'] = [];
    totals.fill(0, 0, length);
    for (const { name, weight } of SCORE_PLUGINS) {
      const weighted = byPlugin[name];
      // A plugin whose PreScore skipped the pod is not run and shows no column.
      if (!weighted) continue;
      if (weight !== 1) for (let i = 0; i < length; i++) weighted[i] *= weight;
      for (let i = 0; i < length; i++) totals[i] += weighted[i];
      plugins.push({ name, weight, weighted });
    }
    return { plugins, totals };
  }

  /** For each of the pod's images that some node has: its per-node sizes and how many nodes have it. */
  private podImages(pod: PodSchedulingInfo): PodImages {
    const sizes: Float64Array[] = [];
    const holders: number[] = [];
    for (const name of pod.images) {
      const perNode = this.cache.table.imageSizesOf(name);
      if (!perNode) continue;
      sizes.push(perNode);
      holders.push(this.cache.imageNodeCount(name));
    }
    return { sizes, holders };
  }

  private ensureCapacity(length: number): void {
    if (this.totals.length >= length) return;
    const size = Math.max(length, this.totals.length * 2, 128);
    this.totals = new Float64Array(size);
    // taint, affinity, fit, balance, image, spread, pod affinity: see score().
    this.buffers = [0, 1, 2, 3, 4, 5, 6].map(() => new Float64Array(size));
  }
}
