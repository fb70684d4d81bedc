/** The coordination group's validation (pkg/apis/coordination/validation/validation.go): Leases. */
import type { KubeObject } from '../../../core/k8s';
import { goScalar } from '../../../core/schema/go-format';
import { nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { IS_NEGATIVE, invalid, objectOf, type Errors } from '../field';
import { checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';

export function validateLease(lease: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(lease, old, errors);
  else checkObjectMeta(lease, true, nameIsDNSSubdomain, errors);
  const spec = objectOf(lease.spec);
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errors.push(invalid('spec.leaseDurationSeconds', goScalar(spec.leaseDurationSeconds), 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) errors.push(invalid('spec.leaseTransitions', goScalar(spec.leaseTransitions), IS_NEGATIVE));
  return errors;
}
