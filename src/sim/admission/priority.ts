/**
 * Priority admission (plugin/pkg/admission/priority): a new pod gets `spec.priority` and
 * `spec.preemptionPolicy` from the PriorityClass it names, or from the `globalDefault` class
 * (whose name it then carries) when it names none, or priority 0 when no class is the default; a
 * pod naming a class that does not exist is refused. An updated pod keeps the values it was
 * created with. A PriorityClass may be the global default only while no other one is.
 *
 * kube-apiserver stores `system-node-critical` and `system-cluster-critical` at start; the
 * simulator does not store them, so they are known here by name and value.
 */
import type { KubeObject } from '../../core/k8s';
import type { ApiError, StoreApi } from '../store/types';
import { SYSTEM_PRIORITY_CLASSES } from '../apis/scheduling/system-priority-classes';
import { forbidden, type AdmissionAttributes, type AdmissionPlugin } from './plugin';

interface PodPrioritySpec {
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
}

interface PriorityClassObject extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

interface ResolvedPriority {
  className: string;
  priority: number;
  preemptionPolicy: string;
}

/** `scheduling.DefaultPriorityWhenNoDefaultClassExists`. */
const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0;
const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority';

export class PriorityAdmission implements AdmissionPlugin {
  readonly name = 'Priority';

  admit(attributes: AdmissionAttributes, store: StoreApi): void {
    if (attributes.kind !== 'Pod') return;
    const spec = (attributes.object.spec ??= {}) as PodPrioritySpec;
    if (attributes.old) {
      // Validation refuses a change to either; a client that leaves them out keeps the stored ones.
      const oldSpec = (attributes.old.spec ?? {}) as PodPrioritySpec;
      if (spec.priority === undefined && oldSpec.priority !== undefined) spec.priority = oldSpec.priority;
      if (spec.preemptionPolicy === undefined && oldSpec.preemptionPolicy !== undefined) spec.preemptionPolicy = oldSpec.preemptionPolicy;
      return;
    }
    const resolved = spec.priorityClassName ? namedPriority(attributes, store, spec.priorityClassName) : defaultPriority(store);
    if (!spec.priorityClassName && resolved.className) spec.priorityClassName = resolved.className;
    if (spec.priority !== undefined && spec.priority !== resolved.priority) {
      throw forbidden(attributes, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${resolved.priority} from the given PriorityClass name`);
    }
    spec.priority = resolved.priority;
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== resolved.preemptionPolicy) {
      throw forbidden(attributes, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`);
    }
    spec.preemptionPolicy = resolved.preemptionPolicy;
  }

  validate(attributes: AdmissionAttributes, store: StoreApi): ApiError | undefined {
    if (attributes.kind !== 'PriorityClass') return undefined;
    const priorityClass = attributes.object as PriorityClassObject;
    if (!priorityClass.globalDefault) return undefined;
    const current = globalDefaultClass(store);
    if (!current) return undefined;
    // A second default being created, or another class made the default while one exists.
    if (!attributes.old || current.metadata?.name !== priorityClass.metadata?.name) {
      return forbidden(attributes, `PriorityClass ${current.metadata?.name ?? ''} is already marked as default. Only one default can exist`);
    }
    return undefined;
  }
}

function namedPriority(attributes: AdmissionAttributes, store: StoreApi, className: string): ResolvedPriority {
  const stored = store.get<PriorityClassObject>('PriorityClass', undefined, className);
  if (stored) return { className, priority: stored.value ?? 0, preemptionPolicy: stored.preemptionPolicy ?? PREEMPT_LOWER_PRIORITY };
  const system = SYSTEM_PRIORITY_CLASSES[className];
  if (system !== undefined) return { className, priority: system, preemptionPolicy: PREEMPT_LOWER_PRIORITY };
  throw forbidden(attributes, `no PriorityClass with name ${className} was found`);
}

function defaultPriority(store: StoreApi): ResolvedPriority {
  const chosen = globalDefaultClass(store);
  if (!chosen) return { className: '', priority: DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS, preemptionPolicy: PREEMPT_LOWER_PRIORITY };
  return { className: chosen.metadata?.name ?? '', priority: chosen.value ?? 0, preemptionPolicy: chosen.preemptionPolicy ?? PREEMPT_LOWER_PRIORITY };
}

/** The class marked `globalDefault`; of several (a race upstream allows), the lowest value. */
function globalDefaultClass(store: StoreApi): PriorityClassObject | undefined {
  let chosen: PriorityClassObject | undefined;
  for (const candidate of store.list<PriorityClassObject>('PriorityClass').items) {
    if (candidate.globalDefault && (!chosen || (chosen.value ?? 0) > (candidate.value ?? 0))) chosen = candidate;
  }
  return chosen;
}
