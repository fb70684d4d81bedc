/**
 * HorizontalPodAutoscaler, PodDisruptionBudget, PriorityClass, Lease, RoleBinding and
 * ClusterRoleBinding rows: ports of their printers in pkg/printers/internalversion/printers.go.
 */
import type { ClusterRoleBinding, HorizontalPodAutoscaler, Lease, MetricSpec, MetricStatus, PodDisruptionBudget, PriorityClass, RoleBinding, Subject } from '../../core/k8s';
import { quantityString } from './quantity';
import type { PrintedRow } from './row';
import { ageOf } from './time';

export function printPodDisruptionBudget(budget: PodDisruptionBudget, now: number): PrintedRow {
  const spec = budget.spec;
  return {
    cells: [
      budget.metadata?.name ?? '',
      spec?.minAvailable !== undefined ? String(spec.minAvailable) : 'N/A',
      spec?.maxUnavailable !== undefined ? String(spec.maxUnavailable) : 'N/A',
      budget.status?.disruptionsAllowed ?? 0,
      ageOf(budget, now),
    ],
  };
}

/** The API server prints wide, so PreemptionPolicy is always there (upstream fills it only for `-o wide`). */
export function printPriorityClass(priorityClass: Partial<PriorityClass>, now: number): PrintedRow {
  return {
    cells: [priorityClass.metadata?.name ?? '', priorityClass.value ?? 0, priorityClass.globalDefault ?? false, ageOf(priorityClass, now), priorityClass.preemptionPolicy ?? ''],
  };
}

export function printLease(lease: Lease, now: number): PrintedRow {
  return { cells: [lease.metadata?.name ?? '', lease.spec?.holderIdentity ?? '', ageOf(lease, now)] };
}

/** `rbac.SubjectsStrings`: users, groups and `namespace/name` service accounts. */
function subjectsStrings(subjects: readonly Subject[] | undefined): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const subject of subjects ?? []) {
    if (subject.kind === 'ServiceAccount') serviceAccounts.push(`${subject.namespace ?? ''}/${subject.name}`);
    else if (subject.kind === 'User') users.push(subject.name);
    else if (subject.kind === 'Group') groups.push(subject.name);
  }
  return [users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

export function printRoleBinding(binding: Partial<RoleBinding | ClusterRoleBinding>, now: number): PrintedRow {
  const roleRef = `${binding.roleRef?.kind ?? ''}/${binding.roleRef?.name ?? ''}`;
  return { cells: [binding.metadata?.name ?? '', roleRef, ageOf(binding, now), ...subjectsStrings(binding.subjects)] };
}

/** How many metrics the TARGETS column shows before `+ N more...`. */
const HPA_METRICS_MAX = 2;
const UNKNOWN = '<unknown>';

/** `quantity.String()` of an optional status value. */
function current(value: string | number | undefined): string {
  return value === undefined ? UNKNOWN : quantityString(value);
}

type QuantityValue = string | number;

/** External and Object metrics: `current/target (avg)` for an average value, else `current/target`. */
function formatValueMetric(target: { value?: QuantityValue; averageValue?: QuantityValue } | undefined, observed: { current?: { value?: QuantityValue; averageValue?: QuantityValue } } | undefined): string {
  if (target?.averageValue !== undefined) return `${current(observed?.current?.averageValue)}/${quantityString(target.averageValue)} (avg)`;
  return `${observed ? quantityString(observed.current?.value) : UNKNOWN}/${quantityString(target?.value)}`;
}

/** One metric of `formatHPAMetrics`: `cpu: 12%/50%`, `<unknown>/100 (avg)`, … */
function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External':
      return formatValueMetric(spec.external?.target, status?.external);
    case 'Pods':
      return `${status?.pods ? quantityString(status.pods.current?.averageValue) : UNKNOWN}/${quantityString(spec.pods?.target?.averageValue)}`;
    case 'Object':
      return formatValueMetric(spec.object?.target, status?.object);
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const observed = spec.type === 'Resource' ? status?.resource : status?.containerResource;
      const target = source?.target;
      if (target?.averageValue !== undefined) {
        return `${source?.name ?? ''}: ${observed ? current(observed.current?.averageValue) : UNKNOWN}/${quantityString(target.averageValue)}`;
      }
      const utilization = observed?.current?.averageUtilization;
      const currentText = utilization !== undefined ? `${utilization}%` : UNKNOWN;
      const targetText = target?.averageUtilization !== undefined ? `${target.averageUtilization}%` : '<auto>';
      return `${source?.name ?? ''}: ${currentText}/${targetText}`;
    }
    default:
      return '<unknown type>';
  }
}

/** `formatHPAMetrics`: statuses pair with specs by index. */
function formatHPAMetrics(specs: readonly MetricSpec[] | undefined, statuses: readonly MetricStatus[] | undefined): string {
  if (!specs || specs.length === 0) return '<none>';
  const list = specs.map((spec, i) => formatMetric(spec, statuses?.[i]));
  if (list.length > HPA_METRICS_MAX) return `${list.slice(0, HPA_METRICS_MAX).join(', ')} + ${list.length - HPA_METRICS_MAX} more...`;
  return list.join(', ');
}

export function printHorizontalPodAutoscaler(autoscaler: HorizontalPodAutoscaler, now: number): PrintedRow {
  const spec = autoscaler.spec;
  return {
    cells: [
      autoscaler.metadata?.name ?? '',
      `${spec?.scaleTargetRef?.kind ?? ''}/${spec?.scaleTargetRef?.name ?? ''}`,
      formatHPAMetrics(spec?.metrics, autoscaler.status?.currentMetrics),
      spec?.minReplicas !== undefined ? String(spec.minReplicas) : '<unset>',
      spec?.maxReplicas ?? 0,
      autoscaler.status?.currentReplicas ?? 0,
      ageOf(autoscaler, now),
    ],
  };
}
