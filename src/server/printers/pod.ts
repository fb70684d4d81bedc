/**
 * Pod rows: port of `printPod` (kubernetes pkg/printers/internalversion/printers.go, as served by
 * v1.32 API servers, which run it with Wide=true). READY counts ready containers plus started,
 * ready restartable init containers (sidecars); STATUS walks init containers, then containers
 * from last to first; RESTARTS carries "(Xs ago)" from the latest termination.
 */
import type { ContainerStatus, Pod, PodCondition } from '../../core/k8s';
import type { PrintedRow, TableRowCondition } from './row';
import { ageSince, parseTime } from './time';

const podSucceededConditions: readonly TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
];
const podFailedConditions: readonly TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
];

/** The reason the node lifecycle controller sets on pods of an unreachable node. */
const NODE_UNREACHABLE_POD_REASON = 'NodeLost';

export function printPod(pod: Pod, now: number): PrintedRow {
  const spec = pod.spec;
  const status = pod.status ?? {};
  const conditions = status.conditions ?? [];
  const podPhase = status.phase ?? '';
  let reason = status.reason ? status.reason : podPhase;
  for (const condition of conditions) {
    if (condition.type === 'PodScheduled' && condition.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const restartableInit = new Set<string>();
  let totalContainers = spec?.containers?.length ?? 0;
  for (const init of spec?.initContainers ?? []) {
    if (init.restartPolicy === 'Always') {
      restartableInit.add(init.name);
      totalContainers++;
    }
  }

  let restarts = 0;
  let restartableInitRestarts = 0;
  let readyContainers = 0;
  let lastRestart: number | undefined;
  let lastRestartableInitRestart: number | undefined;
  let initializing = false;

  const initStatuses = status.initContainerStatuses ?? [];
  const initCount = spec?.initContainers?.length ?? 0;
  for (let i = 0; i < initStatuses.length; i++) {
    const container = initStatuses[i];
    const isRestartable = restartableInit.has(container.name);
    restarts += container.restartCount ?? 0;
    const finishedAt = lastTerminationFinishedAt(container);
    lastRestart = later(lastRestart, finishedAt);
    if (isRestartable) {
      restartableInitRestarts += container.restartCount ?? 0;
      lastRestartableInitRestart = later(lastRestartableInitRestart, finishedAt);
    }
    const terminated = container.state?.terminated;
    const waiting = container.state?.waiting;
    if (terminated && terminated.exitCode === 0) continue;
    if (isRestartable && container.started === true) {
      if (container.ready) readyContainers++;
      continue;
    }
    if (terminated) {
      if (!terminated.reason) {
        reason = terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode}`;
      } else {
        reason = `Init:${terminated.reason}`;
      }
    } else if (waiting && waiting.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${initCount}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || initializedConditionTrue(conditions)) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i];
      restarts += container.restartCount ?? 0;
      lastRestart = later(lastRestart, lastTerminationFinishedAt(container));
      const waiting = container.state?.waiting;
      const terminated = container.state?.terminated;
      if (waiting && waiting.reason) {
        reason = waiting.reason;
      } else if (terminated && terminated.reason) {
        reason = terminated.reason;
      } else if (terminated) {
        reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
      } else if (container.ready && container.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // A container that completed while another still runs does not make the pod "Completed".
    if (reason === 'Completed' && hasRunning) {
      reason = readyConditionTrue(conditions) ? 'Running' : 'NotReady';
    }
  }

  const deleting = Boolean(pod.metadata?.deletionTimestamp);
  if (deleting && status.reason === NODE_UNREACHABLE_POD_REASON) {
    reason = 'Unknown';
  } else if (deleting && podPhase !== 'Succeeded' && podPhase !== 'Failed') {
    reason = 'Terminating';
  }

  const restartsCell =
    restarts !== 0 && lastRestart !== undefined ? `${restarts} (${ageSince(lastRestart, now)} ago)` : String(restarts);

  const cells = [
    pod.metadata?.name ?? '',
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsCell,
    ageSince(parseTime(pod.metadata?.creationTimestamp), now),
    podIP(pod) || '<none>',
    spec?.nodeName || '<none>',
    status.nominatedNodeName || '<none>',
    readinessGates(pod),
  ];
  if (podPhase === 'Succeeded') return { cells, conditions: [...podSucceededConditions] };
  if (podPhase === 'Failed') return { cells, conditions: [...podFailedConditions] };
  return { cells };
}

function lastTerminationFinishedAt(container: ContainerStatus): number | undefined {
  const terminated = container.lastState?.terminated;
  return terminated ? parseTime(terminated.finishedAt) : undefined;
}

function later(current: number | undefined, candidate: number | undefined): number | undefined {
  if (candidate === undefined) return current;
  return current === undefined || current < candidate ? candidate : current;
}

function readyConditionTrue(conditions: PodCondition[]): boolean {
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The first Initialized condition decides, as upstream's isPodInitializedConditionTrue. */
function initializedConditionTrue(conditions: PodCondition[]): boolean {
  const initialized = conditions.find((c) => c.type === 'Initialized');
  return initialized?.status === 'True';
}

/** v1 → internal conversion makes `podIP` authoritative over `podIPs[0]`. */
function podIP(pod: Pod): string {
  return pod.status?.podIP || pod.status?.podIPs?.[0]?.ip || '';
}

function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  let trueConditions = 0;
  for (const gate of gates) {
    const condition = conditions.find((c) => c.type === gate.conditionType);
    if (condition?.status === 'True') trueConditions++;
  }
  return `${trueConditions}/${gates.length}`;
}
