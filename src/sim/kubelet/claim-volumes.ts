/**
 * The kubelet's volume manager for PersistentVolumeClaim volumes (pkg/kubelet/volumemanager):
 * before the sandbox and containers start, each claim must exist and be Bound to a volume. For
 * kind's local-path volumes (hostPath) there is nothing to attach and the mount is a bind mount of
 * the node's directory, so a bound claim mounts at once; a missing or unbound claim (a pod that
 * named its node and skipped the scheduler's VolumeBinding) leaves the pod ContainerCreating with
 * the volume manager's `FailedMount`.
 */
import type { KubeObject, Pod } from '../../core/k8s';
import type { StoreApi } from '../store/types';
import type { ClaimObject } from '../storage/storage-objects';

/** The `FailedMount` message for the pod's first claim that cannot be mounted, or undefined. */
export function claimMountError(store: StoreApi, pod: Pod & KubeObject): string | undefined {
  const namespace = pod.metadata?.namespace ?? 'default';
  const failed: string[] = [];
  const errors: string[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    const claimName = volume.persistentVolumeClaim?.claimName;
    if (claimName === undefined) continue;
    const claim = store.get<ClaimObject>('PersistentVolumeClaim', namespace, claimName);
    // `getPVCExtractPV`, wrapped by `createVolumeSpec`.
    const problem = !claim ? `failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found` : claim.status?.phase !== 'Bound' || !claim.spec?.volumeName ? 'PVC is not bound' : undefined;
    if (problem === undefined) continue;
    failed.push(volume.name);
    errors.push(`error processing PVC ${namespace}/${claimName}: ${problem}`);
  }
  if (failed.length === 0) return undefined;
  const names = `[${failed.join(' ')}]`;
  return `Unable to attach or mount volumes: unmounted volumes=${names}, unattached volumes=[], failed to process volumes=${names}: ${errors.join('; ')}`;
}
