/**
 * Deployment and ReplicaSet stages from state: generations stored, ReplicaSets created and
 * scaled, the Deployment's Available and Progressing conditions. Scaling is shown on the
 * Deployment (that is where `kubectl describe` shows it, as ScalingReplicaSet events), derived
 * from the ReplicaSets' `spec.replicas` so that it survives expired events.
 */
import { clientManager, controllerWrite, findCondition, type ConditionDigest, type WorkloadDigest } from './digest';
import type { StageDraft } from './records';
import type { Component, ConditionChange, FieldChange } from './types';

function conditionChange(prev: ConditionDigest | undefined, next: ConditionDigest): ConditionChange {
  return { type: next.type, from: prev?.status, to: next.status, reason: next.reason, message: next.message };
}

function imageChanges(prev: WorkloadDigest, next: WorkloadDigest): FieldChange[] {
  const out: FieldChange[] = [];
  const before = new Map(prev.images.map((entry) => entry.split('=', 2) as [string, string]));
  for (const entry of next.images) {
    const [name, image] = entry.split('=', 2);
    const old = before.get(name);
    if (old !== image) out.push({ path: `spec.template.spec.containers[${name}].image`, from: old, to: image });
  }
  return out;
}

function managerEvidence(digest: WorkloadDigest): StageDraft['manager'] {
  const m = clientManager(digest.managers);
  return m ? { name: m.name, operation: m.operation, time: m.time?.ms } : undefined;
}

export interface WorkloadDeriveContext {
  isRoot: boolean;
  /** The object existed long before the journey began (only later changes are stages). */
  preexisting: boolean;
  has(key: string): boolean;
  /** `base`, or `base#2`, `#3`… when taken: for transitions that can happen again. */
  unique(base: string): string;
  deleter: Component;
}

/** Stages of storing a new generation (creation, or an update that changed the spec). */
export function deriveStored(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext, out: StageDraft[]): void {
  const generation = next.generation ?? 1;
  if (prev && (prev.generation ?? 1) >= generation) return;
  const key = `stored#${generation}`;
  if (ctx.has(key)) return;
  const fields: FieldChange[] = [{ path: 'metadata.generation', from: prev?.generation?.toString(), to: String(generation) }];
  if (prev) {
    fields.push(...imageChanges(prev, next));
    if (prev.specReplicas !== next.specReplicas) fields.push({ path: 'spec.replicas', from: String(prev.specReplicas), to: String(next.specReplicas) });
  }
  // On creation the submitted stage already names the field manager.
  const manager = prev || ctx.preexisting ? managerEvidence(next) : undefined;
  const created = !ctx.preexisting && generation === 1;
  out.push({
    key,
    kind: 'stored',
    component: 'kube-apiserver',
    title: created ? `Stored ${next.kind} ${next.name}` : `Stored generation ${generation}`,
    objectTime: created ? next.created : clientManager(next.managers)?.time,
    fields,
    manager,
  });
}

export function deriveDeletion(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext, out: StageDraft[]): void {
  if (!next.deletionTimestamp || prev?.deletionTimestamp) return;
  out.push({
    key: 'terminating',
    kind: 'terminating',
    component: ctx.deleter,
    title: 'Deletion requested (waiting for dependents)',
    objectTime: next.deletionTimestamp,
    fields: [{ path: 'metadata.deletionTimestamp', to: new Date(next.deletionTimestamp.ms).toISOString().replace('.000Z', 'Z') }],
  });
}

export function deriveDeployment(prev: WorkloadDigest | undefined, next: WorkloadDigest, ctx: WorkloadDeriveContext): StageDraft[] {
  const out: StageDraft[] = [];
  deriveStored(prev, next, ctx, out);
  for (const c of next.conditions) {
    const before = prev ? findCondition(prev.conditions, c.type) : undefined;
    const changed = before?.status !== c.status || before.reason !== c.reason || before.message !== c.message;
    if (!changed) continue;
    if (c.type === 'Progressing') {
      const failed = c.reason === 'ProgressDeadlineExceeded';
      const time = c.lastUpdateTime ?? c.lastTransitionTime;
      out.push({
        key: `progressing:${c.reason ?? ''}:${c.message ?? ''}`,
        kind: failed ? 'failed' : 'progressing',
        component: 'deployment-controller',
        title: failed ? 'Progress deadline exceeded' : `Progressing: ${c.reason ?? c.status}`,
        message: c.message,
        warning: failed || c.status === 'False',
        objectTime: time,
        conditions: [conditionChange(before, c)],
      });
    } else if (c.type === 'Available') {
      if (c.status === 'True' && before?.status !== 'True') {
        const key = ctx.has('available') ? `available@${c.lastTransitionTime?.ms ?? 'now'}` : 'available';
        out.push({ key, kind: 'available', component: 'deployment-controller', title: 'Deployment Available', message: c.message, objectTime: c.lastTransitionTime, conditions: [conditionChange(before, c)] });
      } else if (c.status === 'False' && before?.status === 'True') {
        out.push({
          key: `unavailable@${c.lastTransitionTime?.ms ?? 'now'}`,
          kind: 'unavailable',
          component: 'deployment-controller',
          title: 'Deployment no longer Available',
          message: c.message,
          warning: true,
          objectTime: c.lastTransitionTime,
          conditions: [conditionChange(before, c)],
        });
      }
    } else if (c.type === 'ReplicaFailure' && c.status === 'True') {
      out.push({
        key: `replicaFailure:${c.reason ?? ''}`,
        kind: 'failed',
        component: 'deployment-controller',
        title: `Replica failure: ${c.reason ?? 'Unknown'}`,
        message: c.message,
        warning: true,
        objectTime: c.lastTransitionTime,
        conditions: [conditionChange(before, c)],
        repeat: true,
      });
    }
  }
  deriveDeletion(prev, next, ctx, out);
  return out;
}

