/** The kubeconfig the simulator writes for itself, readable by kubectl and client-node alike. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';
import { SIMULATOR_CONTEXT } from '../protocol/simulator-server';

export function simulatorKubeconfig(url: string, token: string, caPem: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: SIMULATOR_CONTEXT,
        cluster: { server: url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') },
      },
    ],
    users: [{ name: SIMULATOR_CONTEXT, user: { token } }],
    contexts: [{ name: SIMULATOR_CONTEXT, context: { cluster: SIMULATOR_CONTEXT, user: SIMULATOR_CONTEXT, namespace: 'default' } }],
    'current-context': SIMULATOR_CONTEXT,
  });
}

export function writeKubeconfig(path: string, url: string, token: string, caPem: string): void {
  mkdirSync(dirname(path), { recursive: true });
  // The token grants full access to the simulator: readable by the user only.
  writeFileSync(path, simulatorKubeconfig(url, token, caPem), { mode: 0o600 });
}
