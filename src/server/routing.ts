/** Parses Kubernetes REST paths into the resource they address. */
import type { ResourceInfo } from '../sim/store/types';
import { SERVED_RESOURCES } from '../sim/store/resources';

export interface ResourcePath {
  info: ResourceInfo;
  /** Set for namespaced paths (`/namespaces/<ns>/…`); unset for cluster-wide lists and cluster-scoped kinds. */
  namespace?: string;
  name?: string;
  subresource?: string;
}

export type ParsedPath =
  | { type: 'resource'; path: ResourcePath }
  | { type: 'unknownResource'; group: string; version: string; resource: string }
  | { type: 'other' };

function findResource(group: string, version: string, plural: string, custom: readonly ResourceInfo[]): ResourceInfo | undefined {
  const matches = (r: ResourceInfo): boolean => r.group === group && r.version === version && r.plural === plural;
  return SERVED_RESOURCES.find(matches) ?? (custom.length > 0 ? custom.find(matches) : undefined);
}

/**
 * `/api/v1/namespaces/default/pods/web/status` → pods, ns default, name web, subresource status.
 * `/api/v1/namespaces/web` is the Namespace object named web, not a collection inside it.
 * `custom` holds the served versions of established CRDs' kinds.
 */
export function parseResourcePath(pathname: string, custom: readonly ResourceInfo[] = []): ParsedPath {
  const parts = pathname.split('/').filter((p) => p !== '').map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return { type: 'other' };
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const inner = findResource(group, version, rest[2], custom);
    const namespaceInfo = findResource(group, version, 'namespaces', custom);
    // `/namespaces/<name>/status|finalize` address the Namespace itself.
    if (!inner && namespaceInfo && rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize')) {
      return { type: 'resource', path: { info: namespaceInfo, name: rest[1], subresource: rest[2] } };
    }
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const info = findResource(group, version, rest[0], custom);
  if (!info) return { type: 'unknownResource', group, version, resource: rest[0] };
  if (!info.namespaced && namespace !== undefined) return { type: 'unknownResource', group, version, resource: rest[0] };
  return { type: 'resource', path: { info, namespace, name: rest[1], subresource: rest[2] } };
}
