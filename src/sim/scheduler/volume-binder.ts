/**
 * VolumeBinding's Reserve and PreBind (pkg/scheduler/framework/plugins/volumebinding/binder.go):
 * the static volumes chosen for a pod's WaitForFirstConsumer claims are assumed at once, so no
 * other pod's claim takes them; PreBind writes the choices (`bindAPIUpdate`: a static volume's
 * claimRef, `volume.kubernetes.io/selected-node` on a claim to provision) and then checks every
 * second (`checkBindings`, as upstream's poll) until the PV controller has bound every claim. Only
 * then is the pod bound to its node, so its `Scheduled` event follows the claims' `Bound`.
 */
import type { KubeObject } from '../../core/k8s';
import type { SimContext } from '../context';
import { ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE, isClaimBound, type ClaimObject, type VolumeObject } from '../storage/storage-objects';
import { ApiError } from '../store/types';
import type { VolumeBindingPlan } from './plugins/volume-binding';

const POLL_MS = 1_000;
/** `bindTimeoutSeconds` default. */
const BIND_TIMEOUT_MS = 600_000;

export class VolumeBinder {
  /** Static volumes promised to a claim whose binding has not been confirmed yet. */
  readonly assumedVolumes = new Set<string>();

  constructor(private readonly ctx: SimContext) {}

  assume(plan: VolumeBindingPlan): void {
    for (const { volume } of plan.staticBindings) this.assumedVolumes.add(volume.metadata?.name ?? '');
  }

  forget(plan: VolumeBindingPlan): void {
    for (const { volume } of plan.staticBindings) this.assumedVolumes.delete(volume.metadata?.name ?? '');
  }

  /**
   * Write the plan, then call `done` once every claim is bound (no argument) or with the error
   * PreBind reports. `running()` false stops the wait silently (the scheduler stopped).
   */
  bindPodVolumes(plan: VolumeBindingPlan, claims: readonly ClaimObject[], nodeName: string, running: () => boolean, done: (error?: string) => void): void {
    try {
      this.writePlan(plan, nodeName);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.forget(plan);
      return done(error.message);
    }
    const deadline = this.ctx.clock.now() + BIND_TIMEOUT_MS;
    const check = (): void => {
      if (!running()) return this.forget(plan);
      const outcome = this.checkBindings(plan, claims, nodeName);
      if (outcome === true || typeof outcome === 'string') {
        this.forget(plan);
        return done(outcome === true ? undefined : outcome);
      }
      if (this.ctx.clock.now() >= deadline) {
        this.forget(plan);
        return done('binding volumes: context deadline exceeded');
      }
      this.ctx.clock.after(POLL_MS, check);
    };
    this.ctx.clock.after(POLL_MS, check);
  }

  private writePlan(plan: VolumeBindingPlan, nodeName: string): void {
    const store = this.ctx.store;
    for (const { claim, volume } of plan.staticBindings) {
      const meta = claim.metadata ?? {};
      store.mutate<VolumeObject>('PersistentVolume', undefined, volume.metadata?.name ?? '', (copy) => {
        copy.spec = { ...copy.spec, claimRef: { kind: 'PersistentVolumeClaim', namespace: meta.namespace, name: meta.name, uid: meta.uid, apiVersion: 'v1', resourceVersion: meta.resourceVersion } };
        copy.metadata = { ...copy.metadata, annotations: { ...copy.metadata?.annotations, [ANN_BOUND_BY_CONTROLLER]: 'yes' } };
      }, { fieldManager: 'kube-scheduler' });
    }
    for (const claim of plan.provisions) {
      if (claim.metadata?.annotations?.[ANN_SELECTED_NODE] === nodeName) continue;
      store.mutate<ClaimObject>('PersistentVolumeClaim', claim.metadata?.namespace, claim.metadata?.name ?? '', (copy) => {
        copy.metadata = { ...copy.metadata, annotations: { ...copy.metadata?.annotations, [ANN_SELECTED_NODE]: nodeName } };
      }, { fieldManager: 'kube-scheduler' });
    }
  }

  /** `checkBindings`: true when every claim is bound, an error message, or false to keep waiting. */
  private checkBindings(plan: VolumeBindingPlan, claims: readonly ClaimObject[], nodeName: string): boolean | string {
    let all = true;
    for (const claim of claims) {
      const current = this.ctx.store.get<ClaimObject & KubeObject>('PersistentVolumeClaim', claim.metadata?.namespace, claim.metadata?.name ?? '');
      if (!current || current.metadata?.uid !== claim.metadata?.uid) return `persistentvolumeclaim "${claim.metadata?.name}" not found`;
      if (isClaimBound(current)) continue;
      if (plan.provisions.includes(claim)) {
        // A provisioner that gives up removes the node it was given, to have the pod rescheduled.
        const annotations = current.metadata?.annotations;
        if (!annotations) return `selectedNode annotation reset for PVC "${claim.metadata?.name}"`;
        if (annotations[ANN_SELECTED_NODE] !== nodeName) return `provisioning failed for PVC "${claim.metadata?.name}"`;
      }
      all = false;
    }
    return all;
  }
}
