/**
 * Pod stages from state alone: the diff between the previous and the new digest. With no
 * previous digest (first sight, perhaps long after the pod started) the same code derives every
 * stage the current state proves, from the object's own timestamps, so a journey never depends
 * on Events still existing.
 */
import type { Component } from './types';
import type { ConditionChange, FieldChange } from './types';
import { containerStateLabel, findCondition, type ConditionDigest, type ContainerDigest, type PodDigest } from './digest';
import type { StageDraft } from './records';
import type { TimeValue } from './time';
import { controllerOf } from './controllers';

/** Waiting reasons that mean the container cannot start without a change. */
export const FAILURE_WAITING_REASONS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'CrashLoopBackOff',
  'CreateContainerConfigError',
  'CreateContainerError',
  'InvalidImageName',
  'ErrImageNeverPull',
  'RunContainerError',
  'PreCreateHookError',
  'PostStartHookError',
  'PreStartHookError',
]);

export function waitingStageKind(reason: string): 'backOff' | 'failed' {
  return reason.endsWith('BackOff') ? 'backOff' : 'failed';
}

export function waitingKey(container: string, reason: string): string {
  return `waiting:${container}:${reason}`;
}

export interface PodDeriveContext {
  /** A bare Pod applied by the user (its creation is "stored", not "created by a ReplicaSet"). */
  isRoot: boolean;
  /** Whether the object already has a stage with this key. */
  has(key: string): boolean;
  /** Who asked for the deletion, when known. */
  deleter: Component;
}

function conditionChange(prev: ConditionDigest | undefined, next: ConditionDigest): ConditionChange {
  return { type: next.type, from: prev?.status, to: next.status, reason: next.reason, message: next.message };
}

function stateOf(c: ContainerDigest | undefined): string | undefined {
  return c ? containerStateLabel(c) : undefined;
}

function containerPath(c: ContainerDigest): string {
  return `status.${c.init ? 'initContainerStatuses' : 'containerStatuses'}[${c.name}]`;
}

function sameTime(a: TimeValue | undefined, b: TimeValue | undefined): boolean {
  return a?.ms === b?.ms;
}

function latestStart(pod: PodDigest): TimeValue | undefined {
  let latest: TimeValue | undefined;
  for (const c of pod.containers) {
    if (c.init || c.state !== 'running' || !c.startedAt) continue;
    if (!latest || c.startedAt.ms > latest.ms) latest = c.startedAt;
  }
  return latest;
}

function terminationTitle(c: ContainerDigest, reason: string | undefined, exitCode: number | undefined): string {
  const label = c.init ? 'Init container' : 'Container';
  return `${label} ${c.name} terminated: ${reason ?? 'Unknown'}${exitCode === undefined ? '' : ` (exit code ${exitCode})`}`;
}

/** PodScheduled's reason while `spec.schedulingGates` is not empty. */
export const SCHEDULING_GATED = 'SchedulingGated';

function deriveConditions(prev: PodDigest | undefined, next: PodDigest, ctx: PodDeriveContext, out: StageDraft[]): void {
  for (const c of next.conditions) {
    const before = prev ? findCondition(prev.conditions, c.type) : undefined;
    const statusChanged = before?.status !== c.status;
    const change = conditionChange(before, c);
    switch (c.type) {
      case 'PodScheduled':
        if (c.status === 'False' && (statusChanged || before?.message !== c.message) && !next.nodeName) {
          // The API server writes SchedulingGated on create; the scheduler makes no attempt until the gates are gone.
          const gated = c.reason === SCHEDULING_GATED;
          out.push({
            key: 'failedScheduling',
            kind: 'failedScheduling',
            component: gated ? 'kube-apiserver' : 'default-scheduler',
            title: gated ? 'Scheduling gated: no attempt until spec.schedulingGates is empty' : 'No node fits the pod',
            ...(gated ? { reason: SCHEDULING_GATED } : {}),
            message: c.message,
            warning: true,
            objectTime: c.lastTransitionTime,
            conditions: [change],
            repeat: !statusChanged,
          });
        }
        break;
      case 'Initialized':
        if (c.status === 'True' && statusChanged) out.push({ key: 'initialized', kind: 'initialized', component: 'kubelet', title: 'Initialized', objectTime: c.lastTransitionTime, conditions: [change] });
        break;
      case 'PodReadyToStartContainers':
      case 'PodHasNetwork':
        if (c.status === 'True' && statusChanged) out.push({ key: 'sandboxReady', kind: 'sandboxReady', component: 'kubelet', title: 'Pod sandbox and network ready', objectTime: c.lastTransitionTime, conditions: [change] });
        break;
      case 'ContainersReady':
        if (c.status === 'True' && statusChanged) {
          const key = ctx.has('containersReady') ? `containersReady@${c.lastTransitionTime?.ms ?? 'now'}` : 'containersReady';
          out.push({ key, kind: 'containersReady', component: 'kubelet', title: 'All containers ready', objectTime: c.lastTransitionTime, conditions: [change] });
        }
        break;
      case 'Ready':
        if (c.status === 'True' && statusChanged) {
          const key = ctx.has('ready') ? `ready@${c.lastTransitionTime?.ms ?? 'now'}` : 'ready';
          out.push({ key, kind: 'ready', component: 'kubelet', title: 'Pod Ready', objectTime: c.lastTransitionTime, conditions: [change] });
        } else if (c.status === 'False' && before?.status === 'True') {
          out.push({
            key: `notReady@${c.lastTransitionTime?.ms ?? 'now'}`,
            kind: 'notReady',
            component: 'kubelet',
            title: 'Pod no longer Ready',
            message: c.message,
            warning: true,
            objectTime: c.lastTransitionTime,
            conditions: [change],
          });
        }
        break;
      default:
        break;
    }
  }
}

