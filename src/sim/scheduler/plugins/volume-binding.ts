/**
 * The VolumeBinding plugin's PreFilter (pkg/scheduler/framework/plugins/volumebinding), reduced to
 * what a cluster without storage provisioning shows: a pod whose PersistentVolumeClaim does not
 * exist, or is not bound to a volume, is not schedulable on any node.
 *
 * The simulated cluster has no StorageClass and no PersistentVolume controller yet, so every
 * unbound claim binds "immediately" (no WaitForFirstConsumer class to delay it) and none ever
 * gets a volume: the pod stays Pending with upstream's `pod has unbound immediate
 * PersistentVolumeClaims`, as on a real cluster with no default StorageClass.
 */
import type { KubeObject, PersistentVolumeClaim, Pod } from '../../../core/k8s';
import type { StoreApi } from '../../store/types';

/** `ErrReasonUnboundImmediatePVC`. */
export const UNBOUND_IMMEDIATE_PVC = 'pod has unbound immediate PersistentVolumeClaims';

/** The PreFilter's rejection message for `pod`, or undefined when its claims (if any) are bound. */
export function preFilterVolumeBinding(store: StoreApi, pod: Pod & KubeObject): string | undefined {
  const volumes = pod.spec?.volumes;
  if (!volumes) return undefined;
  let unbound = false;
  for (const volume of volumes) {
    const claimName = volume.persistentVolumeClaim?.claimName;
    if (claimName === undefined) continue;
    const claim = store.get<PersistentVolumeClaim & KubeObject>('PersistentVolumeClaim', pod.metadata?.namespace, claimName);
    if (!claim) return `persistentvolumeclaim "${claimName}" not found`;
    if (claim.metadata?.deletionTimestamp) return `persistentvolumeclaim "${claimName}" is being deleted`;
    if (!claim.spec?.volumeName) unbound = true;
  }
  return unbound ? UNBOUND_IMMEDIATE_PVC : undefined;
}
