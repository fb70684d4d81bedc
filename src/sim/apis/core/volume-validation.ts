/**
 * The essentials of PersistentVolume and PersistentVolumeClaim validation
 * (pkg/apis/core/validation/validation.go: ValidatePersistentVolumeSpec,
 * ValidatePersistentVolumeClaimSpec): access modes, capacity or requested storage, class name,
 * volume mode and exactly one volume source.
 */
import type { KubeObject } from '../../../core/k8s';
import { goQuote } from '../../../core/schema/go-format';
import { nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { formatQuantity, parseQuantity } from '../../../core/schema/quantity';
import { addInvalid, forbidden, invalid, listOf, notSupported, objectOf, required, str, type Errors, type Json } from '../field';
import { checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
/** The persistent volume sources, in the order ValidatePersistentVolumeSpec counts them. */
const PV_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cinder', 'cephfs', 'iscsi', 'fc',
  'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO', 'local', 'storageos', 'csi',
];

function checkAccessModes(spec: Json, requiredDetail: string, errors: Errors): void {
  const modes = listOf(spec.accessModes).map(str);
  if (modes.length === 0) errors.push(required('spec.accessModes', requiredDetail));
  for (const mode of modes) if (!ACCESS_MODES.includes(mode)) errors.push(notSupported('spec.accessModes', goQuote(mode), ACCESS_MODES));
  if (modes.includes('ReadWriteOncePod') && modes.some((mode) => mode !== 'ReadWriteOncePod')) {
    errors.push(forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  }
}

function checkClassAndMode(spec: Json, errors: Errors): void {
  const className = str(spec.storageClassName);
  if (className !== '') addInvalid('spec.storageClassName', className, nameIsDNSSubdomain(className, false), errors);
  const mode = spec.volumeMode;
  if (mode !== undefined && mode !== null && !VOLUME_MODES.includes(str(mode))) errors.push(notSupported('spec.volumeMode', goQuote(str(mode)), VOLUME_MODES));
}

/** ValidatePositiveQuantityValue. */
function checkPositiveQuantity(value: unknown, field: string, errors: Errors): void {
  if (typeof value !== 'string' && typeof value !== 'number') return;
  const quantity = parseQuantity(value).quantity;
  if (quantity && quantity.nano <= 0n) errors.push(invalid(field, goQuote(formatQuantity(quantity)), 'must be greater than zero'));
}

export function validatePersistentVolume(volume: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(volume, old, errors);
  else checkObjectMeta(volume, false, nameIsDNSSubdomain, errors);
  const spec = objectOf(volume.spec);
  checkAccessModes(spec, '', errors);
  const capacity = objectOf(spec.capacity);
  const resources = Object.keys(capacity);
  if (resources.length === 0) errors.push(required('spec.capacity'));
  if (!resources.includes('storage') || resources.length > 1) {
    const shown = resources.length === 0 ? 'core.ResourceList(nil)' : `core.ResourceList{${resources.map((name) => `${goQuote(name)}:resource.Quantity{…}`).join(', ')}}`;
    errors.push(notSupported('spec.capacity', shown, ['storage']));
  }
  for (const name of resources) checkPositiveQuantity(capacity[name], `spec.capacity[${name}]`, errors);
  checkClassAndMode(spec, errors);
  const sources = PV_SOURCES.filter((source) => spec[source] !== undefined && spec[source] !== null);
  if (sources.length === 0) errors.push(required('spec', 'must specify a volume type'));
  for (const extra of sources.slice(1)) errors.push(forbidden(`spec.${extra}`, 'may not specify more than 1 volume type'));
  return errors;
}

export function validatePersistentVolumeClaim(claim: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) {
    checkObjectMetaUpdate(claim, old, errors);
    return errors;
  }
  checkObjectMeta(claim, true, nameIsDNSSubdomain, errors);
  const spec = objectOf(claim.spec);
  checkAccessModes(spec, 'at least 1 access mode is required', errors);
  const requests = objectOf(objectOf(spec.resources).requests);
  if (requests.storage === undefined) errors.push(required('spec.resources[storage]'));
  else checkPositiveQuantity(requests.storage, 'spec.resources[storage]', errors);
  checkClassAndMode(spec, errors);
  return errors;
}
