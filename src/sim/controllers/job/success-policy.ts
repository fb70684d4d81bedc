/**
 * `matchSuccessPolicy` (pkg/controller/job/success_policy.go): an Indexed Job succeeds early when
 * one rule's succeededIndexes and/or succeededCount are met by the indexes completed so far.
 */
import { parseIndexes } from './indexed-job-utils';
import type { SuccessPolicy } from './job-types';

/** The condition message when a rule matched, else undefined. */
export function matchSuccessPolicy(policy: SuccessPolicy | undefined, completions: number, succeeded: ReadonlySet<number>): string | undefined {
  if (!policy) return undefined;
  for (const [index, rule] of policy.rules.entries()) {
    if (rule.succeededIndexes !== undefined) {
      const wanted = parseIndexes(rule.succeededIndexes, completions);
      let matched = 0;
      for (const i of wanted) if (succeeded.has(i)) matched++;
      if (rule.succeededCount !== undefined ? matched >= rule.succeededCount : matched === wanted.size) return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && succeeded.size >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}
