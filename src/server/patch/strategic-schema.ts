/**
 * Where strategic merge patch departs from plain merging: the `patchStrategy` and
 * `patchMergeKey` struct tags of the Go API types (k8s.io/api core/v1, apps/v1, meta/v1), as
 * of Kubernetes 1.32. A field that is not listed merges the default way: objects and maps
 * merge key by key, lists are replaced whole (this is why `tolerations`, `taints`,
 * `readinessGates`, `args` and namespace `finalizers` are atomic).
 *
 * Paths are dotted from the object root; `[]` steps into the elements of a list, so
 * `spec.containers[].env` is the `env` list of every container.
 */
import type { ResourceKind } from '../../core/k8s';

/** `patchStrategy` tag values: `merge`, `replace`, `retainKeys`, or `merge,retainKeys`. */
export type PatchStrategyTag = 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';

export interface PatchMeta {
  strategy?: PatchStrategyTag;
  /** For lists of objects with the merge strategy: the field that identifies an element. */
  mergeKey?: string;
}

/** The patch metadata of an object's fields, and the schema of each field's value (list element for lists). */
export interface SchemaNode {
  readonly fields: Map<string, SchemaField>;
}

export interface SchemaField {
  readonly meta: PatchMeta;
  readonly node: SchemaNode;
}

export type PatchStrategyTable = Readonly<Record<string, PatchMeta>>;

const EMPTY_NODE: SchemaNode = Object.freeze({ fields: new Map<string, SchemaField>() });
const NO_META: PatchMeta = Object.freeze({});

/** The metadata and sub-schema of `key`; unknown fields get the default strategy. */
export function lookupField(node: SchemaNode, key: string): SchemaField {
  return node.fields.get(key) ?? { meta: NO_META, node: EMPTY_NODE };
}

/** Builds a schema tree from a path table. */
export function compileSchema(table: PatchStrategyTable): SchemaNode {
  const root: SchemaNode = { fields: new Map() };
  for (const [path, meta] of Object.entries(table)) {
    let node = root;
    const steps = path.split('.');
    steps.forEach((step, index) => {
      const name = step.endsWith('[]') ? step.slice(0, -2) : step;
      let field = node.fields.get(name);
      if (!field) {
        field = { meta: NO_META, node: { fields: new Map() } };
        node.fields.set(name, field);
      }
      if (index === steps.length - 1) {
        field = { meta, node: field.node };
        node.fields.set(name, field);
      }
      node = field.node;
    });
  }
  return root;
}

function prefixed(prefix: string, table: PatchStrategyTable): Record<string, PatchMeta> {
  return Object.fromEntries(Object.entries(table).map(([path, meta]) => [`${prefix}${path}`, meta]));
}

const mergeBy = (mergeKey: string): PatchMeta => ({ strategy: 'merge', mergeKey });

const objectMeta: PatchStrategyTable = {
  finalizers: { strategy: 'merge' },
  ownerReferences: mergeBy('uid'),
};

/** Container, and EphemeralContainerCommon which repeats its tags. */
const container: PatchStrategyTable = {
  ports: mergeBy('containerPort'),
  env: mergeBy('name'),
  volumeMounts: mergeBy('mountPath'),
  volumeDevices: mergeBy('devicePath'),
};

const podSpec: PatchStrategyTable = {
  volumes: { strategy: 'merge,retainKeys', mergeKey: 'name' },
  initContainers: mergeBy('name'),
  ...prefixed('initContainers[].', container),
  containers: mergeBy('name'),
  ...prefixed('containers[].', container),
  ephemeralContainers: mergeBy('name'),
  ...prefixed('ephemeralContainers[].', container),
  imagePullSecrets: mergeBy('name'),
  hostAliases: mergeBy('ip'),
  topologySpreadConstraints: mergeBy('topologyKey'),
  schedulingGates: mergeBy('name'),
  resourceClaims: { strategy: 'merge,retainKeys', mergeKey: 'name' },
};

const podStatus: PatchStrategyTable = {
  conditions: mergeBy('type'),
  podIPs: mergeBy('ip'),
  hostIPs: mergeBy('ip'),
  resourceClaimStatuses: { strategy: 'merge,retainKeys', mergeKey: 'name' },
};

const podTemplateSpec: PatchStrategyTable = {
  ...prefixed('metadata.', objectMeta),
  ...prefixed('spec.', podSpec),
};