function startedDraft(c: ContainerDigest, incarnation: number, startedAt: TimeValue, fields: FieldChange[]): StageDraft {
  return {
    key: `containerStarted:${c.name}#${incarnation}`,
    kind: 'containerStarted',
    component: 'container-runtime',
    title: `${c.init ? 'Init container' : 'Container'} ${c.name} started`,
    container: c.name,
    objectTime: startedAt,
    fields: fields.length > 0 ? fields : undefined,
  };
}

function deriveContainer(before: ContainerDigest | undefined, c: ContainerDigest, out: StageDraft[]): void {
  const label = c.init ? 'Init container' : 'Container';
  const path = containerPath(c);
  const restartField: FieldChange[] =
    before && before.restartCount !== c.restartCount ? [{ path: `${path}.restartCount`, from: String(before.restartCount), to: String(c.restartCount) }] : [];

  if (c.lastTerminated?.finishedAt && !sameTime(c.lastTerminated.finishedAt, before?.lastTerminated?.finishedAt)) {
    const wasShownAsCurrent = before?.state === 'terminated' && sameTime(before.terminated?.finishedAt, c.lastTerminated.finishedAt);
    if (!wasShownAsCurrent) {
      const t = c.lastTerminated;
      const incarnation = Math.max(0, c.restartCount - 1);
      // A run too short to be seen running still started: its startedAt says when.
      if (t.startedAt) out.push(startedDraft(c, incarnation, t.startedAt, []));
      out.push({
        key: `containerTerminated:${c.name}#${incarnation}`,
        kind: 'containerTerminated',
        component: 'container-runtime',
        title: terminationTitle(c, t.reason, t.exitCode),
        message: t.message,
        reason: t.reason,
        container: c.name,
        warning: t.exitCode !== 0,
        objectTime: t.finishedAt,
        fields: [{ path: `${path}.lastState.terminated.exitCode`, to: t.exitCode === undefined ? undefined : String(t.exitCode) }],
      });
    }
  }

  if (c.state === 'running' && c.startedAt && (before?.state !== 'running' || !sameTime(before.startedAt, c.startedAt))) {
    out.push(startedDraft(c, c.restartCount, c.startedAt, [{ path: `${path}.state`, from: stateOf(before), to: 'Running' }, ...restartField]));
    return;
  }

  if (c.state === 'terminated' && c.terminated && (before?.state !== 'terminated' || !sameTime(before.terminated?.finishedAt, c.terminated.finishedAt))) {
    const t = c.terminated;
    if (t.startedAt && before?.state !== 'running') out.push(startedDraft(c, c.restartCount, t.startedAt, []));
    out.push({
      key: `containerTerminated:${c.name}#${c.restartCount}`,
      kind: 'containerTerminated',
      component: 'container-runtime',
      title: terminationTitle(c, t.reason, t.exitCode),
      message: t.message,
      container: c.name,
      warning: t.exitCode !== 0,
      objectTime: t.finishedAt,
      fields: [{ path: `${path}.state`, from: stateOf(before), to: t.reason ?? 'Terminated' }, ...restartField],
    });
    return;
  }

  if (c.state === 'waiting' && c.reason && FAILURE_WAITING_REASONS.has(c.reason) && (before?.state !== 'waiting' || before.reason !== c.reason)) {
    out.push({
      key: waitingKey(c.name, c.reason),
      kind: waitingStageKind(c.reason),
      component: 'kubelet',
      title: `${label} ${c.name} waiting: ${c.reason}`,
      message: c.message,
      reason: c.reason,
      container: c.name,
      warning: true,
      fields: [{ path: `${path}.state`, from: stateOf(before), to: c.reason }, ...restartField],
      repeat: true,
    });
  }
}

/**
 * The node a pod named itself (`spec.nodeName` in the manifest): first seen already bound and
 * without a PodScheduled condition, which the scheduler's binding would have set. No scheduler
 * is involved.
 */
