/**
 * The simulator's pod budget: an admission check on Pod creation that refuses new pods once the
 * store holds the budgeted number, with 403 Forbidden, as kube-apiserver's ResourceQuota
 * admission refuses a pod past a `pods` quota. Every controller that creates pods (ReplicaSet
 * today; Job, StatefulSet and DaemonSet later) handles it on its ordinary error path: a
 * `FailedCreate` event `Error creating: pods "web-7d4b9c-" is forbidden: …` and a retry with
 * back-off. Without it, `replicas: 1000000000` grows the process until V8 aborts.
 *
 * Sizing of the default (see docs/simulator-failures.md, "The pod budget"): a pod costs about
 * 8 KiB of live heap in the lean simulator the benchmark runs (measured 6,000 and 18,000 pods:
 * 7.5–8.7 KiB per pod). The old generation grows to 1.6 × the live heap (heap-tuning.ts), so
 * 200,000 pods peak near 2.6 GB, inside the 4 GB heap V8 gives a 64-bit Node process on a machine
 * with 16 GB or more, while the 150,000-pod benchmark keeps a third in hand.
 */
import type { KubeObject, ResourceKind } from '../../core/k8s';
import type { Admission } from './store';
import { ApiError, type StoreApi } from './types';
import { admissionName } from '../admission/plugin';

/** How to raise the budget, named in the refusal (the CLI's flag, the extension's setting). */
export const DEFAULT_BUDGET_HINT = 'the simulator option maxPods';

export interface PodBudgetOptions {
  maxPods: number;
  /** Where the user raises the budget: `kube-journey --max-pods`, `the setting kubeJourney.simulator.maxPods`. */
  hint?: string;
}

export class PodBudget {
  private pods = 0;
  private refusals = 0;
  private lastRefusal: ApiError | undefined;
  private readonly hint: string;

  constructor(readonly maxPods: number, hint = DEFAULT_BUDGET_HINT) {
    if (!(Number.isInteger(maxPods) && maxPods >= 0)) throw new RangeError(`maxPods must be a whole number ≥ 0, got ${maxPods}`);
    this.hint = hint;
  }

  /** Counts the store's pods from now on (the store must hold none yet). */
  track(store: Pick<StoreApi, 'subscribe'>): () => void {
    return store.subscribe('Pod', (change) => {
      if (change.type === 'ADDED') this.pods++;
      else if (change.type === 'DELETED') this.pods--;
    });
  }

  get used(): number {
    return this.pods;
  }

  /** How many creations the budget refused so far. */
  get refused(): number {
    return this.refusals;
  }

  /** The latest refusal, for a report of why a run ended. */
  get lastError(): ApiError | undefined {
    return this.lastRefusal;
  }

  /** Wraps `admission` so that creating a pod past the budget is refused with 403 Forbidden. */
  guard(admission: Admission): Admission {
    return {
      applyDefaults: (kind, object, old, warnings) => admission.applyDefaults(kind, object, old, warnings),
      prepareForCreate: admission.prepareForCreate && ((kind, object) => admission.prepareForCreate!(kind, object)),
      validate: (kind, object, old, warnings) => (old === undefined ? this.refusal(kind, object) : undefined) ?? admission.validate(kind, object, old, warnings),
    };
  }

  private refusal(kind: ResourceKind, object: KubeObject): ApiError | undefined {
    if (kind !== 'Pod' || this.pods < this.maxPods) return undefined;
    this.refusals++;
    const name = admissionName(object) || 'Unknown';
    this.lastRefusal = new ApiError(403, 'Forbidden', `pods "${name}" is forbidden: the simulator's pod budget of ${this.maxPods} pods is used up (raise it with ${this.hint})`, { name, kind: 'pods' });
    return this.lastRefusal;
  }
}
