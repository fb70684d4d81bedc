/**
 * How long `trace` keeps watching after every journey finished, when a pod it traced has a
 * liveness or startup probe that the simulator knows will fail later (`touch /tmp/healthy; sleep
 * 30; rm -f /tmp/healthy`, the docs' agnhost that answers 500 after 10 s, an HTTP path nginx does
 * not serve): long enough for the kubelet to see the probe fail `failureThreshold` times, kill
 * the container and start it again. Ending the trace at the first Ready would call such a pod
 * complete where the cluster goes on restarting it.
 */
import type { Container, KubeObject, PodSpec, Probe } from '../core/k8s';
import { outcomeChangeTimes, probeOutcome } from '../sim/kubelet/probe-outcome';
import type { StoreApi } from '../sim/store/types';

/** After the kill and the grace period: the kubelet's first restart back-off (10 s) and a margin. */
const RESTART_ALLOWANCE_MS = 10_000 + 5_000;

interface ProbedPod extends KubeObject {
  spec?: PodSpec;
  status?: { containerStatuses?: { name: string; state?: { running?: { startedAt?: string } } }[] };
}

/** When the probe fails for good, in ms after the container started; undefined when it keeps succeeding (or cannot be told). */
export function lastingFailureAfterStartMs(probe: Probe, container: Container): number | undefined {
  const settledAt = Math.max((probe.initialDelaySeconds ?? 0) * 1000, ...outcomeChangeTimes(probe, container)) + 1;
  return probeOutcome(probe, container, '0.0.0.0', settledAt).ok ? undefined : settledAt;
}

/**
 * The virtual time (ms) until which the pods created since `sinceMs` may still be restarted by a
 * failing probe; undefined when none will be.
 */
export function probeRestartHorizon(store: StoreApi, sinceMs: number): number | undefined {
  let horizon: number | undefined;
  for (const pod of store.list<ProbedPod>('Pod').items) {
    const created = Date.parse(pod.metadata?.creationTimestamp ?? '');
    if (!(created >= sinceMs - 1000)) continue;
    for (const container of pod.spec?.containers ?? []) {
      for (const probe of [container.livenessProbe, container.startupProbe]) {
        if (!probe) continue;
        const failsAfter = lastingFailureAfterStartMs(probe, container);
        if (failsAfter === undefined) continue;
        const startedAt = Date.parse(pod.status?.containerStatuses?.find((s) => s.name === container.name)?.state?.running?.startedAt ?? '');
        if (Number.isNaN(startedAt)) continue;
        const periodMs = (probe.periodSeconds ?? 10) * 1000;
        const terminationGraceMs = ((pod.spec?.terminationGracePeriodSeconds as number | undefined) ?? 30) * 1000;
        // startedAt is kept to the second, as the API does: one more second covers the rounding.
        const restartedBy = startedAt + 1000 + failsAfter + periodMs * (probe.failureThreshold ?? 3) + terminationGraceMs + RESTART_ALLOWANCE_MS;
        horizon = Math.max(horizon ?? 0, restartedBy);
      }
    }
  }
  return horizon;
}
