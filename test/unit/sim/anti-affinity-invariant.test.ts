/**
 * Property test: Deployments whose pods require hostname anti-affinity with each other, scaled,
 * updated and deleted at random. At every point of the run, no node holds two bound,
 * non-terminal pods of one Deployment; pods beyond the number of nodes stay Pending with
 * InterPodAffinity's reason.
 */
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../src/core/k8s';
import { SeededRandom } from '../../../src/sim/clock';
import { Simulator } from '../../../src/sim/simulator';
import { nginxDeployment } from '../controllers/harness';

const NODES = 4;
const NAMES = ['web', 'api'];

/** The harness's nginx Deployment whose pods require hostname anti-affinity with each other. */
function deployment(name: string, replicas: number, image: string): KubeObject {
  const object = nginxDeployment(name, replicas, image);
  object.spec!.template.spec!.affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: name } }, topologyKey: 'kubernetes.io/hostname' }] } };
  return object;
}

function checkNoTwoOnANode(simulator: Simulator, context: string): void {
  const seen = new Set<string>();
  for (const pod of simulator.store.list<Pod & KubeObject>('Pod').items) {
    const node = pod.spec?.nodeName;
    if (!node || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
    const key = `${pod.metadata?.labels?.app}@${node}`;
    assert.ok(!seen.has(key), `${context}: two ${pod.metadata?.labels?.app} pods on ${node}`);
    seen.add(key);
  }
}

describe('required pod anti-affinity under random operations', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`never puts two pods of one group on a node (seed ${seed})`, () => {
      const random = new SeededRandom(seed * 6151);
      const simulator = new Simulator({ nodes: NODES, seed });
      const replicas = new Map<string, number>();
      for (let i = 0; i < 20; i++) {
        const name = NAMES[random.int(0, NAMES.length - 1)];
        const roll = random.next();
        if (roll < 0.6) {
          const count = random.int(0, NODES + 2);
          simulator.apply(deployment(name, count, random.next() < 0.5 ? 'nginx:1.25' : 'nginx:1.26'));
          replicas.set(name, count);
        } else if (roll < 0.8 && replicas.has(name)) {
          simulator.store.delete('Deployment', 'default', name);
          replicas.delete(name);
        }
        for (let step = 0; step < 6; step++) {
          simulator.runUntil(() => false, random.int(0, 1500));
          checkNoTwoOnANode(simulator, `seed ${seed}, operation ${i}`);
        }
      }
      simulator.runUntil(() => false, 120_000);
      checkNoTwoOnANode(simulator, `seed ${seed}, settled`);
      // Once settled, each group runs on as many nodes as it can, and the rest wait with upstream's reason.
      for (const [name, want] of replicas) {
        const pods = simulator.store.list<Pod & KubeObject>('Pod', { labelSelector: `app=${name}` }).items.filter((p) => !p.metadata?.deletionTimestamp);
        const bound = pods.filter((p) => p.spec?.nodeName);
        assert.equal(bound.length, Math.min(want, NODES), `seed ${seed}: ${name} bound pods`);
        for (const pending of pods.filter((p) => !p.spec?.nodeName)) {
          const message = pending.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message ?? '';
          assert.match(message, /anti-affinity rules/, `seed ${seed}: ${pending.metadata?.name}: ${message}`);
        }
      }
    });
  }
});
