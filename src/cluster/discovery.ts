/**
 * Maps a manifest's apiVersion and kind to the resource the server serves it as, from the
 * APIResourceList at `/api/v1` or `/apis/<group>/<version>` (what client-node's KubernetesObjectApi
 * and kubectl's legacy discovery read). Lists are cached per apiVersion; a kind missing from a
 * cached list is looked up once more, since a CRD may have been installed since.
 */
import type { ClusterHttp } from './http';
import { ClusterApiError } from './errors';

export interface ResourceMapping {
  apiVersion: string;
  group: string;
  version: string;
  kind: string;
  /** The plural resource name: `deployments`. */
  resource: string;
  namespaced: boolean;
}

/** No resource of that kind in that version (kubectl: "no matches for kind …"). */
export class NoKindMatchError extends Error {
  override readonly name = 'NoKindMatchError';
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function apiVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/** `/apis/apps/v1/namespaces/default/deployments[/web]` */
export function resourcePath(mapping: ResourceMapping, namespace: string | undefined, name?: string): string {
  const parts = [apiVersionPath(mapping.apiVersion)];
  if (mapping.namespaced) parts.push('namespaces', encodeURIComponent(namespace ?? 'default'));
  parts.push(mapping.resource);
  if (name !== undefined) parts.push(encodeURIComponent(name));
  return parts.join('/');
}

function parseResources(body: unknown): ApiResource[] {
  const resources = (body as { resources?: unknown } | undefined)?.resources;
  if (!Array.isArray(resources)) return [];
  return resources.flatMap((r): ApiResource[] => {
    const entry = r as { name?: unknown; kind?: unknown; namespaced?: unknown };
    // Subresources (`deployments/scale`) share the kind of their parent; skip them.
    if (typeof entry.name !== 'string' || entry.name.includes('/') || typeof entry.kind !== 'string') return [];
    return [{ name: entry.name, kind: entry.kind, namespaced: entry.namespaced === true }];
  });
}

export class ResourceMapper {
  private readonly cache = new Map<string, ApiResource[]>();

  constructor(private readonly http: ClusterHttp) {}

  async mapping(apiVersion: string, kind: string): Promise<ResourceMapping> {
    const { group, version } = splitApiVersion(apiVersion);
    const cached = this.cache.get(apiVersion)?.find((r) => r.kind === kind);
    const found = cached ?? (await this.fetch(apiVersion)).find((r) => r.kind === kind);
    if (!found) throw new NoKindMatchError(`no matches for kind "${kind}" in version "${apiVersion}"`);
    return { apiVersion, group, version, kind, resource: found.name, namespaced: found.namespaced };
  }

  private async fetch(apiVersion: string): Promise<ApiResource[]> {
    try {
      const { body } = await this.http.json('GET', apiVersionPath(apiVersion));
      const resources = parseResources(body);
      this.cache.set(apiVersion, resources);
      return resources;
    } catch (error) {
      if (error instanceof ClusterApiError && error.code === 404) return [];
      throw error;
    }
  }
}
