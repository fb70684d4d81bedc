/** The kubeconfig the simulator writes for itself, readable by kubectl and client-node alike. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export const SIMULATOR_CONTEXT = 'kube-journey-simulator';

export function simulatorKubeconfig(url: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: SIMULATOR_CONTEXT,
        // Plain HTTP on loopback: client-node ≥ 1.1 refuses http:// unless TLS verification is skipped.
        cluster: { server: url, 'insecure-skip-tls-verify': true },
      },
    ],
    users: [{ name: SIMULATOR_CONTEXT, user: { token } }],
    contexts: [{ name: SIMULATOR_CONTEXT, context: { cluster: SIMULATOR_CONTEXT, user: SIMULATOR_CONTEXT, namespace: 'default' } }],
    'current-context': SIMULATOR_CONTEXT,
  });
}

export function writeKubeconfig(path: string, url: string, token: string): void {
  mkdirSync(dirname(path), { recursive: true });
  // The token grants full access to the simulator: readable by the user only.
  writeFileSync(path, simulatorKubeconfig(url, token), { mode: 0o600 });
}
