/**
 * kube-apiserver's admission chain around the kind's own defaulting and validation, in the order
 * a request meets them: defaults (decoding) → mutating admission → PrepareForCreate → validation
 * → validating admission. Plugins run in upstream's order (AllOrderedPlugins:
 * NamespaceLifecycle, LimitRanger, ServiceAccount, Priority, …, PodSecurity, …, ResourceQuota last).
 *
 * Subresource writes (status, binding) skip admission in the store, as they skip these plugins
 * upstream (each plugin ignores subresources).
 */
import type { KubeObject, ResourceKind } from '../../core/k8s';
import type { Admission } from '../store/store';
import type { ApiError, StoreApi } from '../store/types';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin';
import { NamespaceLifecycle } from './namespace-lifecycle';
import { LimitRanger } from './limit-ranger';
import { ServiceAccountAdmission } from './service-account';
import { PriorityAdmission } from './priority';
import { PodSecurityAdmission } from './pod-security';
import { ResourceQuotaAdmission } from './resource-quota';

export function defaultAdmissionPlugins(): AdmissionPlugin[] {
  return [new NamespaceLifecycle(), new LimitRanger(), new ServiceAccountAdmission(), new PriorityAdmission(), new PodSecurityAdmission(), new ResourceQuotaAdmission()];
}

export class AdmissionChain implements Admission {
  private store: StoreApi | undefined;
  readonly prepareForCreate?: (kind: ResourceKind, object: KubeObject) => void;

  constructor(
    private readonly base: Admission,
    private readonly plugins: readonly AdmissionPlugin[] = defaultAdmissionPlugins(),
  ) {
    if (base.prepareForCreate) this.prepareForCreate = (kind, object) => base.prepareForCreate!(kind, object);
  }

  /** The store the plugins read (namespaces, ServiceAccounts, LimitRanges, quotas); set once it exists. */
  attach(store: StoreApi): void {
    this.store = store;
  }

  applyDefaults(kind: ResourceKind, object: KubeObject, old?: KubeObject, warnings?: string[]): void {
    this.base.applyDefaults(kind, object, old);
    const store = this.store;
    if (!store) return;
    const attributes = attributesOf(kind, object, old, warnings);
    for (const plugin of this.plugins) plugin.admit?.(attributes, store);
  }

  validate(kind: ResourceKind, object: KubeObject, old: KubeObject | undefined, warnings?: string[]): ApiError | undefined {
    const invalid = this.base.validate(kind, object, old);
    if (invalid) return invalid;
    const store = this.store;
    if (!store) return undefined;
    const attributes = attributesOf(kind, object, old, warnings);
    for (const plugin of this.plugins) {
      const refusal = plugin.validate?.(attributes, store);
      if (refusal) return refusal;
    }
    return undefined;
  }
}

function attributesOf(kind: ResourceKind, object: KubeObject, old: KubeObject | undefined, warnings: string[] | undefined): AdmissionAttributes {
  return { kind, object, old, namespace: object.metadata?.namespace ?? '', warnings };
}
