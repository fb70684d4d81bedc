import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import { apiServerAdmission } from '../../../../src/sim/apis/validation';
import { Simulator } from '../../../../src/sim/simulator';
import { prepareForCreate } from '../../../../src/sim/store/defaults';
import { ApiError } from '../../../../src/sim/store/types';
import { Cluster, CONTROL_PLANE_TAINT, daemonSet } from './fixtures';

describe('DaemonSet controller: placement', () => {
  it('runs one pod per node, pinned by matchFields metadata.name and bound by the default scheduler', () => {
    const cluster = new Cluster(3);
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 3);
    assert.deepEqual(cluster.podsByNode('agent'), { 'node-1': 1, 'node-2': 1, 'node-3': 1 });
    for (const pod of cluster.pods('agent')) {
      const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
      assert.deepEqual(terms, [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [pod.spec?.nodeName] }] }]);
      assert.ok(cluster.events('Pod', pod.metadata!.name!).includes(`Scheduled: Successfully assigned default/${pod.metadata!.name} to ${pod.spec!.nodeName}`));
      assert.equal(pod.metadata?.generateName, 'agent-');
    }
    const created = cluster.events('DaemonSet', 'agent').filter((e) => e.startsWith('SuccessfulCreate: Created pod: agent-'));
    assert.equal(created.length, 3);
  });

  it('labels pods with the revision hash and the template generation, and gives them the daemon tolerations', () => {
    const cluster = new Cluster(1);
    cluster.apply(daemonSet('agent', (_spec, podSpec) => (podSpec.hostNetwork = true)));
    cluster.settle('agent', 1);
    const [revision] = cluster.store.list('ControllerRevision').items;
    const hash = revision.metadata?.labels?.['controller-revision-hash'];
    assert.match(hash ?? '', /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    assert.equal(revision.metadata?.name, `agent-${hash}`);
    assert.equal(cluster.ds('agent').metadata?.annotations?.['deprecated.daemonset.template.generation'], '1');
    const [pod] = cluster.pods('agent');
    assert.deepEqual(pod.metadata?.labels, { app: 'agent', 'pod-template-generation': '1', 'controller-revision-hash': hash });
    assert.deepEqual(
      pod.spec?.tolerations?.map((t) => `${t.key}:${t.effect}:${t.operator}:${t.tolerationSeconds ?? '∞'}`),
      [
        'node.kubernetes.io/not-ready:NoExecute:Exists:∞',
        'node.kubernetes.io/unreachable:NoExecute:Exists:∞',
        'node.kubernetes.io/disk-pressure:NoSchedule:Exists:∞',
        'node.kubernetes.io/memory-pressure:NoSchedule:Exists:∞',
        'node.kubernetes.io/pid-pressure:NoSchedule:Exists:∞',
        'node.kubernetes.io/unschedulable:NoSchedule:Exists:∞',
        'node.kubernetes.io/network-unavailable:NoSchedule:Exists:∞',
      ],
    );
  });

  it('honours the template nodeSelector, and follows node label changes both ways', () => {
    const cluster = new Cluster(3);
    cluster.updateNode('node-2', (node) => (node.metadata!.labels = { ...node.metadata!.labels, disktype: 'ssd' }));
    cluster.apply(daemonSet('ssd', (_spec, podSpec) => (podSpec.nodeSelector = { disktype: 'ssd' })));
    cluster.settle('ssd', 1);
    assert.deepEqual(cluster.podsByNode('ssd'), { 'node-2': 1 });

    cluster.updateNode('node-3', (node) => (node.metadata!.labels = { ...node.metadata!.labels, disktype: 'ssd' }));
    cluster.settle('ssd', 2);
    assert.deepEqual(cluster.podsByNode('ssd'), { 'node-2': 1, 'node-3': 1 });

    cluster.updateNode('node-2', (node) => delete node.metadata!.labels!.disktype);
    cluster.settle('ssd', 1);
    assert.deepEqual(cluster.podsByNode('ssd'), { 'node-3': 1 });
    assert.ok(cluster.events('DaemonSet', 'ssd').some((e) => e.startsWith('SuccessfulDelete: Deleted pod: ssd-')));
  });

  it('honours required node affinity', () => {
    const cluster = new Cluster(3);
    cluster.apply(
      daemonSet('not-in-a', (_spec, podSpec) => {
        podSpec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'NotIn', values: ['us-east-1a'] }] }] } } };
      }),
    );
    cluster.settle('not-in-a', 2);
    assert.deepEqual(cluster.podsByNode('not-in-a'), { 'node-2': 1, 'node-3': 1 });
  });

  it('skips a control-plane node unless the template tolerates its taint', () => {
    const cluster = new Cluster(2);
    cluster.addNode('control-plane', { taints: [CONTROL_PLANE_TAINT], labels: { 'node-role.kubernetes.io/control-plane': '' } });
    cluster.apply(daemonSet('workers-only'));
    cluster.apply(daemonSet('everywhere', (_spec, podSpec) => (podSpec.tolerations = [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }])));
    cluster.settle('workers-only', 2);
    cluster.settle('everywhere', 3);
    assert.deepEqual(cluster.podsByNode('workers-only'), { 'node-1': 1, 'node-2': 1 });
    assert.deepEqual(cluster.podsByNode('everywhere'), { 'control-plane': 1, 'node-1': 1, 'node-2': 1 });
  });

  it('runs on a cordoned node (daemon pods tolerate unschedulable)', () => {
    const cluster = new Cluster(2);
    cluster.updateNode('node-2', (node) => (node.spec = { ...node.spec, unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }));
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 2);
    assert.deepEqual(cluster.podsByNode('agent'), { 'node-1': 1, 'node-2': 1 });
  });

  it('keeps a pod on a node that gains a NoSchedule taint (misscheduled) and removes it for a NoExecute taint', () => {
    const cluster = new Cluster(2);
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 2);
    cluster.updateNode('node-2', (node) => (node.spec = { ...node.spec, taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }));
    cluster.runUntil(() => cluster.ds('agent').status?.numberMisscheduled === 1, 'misscheduled count');
    assert.equal(cluster.ds('agent').status?.desiredNumberScheduled, 1);
    assert.deepEqual(cluster.podsByNode('agent'), { 'node-1': 1, 'node-2': 1 });

    cluster.updateNode('node-2', (node) => (node.spec = { ...node.spec, taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] }));
    cluster.settle('agent', 1);
    assert.deepEqual(cluster.podsByNode('agent'), { 'node-1': 1 });
  });

  it('gives a node added later its pod; a deleted node stops counting and its pod is collected', () => {
    const cluster = new Cluster(2);
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 2);
    cluster.addNode('node-3');
    cluster.settle('agent', 3);
    assert.deepEqual(cluster.podsByNode('agent'), { 'node-1': 1, 'node-2': 1, 'node-3': 1 });

    cluster.store.delete('Node', undefined, 'node-1');
    cluster.runUntil(() => cluster.ds('agent').status?.desiredNumberScheduled === 2, 'desired after node deletion');
    assert.equal(cluster.ds('agent').status?.numberReady, 2);
    // The pod GC removes the pod bound to the gone node once the node's 40 s quarantine is over.
    const deletedAt = cluster.sim.clock.now();
    cluster.runUntil(() => cluster.podsByNode('agent')['node-1'] === undefined, 'pod on the deleted node collected');
    assert.ok(cluster.sim.clock.now() - deletedAt >= 39_000);
    assert.deepEqual(cluster.podsByNode('agent'), { 'node-2': 1, 'node-3': 1 });
  });

  it('reports the status counts as they move, and observedGeneration', () => {
    const cluster = new Cluster(3);
    const seen: string[] = [];
    cluster.store.subscribe('DaemonSet', (change) => {
      const status = change.object.status as Record<string, number> | undefined;
      if (status) seen.push(`${status.desiredNumberScheduled}/${status.currentNumberScheduled}/${status.numberReady}/${status.numberAvailable ?? 0}/${status.numberUnavailable ?? 0}`);
    });
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 3);
    // desired/current/ready/available/unavailable: created first, ready later, ending with none unavailable.
    assert.ok(seen.includes('3/3/0/0/3'), seen.join(' '));
    assert.equal(seen[seen.length - 1], '3/3/3/3/0');
    const status = cluster.ds('agent').status!;
    assert.equal(status.observedGeneration, 1);
    assert.equal(status.updatedNumberScheduled, 3);
    assert.equal(status.numberMisscheduled, 0);
    assert.equal(status.numberUnavailable, undefined);
  });

  it('is garbage-collected with its pods and revisions when deleted', () => {
    const cluster = new Cluster(2);
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 2);
    cluster.store.delete('DaemonSet', 'default', 'agent', { propagationPolicy: 'Foreground' });
    cluster.runUntil(() => cluster.store.list('Pod').items.length === 0 && cluster.store.list('ControllerRevision').items.length === 0 && !cluster.store.get('DaemonSet', 'default', 'agent'), 'DaemonSet, pods and revisions gone');
  });

  it('replaces a pod that was deleted', () => {
    const cluster = new Cluster(2);
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 2);
    const victim = cluster.pods('agent').find((pod) => pod.spec?.nodeName === 'node-1')!;
    cluster.store.delete('Pod', 'default', victim.metadata!.name!);
    cluster.runUntil(() => cluster.pods('agent').some((pod) => pod.spec?.nodeName === 'node-1' && pod.metadata?.uid !== victim.metadata?.uid && pod.status?.phase === 'Running'), 'replacement');
    cluster.settle('agent', 2);
  });
});

