/**
 * The scheduler's filters run again on the current cache, outside any scheduling cycle: which
 * filters refuse each node (every one of them, not only the first, so a suggestion can ask "would
 * the pod fit if only this one passed?"), and on how many nodes a changed pod would fit.
 */
import type { Pod } from '../../../core/k8s';
import type { StoreApi } from '../../store/types';
import type { CycleState, SchedulingAlgorithm } from '../framework';
import { runFilters } from '../framework';
import type { NodeCache } from '../node-cache';
import type { NodeInfo } from '../node-info';
import { podSchedulingInfo, type PodSchedulingInfo } from '../pod-info';
import { filterInterPodAffinity } from '../plugins/inter-pod-affinity';
import { filterNodeAffinity } from '../plugins/node-affinity';
import { filterNodeName } from '../plugins/node-name';
import { filterNodePorts } from '../plugins/node-ports';
import { filterNodeResourcesFit } from '../plugins/node-resources-fit';
import { filterNodeUnschedulable } from '../plugins/node-unschedulable';
import { filterPodTopologySpread } from '../plugins/pod-topology-spread';
import { filterTaintToleration } from '../plugins/taint-toleration';
import { filterVolumes, preFilterVolumes } from '../plugins/volume-binding';
import type { PodObject } from '../../store/pod-binding';

/** One bit per filter plugin, in upstream order. */
export const F_UNSCHEDULABLE = 1;
export const F_NODE_NAME = 2;
export const F_TAINTS = 4;
export const F_NODE_AFFINITY = 8;
export const F_PORTS = 16;
export const F_RESOURCES = 32;
export const F_VOLUMES = 64;
export const F_SPREAD = 128;
export const F_POD_AFFINITY = 256;

/** What the probe reads besides the cache. */
export interface ProbeSources {
  cache: NodeCache;
  algorithm: SchedulingAlgorithm;
  store: StoreApi;
  /** Static volumes promised to other pods' claims (the volume binder's assume cache). */
  excludedVolumes: ReadonlySet<string>;
}

/** A pod read as the scheduler reads it for one attempt: its info, the PreFilters' state, or the PreFilter's refusal. */
export interface PreparedPod {
  info: PodSchedulingInfo;
  state: CycleState | undefined;
  /** VolumeBinding's PreFilter refused the pod on every node (a missing or unbound immediate claim). */
  volumeRejection?: string;
}

export class FitProbe {
  constructor(private readonly sources: ProbeSources) {}

  get nodes(): readonly NodeInfo[] {
    return this.sources.cache.nodes;
  }

  get store(): StoreApi {
    return this.sources.store;
  }

  get cache(): NodeCache {
    return this.sources.cache;
  }

  prepare(pod: Pod): PreparedPod {
    const info = podSchedulingInfo(pod);
    const volumes = preFilterVolumes(this.sources.store, pod as PodObject);
    if ('rejection' in volumes) return { info, state: this.sources.algorithm.preFilter(info), volumeRejection: volumes.rejection };
    info.volumes = volumes.volumes && { ...volumes.volumes, excluded: this.sources.excludedVolumes };
    return { info, state: this.sources.algorithm.preFilter(info) };
  }

  /**
   * Per node (by cache row), the filters that refuse it, each run on its own. A PreFilter refusal
   * of the volumes sets F_VOLUMES everywhere.
   */
  masks(prepared: PreparedPod): Uint16Array {
    const { info, state } = prepared;
    const nodes = this.sources.cache.nodes;
    const masks = new Uint16Array(nodes.length);
    for (let row = 0; row < nodes.length; row++) {
      const node = nodes[row];
      let mask = 0;
      if (filterNodeUnschedulable(info, node)) mask |= F_UNSCHEDULABLE;
      if (filterNodeName(info, node)) mask |= F_NODE_NAME;
      if (filterTaintToleration(info, node)) mask |= F_TAINTS;
      if (filterNodeAffinity(info, node)) mask |= F_NODE_AFFINITY;
      if (filterNodePorts(info, node)) mask |= F_PORTS;
      if (filterNodeResourcesFit(info, node)) mask |= F_RESOURCES;
      if (prepared.volumeRejection !== undefined || (info.volumes && filterVolumes(info.volumes, node))) mask |= F_VOLUMES;
      if (state?.spread && filterPodTopologySpread(state.spread, node)) mask |= F_SPREAD;
      if (state?.affinity && filterInterPodAffinity(state.affinity, node)) mask |= F_POD_AFFINITY;
      masks[row] = mask;
    }
    return masks;
  }

  /** Nodes `pod` fits on as the scheduler would filter it now (every filter, upstream order). */
  countFits(pod: Pod): number {
    const prepared = this.prepare(pod);
    if (prepared.volumeRejection !== undefined) return 0;
    let fits = 0;
    for (const node of this.sources.cache.nodes) if (runFilters(prepared.info, node, prepared.state) === null) fits++;
    return fits;
  }
}

/** Rows whose refusing filters are all among `allowed` and at least one of `needed`. */
export function rowsBlockedOnlyBy(masks: Uint16Array, allowed: number, needed = allowed): number[] {
  const rows: number[] = [];
  for (let row = 0; row < masks.length; row++) {
    const mask = masks[row];
    if ((mask & ~allowed) === 0 && (mask & needed) !== 0) rows.push(row);
  }
  return rows;
}
