/**
 * /version, discovery (aggregated v2 / v2beta1 and legacy) and the minimal OpenAPI v3 that lets
 * kubectl 1.29+ leave validation to the server (`fieldValidation=Strict`). Generated from the
 * resource table, so a kind added to the simulator appears everywhere at once.
 */
import { createHash } from 'node:crypto';
import type { ResourceInfo } from '../sim/store/types';
import { RESOURCES, SERVED_RESOURCES } from '../sim/store/resources';

/**
 * The Kubernetes version the simulator reports. The kubectl dispatcher on a machine picks the
 * kubectl binary from it, and kubectl ≥ 1.29 is what works with a v3-only OpenAPI.
 */
export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.4',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-04-22T00:00:00Z',
  goVersion: 'go1.23.6',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const CLUSTER_VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
/** Upstream's `all` category (the resources' `Categories()`), of the kinds the simulator serves. */
const IN_CATEGORY_ALL = new Set(['pods', 'replicationcontrollers', 'services', 'daemonsets', 'deployments', 'replicasets', 'statefulsets', 'horizontalpodautoscalers', 'cronjobs', 'jobs']);

interface Subresource {
  name: string;
  group: string;
  version: string;
  kind: string;
  verbs: string[];
}

function subresourcesOf(info: ResourceInfo): Subresource[] {
  const subs: Subresource[] = [];
  if (info.hasStatus) subs.push({ name: 'status', group: info.group, version: info.version, kind: info.kind, verbs: ['get', 'patch', 'update'] });
  if (info.hasScale) subs.push({ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  if (info.kind === 'Pod') {
    subs.push({ name: 'binding', group: '', version: 'v1', kind: 'Binding', verbs: ['create'] });
    subs.push({ name: 'log', group: '', version: 'v1', kind: 'Pod', verbs: ['get'] });
  }
  if (info.kind === 'ServiceAccount') subs.push({ name: 'token', group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
  return subs;
}

function verbsOf(info: ResourceInfo): string[] {
  return info.namespaced ? VERBS : CLUSTER_VERBS;
}

/** A group-version's resources sorted by name, as the apiserver's installer lists them (and `kubectl get all` prints them). */
function groupResources(group: string, version: string): ResourceInfo[] {
  return SERVED_RESOURCES.filter((r) => r.group === group && r.version === version).sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
}

/** Legacy APIResourceList for `/api/v1` or `/apis/<group>/<version>`. */
export function apiResourceList(group: string, version: string): object | undefined {
  const resources = groupResources(group, version);
  if (resources.length === 0) return undefined;
  const list: object[] = [];
  for (const info of resources) {
    list.push({
      name: info.plural,
      singularName: info.singular,
      namespaced: info.namespaced,
      kind: info.kind,
      verbs: verbsOf(info),
      ...(info.shortNames.length ? { shortNames: info.shortNames } : {}),
      ...(IN_CATEGORY_ALL.has(info.plural) ? { categories: ['all'] } : {}),
      storageVersionHash: createHash('sha256').update(`${group}/${version}/${info.kind}`).digest('base64').slice(0, 11),
    });
    for (const sub of subresourcesOf(info)) {
      list.push({
        name: `${info.plural}/${sub.name}`,
        singularName: '',
        namespaced: info.namespaced,
        ...(sub.group !== info.group || sub.version !== info.version ? { group: sub.group, version: sub.version } : {}),
        kind: sub.kind,
        verbs: sub.verbs,
      });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources: list };
}

export function legacyApiVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function namedGroups(): string[] {
  return [...new Set(RESOURCES.map((r) => r.group).filter((g) => g !== ''))];
}

/** The version `group` is stored in, which discovery prefers (`v2` for autoscaling, `v1` elsewhere). */
function preferredVersionOf(group: string): string {
  return RESOURCES.find((r) => r.group === group)?.version ?? 'v1';
}

/** The versions served of `group`, the preferred one first (autoscaling: v2, v1). */
function versionsOf(group: string): string[] {
  const others = SERVED_RESOURCES.filter((r) => r.group === group && r.version !== preferredVersionOf(group)).map((r) => r.version);
  return [preferredVersionOf(group), ...new Set(others)];
}

function groupVersions(group: string): { versions: object[]; preferredVersion: object } {
  const versions = versionsOf(group).map((version) => ({ groupVersion: `${group}/${version}`, version }));
  return { versions, preferredVersion: versions[0] };
}

export function legacyApiGroupList(): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: namedGroups().map((name) => ({ name, ...groupVersions(name) })),
  };
}

function discoveryGroup(group: string): object {
  return {
    metadata: group ? { name: group, creationTimestamp: null } : { creationTimestamp: null },
    versions: versionsOf(group).map((version) => ({
      version,
      freshness: 'Current',
      resources: groupResources(group, version).map((info) => ({
        resource: info.plural,
        responseKind: { group: info.group, version: info.version, kind: info.kind },
        scope: info.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: info.singular,
        verbs: verbsOf(info),
        ...(info.shortNames.length ? { shortNames: info.shortNames } : {}),
        ...(IN_CATEGORY_ALL.has(info.plural) ? { categories: ['all'] } : {}),
        ...(subresourcesOf(info).length
          ? { subresources: subresourcesOf(info).map((s) => ({ subresource: s.name, responseKind: { group: s.group, version: s.version, kind: s.kind }, verbs: s.verbs })) }
          : {}),
      })),
    })),
  };
}

/** Aggregated discovery (`APIGroupDiscoveryList`) for `/api` (core) or `/apis` (named groups). */
export function aggregatedDiscovery(which: 'api' | 'apis', version: 'v2' | 'v2beta1'): object {
  const groups = which === 'api' ? [''] : namedGroups();
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items: groups.map(discoveryGroup) };
}

/** Which aggregated discovery version the Accept header asks for, if any (kubectl lists v2 first). */
export function wantsAggregated(accept: string): 'v2' | 'v2beta1' | undefined {
  for (const part of accept.split(',')) {
    if (!part.includes('as=APIGroupDiscoveryList')) continue;
    if (/v=v2beta1/.test(part)) return 'v2beta1';
    if (/v=v2(;|$)/.test(part)) return 'v2';
  }
  return undefined;
}

/** `GET /apis/<group>` */
export function apiGroup(group: string): object | undefined {
  if (!namedGroups().includes(group)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, ...groupVersions(group) };
}

// ------------------------------------------------------------------------------------------------
// OpenAPI v3: one document per group-version, each PATCH operation declaring `fieldValidation`.

function openApiDocument(group: string, version: string): object {
  const paths: Record<string, object> = {};
  const prefix = group ? `/apis/${group}/${version}` : '/api/v1';
  for (const info of groupResources(group, version)) {
    const path = info.namespaced ? `${prefix}/namespaces/{namespace}/${info.plural}/{name}` : `${prefix}/${info.plural}/{name}`;
    const parameters = ['fieldValidation', 'fieldManager', 'dryRun', 'force'].map((name) => ({ name, in: 'query', schema: { type: name === 'force' ? 'boolean' : 'string' } }));
    paths[path] = {
      patch: {
        'x-kubernetes-group-version-kind': { group: info.group, version: info.version, kind: info.kind },
        parameters,
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: SERVER_VERSION.gitVersion }, components: {}, paths };
}

const openApiDocs = new Map<string, { body: string; hash: string }>();
for (const group of ['', ...namedGroups()]) {
  for (const version of versionsOf(group)) {
    const body = JSON.stringify(openApiDocument(group, version));
    const hash = createHash('sha512').update(body).digest('hex').slice(0, 64).toUpperCase();
    openApiDocs.set(group ? `apis/${group}/${version}` : 'api/v1', { body, hash });
  }
}

export function openApiIndex(): object {
  const paths: Record<string, object> = {};
  for (const [path, doc] of openApiDocs) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${doc.hash}` };
  return { paths };
}

export function openApiDocumentFor(path: string): { body: string; hash: string } | undefined {
  return openApiDocs.get(path);
}

// ------------------------------------------------------------------------------------------------
// OpenAPI v2, as protobuf (gnostic's openapi_v2.Document; client-go proto.Unmarshals it): only
// `swagger` and `info`, no definitions. kubectl validates a `kind: List` against it on the client
// (its v3 field-validation check never accepts a List), and skips the validation of any kind the
// document does not define, so the List's items go to the server, which validates them.

function protoString(field: number, text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([(field << 3) | 2]), protoVarint(bytes.length), bytes]);
}

function protoMessage(field: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(field << 3) | 2]), protoVarint(body.length), body]);
}

function protoVarint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** kube-openapi answers with this subtype: Go's mime package refuses the `@v1.0` one clients still ask for. */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

export const openApiV2Document: Buffer = Buffer.concat([
  protoString(1, '2.0'),
  protoMessage(2, Buffer.concat([protoString(1, 'Kubernetes'), protoString(2, SERVER_VERSION.gitVersion)])),
]);
