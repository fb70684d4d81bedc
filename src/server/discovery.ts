/**
 * /version, discovery (aggregated v2 / v2beta1 and legacy) and the minimal OpenAPI v3 that lets
 * kubectl 1.29+ leave validation to the server (`fieldValidation=Strict`). Generated from the
 * resource table, so a kind added to the simulator appears everywhere at once.
 */
import { createHash } from 'node:crypto';
import type { ResourceInfo } from '../sim/store/types';
import { SERVED_RESOURCES } from '../sim/store/resources';

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

type Served = readonly ResourceInfo[];
const NO_CUSTOM: Served = [];

/** The built-in kinds and, after them, the served versions of established CRDs' kinds. */
function servedWith(custom: Served): Served {
  return custom.length === 0 ? SERVED_RESOURCES : [...SERVED_RESOURCES, ...custom];
}

/** A group's resources sorted by name, as the apiserver's installer lists them (and `kubectl get all` prints them). */
function groupResources(group: string, served: Served, version?: string): ResourceInfo[] {
  return served.filter((r) => r.group === group && (version === undefined || r.version === version)).sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
}

function categoriesOf(info: ResourceInfo): string[] {
  if (info.custom) return info.custom.categories;
  return IN_CATEGORY_ALL.has(info.plural) ? ['all'] : [];
}

/** Legacy APIResourceList for `/api/v1` or `/apis/<group>/<version>`. */
export function apiResourceList(group: string, version: string, custom: Served = NO_CUSTOM): object | undefined {
  const resources = groupResources(group, servedWith(custom), version);
  if (resources.length === 0) return undefined;
  const list: object[] = [];
  for (const info of resources) {
    const categories = categoriesOf(info);
    list.push({
      name: info.plural,
      singularName: info.singular,
      namespaced: info.namespaced,
      kind: info.kind,
      verbs: verbsOf(info),
      ...(info.shortNames.length ? { shortNames: info.shortNames } : {}),
      ...(categories.length ? { categories } : {}),
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

function namedGroups(served: Served): string[] {
  return [...new Set(served.map((r) => r.group).filter((g) => g !== ''))];
}

/**
 * The versions served of `group`, preferred first: the one version of a built-in group (`v2` for
 * autoscaling, `v1` elsewhere); a CRD's served versions, its storage version first.
 */
function versionsOf(group: string, served: Served): string[] {
  const infos = served.filter((r) => r.group === group);
  const preferred = infos.find((r) => r.custom?.storage) ?? infos[0];
  return [...new Set([preferred?.version ?? 'v1', ...infos.map((r) => r.version)])];
}

function groupVersions(name: string, served: Served): { versions: object[]; preferredVersion: object } {
  const versions = versionsOf(name, served).map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { versions, preferredVersion: versions[0] };
}

export function legacyApiGroupList(custom: Served = NO_CUSTOM): object {
  const served = servedWith(custom);
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: namedGroups(served).map((name) => ({ name, ...groupVersions(name, served) })) };
}

function discoveryGroup(group: string, served: Served): object {
  return {
    metadata: group ? { name: group, creationTimestamp: null } : { creationTimestamp: null },
    versions: versionsOf(group, served).map((version) => ({
      version,
      freshness: 'Current',
      resources: groupResources(group, served, version).map((info) => {
        const categories = categoriesOf(info);
        return {
          resource: info.plural,
          responseKind: { group: info.group, version: info.version, kind: info.kind },
          scope: info.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: info.singular,
          verbs: verbsOf(info),
          ...(info.shortNames.length ? { shortNames: info.shortNames } : {}),
          ...(categories.length ? { categories } : {}),
          ...(subresourcesOf(info).length
            ? { subresources: subresourcesOf(info).map((s) => ({ subresource: s.name, responseKind: { group: s.group, version: s.version, kind: s.kind }, verbs: s.verbs })) }
            : {}),
        };
      }),
    })),
  };
}

/** Aggregated discovery (`APIGroupDiscoveryList`) for `/api` (core) or `/apis` (named groups). */
export function aggregatedDiscovery(which: 'api' | 'apis', version: 'v2' | 'v2beta1', custom: Served = NO_CUSTOM): object {
  const served = servedWith(custom);
  const groups = which === 'api' ? [''] : namedGroups(served);
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items: groups.map((group) => discoveryGroup(group, served)) };
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
export function apiGroup(group: string, custom: Served = NO_CUSTOM): object | undefined {
  const served = servedWith(custom);
  if (!namedGroups(served).includes(group)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, ...groupVersions(group, served) };
}

// ------------------------------------------------------------------------------------------------
// OpenAPI v3: one document per group-version, each PATCH operation declaring `fieldValidation`;
// a custom resource's document also carries its schema, for `kubectl explain`.

function openApiDocument(group: string, version: string, served: Served): object {
  const paths: Record<string, object> = {};
  const schemas: Record<string, object> = {};
  const prefix = group ? `/apis/${group}/${version}` : '/api/v1';
  for (const info of groupResources(group, served, version)) {
    const path = info.namespaced ? `${prefix}/namespaces/{namespace}/${info.plural}/{name}` : `${prefix}/${info.plural}/{name}`;
    const parameters = ['fieldValidation', 'fieldManager', 'dryRun', 'force'].map((name) => ({ name, in: 'query', schema: { type: name === 'force' ? 'boolean' : 'string' } }));
    const gvk = { group: info.group, version: info.version, kind: info.kind };
    paths[path] = { patch: { 'x-kubernetes-group-version-kind': gvk, parameters, responses: { '200': { description: 'OK' } } } };
    if (info.custom) schemas[`${reverseDomain(info.group)}.${info.version}.${info.kind}`] = { ...info.custom.schema, 'x-kubernetes-group-version-kind': [gvk] };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: SERVER_VERSION.gitVersion }, components: Object.keys(schemas).length ? { schemas } : {}, paths };
}

/** `com.example.stable` for `stable.example.com`: how upstream names a CRD's schema definition. */
function reverseDomain(group: string): string {
  return group.split('.').reverse().join('.');
}

function documentEntry(body: string): { body: string; hash: string } {
  return { body, hash: createHash('sha512').update(body).digest('hex').slice(0, 64).toUpperCase() };
}

const openApiDocs = new Map<string, { body: string; hash: string }>();
for (const group of ['', ...namedGroups(SERVED_RESOURCES)]) {
  for (const version of versionsOf(group, SERVED_RESOURCES)) {
    openApiDocs.set(group ? `apis/${group}/${version}` : 'api/v1', documentEntry(JSON.stringify(openApiDocument(group, version, SERVED_RESOURCES))));
  }
}

/** The documents of the custom group-versions, built when asked for (CRDs come and go). */
function customOpenApiDocs(custom: Served): Map<string, { body: string; hash: string }> {
  const docs = new Map<string, { body: string; hash: string }>();
  for (const info of custom) {
    const path = `apis/${info.group}/${info.version}`;
    if (!docs.has(path) && !openApiDocs.has(path)) docs.set(path, documentEntry(JSON.stringify(openApiDocument(info.group, info.version, custom))));
  }
  return docs;
}

export function openApiIndex(custom: Served = NO_CUSTOM): object {
  const paths: Record<string, object> = {};
  for (const [path, doc] of [...openApiDocs, ...customOpenApiDocs(custom)]) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${doc.hash}` };
  return { paths };
}

export function openApiDocumentFor(path: string, custom: Served = NO_CUSTOM): { body: string; hash: string } | undefined {
  return openApiDocs.get(path) ?? (custom.length > 0 ? customOpenApiDocs(custom).get(path) : undefined);
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
