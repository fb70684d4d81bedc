/**
 * Property test of the whole simulated cluster: random sequences of apply / scale / update /
 * delete, then the invariants a real cluster keeps once it settles — owners converge on their
 * desired state, no node is over-allocated, every Running pod has a node, nothing is orphaned.
 */
import assert from 'node:assert/strict';
import type { Deployment, KubeObject, Node, Pod, ReplicaSet } from '../../../src/core/k8s';
import { SeededRandom } from '../../../src/sim/clock';
import { Simulator } from '../../../src/sim/simulator';
import { parseQuantity } from '../../../src/core/schema/quantity';

type Op = { type: 'apply'; name: string; replicas: number; image: string; cpu: string } | { type: 'scale'; name: string; replicas: number } | { type: 'delete'; name: string };

const NAMES = ['web', 'api', 'worker'];
const IMAGES = ['nginx:1.25', 'nginx:1.26', 'redis:7'];
const CPUS = ['100m', '250m', '500m'];

function deployment(name: string, replicas: number, image: string, cpu: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image, resources: { requests: { cpu, memory: '64Mi' } } }] } },
    },
  };
}

function randomOps(random: SeededRandom, count: number): Op[] {
  const ops: Op[] = [];
  for (let i = 0; i < count; i++) {
    const name = NAMES[random.int(0, NAMES.length - 1)];
    const roll = random.next();
    if (roll < 0.5) ops.push({ type: 'apply', name, replicas: random.int(0, 8), image: IMAGES[random.int(0, 2)], cpu: CPUS[random.int(0, 2)] });
    else if (roll < 0.8) ops.push({ type: 'scale', name, replicas: random.int(0, 10) });
    else ops.push({ type: 'delete', name });
  }
  return ops;
}

function milliCpu(value: string | number | undefined): number {
  if (value === undefined) return 0;
  const parsed = parseQuantity(value).quantity;
  return parsed ? Number(parsed.nano / 1_000_000n) : 0;
}

function checkInvariants(simulator: Simulator, desired: Map<string, number>, seed: number): void {
  const store = simulator.store;
  const pods = store.list<Pod & KubeObject>('Pod').items;
  const nodes = store.list<Node & KubeObject>('Node').items;
  const context = `seed ${seed}`;

  // Every Running pod has a node, and that node exists.
  const nodeNames = new Set(nodes.map((n) => n.metadata!.name));
  for (const pod of pods) {
    if (pod.status?.phase === 'Running') {
      assert.ok(pod.spec?.nodeName && nodeNames.has(pod.spec.nodeName), `${context}: running pod ${pod.metadata!.name} without a node`);
    }
  }

  // No node is over-allocated (CPU requests and pod count against allocatable).
  for (const node of nodes) {
    const onNode = pods.filter((p) => p.spec?.nodeName === node.metadata!.name && !['Succeeded', 'Failed'].includes(p.status?.phase ?? ''));
    const requested = onNode.reduce((sum, p) => sum + (p.spec?.containers ?? []).reduce((s, c) => s + milliCpu(c.resources?.requests?.cpu as string | undefined), 0), 0);
    assert.ok(requested <= milliCpu(node.status?.allocatable?.cpu as string), `${context}: ${node.metadata!.name} over-allocated: ${requested}m`);
    assert.ok(onNode.length <= Number(node.status?.allocatable?.pods ?? 110), `${context}: ${node.metadata!.name} has too many pods`);
  }

  // Owners converge: each Deployment has exactly `replicas` ready pods, all from its newest ReplicaSet.
  const deployments = store.list<Deployment & KubeObject>('Deployment').items;
  assert.deepEqual(deployments.map((d) => d.metadata!.name).sort(), [...desired.keys()].sort(), `${context}: deployments`);
  for (const deploymentObject of deployments) {
    const name = deploymentObject.metadata!.name!;
    const replicaSets = store.ownedBy<ReplicaSet & KubeObject>('ReplicaSet', deploymentObject.metadata!.uid!);
    const active = replicaSets.filter((rs) => (rs.spec?.replicas ?? 0) > 0);
    const want = desired.get(name)!;
    assert.equal(deploymentObject.status?.updatedReplicas ?? 0, want, `${context}: ${name} updated replicas`);
    assert.equal(deploymentObject.status?.readyReplicas ?? 0, want, `${context}: ${name} ready replicas`);
    assert.ok(active.length <= 1, `${context}: ${name} has ${active.length} active ReplicaSets`);
    const owned = active.flatMap((rs) => store.ownedBy<Pod & KubeObject>('Pod', rs.metadata!.uid!)).filter((p) => !p.metadata?.deletionTimestamp);
    assert.equal(owned.length, want, `${context}: ${name} pods`);
  }

  // Nothing is orphaned: every ReplicaSet and pod has a live owner.
  const uids = new Set([...deployments, ...store.list('ReplicaSet').items].map((o) => o.metadata!.uid));
  for (const object of [...store.list('ReplicaSet').items, ...pods]) {
    for (const ref of object.metadata?.ownerReferences ?? []) assert.ok(uids.has(ref.uid), `${context}: ${object.kind} ${object.metadata!.name} orphaned`);
  }
}

