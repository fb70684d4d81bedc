/**
 * The StorageObjectInUseProtection admission plugin (plugin/pkg/admission/storage/storageobjectinuseprotection):
 * every claim and volume is created with its protection finalizer, so deleting one that is in use
 * leaves it Terminating until the protection controllers (controllers/volume/protection-controller.ts)
 * see it unused and remove the finalizer.
 */
import type { Admission } from '../store/store';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

export function withStorageObjectInUseProtection(admission: Admission): Admission {
  return {
    ...admission,
    prepareForCreate: (kind, object) => {
      admission.prepareForCreate?.(kind, object);
      const finalizer = kind === 'PersistentVolumeClaim' ? PVC_PROTECTION_FINALIZER : kind === 'PersistentVolume' ? PV_PROTECTION_FINALIZER : undefined;
      if (!finalizer) return;
      const meta = (object.metadata ??= {});
      if (!(meta.finalizers ?? []).includes(finalizer)) meta.finalizers = [...(meta.finalizers ?? []), finalizer];
    },
  };
}