export function namedNodeAtCreation(prev: PodDigest | undefined, next: PodDigest): string | undefined {
  if (prev || !next.nodeName || findCondition(next.conditions, 'PodScheduled')) return undefined;
  return next.nodeName;
}

/** The component name the pod garbage collector acts under in a journey. */
export const POD_GARBAGE_COLLECTOR = 'pod-garbage-collector';

/** The DisruptionTarget condition the pod garbage collector writes before it deletes a pod whose node does not exist. */
export function deletedByPodGC(pod: PodDigest): ConditionDigest | undefined {
  const condition = findCondition(pod.conditions, 'DisruptionTarget');
  return condition?.status === 'True' && condition.reason === 'DeletionByPodGC' ? condition : undefined;
}

export function derivePod(prev: PodDigest | undefined, next: PodDigest, ctx: PodDeriveContext): StageDraft[] {
  const out: StageDraft[] = [];
  if (!prev) {
    if (ctx.isRoot) {
      const named = namedNodeAtCreation(prev, next);
      out.push({
        key: 'stored',
        kind: 'stored',
        component: 'kube-apiserver',
        title: named ? `Stored Pod ${next.name} for node ${named} (spec.nodeName: no scheduler)` : `Stored Pod ${next.name}`,
        objectTime: next.created,
        fields: [{ path: 'status.phase', to: next.phase ?? 'Pending' }, ...(named ? [{ path: 'spec.nodeName', to: named }] : [])],
      });
    } else {
      const owner = next.owner;
      out.push({
        key: 'podCreated',
        kind: 'podCreated',
        component: controllerOf(owner?.kind) ?? 'kube-apiserver',
        title: owner ? `Created by ${owner.kind} ${owner.name}` : `Created Pod ${next.name}`,
        objectTime: next.created,
        fields: owner ? [{ path: `metadata.ownerReferences[${owner.kind}]`, to: owner.name }] : undefined,
      });
    }
  }

  if (next.nodeName && !prev?.nodeName && !namedNodeAtCreation(prev, next)) {
    const scheduled = findCondition(next.conditions, 'PodScheduled');
    const before = prev ? findCondition(prev.conditions, 'PodScheduled') : undefined;
    out.push({
      key: 'scheduled',
      kind: 'scheduled',
      component: 'default-scheduler',
      title: `Bound to ${next.nodeName}`,
      objectTime: scheduled?.status === 'True' ? scheduled.lastTransitionTime : undefined,
      fields: [{ path: 'spec.nodeName', to: next.nodeName }],
      conditions: scheduled?.status === 'True' && before?.status !== 'True' ? [conditionChange(before, scheduled)] : undefined,
    });
  }

  deriveConditions(prev, next, ctx, out);

  for (const c of next.containers) {
    const before = prev?.containers.find((p) => p.name === c.name && p.init === c.init);
    deriveContainer(before, c, out);
  }

  if (next.phase && next.phase !== prev?.phase) {
    const phaseField: FieldChange = { path: 'status.phase', from: prev?.phase, to: next.phase };
    if (next.phase === 'Running' && !ctx.has('running')) {
      out.push({ key: 'running', kind: 'running', component: 'kubelet', title: 'Pod Running', objectTime: latestStart(next), fields: [phaseField] });
    } else if (next.phase === 'Succeeded') {
      out.push({ key: 'succeeded', kind: 'succeeded', component: 'kubelet', title: 'Pod Succeeded', fields: [phaseField] });
    } else if (next.phase === 'Failed') {
      const collected = deletedByPodGC(next);
      out.push({
        key: 'phaseFailed',
        kind: 'failed',
        component: collected ? POD_GARBAGE_COLLECTOR : 'kubelet',
        title: collected ? `Pod Failed: ${collected.reason}, node ${next.nodeName ?? ''} does not exist` : `Pod Failed${next.statusReason ? `: ${next.statusReason}` : ''}`,
        message: collected ? collected.message : next.statusMessage,
        warning: true,
        fields: [phaseField],
      });
    }
  }

  if (next.deletionTimestamp && !prev?.deletionTimestamp) {
    const grace = next.deletionGraceSeconds ?? 0;
    // deletionTimestamp is when the grace period ends; the request came `grace` seconds earlier.
    const requested: TimeValue = { ms: next.deletionTimestamp.ms - grace * 1000, precise: next.deletionTimestamp.precise };
    out.push({
      key: 'terminating',
      kind: 'terminating',
      component: ctx.deleter,
      title: `Deletion requested (grace period ${grace}s)`,
      objectTime: requested,
      fields: [{ path: 'metadata.deletionTimestamp', to: new Date(next.deletionTimestamp.ms).toISOString().replace('.000Z', 'Z') }],
    });
  }
  return out;
}
