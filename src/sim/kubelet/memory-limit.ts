/**
 * The kernel's OOM killer in a container's memory cgroup: a program that allocates more than
 * `resources.limits.memory` is killed with SIGKILL, and the runtime reports it as reason
 * `OOMKilled`, exit code 137 (docs/simulator-failures.md, "Memory limits"). The model knows what
 * `stress` and `stress-ng` allocate (container-behaviour.ts `memoryStress`).
 */
import type { Container } from '../../core/k8s';
import { parseQuantity } from '../../core/schema/quantity';
import { memoryStress } from './container-behaviour';

/** How long after its start a stressor has allocated past its limit (a few hundred MiB take well under a second). */
export const OOM_KILL_MS = 500;
export const OOM_KILLED_EXIT_CODE = 137;
export const OOM_KILLED_REASON = 'OOMKilled';

/** The container's memory limit in bytes, or undefined without one. */
export function memoryLimitBytes(container: Container): number | undefined {
  const limit = container.resources?.limits?.memory;
  if (limit === undefined) return undefined;
  const parsed = parseQuantity(limit);
  return parsed.quantity ? Number(parsed.quantity.nano / 1_000_000_000n) : undefined;
}

/** Whether the container's program allocates more than its memory limit (so it is OOM-killed soon after each start). */
export function exceedsMemoryLimit(container: Container): boolean {
  const limit = memoryLimitBytes(container);
  if (limit === undefined) return false;
  const stress = memoryStress(container);
  return stress !== undefined && stress.bytes > limit;
}
