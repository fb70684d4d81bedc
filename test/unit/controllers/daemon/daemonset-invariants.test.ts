/**
 * Property test of DaemonSets in the whole simulated cluster: random node changes (added, deleted,
 * labelled, tainted, cordoned) and DaemonSet changes (new image, new node selector, OnDelete or
 * RollingUpdate), checking throughout that no node ever holds two live pods of one DaemonSet, and
 * once settled that every eligible node runs exactly one up-to-date, ready pod and no pod is left
 * on a deleted node (the pod GC's orphan sweep).
 */
import assert from 'node:assert/strict';
import type { Taint } from '../../../../src/core/k8s';
import { SeededRandom } from '../../../../src/sim/clock';
import { Cluster, daemonSet, type NodeObject } from './fixtures';

type Json = Record<string, unknown>;

const TAINTS: (Taint | undefined)[] = [undefined, { key: 'dedicated', value: 'db', effect: 'NoSchedule' }, { key: 'dedicated', value: 'db', effect: 'NoExecute' }];
const IMAGES = ['nginx:1.25', 'nginx:1.26', 'nginx:1.27'];

/** Whether a node should run the `ssd-only` or `all` DaemonSet's pod (the tests' own reading of the rules). */
function eligible(node: NodeObject, nodeSelector: Record<string, string> | undefined): boolean {
  for (const [key, value] of Object.entries(nodeSelector ?? {})) if (node.metadata?.labels?.[key] !== value) return false;
  return !(node.spec?.taints ?? []).some((t) => t.key !== 'node.kubernetes.io/unschedulable' && (t.effect === 'NoSchedule' || t.effect === 'NoExecute'));
}

function randomStep(cluster: Cluster, random: SeededRandom, nextNode: { value: number }): string {
  const nodes = cluster.store.list<NodeObject>('Node').items.map((n) => n.metadata!.name!);
  const node = nodes[random.int(0, Math.max(0, nodes.length - 1))];
  const roll = random.int(0, 7);
  switch (roll) {
    case 0: {
      const name = `node-${nextNode.value++}`;
      cluster.addNode(name);
      return `add ${name}`;
    }
    case 1:
      if (nodes.length <= 1) return 'skip';
      cluster.store.delete('Node', undefined, node);
      return `delete ${node}`;
    case 2: {
      const ssd = random.next() < 0.5;
      cluster.updateNode(node, (n) => {
        const labels = { ...n.metadata!.labels };
        if (ssd) labels.disktype = 'ssd';
        else delete labels.disktype;
        n.metadata!.labels = labels;
      });
      return `${node} ssd=${ssd}`;
    }
    case 3: {
      const taint = TAINTS[random.int(0, TAINTS.length - 1)];
      cluster.updateNode(node, (n) => (n.spec = { ...n.spec, taints: taint ? [taint] : [] }));
      return `${node} taint ${taint?.effect ?? 'none'}`;
    }
    case 4: {
      const cordon = random.next() < 0.5;
      cluster.updateNode(node, (n) => (n.spec = { ...n.spec, unschedulable: cordon }));
      return `${node} cordon=${cordon}`;
    }
    case 5: {
      const name = random.next() < 0.5 ? 'all' : 'ssd-only';
      const image = IMAGES[random.int(0, IMAGES.length - 1)];
      cluster.updateTemplate(name, (podSpec) => (((podSpec.containers as Json[])[0].image = image)));
      return `${name} image ${image}`;
    }
    case 6: {
      const surge = random.next() < 0.5;
      cluster.store.mutate('DaemonSet', 'default', 'all', (copy) => ((copy.spec as Json).updateStrategy = { type: 'RollingUpdate', rollingUpdate: surge ? { maxUnavailable: 0, maxSurge: 1 } : { maxUnavailable: 1, maxSurge: 0 } }));
      return `all surge=${surge}`;
    }
    default: {
      const selector = random.next() < 0.5 ? { disktype: 'ssd' } : undefined;
      cluster.updateTemplate('ssd-only', (podSpec) => (podSpec.nodeSelector = selector));
      return `ssd-only selector ${JSON.stringify(selector)}`;
    }
  }
}

function settled(cluster: Cluster, name: string): boolean {
  const ds = cluster.ds(name);
  const status = ds.status;
  const nodes = cluster.store.list<NodeObject>('Node').items;
  const want = nodes.filter((n) => eligible(n, ds.spec?.template.spec?.nodeSelector));
  const byNode = cluster.podsByNode(name);
  const existing = new Set(nodes.map((n) => n.metadata!.name!));
  return (
    status?.observedGeneration === ds.metadata?.generation &&
    status?.desiredNumberScheduled === want.length &&
    status.numberReady === want.length &&
    (status.updatedNumberScheduled ?? 0) === want.length &&
    want.every((n) => byNode[n.metadata!.name!] === 1) &&
    byNode['(pending)'] === undefined &&
    Object.keys(byNode).every((node) => existing.has(node))
  );
}

describe('DaemonSet invariants under random operations', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`never puts two pods of a DaemonSet on one node, and settles on one per eligible node (seed ${seed})`, () => {
      const random = new SeededRandom(seed * 104729);
      const cluster = new Cluster(4);
      const violations = cluster.watchOnePodPerNode();
      cluster.apply(daemonSet('all'));
      cluster.apply(daemonSet('ssd-only', (_spec, podSpec) => (podSpec.nodeSelector = { disktype: 'ssd' })));
      const steps: string[] = [];
      const nextNode = { value: 5 };
      for (let i = 0; i < 30; i++) {
        steps.push(randomStep(cluster, random, nextNode));
        cluster.run(random.int(0, 4000));
      }
      const outcome = cluster.sim.runUntil(() => settled(cluster, 'all') && settled(cluster, 'ssd-only'), 600_000);
      const state = JSON.stringify({ steps, all: [cluster.ds('all').status, cluster.podsByNode('all')], ssd: [cluster.ds('ssd-only').status, cluster.podsByNode('ssd-only')] });
      assert.equal(outcome, 'done', `seed ${seed} did not settle: ${state}`);
      // Surge pods share a node with an old one by design; only the non-surging DaemonSet is held to one per node throughout.
      assert.deepEqual(violations.filter((v) => v.startsWith('ssd-only ')), [], state);
      for (const name of ['all', 'ssd-only']) {
        for (const [node, count] of Object.entries(cluster.podsByNode(name))) assert.ok(count <= 1, `${name} has ${count} pods on ${node}`);
      }
    });
  }
});
