/**
 * The DefaultStorageClass admission plugin (plugin/pkg/admission/storage/storageclass/setdefault):
 * a claim created without `storageClassName` (and without the beta class annotation) gets the
 * default StorageClass's name. An explicit `storageClassName: ""` asks for no class and is kept.
 */
import type { Admission } from '../store/store';
import type { StoreApi } from '../store/types';
import { ANN_BETA_STORAGE_CLASS, defaultStorageClass, type ClaimObject } from './storage-objects';

export function withDefaultStorageClass(admission: Admission, store: () => StoreApi): Admission {
  return {
    ...admission,
    prepareForCreate: (kind, object) => {
      admission.prepareForCreate?.(kind, object);
      if (kind !== 'PersistentVolumeClaim') return;
      const claim = object as ClaimObject;
      const spec = claim.spec;
      if (!spec || (spec.storageClassName !== undefined && spec.storageClassName !== null)) return;
      if (claim.metadata?.annotations?.[ANN_BETA_STORAGE_CLASS] !== undefined) return;
      const fallback = defaultStorageClass(store());
      if (fallback) spec.storageClassName = fallback.metadata?.name;
    },
  };
}