/** The patch strategy tables per kind, as paths from the object root. */
export const PATCH_STRATEGIES: Readonly<Record<ResourceKind, PatchStrategyTable>> = {
  Pod: {
    ...prefixed('metadata.', objectMeta),
    ...prefixed('spec.', podSpec),
    ...prefixed('status.', podStatus),
  },
  Deployment: {
    ...prefixed('metadata.', objectMeta),
    'spec.strategy': { strategy: 'retainKeys' },
    ...prefixed('spec.template.', podTemplateSpec),
    'status.conditions': mergeBy('type'),
  },
  ReplicaSet: {
    ...prefixed('metadata.', objectMeta),
    ...prefixed('spec.template.', podTemplateSpec),
    'status.conditions': mergeBy('type'),
  },
  Node: {
    ...prefixed('metadata.', objectMeta),
    'spec.podCIDRs': { strategy: 'merge' },
    'status.conditions': mergeBy('type'),
    'status.addresses': mergeBy('type'),
  },
  Namespace: {
    ...prefixed('metadata.', objectMeta),
    'status.conditions': mergeBy('type'),
  },
  Event: prefixed('metadata.', objectMeta),
  ConfigMap: prefixed('metadata.', objectMeta),
  PersistentVolumeClaim: {
    ...prefixed('metadata.', objectMeta),
    'status.conditions': mergeBy('type'),
  },
  ReplicationController: {
    ...prefixed('metadata.', objectMeta),
    ...prefixed('spec.template.', podTemplateSpec),
    'status.conditions': mergeBy('type'),
  },
  StatefulSet: {
    ...prefixed('metadata.', objectMeta),
    ...prefixed('spec.template.', podTemplateSpec),
    'status.conditions': mergeBy('type'),
  },
  DaemonSet: {
    ...prefixed('metadata.', objectMeta),
    ...prefixed('spec.template.', podTemplateSpec),
    'status.conditions': mergeBy('type'),
  },
  ControllerRevision: prefixed('metadata.', objectMeta),
  Job: {
    ...prefixed('metadata.', objectMeta),
    ...prefixed('spec.template.', podTemplateSpec),
    'status.conditions': mergeBy('type'),
  },
  CronJob: {
    ...prefixed('metadata.', objectMeta),
    ...prefixed('spec.jobTemplate.metadata.', objectMeta),
    ...prefixed('spec.jobTemplate.spec.template.', podTemplateSpec),
  },
  Service: {
    ...prefixed('metadata.', objectMeta),
    'spec.ports': mergeBy('port'),
    'status.conditions': mergeBy('type'),
  },
  ServiceAccount: {
    ...prefixed('metadata.', objectMeta),
    secrets: mergeBy('name'),
  },
  HorizontalPodAutoscaler: {
    ...prefixed('metadata.', objectMeta),
    'status.conditions': mergeBy('type'),
  },
  PodDisruptionBudget: {
    ...prefixed('metadata.', objectMeta),
    'status.conditions': mergeBy('type'),
  },
  Secret: prefixed('metadata.', objectMeta),
  Endpoints: prefixed('metadata.', objectMeta),
  PersistentVolume: prefixed('metadata.', objectMeta),
  ResourceQuota: prefixed('metadata.', objectMeta),
  LimitRange: prefixed('metadata.', objectMeta),
  EndpointSlice: prefixed('metadata.', objectMeta),
  Ingress: prefixed('metadata.', objectMeta),
  IngressClass: prefixed('metadata.', objectMeta),
  NetworkPolicy: prefixed('metadata.', objectMeta),
  Role: prefixed('metadata.', objectMeta),
  RoleBinding: prefixed('metadata.', objectMeta),
  ClusterRole: prefixed('metadata.', objectMeta),
  ClusterRoleBinding: prefixed('metadata.', objectMeta),
  StorageClass: prefixed('metadata.', objectMeta),
  PriorityClass: prefixed('metadata.', objectMeta),
  Lease: prefixed('metadata.', objectMeta),
  CustomResourceDefinition: prefixed('metadata.', objectMeta),
};

const compiled = new Map<ResourceKind, SchemaNode>();

/** The compiled schema for `kind`, built once. */
export function schemaFor(kind: ResourceKind): SchemaNode {
  let schema = compiled.get(kind);
  if (!schema) {
    schema = compileSchema(PATCH_STRATEGIES[kind]);
    compiled.set(kind, schema);
  }
  return schema;
}
