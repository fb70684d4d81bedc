/**
 * The ResourceQuota controller (pkg/controller/resourcequota): keeps each quota's `status.hard`
 * (its spec) and `status.used` (what the namespace's objects count for) current, so
 * `kubectl describe quota` shows Used beside Hard. A change in a namespace with quotas marks it;
 * the namespace is recounted once after the controller's reaction delay, however many changes
 * came in between. Namespaces without a quota cost one map lookup per change.
 */

import type { SimContext } from '../../context';
import { deepEqual } from '../../../common/json';
import { RESOURCES } from '../../store/resources';
import { ApiError, type StoreChange } from '../../store/types';
import { quantityText, toQuantities } from '../../admission/resource-lists';
import { namespaceUsage, type QuotaObject } from '../../quota/namespace-usage';

const COMPONENT = 'resourcequota-controller';

export class ResourceQuotaController {
  private readonly unsubscribers: (() => void)[] = [];
  /** namespace → how many quotas it holds. */
  private readonly quotasByNamespace = new Map<string, number>();
  private readonly pending = new Set<string>();

  constructor(private readonly ctx: SimContext) {}

  start(): void {
    this.unsubscribers.push(this.ctx.store.subscribe('ResourceQuota', (change) => this.onQuota(change)));
    for (const info of RESOURCES) {
      // Events are never counted by a quota the simulator's users write; the rest may be (`count/<resource>`).
      if (!info.namespaced || info.kind === 'Event' || info.kind === 'ResourceQuota') continue;
      this.unsubscribers.push(this.ctx.store.subscribe(info.kind, (change) => this.onObject(change)));
    }
    for (const quota of this.ctx.store.list<QuotaObject>('ResourceQuota').items) this.onQuota({ type: 'ADDED', kind: 'ResourceQuota', object: quota, resourceVersion: 0 });
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }

  private onQuota(change: StoreChange): void {
    const namespace = change.object.metadata?.namespace ?? '';
    const count = this.quotasByNamespace.get(namespace) ?? 0;
    if (change.type === 'ADDED') this.quotasByNamespace.set(namespace, count + 1);
    else if (change.type === 'DELETED') {
      if (count <= 1) this.quotasByNamespace.delete(namespace);
      else this.quotasByNamespace.set(namespace, count - 1);
      return;
    }
    this.mark(namespace);
  }

  private onObject(change: StoreChange): void {
    const namespace = change.object.metadata?.namespace ?? '';
    if (this.quotasByNamespace.has(namespace)) this.mark(namespace);
  }

  private mark(namespace: string): void {
    if (this.pending.has(namespace)) return;
    this.pending.add(namespace);
    this.ctx.clock.after(this.ctx.timings.controllerReaction, () => {
      this.pending.delete(namespace);
      this.syncNamespace(namespace);
    });
  }

  /** syncResourceQuota for every quota of the namespace. */
  private syncNamespace(namespace: string): void {
    for (const quota of this.ctx.store.list<QuotaObject>('ResourceQuota', { namespace }).items) {
      const hard = toQuantities(quota.spec?.hard);
      const used = namespaceUsage(this.ctx.store, namespace, new Set(hard.keys()), quota.spec?.scopes);
      const status = {
        hard: Object.fromEntries([...hard].map(([name, quantity]) => [name, quantityText(quantity)])),
        used: Object.fromEntries([...used].map(([name, quantity]) => [name, quantityText(quantity)])),
      };
      if (deepEqual(quota.status, status)) continue;
      try {
        this.ctx.store.mutate<QuotaObject>('ResourceQuota', namespace, quota.metadata?.name ?? '', (copy) => {
          copy.status = status;
        }, { subresource: 'status', fieldManager: COMPONENT });
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 404)) throw error;
      }
    }
  }
}

