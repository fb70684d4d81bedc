/**
 * `matchPodFailurePolicy` (pkg/controller/job/pod_failure_policy.go): the first rule that matches a
 * failed pod decides what its failure means: FailJob, FailIndex, Ignore (not counted) or Count.
 * A pod no rule matches counts as a failure.
 */
import type { ContainerStatus } from '../../../core/k8s';
import type { PodObject } from '../controller-types';
import type { PodFailurePolicy } from './job-types';

export type PodFailurePolicyAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

export interface PodFailurePolicyMatch {
  /** The Job's failure message, for FailJob. */
  message?: string;
  /** Whether the failure counts against backoffLimit (false for Ignore). */
  countFailed: boolean;
  /** The matching rule's action; undefined when no rule matched. */
  action?: PodFailurePolicyAction;
}

type ExitCodesRequirement = NonNullable<PodFailurePolicy['rules'][number]['onExitCodes']>;
type ConditionPatterns = NonNullable<PodFailurePolicy['rules'][number]['onPodConditions']>;

/** `matchOnExitCodes`: the first terminated container (init ones first) with a non-zero code the rule names. */
function matchOnExitCodes(pod: PodObject, requirement: ExitCodesRequirement): ContainerStatus | undefined {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  for (const status of statuses) {
    if (requirement.containerName && requirement.containerName !== status.name) continue;
    const exitCode = status.state?.terminated?.exitCode;
    if (exitCode === undefined || exitCode === 0) continue;
    const listed = requirement.values.includes(exitCode);
    if (requirement.operator === 'In' ? listed : !listed) return status;
  }
  return undefined;
}

function matchOnPodConditions(pod: PodObject, patterns: ConditionPatterns): boolean {
  return patterns.some((pattern) => (pod.status?.conditions ?? []).some((c) => c.type === pattern.type && c.status === (pattern.status ?? 'True')));
}

export function matchPodFailurePolicy(policy: PodFailurePolicy | undefined, pod: PodObject): PodFailurePolicyMatch {
  if (!policy) return { countFailed: true };
  for (const [index, rule] of policy.rules.entries()) {
    const action = rule.action as PodFailurePolicyAction;
    if (rule.onExitCodes) {
      const status = matchOnExitCodes(pod, rule.onExitCodes);
      if (!status) continue;
      if (action === 'FailJob') {
        const message = `Container ${status.name} for pod ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} failed with exit code ${status.state?.terminated?.exitCode ?? 0} matching ${action} rule at index ${index}`;
        return { message, countFailed: true, action };
      }
      return { countFailed: action !== 'Ignore', action };
    }
    if (rule.onPodConditions && matchOnPodConditions(pod, rule.onPodConditions)) {
      if (action === 'FailJob') {
        const condition = rule.onPodConditions.find((p) => (pod.status?.conditions ?? []).some((c) => c.type === p.type));
        const message = `Pod ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} has condition ${condition?.type ?? ''} matching ${action} rule at index ${index}`;
        return { message, countFailed: true, action };
      }
      return { countFailed: action !== 'Ignore', action };
    }
  }
  return { countFailed: true };
}
