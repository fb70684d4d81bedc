/**
 * apiextensions-apiserver's CRD controllers in one: the naming controller accepts the names (the
 * simulator detects no conflicts), the establishing controller marks the CRD Established, and
 * from then on the API serves its kind. A deleted CRD takes its custom resources with it, as the
 * customresourcecleanup finalizer does.
 */
import type { SimContext } from '../../context';
import { type CustomResourceDefinition, customResourceInfos, establishedStatus } from '../../apis/apiextensions/crd';
import { rfc3339 } from '../../store/object-utils';
import { ApiError, type StoreChange } from '../../store/types';

const FIELD_MANAGER = 'kube-apiserver';

function isEstablished(crd: CustomResourceDefinition): boolean {
  const conditions = (crd.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((condition) => condition.type === 'Established' && condition.status === 'True');
}

export class CustomResourceDefinitionController {
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly ctx: SimContext) {}

  start(): void {
    this.unsubscribe ??= this.ctx.store.subscribe('CustomResourceDefinition', (change) => this.observe(change));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private observe(change: StoreChange): void {
    const crd = change.object as CustomResourceDefinition;
    const name = crd.metadata?.name ?? '';
    if (change.type === 'DELETED') {
      this.ctx.store.removeCustomResources(name);
      return;
    }
    if (isEstablished(crd)) {
      // A changed schema, printer columns or served versions apply at once to an established kind.
      this.ctx.store.establishCustomResources(name, customResourceInfos(crd));
      return;
    }
    if (change.type === 'ADDED') this.ctx.clock.after(this.ctx.clock.random.around(this.ctx.timings.controllerReaction), () => this.establish(name));
  }

  /** Writes the accepted names and the Established condition; the status write then serves the kind (observe). */
  establish(name: string): void {
    const crd = this.ctx.store.get<CustomResourceDefinition>('CustomResourceDefinition', undefined, name);
    if (!crd || isEstablished(crd) || crd.metadata?.deletionTimestamp) return;
    try {
      this.ctx.store.mutate<CustomResourceDefinition>('CustomResourceDefinition', undefined, name, (copy) => {
        copy.status = establishedStatus(crd, rfc3339(this.ctx.clock.now()));
      }, { subresource: 'status', fieldManager: FIELD_MANAGER });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
}
