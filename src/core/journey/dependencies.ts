/**
 * The object a stuck pod waits for, read from the words of the component that reported it
 * (the kubelet's `CreateContainerConfigError` and `FailedMount`, the scheduler's VolumeBinding
 * message), and where the pod's spec refers to it, as field paths a manifest line can be found
 * for (`spec.template.spec.containers[0].env[1].valueFrom.configMapKeyRef.name`).
 */
import type { PodSpec } from '../k8s';
import type { MissingDependency } from './types';

const MOUNT_FAILED = /^MountVolume\.SetUp failed for volume "([^"]*)" : (.*)$/s;
const NOT_FOUND = /^\[?(configmap|secret|persistentvolumeclaim) "([^"]*)" not found/;
const MISSING_ENV_KEY = /^couldn't find key (\S+) in (ConfigMap|Secret) [^/\s]*\/(\S+)$/;
const MISSING_CONFIGMAP_ITEM = /^\[?configmap references non-existent config key: ([^,\]]+)/;
const MISSING_SECRET_ITEM = /^\[?references non-existent secret key: ([^,\]]+)/;
const KINDS = { configmap: 'ConfigMap', secret: 'Secret', persistentvolumeclaim: 'PersistentVolumeClaim' } as const;

function fromError(error: string, volume?: string): MissingDependency | undefined {
  let match = NOT_FOUND.exec(error);
  if (match) return { kind: KINDS[match[1] as keyof typeof KINDS], name: match[2], volume };
  match = MISSING_ENV_KEY.exec(error);
  if (match) return { kind: match[2] as 'ConfigMap' | 'Secret', name: match[3], key: match[1] };
  match = MISSING_CONFIGMAP_ITEM.exec(error);
  if (match) return { kind: 'ConfigMap', key: match[1], volume };
  match = MISSING_SECRET_ITEM.exec(error);
  if (match) return { kind: 'Secret', key: match[1], volume };
  return undefined;
}

/** The missing object (or key) a stuck pod's reason and message name, if they name one. */
export function missingDependency(reason: string, message: string): MissingDependency | undefined {
  if (reason === 'FailedMount') {
    const mount = MOUNT_FAILED.exec(message);
    return mount ? fromError(mount[2], mount[1]) : undefined;
  }
  if (reason === 'CreateContainerConfigError') return fromError(message);
  if (reason === 'FailedScheduling') {
    const claim = /persistentvolumeclaim "([^"]*)" not found/.exec(message);
    return claim ? { kind: 'PersistentVolumeClaim', name: claim[1] } : undefined;
  }
  return undefined;
}

/** Where a workload kind keeps its pod spec. */
export function podSpecPath(kind: string): string | undefined {
  switch (kind) {
    case 'Pod':
      return 'spec';
    case 'Deployment':
    case 'ReplicaSet':
    case 'ReplicationController':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
      return 'spec.template.spec';
    case 'CronJob':
      return 'spec.jobTemplate.spec.template.spec';
    default:
      return undefined;
  }
}

interface Ref {
  name?: string;
  key?: string;
}

/** `name` (or `key`, when the key is what is missing) of a reference that matches. */
function refPath(path: string, ref: Ref | undefined, dependency: MissingDependency, nameField = 'name'): string | undefined {
  if (!ref || (dependency.name !== undefined && ref.name !== dependency.name)) return undefined;
  if (dependency.key !== undefined) return ref.key === dependency.key ? `${path}.key` : undefined;
  return `${path}.${nameField}`;
}

function itemsPath(path: string, source: { items?: { key: string }[] } | undefined, dependency: MissingDependency): string | undefined {
  const index = source?.items?.findIndex((item) => item.key === dependency.key) ?? -1;
  return index >= 0 ? `${path}.items[${index}].key` : undefined;
}

