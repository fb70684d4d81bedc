/**
 * What a pod reads from ConfigMaps and Secrets, checked as the kubelet checks it before it can
 * start the pod, with upstream's error messages verbatim:
 *
 * - environment (`kubelet_pods.go makeEnvironmentVariables`): `envFrom` first, then `env` in
 *   order; a missing object or key that is not `optional` fails the container's config
 *   (`CreateContainerConfigError`);
 * - volumes (`pkg/volume/configmap`, `secret`, `projected` SetUpAt and MakePayload): a missing
 *   object or a missing `items` key fails the mount (`FailedMount`);
 * - `imagePullSecrets` (`getPullSecretsForPod`): missing ones are only named in a warning.
 *
 * The kubelet reads through its watch-based object cache, whose not-found error names the
 * resource in the singular: `configmap "x" not found`, `secret "x" not found`.
 */
import type { ConfigMapProjection, SecretProjection, Volume } from 'kubernetes-types/core/v1';
import type { Container, KubeObject, PodSpec } from '../../core/k8s';

/** The objects a pod's sources name, looked up in the pod's namespace. */
export interface SourceLookup {
  configMap(name: string): KubeObject | undefined;
  secret(name: string): KubeObject | undefined;
}

const notFound = (resource: 'configmap' | 'secret', name: string): string => `${resource} "${name}" not found`;

function hasKey(map: unknown, key: string): boolean {
  return typeof map === 'object' && map !== null && Object.prototype.hasOwnProperty.call(map, key);
}

/** A volume reads a ConfigMap's keys from `data` and `binaryData`. */
function configMapHasKey(configMap: KubeObject, key: string): boolean {
  const object = configMap as { data?: unknown; binaryData?: unknown };
  return hasKey(object.data, key) || hasKey(object.binaryData, key);
}

/** An environment variable only from `data` (`configMap.Data[key]`): a binaryData key is not found. */
function configMapHasStringKey(configMap: KubeObject, key: string): boolean {
  return hasKey((configMap as { data?: unknown }).data, key);
}

/** A Secret's keys live in `data`; `stringData` is write-only and folded into `data`, read both in case it was not. */
function secretHasKey(secret: KubeObject, key: string): boolean {
  const object = secret as { data?: unknown; stringData?: unknown };
  return hasKey(object.data, key) || hasKey(object.stringData, key);
}

/**
 * Why the container's environment cannot be made, or undefined when it can: the message of
 * `makeEnvironmentVariables`' first error.
 */
export function containerConfigError(container: Container, namespace: string, lookup: SourceLookup): string | undefined {
  for (const envFrom of container.envFrom ?? []) {
    if (envFrom.configMapRef) {
      const name = envFrom.configMapRef.name ?? '';
      if (!lookup.configMap(name) && !envFrom.configMapRef.optional) return notFound('configmap', name);
    } else if (envFrom.secretRef) {
      const name = envFrom.secretRef.name ?? '';
      if (!lookup.secret(name) && !envFrom.secretRef.optional) return notFound('secret', name);
    }
  }
  for (const env of container.env ?? []) {
    // A non-empty value wins over valueFrom, as upstream reads `Value` first.
    if (env.value || !env.valueFrom) continue;
    const { configMapKeyRef, secretKeyRef } = env.valueFrom;
    if (configMapKeyRef) {
      const name = configMapKeyRef.name ?? '';
      const configMap = lookup.configMap(name);
      if (configMapKeyRef.optional) continue;
      if (!configMap) return notFound('configmap', name);
      if (!configMapHasStringKey(configMap, configMapKeyRef.key)) return `couldn't find key ${configMapKeyRef.key} in ConfigMap ${namespace}/${name}`;
    } else if (secretKeyRef) {
      const name = secretKeyRef.name ?? '';
      const secret = lookup.secret(name);
      if (secretKeyRef.optional) continue;
      if (!secret) return notFound('secret', name);
      if (!secretHasKey(secret, secretKeyRef.key)) return `couldn't find key ${secretKeyRef.key} in Secret ${namespace}/${name}`;
    }
  }
  return undefined;
}

type Items = ConfigMapProjection['items'];

function configMapSourceError(source: ConfigMapProjection, lookup: SourceLookup): string | undefined {
  const name = source.name ?? '';
  const configMap = lookup.configMap(name);
  // A missing optional ConfigMap mounts as an empty one, whose items are then skipped as optional.
  if (source.optional) return undefined;
  if (!configMap) return notFound('configmap', name);
  const missing = missingItem(source.items, (key) => configMapHasKey(configMap, key));
  return missing === undefined ? undefined : `configmap references non-existent config key: ${missing}`;
}

function secretSourceError(name: string, source: SecretProjection, lookup: SourceLookup): string | undefined {
  const secret = lookup.secret(name);
  if (source.optional) return undefined;
  if (!secret) return notFound('secret', name);
  const missing = missingItem(source.items, (key) => secretHasKey(secret, key));
  return missing === undefined ? undefined : `references non-existent secret key: ${missing}`;
}

function missingItem(items: Items, present: (key: string) => boolean): string | undefined {
  return items?.find((item) => !present(item.key))?.key;
}

/**
 * Why `MountVolume.SetUp` fails for this volume, or undefined when it succeeds (or is a kind of
 * volume the simulator mounts without checks). A projected volume gathers every source's error,
 * as `utilerrors.NewAggregate` prints them: one alone, several as `[a, b]`.
 */
export function volumeSetUpError(volume: Volume, lookup: SourceLookup): string | undefined {
  if (volume.configMap) return configMapSourceError(volume.configMap, lookup);
  if (volume.secret) return secretSourceError(volume.secret.secretName ?? '', volume.secret, lookup);
  if (volume.projected) {
    const errors: string[] = [];
    for (const source of volume.projected.sources ?? []) {
      const error = source.configMap ? configMapSourceError(source.configMap, lookup) : source.secret ? secretSourceError(source.secret.name ?? '', source.secret, lookup) : undefined;
      if (error) errors.push(error);
    }
    if (errors.length === 0) return undefined;
    return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
  }
  return undefined;
}

/** Whether a volume reads ConfigMaps or Secrets at all: the others mount without a lookup. */
export function readsObjects(volume: Volume): boolean {
  return Boolean(volume.configMap || volume.secret || volume.projected?.sources?.some((source) => source.configMap || source.secret));
}

/** The `imagePullSecrets` that do not exist, in spec order (empty names are skipped, as upstream). */
export function missingPullSecrets(spec: PodSpec | undefined, lookup: SourceLookup): string[] {
  const missing: string[] = [];
  for (const ref of spec?.imagePullSecrets ?? []) {
    if (ref.name && !lookup.secret(ref.name)) missing.push(ref.name);
  }
  return missing;
}

/** The kubelet's warning for missing pull secrets (`getPullSecretsForPod`). */
export function pullSecretsWarning(missing: readonly string[]): string {
  return `Unable to retrieve some image pull secrets (${missing.join(', ')}); attempting to pull the image may not succeed.`;
}