function describeState(simulator: Simulator, desired: Map<string, number>): string {
  const lines = [`desired ${JSON.stringify([...desired])}`];
  for (const d of simulator.store.list<Deployment & KubeObject>('Deployment').items) lines.push(`deployment ${d.metadata!.name} spec ${d.spec?.replicas} status ${JSON.stringify({ ...d.status, conditions: undefined })}`);
  for (const rs of simulator.store.list<ReplicaSet & KubeObject>('ReplicaSet').items) lines.push(`rs ${rs.metadata!.name} spec ${rs.spec?.replicas} status ${JSON.stringify(rs.status)}`);
  for (const p of simulator.store.list<Pod & KubeObject>('Pod').items) {
    const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
    lines.push(`pod ${p.metadata!.name} ${p.spec?.nodeName ?? '-'} ${p.status?.phase} ${p.metadata?.deletionTimestamp ? 'terminating' : ''} ${scheduled?.message ?? ''}`);
  }
  return lines.join('\n');
}

describe('simulated cluster invariants under random operations', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`settles correctly after 25 random operations (seed ${seed})`, () => {
      const random = new SeededRandom(seed * 7919);
      const simulator = new Simulator({ nodes: 4, seed });
      const desired = new Map<string, number>();
      for (const op of randomOps(random, 25)) {
        try {
          if (op.type === 'apply') {
            simulator.apply(deployment(op.name, op.replicas, op.image, op.cpu));
            desired.set(op.name, op.replicas);
          } else if (op.type === 'scale' && desired.has(op.name)) {
            simulator.store.mutate('Deployment', 'default', op.name, (d) => {
              (d.spec as { replicas: number }).replicas = op.replicas;
            });
            desired.set(op.name, op.replicas);
          } else if (op.type === 'delete' && desired.has(op.name)) {
            simulator.store.delete('Deployment', 'default', op.name);
            desired.delete(op.name);
          }
        } catch (error) {
          assert.fail(`seed ${seed}: ${op.type} ${op.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        // Let some, but not all, of the consequences happen before the next operation.
        simulator.runUntil(() => false, random.int(0, 3000));
      }
      const settled = simulator.runUntil(() => {
        const deployments = simulator.store.list<Deployment & KubeObject>('Deployment').items;
        const podsAlive = simulator.store.list<Pod & KubeObject>('Pod').items;
        const expectedPods = [...desired.values()].reduce((a, b) => a + b, 0);
        return (
          deployments.length === desired.size &&
          deployments.every((d) => (d.status?.readyReplicas ?? 0) === desired.get(d.metadata!.name!) && (d.status?.updatedReplicas ?? 0) === desired.get(d.metadata!.name!) && (d.status?.replicas ?? 0) === desired.get(d.metadata!.name!)) &&
          podsAlive.length === expectedPods
        );
      }, 600_000);
      assert.equal(settled, 'done', `seed ${seed}: the cluster did not settle:\n${describeState(simulator, desired)}`);
      checkInvariants(simulator, desired, seed);
    });
  }
});

describe('simulated StatefulSets under random operations', () => {
  type StsOp = { type: 'apply'; name: string; replicas: number; image: string; parallel: boolean } | { type: 'scale'; name: string; replicas: number } | { type: 'deletePod'; name: string; ordinal: number };

  function statefulSet(name: string, replicas: number, image: string, parallel: boolean): KubeObject {
    return {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name, namespace: 'default' },
      spec: {
        serviceName: name,
        replicas,
        podManagementPolicy: parallel ? 'Parallel' : 'OrderedReady',
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image, resources: { requests: { cpu: '100m', memory: '64Mi' } } }] } },
      },
    };
  }

  /** Never two pods with one ordinal in a set, and each pod's index label is its name's ordinal. */
  function checkOrdinals(simulator: Simulator, context: string): void {
    const seen = new Set<string>();
    for (const pod of simulator.store.list<Pod & KubeObject>('Pod').items) {
      const owner = pod.metadata?.ownerReferences?.find((r) => r.controller);
      if (owner?.kind !== 'StatefulSet') continue;
      const index = pod.metadata!.labels!['apps.kubernetes.io/pod-index'];
      assert.equal(pod.metadata!.name, `${owner.name}-${index}`, `${context}: ${pod.metadata!.name} has index ${index}`);
      const key = `${owner.uid}/${index}`;
      assert.ok(!seen.has(key), `${context}: two pods with ordinal ${index} in ${owner.name}`);
      seen.add(key);
    }
  }

  for (const seed of [1, 2, 3]) {
    it(`settles with one pod per ordinal, all at the update revision (seed ${seed})`, () => {
      const random = new SeededRandom(seed * 104_729);
      const simulator = new Simulator({ nodes: 3, seed });
      const desired = new Map<string, number>();
      for (let i = 0; i < 20; i++) {
        const name = ['db', 'cache'][random.int(0, 1)];
        const roll = random.next();
        const op: StsOp =
          roll < 0.4 ? { type: 'apply', name, replicas: random.int(0, 4), image: IMAGES[random.int(0, 2)], parallel: random.next() < 0.5 }
          : roll < 0.7 ? { type: 'scale', name, replicas: random.int(0, 5) }
          : { type: 'deletePod', name, ordinal: random.int(0, 3) };
        if (op.type === 'apply') {
          // podManagementPolicy is immutable: a set keeps the policy it was created with.
          const existing = simulator.store.get('StatefulSet', 'default', name);
          const parallel = existing ? (existing.spec as { podManagementPolicy?: string }).podManagementPolicy === 'Parallel' : op.parallel;
          simulator.apply(statefulSet(name, op.replicas, op.image, parallel));
          desired.set(name, op.replicas);
        } else if (op.type === 'scale' && desired.has(name)) {
          simulator.store.mutate('StatefulSet', 'default', name, (s) => {
            (s.spec as { replicas: number }).replicas = op.replicas;
          });
          desired.set(name, op.replicas);
        } else if (op.type === 'deletePod' && simulator.store.get('Pod', 'default', `${name}-${op.ordinal}`)) {
          simulator.store.delete('Pod', 'default', `${name}-${op.ordinal}`);
        }
        // Check the ordinals while things are in motion, not only once settled.
        for (let step = 0; step < 4; step++) {
          simulator.runUntil(() => false, random.int(0, 1500));
          checkOrdinals(simulator, `seed ${seed} op ${i}`);
        }
      }
      const settled = simulator.runUntil(() => {
        for (const [name, replicas] of desired) {
          const set = simulator.store.get('StatefulSet', 'default', name);
          const status = set?.status as { readyReplicas?: number; replicas?: number; updatedReplicas?: number; currentRevision?: string; updateRevision?: string } | undefined;
          if ((status?.readyReplicas ?? 0) !== replicas || (status?.replicas ?? 0) !== replicas || (status?.updatedReplicas ?? 0) !== replicas || status?.currentRevision !== status?.updateRevision) return false;
        }
        return simulator.store.list('Pod').items.length === [...desired.values()].reduce((a, b) => a + b, 0);
      }, 600_000);
      assert.equal(settled, 'done', `seed ${seed}: did not settle: ${simulator.store.list<Pod & KubeObject>('Pod').items.map((p) => `${p.metadata!.name} ${p.status?.phase}`).join(', ')}`);
      checkOrdinals(simulator, `seed ${seed} settled`);
      for (const [name, replicas] of desired) {
        const names = simulator.store.list<Pod & KubeObject>('Pod').items.filter((p) => p.metadata!.labels?.app === name).map((p) => p.metadata!.name!).sort();
        assert.deepEqual(names, Array.from({ length: replicas }, (_, i) => `${name}-${i}`).sort(), `seed ${seed}: ${name} pods`);
      }
    });
  }
});
