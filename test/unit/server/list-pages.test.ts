/**
 * Chunked lists: `limit` pages over a snapshot taken at the first page, `continue` resumes it
 * (objects created meanwhile do not show up, as every page is served from the first page's
 * revision), remainingItemCount without selectors, 410 Expired once the snapshot is let go.
 */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { listPage } from '../../../src/server/list-pages';
import { Simulator } from '../../../src/sim/simulator';
import { ApiError } from '../../../src/sim/store/types';

describe('list pages (limit and continue)', () => {
  const simulator = new Simulator({ nodes: 5, seed: 1 });
  const store = simulator.store;
  const nodes = (): { items: KubeObject[]; resourceVersion: string } => store.list('Node');
  const names = (items: readonly KubeObject[]): string[] => items.map((item) => item.metadata?.name ?? '');

  it('returns every object once, in pages of the limit, from the first page snapshot', () => {
    const first = listPage(store, 'nodes', '2', null, false, nodes);
    assert.deepEqual(names(first.items), ['node-1', 'node-2']);
    assert.equal(first.remainingItemCount, 3);
    assert.ok(first.continue);
    store.create('Node', { metadata: { name: 'node-late' } });
    const second = listPage(store, 'nodes', '2', first.continue!, false, nodes);
    assert.deepEqual(names(second.items), ['node-3', 'node-4']);
    assert.equal(second.resourceVersion, first.resourceVersion, 'every page is of the first page revision');
    const third = listPage(store, 'nodes', '2', second.continue!, false, nodes);
    assert.deepEqual(names(third.items), ['node-5']);
    assert.equal(third.continue, undefined);
    assert.equal(listPage(store, 'nodes', null, null, false, nodes).items.length, 6, 'without a limit, the whole list');
  });

  it('answers 410 Expired for a finished or forgotten snapshot and 400 for a token of another list', () => {
    const first = listPage(store, 'nodes', '1', null, true, nodes);
    assert.equal(first.remainingItemCount, undefined, 'not counted with selectors');
    assert.throws(() => listPage(store, 'pods', '1', first.continue!, true, nodes), (error: unknown) => error instanceof ApiError && error.code === 400);
    let token = first.continue;
    while (token) token = listPage(store, 'nodes', '1', token, true, nodes).continue;
    assert.throws(() => listPage(store, 'nodes', '1', first.continue!, true, nodes), (error: unknown) => error instanceof ApiError && error.code === 410 && error.reason === 'Expired');
    assert.throws(() => listPage(store, 'nodes', '1', 'not-a-token', true, nodes), (error: unknown) => error instanceof ApiError && error.code === 400);
  });
});
