/**
 * Chunked lists (`limit` and `continue`, API concepts "Retrieving large results sets in chunks"):
 * the first request with a limit takes a snapshot of the matching objects, as etcd serves every
 * page from the first page's revision; the `continue` token names the snapshot and where the next
 * page starts. The store's objects are never changed in place, so a snapshot is only an array of
 * references. A few snapshots are kept per store; a token whose snapshot was let go is answered
 * 410 Expired, as kube-apiserver answers a token past etcd's compaction.
 */
import type { KubeObject } from '../core/k8s';
import type { MemoryStore } from '../sim/store/store';
import { ApiError } from '../sim/store/types';

/** Snapshots kept per store; a client paging through a list needs one, a few clients a few. */
const SNAPSHOTS_PER_STORE = 16;

/** kube-apiserver's message for a continue token it can no longer serve (storage/errors.go). */
const EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

interface Snapshot {
  /** The list it was taken for (resource, namespace, selectors): a token is only good for the same list. */
  list: string;
  items: readonly KubeObject[];
  resourceVersion: string;
}

interface Token {
  v: 'meta.k8s.io/v1';
  rv: number;
  /** The key of the last object returned, as upstream's token carries it (for clients that look). */
  start: string;
  snapshot: number;
  offset: number;
}

/** One page of a list. */
export interface ListPage {
  items: readonly KubeObject[];
  resourceVersion: string;
  /** The token for the next page; undefined on the last. */
  continue?: string;
  /** Objects after this page (only without selectors, as upstream). */
  remainingItemCount?: number;
}

class StorePages {
  private readonly snapshots = new Map<number, Snapshot>();
  private next = 1;

  keep(snapshot: Snapshot): number {
    const id = this.next++;
    this.snapshots.set(id, snapshot);
    if (this.snapshots.size > SNAPSHOTS_PER_STORE) this.snapshots.delete(this.snapshots.keys().next().value!);
    return id;
  }

  get(id: number): Snapshot | undefined {
    const snapshot = this.snapshots.get(id);
    if (snapshot) {
      // Most recently used last: the oldest unused one goes first.
      this.snapshots.delete(id);
      this.snapshots.set(id, snapshot);
    }
    return snapshot;
  }

  drop(id: number): void {
    this.snapshots.delete(id);
  }
}

const pagesByStore = new WeakMap<MemoryStore, StorePages>();

function pagesOf(store: MemoryStore): StorePages {
  let pages = pagesByStore.get(store);
  if (!pages) pagesByStore.set(store, (pages = new StorePages()));
  return pages;
}

function decodeToken(text: string): Token {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Token>;
    if (token.v === 'meta.k8s.io/v1' && Number.isInteger(token.snapshot) && Number.isInteger(token.offset) && token.offset! >= 0) return token as Token;
  } catch {
    // Reported below, as upstream reports any token it cannot decode.
  }
  throw new ApiError(400, 'BadRequest', 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
}

function keyOf(object: KubeObject): string {
  const meta = object.metadata ?? {};
  return `${meta.namespace ? `${meta.namespace}/` : ''}${meta.name ?? ''}`;
}

/**
 * The page a list request asks for. `list` names the list (resource, namespace, selectors);
 * `read` lists every match, called only for a first page.
 */
export function listPage(store: MemoryStore, list: string, limitParam: string | null, continueParam: string | null, selected: boolean, read: () => { items: KubeObject[]; resourceVersion: string }): ListPage {
  const limit = Number(limitParam);
  const pages = pagesOf(store);
  let snapshot: Snapshot;
  let offset = 0;
  let id: number | undefined;
  if (continueParam) {
    const token = decodeToken(continueParam);
    const kept = pages.get(token.snapshot);
    if (!kept) throw new ApiError(410, 'Expired', EXPIRED_MESSAGE);
    if (kept.list !== list) throw new ApiError(400, 'BadRequest', 'continue key is not valid: the token was issued for another list');
    snapshot = kept;
    offset = token.offset;
    id = token.snapshot;
  } else {
    const { items, resourceVersion } = read();
    // No limit (or 0, which means none): the whole list, no snapshot kept.
    if (!(Number.isInteger(limit) && limit > 0) || items.length <= limit) return { items, resourceVersion };
    snapshot = { list, items, resourceVersion };
  }
  const end = Number.isInteger(limit) && limit > 0 ? Math.min(snapshot.items.length, offset + limit) : snapshot.items.length;
  const items = snapshot.items.slice(offset, end);
  if (end >= snapshot.items.length) {
    if (id !== undefined) pages.drop(id);
    return { items, resourceVersion: snapshot.resourceVersion };
  }
  id ??= pages.keep(snapshot);
  const token: Token = { v: 'meta.k8s.io/v1', rv: Number(snapshot.resourceVersion), start: `${keyOf(items[items.length - 1])}\u0000`, snapshot: id, offset: end };
  return {
    items,
    resourceVersion: snapshot.resourceVersion,
    continue: Buffer.from(JSON.stringify(token)).toString('base64url'),
    remainingItemCount: selected ? undefined : snapshot.items.length - end,
  };
}
