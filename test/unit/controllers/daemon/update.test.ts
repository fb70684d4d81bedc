import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import { isPodAvailable } from '../../../../src/sim/controllers/pod-util';
import { Cluster, daemonSet, type PodObject } from './fixtures';

type Json = Record<string, unknown>;

function setImage(podSpec: Json, image: string): void {
  (podSpec.containers as Json[])[0].image = image;
}

/** After every pod change: how many nodes have no available pod of `name`, and how many live pods it has. */
function track(cluster: Cluster, name: string): { maxUnavailableNodes: number; maxLivePods: number; minAvailable: number } {
  const seen = { maxUnavailableNodes: 0, maxLivePods: 0, minAvailable: Infinity };
  cluster.store.subscribe('Pod', () => {
    const pods = cluster.pods(name);
    const now = cluster.sim.clock.now();
    const nodes = cluster.store.list('Node').items.map((n) => n.metadata!.name!);
    const availableOn = new Set(pods.filter((p: PodObject) => isPodAvailable(p, 0, now)).map((p) => p.spec?.nodeName));
    seen.maxUnavailableNodes = Math.max(seen.maxUnavailableNodes, nodes.filter((n) => !availableOn.has(n)).length);
    seen.maxLivePods = Math.max(seen.maxLivePods, pods.length);
    seen.minAvailable = Math.min(seen.minAvailable, availableOn.size);
  });
  return seen;
}

function hashes(cluster: Cluster, name: string): string[] {
  return [...new Set(cluster.pods(name).map((p) => p.metadata?.labels?.['controller-revision-hash'] ?? ''))];
}

function revisions(cluster: Cluster): [string, number][] {
  return cluster.store
    .list<KubeObject & { revision: number }>('ControllerRevision')
    .items.map((r): [string, number] => [r.metadata?.labels?.['controller-revision-hash'] ?? '', r.revision])
    .sort((a, b) => a[1] - b[1]);
}

describe('DaemonSet controller: updates', () => {
  it('rolls out a new template one node at a time with the default maxUnavailable 1', () => {
    const cluster = new Cluster(4);
    const violations = cluster.watchOnePodPerNode();
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 4);
    const [oldHash] = hashes(cluster, 'agent');
    const seen = track(cluster, 'agent');
    cluster.updateTemplate('agent', (podSpec) => setImage(podSpec, 'nginx:1.26'));
    cluster.settle('agent', 4);
    const [newHash] = hashes(cluster, 'agent');
    assert.notEqual(newHash, oldHash);
    assert.deepEqual(hashes(cluster, 'agent'), [newHash]);
    assert.ok(cluster.pods('agent').every((p) => p.metadata?.labels?.['pod-template-generation'] === '2'));
    assert.equal(seen.maxUnavailableNodes, 1);
    assert.equal(seen.maxLivePods, 4);
    assert.deepEqual(revisions(cluster), [[oldHash, 1], [newHash, 2]]);
    assert.equal(cluster.ds('agent').status?.observedGeneration, 2);
    assert.deepEqual(violations, []);
  });

  it('takes down up to maxUnavailable nodes at once', () => {
    const cluster = new Cluster(4);
    cluster.apply(daemonSet('agent', (spec) => (spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } })));
    cluster.settle('agent', 4);
    const seen = track(cluster, 'agent');
    cluster.updateTemplate('agent', (podSpec) => setImage(podSpec, 'nginx:1.26'));
    cluster.settle('agent', 4);
    assert.equal(seen.maxUnavailableNodes, 2);
  });

  it('surges with maxSurge: a new pod beside each old one, never fewer available pods than nodes', () => {
    const cluster = new Cluster(3);
    cluster.apply(daemonSet('agent', (spec) => (spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } })));
    cluster.settle('agent', 3);
    const seen = track(cluster, 'agent');
    cluster.updateTemplate('agent', (podSpec) => setImage(podSpec, 'nginx:1.26'));
    cluster.settle('agent', 3);
    assert.equal(seen.minAvailable, 3);
    assert.equal(seen.maxLivePods, 4);
    assert.equal(hashes(cluster, 'agent').length, 1);
  });

  it('OnDelete: a new template reaches a node only when its pod is deleted', () => {
    const cluster = new Cluster(2);
    cluster.apply(daemonSet('agent', (spec) => (spec.updateStrategy = { type: 'OnDelete' })));
    cluster.settle('agent', 2);
    const [oldHash] = hashes(cluster, 'agent');
    cluster.updateTemplate('agent', (podSpec) => setImage(podSpec, 'nginx:1.26'));
    cluster.runUntil(() => cluster.ds('agent').status?.observedGeneration === 2, 'observed generation 2');
    cluster.run(30_000);
    assert.deepEqual(hashes(cluster, 'agent'), [oldHash]);
    assert.equal(cluster.ds('agent').status?.updatedNumberScheduled, undefined);

    const victim = cluster.pods('agent').find((p) => p.spec?.nodeName === 'node-1')!;
    cluster.store.delete('Pod', 'default', victim.metadata!.name!);
    cluster.runUntil(() => cluster.ds('agent').status?.updatedNumberScheduled === 1 && cluster.ds('agent').status?.numberReady === 2, 'one updated pod');
    const byNode = Object.fromEntries(cluster.pods('agent').map((p) => [p.spec?.nodeName, p.metadata?.labels?.['controller-revision-hash']]));
    assert.equal(byNode['node-2'], oldHash);
    assert.notEqual(byNode['node-1'], oldHash);
  });

  it('keeps revisionHistoryLimit old revisions, never one that a pod still uses', () => {
    const cluster = new Cluster(1);
    cluster.apply(daemonSet('agent', (spec) => (spec.revisionHistoryLimit = 1)));
    cluster.settle('agent', 1);
    for (const image of ['nginx:1.26', 'nginx:1.27', 'nginx:1.28']) {
      cluster.updateTemplate('agent', (podSpec) => setImage(podSpec, image));
      cluster.settle('agent', 1);
    }
    assert.deepEqual(revisions(cluster).map(([, revision]) => revision), [3, 4]);
  });

  it('rolls back to an earlier template by renumbering its revision', () => {
    const cluster = new Cluster(1);
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 1);
    const [firstHash] = hashes(cluster, 'agent');
    cluster.updateTemplate('agent', (podSpec) => setImage(podSpec, 'nginx:1.26'));
    cluster.settle('agent', 1);
    cluster.updateTemplate('agent', (podSpec) => setImage(podSpec, 'nginx:1.25'));
    cluster.settle('agent', 1);
    assert.deepEqual(hashes(cluster, 'agent'), [firstHash]);
    const byHash = Object.fromEntries(revisions(cluster));
    assert.equal(byHash[firstHash], 3);
    assert.equal(revisions(cluster).length, 2);
  });
});
