/**
 * What the simulator's server process (src/server/main.ts, dist/simulator-server.js) tells the
 * extension host that started it: one JSON line on stdout once its API answers, and the name of
 * the context in the kubeconfig it writes.
 */

export interface ServerReadyLine {
  url: string;
  token: string;
  caPem: string;
  kubeconfigPath?: string;
}

export const SIMULATOR_CONTEXT = 'kube-journey-simulator';
