/** The storage group's validation (pkg/apis/storage/validation/validation.go): StorageClasses. */
import type { KubeObject } from '../../../core/k8s';
import { semanticEqual } from '../../../core/schema/go-diff';
import { goQuote } from '../../../core/schema/go-format';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { FIELD_IMMUTABLE, addInvalid, forbidden, invalid, notSupported, required, str, type Errors } from '../field';
import { checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

function checkStorageClass(storageClass: KubeObject, errors: Errors): void {
  const provisioner = str(storageClass.provisioner);
  if (provisioner === '') errors.push(required('provisioner'));
  else addInvalid('provisioner', provisioner.toLowerCase(), isQualifiedName(provisioner.toLowerCase()), errors);
  const reclaimPolicy = str(storageClass.reclaimPolicy);
  if (reclaimPolicy !== '' && !RECLAIM_POLICIES.includes(reclaimPolicy)) errors.push(notSupported('reclaimPolicy', goQuote(reclaimPolicy), RECLAIM_POLICIES));
  const bindingMode = storageClass.volumeBindingMode;
  if (bindingMode === undefined || bindingMode === null) errors.push(required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(str(bindingMode))) errors.push(notSupported('volumeBindingMode', goQuote(str(bindingMode)), BINDING_MODES));
}

/** ValidateStorageClass, and ValidateStorageClassUpdate: provisioner, parameters and policies are fixed once created. */
export function validateStorageClass(storageClass: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (!old) {
    checkObjectMeta(storageClass, false, nameIsDNSSubdomain, errors);
    checkStorageClass(storageClass, errors);
    return errors;
  }
  checkObjectMetaUpdate(storageClass, old, errors);
  checkStorageClass(storageClass, errors);
  if (!semanticEqual(storageClass.parameters, old.parameters)) errors.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (str(storageClass.provisioner) !== str(old.provisioner)) errors.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (str(storageClass.reclaimPolicy) !== str(old.reclaimPolicy)) errors.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (str(storageClass.volumeBindingMode) !== str(old.volumeBindingMode)) errors.push(invalid('volumeBindingMode', goQuote(str(storageClass.volumeBindingMode)), FIELD_IMMUTABLE));
  return errors;
}