describe('DaemonSet controller: burst', () => {
  it('creates at most 250 pods per sync (BurstReplicas)', () => {
    const cluster = new Cluster(300);
    const createdAt: number[] = [];
    cluster.store.subscribe('Pod', (change) => {
      if (change.type === 'ADDED') createdAt.push(cluster.sim.clock.now());
    });
    cluster.apply(daemonSet('agent'));
    cluster.settle('agent', 300);
    const perInstant = new Map<number, number>();
    for (const at of createdAt) perInstant.set(at, (perInstant.get(at) ?? 0) + 1);
    assert.deepEqual([...perInstant.values()], [250, 50]);
  });
});

describe('DaemonSet controller: slow start', () => {
  it('creates in batches of 1, 2, 4… and stops after a batch with a failure, as a pod quota would make it', () => {
    let attempts = 0;
    let pods = 0;
    const quota = 5;
    const simulator = new Simulator({
      nodes: 20,
      admission: {
        ...apiServerAdmission,
        prepareForCreate,
        validate: (kind, object, old) => {
          if (kind !== 'Pod' || old) return apiServerAdmission.validate(kind, object, old);
          attempts++;
          if (pods >= quota) return new ApiError(403, 'Forbidden', `pods "${object.metadata?.name ?? ''}" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=${quota}, limited: pods=${quota}`);
          pods++;
          return apiServerAdmission.validate(kind, object, old);
        },
      },
    });
    simulator.apply(daemonSet('agent'));
    simulator.runUntil(() => attempts > 0, 10_000);
    // Batches 1 and 2 succeed, the batch of 4 has two failures, and no batch of 8 follows.
    assert.equal(attempts, 7);
    const warnings = simulator.store.list<KubeObject & { reason?: string; message?: string }>('Event').items.filter((e) => e.reason === 'FailedCreate');
    assert.equal(warnings.length, 2);
    for (const warning of warnings) assert.match(warning.message ?? '', /^Error creating: pods "agent-[a-z0-9]{5}" is forbidden: exceeded quota: pods/);
  });
});

describe('DaemonSet controller: scheduling messages', () => {
  it('explains a daemon pod that does not fit its node the way 1.31+ schedulers do', () => {
    const cluster = new Cluster(3);
    cluster.apply(daemonSet('huge', (_spec, podSpec) => ((podSpec.containers as Record<string, unknown>[])[0].resources = { requests: { cpu: '64' } })));
    cluster.runUntil(() => cluster.pods('huge').length === 3 && cluster.pods('huge').every((pod) => pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False')), 'unschedulable daemon pods');
    const pod = cluster.pods('huge')[0];
    const condition = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(
      condition?.message,
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
    assert.equal(cluster.ds('huge').status?.currentNumberScheduled, 3);
    assert.equal(cluster.ds('huge').status?.numberReady, 0);
  });
});