function containerPaths(spec: PodSpec, dependency: MissingDependency, out: string[]): void {
  const keyRef = dependency.kind === 'ConfigMap' ? 'configMapKeyRef' : 'secretKeyRef';
  const fromRef = dependency.kind === 'ConfigMap' ? 'configMapRef' : 'secretRef';
  for (const list of ['initContainers', 'containers'] as const) {
    (spec[list] ?? []).forEach((container, c) => {
      const base = `${list}[${c}]`;
      if (dependency.key === undefined) {
        (container.envFrom ?? []).forEach((envFrom, i) => {
          const path = refPath(`${base}.envFrom[${i}].${fromRef}`, envFrom[fromRef], dependency);
          if (path) out.push(path);
        });
      }
      (container.env ?? []).forEach((env, i) => {
        const path = refPath(`${base}.env[${i}].valueFrom.${keyRef}`, env.valueFrom?.[keyRef], dependency);
        if (path) out.push(path);
      });
    });
  }
}

function volumePaths(spec: PodSpec, dependency: MissingDependency, out: string[]): void {
  (spec.volumes ?? []).forEach((volume, v) => {
    if (dependency.volume !== undefined && volume.name !== dependency.volume) return;
    const base = `volumes[${v}]`;
    const sources: { path: string; ref: Ref & { items?: { key: string }[] }; nameField: string }[] = [];
    if (dependency.kind === 'ConfigMap' && volume.configMap) sources.push({ path: `${base}.configMap`, ref: volume.configMap, nameField: 'name' });
    if (dependency.kind === 'Secret' && volume.secret) sources.push({ path: `${base}.secret`, ref: { ...volume.secret, name: volume.secret.secretName }, nameField: 'secretName' });
    (volume.projected?.sources ?? []).forEach((source, s) => {
      const ref = dependency.kind === 'ConfigMap' ? source.configMap : source.secret;
      if (ref) sources.push({ path: `${base}.projected.sources[${s}].${dependency.kind === 'ConfigMap' ? 'configMap' : 'secret'}`, ref, nameField: 'name' });
    });
    for (const source of sources) {
      if (dependency.name !== undefined && source.ref.name !== dependency.name) continue;
      const path = dependency.key === undefined ? `${source.path}.${source.nameField}` : itemsPath(source.path, source.ref, dependency);
      if (path) out.push(path);
    }
  });
}

/**
 * The fields of a pod spec that refer to the missing object, relative to the pod spec
 * (`containers[0].env[1].valueFrom.configMapKeyRef.name`); a volume's failure only points into
 * that volume, a missing key at the key's line.
 */
export function dependencyReferencePaths(spec: PodSpec | undefined, dependency: MissingDependency): string[] {
  if (!spec) return [];
  const out: string[] = [];
  if (dependency.kind === 'PersistentVolumeClaim') {
    (spec.volumes ?? []).forEach((volume, v) => {
      if (volume.persistentVolumeClaim && volume.persistentVolumeClaim.claimName === dependency.name) out.push(`volumes[${v}].persistentVolumeClaim.claimName`);
    });
    return out;
  }
  if (dependency.volume === undefined) containerPaths(spec, dependency, out);
  volumePaths(spec, dependency, out);
  if (dependency.kind === 'Secret' && dependency.key === undefined && dependency.volume === undefined) {
    (spec.imagePullSecrets ?? []).forEach((ref, i) => {
      if (ref.name === dependency.name) out.push(`imagePullSecrets[${i}].name`);
    });
  }
  return out;
}

/** The ConfigMaps and Secrets a pod spec reads by name (env, envFrom, volumes, projected sources, pull secrets). */
export function configSourceNames(spec: PodSpec | undefined): { configMaps: string[]; secrets: string[] } {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  const add = (set: Set<string>, name: string | undefined): void => {
    if (name) set.add(name);
  };
  for (const container of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
    for (const envFrom of container.envFrom ?? []) {
      add(configMaps, envFrom.configMapRef?.name);
      add(secrets, envFrom.secretRef?.name);
    }
    for (const env of container.env ?? []) {
      add(configMaps, env.valueFrom?.configMapKeyRef?.name);
      add(secrets, env.valueFrom?.secretKeyRef?.name);
    }
  }
  for (const volume of spec?.volumes ?? []) {
    add(configMaps, volume.configMap?.name);
    add(secrets, volume.secret?.secretName);
    for (const source of volume.projected?.sources ?? []) {
      add(configMaps, source.configMap?.name);
      add(secrets, source.secret?.name);
    }
  }
  for (const ref of spec?.imagePullSecrets ?? []) add(secrets, ref.name);
  return { configMaps: [...configMaps], secrets: [...secrets] };
}
