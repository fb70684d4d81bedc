/**
 * The ServiceAccounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go):
 * every active namespace has a ServiceAccount `default`, made when the namespace appears and made
 * again when it is deleted. It acts in the same step as the change it reacts to, so a manifest
 * that creates a namespace and a pod in it finds `default` there, as upstream's admission finds it
 * after its retry.
 */
import type { KubeObject } from '../../../core/k8s';
import type { SimContext } from '../../context';
import { DEFAULT_SERVICE_ACCOUNT } from '../../admission/service-account';
import { ApiError, type StoreChange } from '../../store/types';

/** The manager a real cluster records for the controller's writes (its user agent). */
const FIELD_MANAGER = 'kube-controller-manager';

export class ServiceAccountsController {
  private readonly unsubscribers: (() => void)[] = [];

  constructor(private readonly ctx: SimContext) {}

  start(): void {
    this.unsubscribers.push(this.ctx.store.subscribe('Namespace', (change) => this.onNamespace(change)));
    this.unsubscribers.push(this.ctx.store.subscribe('ServiceAccount', (change) => this.onServiceAccount(change)));
    for (const namespace of this.ctx.store.list<KubeObject>('Namespace').items) this.syncNamespace(namespace.metadata?.name ?? '');
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }

  private onNamespace(change: StoreChange): void {
    if (change.type !== 'DELETED') this.syncNamespace(change.object.metadata?.name ?? '');
  }

  private onServiceAccount(change: StoreChange): void {
    if (change.type === 'DELETED' && change.object.metadata?.name === DEFAULT_SERVICE_ACCOUNT) this.syncNamespace(change.object.metadata?.namespace ?? '');
  }

  /** `syncNamespace`: a namespace that is not being deleted gets `default` if it lacks it. */
  private syncNamespace(name: string): void {
    const namespace = this.ctx.store.get<KubeObject>('Namespace', undefined, name);
    if (!namespace || namespace.metadata?.deletionTimestamp || (namespace.status as { phase?: string } | undefined)?.phase !== 'Active') return;
    if (this.ctx.store.get('ServiceAccount', name, DEFAULT_SERVICE_ACCOUNT)) return;
    try {
      this.ctx.store.create('ServiceAccount', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: name } }, { fieldManager: FIELD_MANAGER });
    } catch (error) {
      // Already made by someone else in the meantime, or the namespace went away: nothing to do.
      if (!(error instanceof ApiError && (error.code === 409 || error.code === 404 || error.code === 403))) throw error;
    }
  }
}
