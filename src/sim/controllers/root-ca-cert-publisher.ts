/**
 * kube-controller-manager's root CA publisher (pkg/controller/certificates/rootcacertpublisher):
 * every namespace holds the ConfigMap `kube-root-ca.crt`, re-created when it is deleted. Every
 * pod's `kube-api-access-…` volume projects its `ca.crt`, so without it no pod could mount its
 * volumes, as on a real cluster.
 *
 * The certificate is a stand-in: the simulator has no cluster CA (its HTTPS server makes its own
 * certificate per run, which the pure simulator never sees).
 */
import type { KubeObject } from '../../core/k8s';
import type { SimContext } from '../context';
import { ApiError, type StoreChange } from '../store/types';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const FIELD_MANAGER = 'kube-controller-manager';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
const PLACEHOLDER_CA = '-----BEGIN CERTIFICATE-----\nKube Journey simulator: no cluster CA exists\n-----END CERTIFICATE-----\n';

export class RootCACertPublisher {
  private unsubscribers: (() => void)[] = [];

  constructor(private readonly ctx: SimContext) {}

  /** Publishes into the namespaces that exist at once (a cluster's start), then follows changes. */
  start(): void {
    if (this.unsubscribers.length > 0) return;
    for (const namespace of this.ctx.store.list('Namespace').items) this.publish(namespace.metadata?.name ?? '');
    this.unsubscribers.push(
      this.ctx.store.subscribe('Namespace', (change) => this.onNamespace(change)),
      this.ctx.store.subscribe('ConfigMap', (change) => this.onConfigMap(change)),
    );
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
  }

  private onNamespace(change: StoreChange): void {
    if (change.type !== 'ADDED') return;
    const name = change.object.metadata?.name ?? '';
    this.ctx.clock.after(this.ctx.clock.random.around(this.ctx.timings.controllerReaction), () => this.publish(name));
  }

  private onConfigMap(change: StoreChange): void {
    if (change.type !== 'DELETED' || change.object.metadata?.name !== ROOT_CA_CONFIGMAP) return;
    const namespace = change.object.metadata?.namespace ?? '';
    this.ctx.clock.after(this.ctx.clock.random.around(this.ctx.timings.controllerReaction), () => this.publish(namespace));
  }

  private publish(namespace: string): void {
    const ns = this.ctx.store.get('Namespace', undefined, namespace);
    if (!ns || ns.metadata?.deletionTimestamp || this.ctx.store.get('ConfigMap', namespace, ROOT_CA_CONFIGMAP)) return;
    const configMap: KubeObject & { data: Record<string, string> } = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { 'kubernetes.io/description': DESCRIPTION } },
      data: { 'ca.crt': PLACEHOLDER_CA },
    };
    try {
      this.ctx.store.create('ConfigMap', configMap, { fieldManager: FIELD_MANAGER });
    } catch (error) {
      // Created meanwhile, or the namespace is going away: nothing to publish.
      if (!(error instanceof ApiError)) throw error;
    }
  }
}
