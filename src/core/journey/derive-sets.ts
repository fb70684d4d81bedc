/**
 * StatefulSet and DaemonSet stages from state. A StatefulSet with OrderedReady pod management
 * creates `web-1` only once `web-0` is Running and Ready: the wait is a stage of its own, derived
 * from `status.replicas` (pods created) and `status.readyReplicas`, so it shows on a real cluster
 * too. A DaemonSet wants one pod per eligible node (`status.desiredNumberScheduled`).
 */
import type { WorkloadDigest } from './digest';
import type { StageDraft } from './records';
import type { Component } from './types';
import { deriveDeletion, deriveStored, type WorkloadDeriveContext } from './derive-workload';

function rolledOut(d: WorkloadDigest): boolean {
  return (d.observedGeneration ?? 0) >= (d.generation ?? 0) && d.readyReplicas >= d.specReplicas && d.updatedReplicas >= d.specReplicas;
}

/** Whether a StatefulSet reached its goal: every replica ready on the update revision. */
export function statefulSetRolledOut(d: WorkloadDigest): boolean {
  const revisions = d.statefulSet;
  const onUpdateRevision = !revisions?.updateRevision || revisions.currentRevision === revisions.updateRevision;
  return rolledOut(d) && onUpdateRevision;
}

/** Whether a DaemonSet reached its goal: a ready, updated pod on every node that should run one. */
export function daemonSetRolledOut(d: WorkloadDigest): boolean {
  return rolledOut(d) && d.availableReplicas >= d.specReplicas;
}

function readyStage(key: string, component: Component, title: string, prev: WorkloadDigest | undefined, next: WorkloadDigest): StageDraft {
  return {
    key,
    kind: 'available',
    component,
    title,
    fields: [{ path: 'status.readyReplicas', from: prev ? String(prev.readyReplicas) : undefined, to: String(next.readyReplicas) }],
  };
}

export function deriveStatefulSet(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext): StageDraft[] {
  const out: StageDraft[] = [];
  deriveStored(prev, next, ctx, out);
  const ordered = next.statefulSet?.podManagementPolicy !== 'Parallel';
  // OrderedReady: pod N is created only after pods 0…N-1 are Running and Ready.
  if (ordered && next.replicas > 0 && next.replicas < next.specReplicas && next.readyReplicas < next.replicas && !next.deletionTimestamp) {
    const waitingFor = `${next.name}-${next.replicas - 1}`;
    const key = `waiting:${next.name}-${next.replicas}`;
    if (!ctx.has(key)) {
      out.push({
        key,
        kind: 'waiting',
        component: 'statefulset-controller',
        title: `Waiting for ${waitingFor} to be Running and Ready before creating ${next.name}-${next.replicas} (OrderedReady)`,
        fields: [{ path: 'status.readyReplicas', to: `${next.readyReplicas} of ${next.replicas} created` }],
      });
    }
  }
  if (statefulSetRolledOut(next) && !(prev && statefulSetRolledOut(prev)) && !(ctx.preexisting && !prev) && next.specReplicas > 0) {
    const revision = next.statefulSet?.updateRevision;
    out.push(readyStage(ctx.unique(`available:${next.specReplicas}`), 'statefulset-controller', `${next.readyReplicas}/${next.specReplicas} pods ready${revision ? ` (revision ${revision})` : ''}`, prev, next));
  }
  deriveDeletion(prev, next, ctx, out);
  return out;
}

export function deriveDaemonSet(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext): StageDraft[] {
  const out: StageDraft[] = [];
  deriveStored(prev, next, ctx, out);
  const observed = (next.observedGeneration ?? 0) >= 1;
  if (observed && (!prev || (prev.observedGeneration ?? 0) < 1 || prev.specReplicas !== next.specReplicas)) {
    const none = next.specReplicas === 0;
    out.push({
      key: ctx.unique(`desired:${next.specReplicas}`),
      kind: 'scaled',
      component: 'daemonset-controller',
      title: none ? 'No node is eligible: no daemon pod to run' : `Wants ${next.specReplicas} pod${next.specReplicas === 1 ? '' : 's'}, one per eligible node`,
      message: none ? "no node passes the template's nodeSelector, node affinity and tolerations" : undefined,
      warning: none,
      fields: [{ path: 'status.desiredNumberScheduled', from: prev ? String(prev.specReplicas) : undefined, to: String(next.specReplicas) }],
    });
  }
  if (daemonSetRolledOut(next) && !(prev && daemonSetRolledOut(prev)) && !(ctx.preexisting && !prev) && next.specReplicas > 0) {
    out.push(readyStage(ctx.unique(`available:${next.specReplicas}`), 'daemonset-controller', `${next.readyReplicas}/${next.specReplicas} daemon pods ready`, prev, next));
  }
  deriveDeletion(prev, next, ctx, out);
  return out;
}
