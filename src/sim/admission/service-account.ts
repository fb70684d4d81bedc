/**
 * ServiceAccount admission (plugin/pkg/admission/serviceaccount): a new pod without
 * `serviceAccountName` runs as `default`; a pod naming a ServiceAccount that does not exist is
 * refused (`error looking up service account default/foo: serviceaccount "foo" not found`); a pod
 * without `imagePullSecrets` gets its ServiceAccount's.
 *
 * Upstream retries a missing `default` briefly, since the ServiceAccount controller makes it just
 * after the namespace. Here the controller makes it in the same step as the namespace
 * (src/sim/controllers/serviceaccount), so the lookup never races.
 *
 * Not added: the `kube-api-access-<suffix>` projected volume and its mount. Every pod of a real
 * cluster carries them; here they would cost every pod of the 150,000-pod runs a volume and a
 * mount for a token nothing reads, and change every recorded journey.
 */
import type { KubeObject } from '../../core/k8s';
import type { StoreApi } from '../store/types';
import { forbidden, type AdmissionAttributes, type AdmissionPlugin } from './plugin';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

interface PodSpecAccounts {
  serviceAccountName?: string;
  serviceAccount?: string;
  imagePullSecrets?: { name?: string }[];
}

interface ServiceAccountObject extends KubeObject {
  imagePullSecrets?: { name?: string }[];
}

export class ServiceAccountAdmission implements AdmissionPlugin {
  readonly name = 'ServiceAccount';

  admit(attributes: AdmissionAttributes, store: StoreApi): void {
    if (attributes.kind !== 'Pod' || attributes.old !== undefined) return;
    const pod = attributes.object;
    // Mirror pods (static pods a kubelet reports) keep no ServiceAccount.
    if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
    const spec = (pod.spec ??= {}) as PodSpecAccounts;
    // The deprecated `serviceAccount` alias counts when the name is missing, as the pod's defaulting does.
    if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT;
    const name = spec.serviceAccountName;
    // The v1 API writes the deprecated alias back beside it (Convert_core_PodSpec_To_v1_PodSpec).
    spec.serviceAccount = name;
    const account = store.get<ServiceAccountObject>('ServiceAccount', attributes.namespace, name);
    if (!account) throw forbidden(attributes, `error looking up service account ${attributes.namespace}/${name}: serviceaccount "${name}" not found`);
    // A pod that names no pull secrets gets its ServiceAccount's.
    if ((spec.imagePullSecrets?.length ?? 0) === 0 && (account.imagePullSecrets?.length ?? 0) > 0) {
      spec.imagePullSecrets = account.imagePullSecrets!.map((secret) => ({ name: secret.name }));
    }
  }
}
