/**
 * The cluster the twin benchmark copies, in its own process: `<nodes>` nodes and `<pods>` Running
 * pods (Deployments of 3,000 replicas, each in its own namespace, as bench/scenario.ts makes
 * them), served over HTTPS as `kube-journey simulate` serves it. Writes the kubeconfig to
 * `<kubeconfig>`, prints `ready` and serves until it is killed.
 *   node dist/bench-twin-source.js <nodes> <pods> <kubeconfig>
 */
import { randomBytes } from 'node:crypto';
import { Simulator } from '../src/sim/simulator';
import { PacedDriver } from '../src/sim/driver';
import { startApiServer } from '../src/server/api-server';
import { writeKubeconfig } from '../src/server/kubeconfig';
import { makeServerCertificate } from '../src/server/tls';
import { tuneHeapForSimulator } from '../src/server/heap-tuning';
import type { KubeObject } from '../src/core/k8s';

const PODS_PER_DEPLOYMENT = 3000;

function deployment(name: string, namespace: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] } },
    },
  };
}

async function main(): Promise<void> {
  tuneHeapForSimulator();
  const [nodesArg, podsArg, kubeconfig] = process.argv.slice(2);
  const nodes = Number(nodesArg);
  const pods = Number(podsArg);
  const certificate = makeServerCertificate();
  const simulator = new Simulator({ nodes, seed: 1, detail: 'lean', startTime: Date.now() });
  let running = 0;
  simulator.store.subscribe('Pod', (change) => {
    const phase = (change.object.status as { phase?: string } | undefined)?.phase;
    const before = (change.previous?.status as { phase?: string } | undefined)?.phase;
    if (change.type !== 'DELETED' && phase === 'Running' && before !== 'Running') running++;
  });
  for (let i = 0, remaining = pods; remaining > 0; i++) {
    const replicas = Math.min(PODS_PER_DEPLOYMENT, remaining);
    remaining -= replicas;
    simulator.store.create('Namespace', { metadata: { name: `bench-${i}` } });
    simulator.apply(deployment(`app-${i}`, `bench-${i}`, replicas));
  }
  const outcome = simulator.runUntil(() => running >= pods, 3_600_000);
  if (outcome !== 'done') throw new Error(`the source cluster did not get its ${pods} pods Running: ${outcome}`);
  const driver = new PacedDriver(simulator.clock, { speed: 1 });
  const token = randomBytes(24).toString('base64url');
  const api = await startApiServer({ simulator, driver, token, ...certificate });
  simulator.clock.advanceTo(Math.max(simulator.clock.now(), Date.now()));
  driver.start();
  writeKubeconfig(kubeconfig, api.url, token, certificate.certPem);
  process.stdout.write('ready\n');
  // An orderly exit, so that `--cpu-prof` writes its profile.
  process.once('SIGTERM', () => process.exit(0));
}

void main();
