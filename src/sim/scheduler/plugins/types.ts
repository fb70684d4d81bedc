/** The shapes every plugin shares: a filter verdict and the plugin names as upstream spells them. */
import type { FilterCode } from '../../../core/internals';

export type FilterPluginName = 'NodeUnschedulable' | 'NodeName' | 'TaintToleration' | 'NodeAffinity' | 'NodePorts' | 'NodeResourcesFit' | 'VolumeRestrictions' | 'VolumeBinding' | 'VolumeZone' | 'PodTopologySpread' | 'InterPodAffinity';
export type ScorePluginName = 'TaintToleration' | 'NodeAffinity' | 'NodeResourcesFit' | 'PodTopologySpread' | 'InterPodAffinity' | 'NodeResourcesBalancedAllocation' | 'ImageLocality';

/** A rejected node. Success is `null`, so the per-node loop allocates nothing for feasible nodes. */
export interface FilterFailure {
  readonly plugin: FilterPluginName;
  readonly code: Exclude<FilterCode, 'Success'>;
  /** One or more reasons, each counted separately in the FitError message. */
  readonly reasons: readonly string[];
}

/** framework.MaxNodeScore */
export const MAX_NODE_SCORE = 100;

/*
 * Hot paths copy imported bindings into module-local constants: under tsx (esbuild's CommonJS
 * output) every read of an imported binding is a chain of two getter calls, which costs more than
 * the arithmetic of a score plugin, and the per-node loop runs millions of times.
 */

export function failure(plugin: FilterPluginName, code: FilterFailure['code'], ...reasons: string[]): FilterFailure {
  return Object.freeze({ plugin, code, reasons: Object.freeze(reasons) });
}
