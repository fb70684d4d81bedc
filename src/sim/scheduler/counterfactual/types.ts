/** What every kind of suggestion reads, and what it proposes before the proposal is checked. */
import type { FitEdit, FitSuggestionKind, FitTarget } from '../../../core/journey/fit-suggestions';
import type { PodObject } from '../../store/pod-binding';
import type { FitProbe, PreparedPod } from './probe';
import type { PodOwner } from './owner';

export interface SuggestionInput {
  probe: FitProbe;
  /** The pod as stored (admission defaults applied). */
  pod: PodObject;
  prepared: PreparedPod;
  /** Per cache row, the filters that refuse the node (see probe.ts). */
  masks: Uint16Array;
  owner: PodOwner;
  /** The live pods of the pod's controller, itself included (copies of one template); empty for a bare pod. */
  siblings: readonly PodObject[];
}

/**
 * A proposed change. Its `edits` and `path` are relative to the pod (`spec.containers[0]…`) unless
 * `target` names another object (a claim), in which case they are that object's own. Without
 * `nodes` the change is checked by applying the edits to the pod and re-running every filter.
 */
export interface Candidate {
  kind: FitSuggestionKind;
  summary: string;
  path?: string;
  edits: FitEdit[];
  command?: string;
  target?: FitTarget;
  /** Already known (a cluster change the pod's edits cannot express): not re-checked. */
  nodes?: number;
}

export type Suggester = (input: SuggestionInput) => Candidate[];
