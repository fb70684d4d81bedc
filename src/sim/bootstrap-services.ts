/**
 * The Services every kind cluster has from the start: `default/kubernetes`, which kube-apiserver's
 * bootstrap controller creates with the first IP of the service range and whose Endpoints and
 * EndpointSlice its endpoint reconciler keeps pointing at the API server (pkg/controlplane/
 * controller/kubernetesservice, pkg/controlplane/reconcilers); and `kube-system/kube-dns`, which
 * kubeadm's CoreDNS addon creates with the tenth IP.
 *
 * CoreDNS's pods are not simulated (they would add two pods to every count a user sees), so
 * kube-dns has no endpoints here where kind gives it two.
 */
import type { KubeObject } from '../core/k8s';
import type { StoreApi } from './store/types';

/** The simulator has no control-plane node; its API server takes the docker network's first address, which no worker uses. */
export const API_SERVER_ADDRESS = '172.18.0.1';
export const API_SERVER_PORT = 6443;
export const KUBERNETES_SERVICE_IP = '10.96.0.1';
export const KUBE_DNS_SERVICE_IP = '10.96.0.10';

export function createBootstrapServices(store: StoreApi): void {
  const apiserver = { fieldManager: 'kube-apiserver' };
  store.create('Service', {
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP: KUBERNETES_SERVICE_IP, sessionAffinity: 'None', ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: API_SERVER_PORT }] },
  } as KubeObject, apiserver);
  store.create('Endpoints', {
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: API_SERVER_ADDRESS }], ports: [{ name: 'https', port: API_SERVER_PORT, protocol: 'TCP' }] }],
  }, apiserver);
  store.create('EndpointSlice', {
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [API_SERVER_ADDRESS], conditions: { ready: true } }],
    ports: [{ name: 'https', port: API_SERVER_PORT, protocol: 'TCP' }],
  }, apiserver);
  store.create('Service', {
    metadata: {
      name: 'kube-dns',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
      annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
    },
    spec: {
      type: 'ClusterIP',
      clusterIP: KUBE_DNS_SERVICE_IP,
      selector: { 'k8s-app': 'kube-dns' },
      sessionAffinity: 'None',
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
    },
  } as KubeObject, { fieldManager: 'kubeadm' });
}
