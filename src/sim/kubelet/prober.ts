/**
 * The kubelet's probe workers for one container instance (pkg/kubelet/prober/worker.go): the
 * startup probe first, then liveness and readiness, each on its own period after
 * `initialDelaySeconds`, counting consecutive results against `successThreshold` and
 * `failureThreshold`. A failed probe records `Unhealthy` (`Liveness probe failed: …`); enough
 * liveness or startup failures kill the container (`Container c failed liveness probe, will be
 * restarted`), enough readiness failures make it unready. What a probe sees comes from
 * probe-outcome.ts; a worker stops once its answer can no longer change.
 */
import type { Probe } from '../../core/k8s';
import type { ContainerInstance, ContainerRecord } from './pod-status';
import { outcomeChangeTimes, probeOutcome } from './probe-outcome';

export type ProbeKind = 'startup' | 'liveness' | 'readiness';

/** What a probe worker needs from its pod worker. */
export interface ProbeHost {
  now(): number;
  after(ms: number, run: () => void): void;
  /** The pod worker stopped caring (the pod is terminating or gone). */
  aborted(): boolean;
  podIP(): string;
  /** Virtual time the kubelet took the pod: probe ticks count from it. */
  podStartTime(): number;
  /** The delay before the kubelet's first probe after a container starts. */
  firstProbeDelay(): number;
  /** Record an event about the probed container (the prober's `recordContainerEvent`). */
  containerEvent(record: ContainerRecord, type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** The container's readiness or started flag changed: write the status now. */
  statusChanged(): void;
  /** Kill the instance after a failed liveness or startup probe; the pod worker restarts it. */
  kill(record: ContainerRecord, instance: ContainerInstance, graceMs: number): void;
  /** A probe the simulator cannot evaluate is assumed to succeed: report it once. */
  assume(record: ContainerRecord, kind: ProbeKind, reason: string): void;
}

/** A probe's own duration: an HTTP GET, a TCP connect or an exec in the container. */
const PROBE_MS = 3;

const TITLE: Record<ProbeKind, string> = { startup: 'Startup', liveness: 'Liveness', readiness: 'Readiness' };

function probeOf(record: ContainerRecord, kind: ProbeKind): Probe | undefined {
  const spec = record.spec;
  return kind === 'startup' ? spec.startupProbe : kind === 'liveness' ? spec.livenessProbe : spec.readinessProbe;
}

/** Starts the probe workers of a container instance that just started. */
export function startProbing(host: ProbeHost, record: ContainerRecord, instance: ContainerInstance, terminationGraceMs: number): void {
  if (probeOf(record, 'startup')) {
    record.startupPending = true;
    runWorker(host, record, instance, 'startup', terminationGraceMs, () => {
      record.startupPending = false;
      startAfterStartup(host, record, instance, terminationGraceMs);
      host.statusChanged();
    });
    return;
  }
  startAfterStartup(host, record, instance, terminationGraceMs);
}

function startAfterStartup(host: ProbeHost, record: ContainerRecord, instance: ContainerInstance, terminationGraceMs: number): void {
  if (probeOf(record, 'liveness')) runWorker(host, record, instance, 'liveness', terminationGraceMs);
  if (probeOf(record, 'readiness')) runWorker(host, record, instance, 'readiness', terminationGraceMs);
  else if (!record.ready) {
    record.ready = true;
    host.statusChanged();
  }
}

/** The first probe time: right after the start when there is no initial delay, else the first period tick past it. */
function firstProbeAt(host: ProbeHost, probe: Probe, startedAt: number): number {
  const periodMs = (probe.periodSeconds ?? 10) * 1000;
  const initialDelayMs = (probe.initialDelaySeconds ?? 0) * 1000;
  const triggeredAt = startedAt + host.firstProbeDelay();
  if (triggeredAt - startedAt >= initialDelayMs) return triggeredAt;
  const ticks = Math.ceil((startedAt + initialDelayMs - host.podStartTime()) / periodMs);
  return host.podStartTime() + Math.max(0, ticks) * periodMs;
}

function runWorker(host: ProbeHost, record: ContainerRecord, instance: ContainerInstance, kind: ProbeKind, terminationGraceMs: number, onStarted?: () => void): void {
  const probe = probeOf(record, kind)!;
  const startedAt = instance.startedAt!;
  const periodMs = (probe.periodSeconds ?? 10) * 1000;
  const successThreshold = kind === 'readiness' ? (probe.successThreshold ?? 1) : 1;
  const failureThreshold = probe.failureThreshold ?? 3;
  const lastChange = Math.max(0, ...outcomeChangeTimes(probe, record.spec));
  let successes = 0;
  let failures = 0;
  let assumedReported = false;

  const tick = (): void => {
    if (host.aborted() || record.current !== instance || instance.finishedAt !== undefined) return;
    const now = host.now();
    const outcome = probeOutcome(probe, record.spec, host.podIP(), now - startedAt);
    if (outcome.ok) {
      successes++;
      failures = 0;
      if (outcome.assumed && !assumedReported) {
        assumedReported = true;
        host.assume(record, kind, outcome.assumed);
      }
      if (kind === 'startup') {
        onStarted?.();
        return;
      }
      if (kind === 'readiness' && !record.ready && successes >= successThreshold) {
        record.ready = true;
        host.statusChanged();
      }
    } else {
      failures++;
      successes = 0;
      host.containerEvent(record, 'Warning', 'Unhealthy', `${TITLE[kind]} probe failed: ${outcome.output}`);
      if (kind === 'readiness') {
        if (record.ready && failures >= failureThreshold) {
          record.ready = false;
          host.statusChanged();
        }
      } else if (failures >= failureThreshold) {
        host.containerEvent(record, 'Normal', 'Killing', `Container ${record.spec.name} failed ${kind} probe, will be restarted`);
        const graceMs = probe.terminationGracePeriodSeconds !== undefined ? probe.terminationGracePeriodSeconds * 1000 : terminationGraceMs;
        host.kill(record, instance, graceMs);
        return;
      }
    }
    // Once the answer cannot change and the worker has acted on it, nothing more would happen.
    const settled = outcome.ok && (kind !== 'readiness' || record.ready);
    if (settled && now - startedAt >= lastChange) return;
    host.after(periodMs, tick);
  };
  host.after(Math.max(0, firstProbeAt(host, probe, startedAt) + PROBE_MS - host.now()), tick);
}