export interface ReplicaSetDerived {
  own: StageDraft[];
  /** Stages for the owning Deployment (its scaling of this ReplicaSet). */
  forOwner: StageDraft[];
}

/** The key under which a Deployment shows one scaling of one ReplicaSet (shared with ScalingReplicaSet events). */
export function scalingKey(replicaSet: string, to: number): string {
  return `scaled:${replicaSet}:${to}`;
}

export function scalingTitle(replicaSet: string, from: number | undefined, to: number): string {
  const direction = from !== undefined && to < from ? 'down' : 'up';
  return from === undefined ? `Scaled ${direction} replica set ${replicaSet} to ${to}` : `Scaled ${direction} replica set ${replicaSet} from ${from} to ${to}`;
}

export function deriveReplicaSet(
  prev: WorkloadDigest | undefined,
  next: WorkloadDigest,
  ctx: WorkloadDeriveContext & { ownedByDeployment: boolean; controller: Component },
): ReplicaSetDerived {
  const own: StageDraft[] = [];
  const forOwner: StageDraft[] = [];
  const scaleTime = controllerWrite(next.managers)?.time;
  if (!prev && !ctx.preexisting) {
    if (ctx.ownedByDeployment) {
      own.push({
        key: 'replicaSetCreated',
        kind: 'replicaSetCreated',
        component: 'deployment-controller',
        title: `Created ReplicaSet ${next.name}${next.revision ? ` (revision ${next.revision})` : ''}`,
        objectTime: next.created,
        fields: [{ path: 'spec.replicas', to: String(next.specReplicas) }],
      });
      if (next.specReplicas > 0) {
        forOwner.push({
          key: scalingKey(next.name, next.specReplicas),
          kind: 'scaled',
          component: 'deployment-controller',
          title: scalingTitle(next.name, 0, next.specReplicas),
          objectTime: next.created,
          fields: [{ path: `ReplicaSet ${next.name} spec.replicas`, from: '0', to: String(next.specReplicas) }],
        });
      }
    } else {
      deriveStored(prev, next, ctx, own);
    }
  }
  if (prev && prev.specReplicas !== next.specReplicas) {
    const field: FieldChange = { path: ctx.ownedByDeployment ? `ReplicaSet ${next.name} spec.replicas` : 'spec.replicas', from: String(prev.specReplicas), to: String(next.specReplicas) };
    const draft: StageDraft = {
      key: scalingKey(next.name, next.specReplicas),
      kind: 'scaled',
      component: ctx.ownedByDeployment ? 'deployment-controller' : 'kube-apiserver',
      title: scalingTitle(next.name, prev.specReplicas, next.specReplicas),
      objectTime: ctx.ownedByDeployment ? scaleTime : clientManager(next.managers)?.time,
      fields: [field],
    };
    (ctx.ownedByDeployment ? forOwner : own).push(draft);
  }
  const availableNow = next.specReplicas > 0 && next.availableReplicas >= next.specReplicas && (next.observedGeneration ?? 0) >= (next.generation ?? 0);
  const availableBefore = prev ? prev.specReplicas > 0 && prev.availableReplicas >= prev.specReplicas && (prev.observedGeneration ?? 0) >= (prev.generation ?? 0) : false;
  if (availableNow && !availableBefore && !(ctx.preexisting && !prev)) {
    own.push({
      key: ctx.unique(`available:${next.specReplicas}`),
      kind: 'available',
      component: ctx.controller,
      title: `${next.availableReplicas}/${next.specReplicas} pods available`,
      fields: [{ path: 'status.availableReplicas', from: prev ? String(prev.availableReplicas) : undefined, to: String(next.availableReplicas) }],
    });
  }
  const failure = findCondition(next.conditions, 'ReplicaFailure');
  const failureBefore = prev ? findCondition(prev.conditions, 'ReplicaFailure') : undefined;
  if (failure?.status === 'True' && (failureBefore?.status !== 'True' || failureBefore.message !== failure.message)) {
    own.push({
      key: `replicaFailure:${failure.reason ?? ''}`,
      kind: 'failed',
      component: ctx.controller,
      title: `Replica failure: ${failure.reason ?? 'Unknown'}`,
      message: failure.message,
      warning: true,
      objectTime: failure.lastTransitionTime,
      conditions: [conditionChange(failureBefore, failure)],
      repeat: true,
    });
  }
  deriveDeletion(prev, next, ctx, own);
  return { own, forOwner };
}
