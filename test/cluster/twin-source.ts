/**
 * The cluster a twin is made of, in the twin tests: a served simulator set up with the real
 * kubectl as an operator would (node-1 labelled and tainted `dedicated=db:NoSchedule`, node-2
 * cordoned, a Deployment `hog` of 2 × 3 cpu), and a recording proxy in front of it, which is what
 * the twin reads through: its request log shows that only GET requests reach the cluster.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSimulator, startFaultProxy, type FaultProxy, type ServedSimulator } from './served-simulator';
import { kubectlFor, succeeds, type Kubectl } from '../kubectl/kubectl-harness';

/** A Deployment of `replicas` pods asking for 3 cpu each: most of a 4-cpu node. */
export const hog = (image: string, replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: hog
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: hog}
  template:
    metadata:
      labels: {app: hog}
    spec:
      containers:
      - name: app
        image: ${image}
        resources:
          requests:
            cpu: "3"
`;

export interface TwinSource {
  /** A temporary folder for the test's files. */
  dir: string;
  source: ServedSimulator;
  proxy: FaultProxy;
  /** The real kubectl, straight at the cluster (not through the proxy). */
  kubectl: Kubectl;
  /** The kubeconfig pointing at the proxy: what the twin reads through. */
  proxied: string;
  /** Writes a file into `dir` and returns its path. */
  file(name: string, text: string): string;
  close(): Promise<void>;
}

export async function startTwinSource(options: { kubectlPath: string; seed: number; folderPrefix: string }): Promise<TwinSource> {
  const dir = mkdtempSync(join(tmpdir(), options.folderPrefix));
  const source = await serveSimulator({ nodes: 4, seed: options.seed, speed: 20 });
  const proxy = await startFaultProxy(source);
  const direct = join(dir, 'direct.kubeconfig');
  const proxied = join(dir, 'proxied.kubeconfig');
  source.writeKubeconfig(direct);
  source.writeKubeconfig(proxied, proxy.url);
  const kubectl = kubectlFor(options.kubectlPath, direct, dir);
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  await succeeds(kubectl, 'label', 'node', 'node-1', 'dedicated=db');
  await succeeds(kubectl, 'taint', 'node', 'node-1', 'dedicated=db:NoSchedule');
  await succeeds(kubectl, 'cordon', 'node-2');
  await succeeds(kubectl, 'apply', '-f', file('hog.yaml', hog('nginx:1.25', 2)));
  await succeeds(kubectl, 'rollout', 'status', 'deployment/hog', '--timeout=60s');
  return {
    dir,
    source,
    proxy,
    kubectl,
    proxied,
    file,
    async close() {
      await proxy.close();
      await source.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
