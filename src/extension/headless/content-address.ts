/**
 * Addresses of the `kube-journey:` virtual documents (see content-provider.ts) and the header of
 * an object version. Pure, so the round trip is tested in plain Node.
 */
import { describeChange, type ObjectKey, type ObjectVersion } from './object-history';

export type ContentAddress =
  | { type: 'object'; key: ObjectKey; resourceVersion: string; /** For the time since the apply in the header. */ journeyId?: string }
  | { type: 'scheduler'; namespace: string; name: string; journeyId: string };

const enc = encodeURIComponent;

/** Path and query of the document at `address`. */
export function contentLocation(address: ContentAddress): { path: string; query: string } {
  if (address.type === 'object') {
    const { kind, namespace, name } = address.key;
    return { path: `/object/${enc(kind)}/${enc(namespace)}/${enc(name)}.yaml`, query: `rv=${enc(address.resourceVersion)}${address.journeyId ? `&journey=${enc(address.journeyId)}` : ''}` };
  }
  return { path: `/scheduler/${enc(address.namespace)}/${enc(address.name)}.md`, query: `journey=${enc(address.journeyId)}` };
}

/** The address in a `kube-journey:` URI's path and query, or undefined for anything else. */
export function parseContentAddress(path: string, query: string): ContentAddress | undefined {
  const params = new URLSearchParams(query);
  const segments = path.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  if (segments[0] === 'object' && segments.length === 4 && segments[3].endsWith('.yaml')) {
    const rv = params.get('rv');
    if (rv === null) return undefined;
    const key = { kind: segments[1], namespace: segments[2], name: segments[3].slice(0, -'.yaml'.length) };
    const journeyId = params.get('journey') ?? undefined;
    return journeyId ? { type: 'object', key, resourceVersion: rv, journeyId } : { type: 'object', key, resourceVersion: rv };
  }
  if (segments[0] === 'scheduler' && segments.length === 3 && segments[2].endsWith('.md')) {
    const journeyId = params.get('journey');
    if (journeyId === null) return undefined;
    return { type: 'scheduler', namespace: segments[1], name: segments[2].slice(0, -'.md'.length), journeyId };
  }
  return undefined;
}

function clock(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** The comment above an object version: which object, which moment, what changed. */
export function versionHeader(key: ObjectKey, version: ObjectVersion, previous: ObjectVersion | undefined, appliedAt?: number): string {
  const offset = appliedAt !== undefined ? ` (+${((version.receivedAt - appliedAt) / 1000).toFixed(3)} s after the apply)` : '';
  return [
    `${key.kind} ${key.namespace}/${key.name} as the watch delivered it at ${clock(version.receivedAt)}${offset}`,
    `${version.type}, resourceVersion ${version.resourceVersion}: ${describeChange(previous, version)}`,
    'Read-only snapshot recorded by Kube Journey (managedFields left out, as kubectl does).',
  ].join('\n');
}
