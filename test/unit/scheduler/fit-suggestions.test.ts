import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod, Taint } from '../../../src/core/k8s';
import type { FitSuggestion, FitSuggestions } from '../../../src/core/journey/fit-suggestions';
import { Simulator } from '../../../src/sim/simulator';

type PodSpec = NonNullable<Pod['spec']>;

function deployment(name: string, spec: Omit<PodSpec, 'containers'> & { containers?: PodSpec['containers'] }, replicas = 1, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas, ...extra, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], ...spec } } },
  };
}

function app(requests: Record<string, string> = {}, more: Partial<PodSpec['containers'][number]> = {}): PodSpec['containers'][number] {
  return { name: 'app', image: 'nginx:1.25', ...(Object.keys(requests).length > 0 ? { resources: { requests } } : {}), ...more };
}

function changeNode(sim: Simulator, name: string, change: (node: Node & KubeObject) => void): void {
  sim.store.mutate<Node & KubeObject>('Node', undefined, name, change);
}

function taint(sim: Simulator, names: string[], value: Taint): void {
  for (const name of names) changeNode(sim, name, (node) => (node.spec = { ...node.spec, taints: [...(node.spec?.taints ?? []), value] }));
}

function label(sim: Simulator, names: string[], labels: Record<string, string>): void {
  for (const name of names) changeNode(sim, name, (node) => (node.metadata = { ...node.metadata, labels: { ...node.metadata?.labels, ...labels } }));
}

function cordon(sim: Simulator, names: string[]): void {
  for (const name of names) changeNode(sim, name, (node) => (node.spec = { ...node.spec, unschedulable: true }));
}

interface Scenario {
  name: string;
  cluster?: (sim: Simulator) => void;
  objects: KubeObject[];
  /** Virtual time to run after each object (default 3 s). */
  wait?: number;
  /** The pending pod asked about: the first unbound pod whose name starts with this. */
  pod: string;
  check: (fits: FitSuggestions, byKind: (kind: FitSuggestion['kind']) => FitSuggestion[], sim: Simulator) => void;
}

function fitsOf(scenario: Scenario): { fits: FitSuggestions; sim: Simulator } {
  const sim = new Simulator({ nodes: 3, seed: 3 });
  scenario.cluster?.(sim);
  for (const object of scenario.objects) {
    sim.apply(object);
    sim.runUntil(() => false, scenario.wait ?? 3_000);
  }
  const pod = sim.store.list<Pod & KubeObject>('Pod').items.find((p) => p.metadata?.name?.startsWith(scenario.pod) && !p.spec?.nodeName);
  assert.ok(pod, `a pending pod ${scenario.pod}…`);
  return { fits: sim.components.scheduler.suggestFits(pod), sim };
}

const TEMPLATE = 'spec.template.spec';

const scenarios: Scenario[] = [
  {
    name: 'cpu: the largest request a node has room for, on the container line',
    objects: [deployment('cpu', { containers: [app({ cpu: '8' })] })],
    pod: 'cpu-',
    check: (fits, byKind) => {
      assert.deepEqual(byKind('cpu').map((s) => [s.summary, s.nodes, s.totalNodes, s.path]), [['requests.cpu ≤ 3920m', 3, 3, `${TEMPLATE}.containers[0].resources.requests.cpu`]]);
      assert.deepEqual(byKind('cpu')[0].edits, [{ op: 'set', path: `${TEMPLATE}.containers[0].resources.requests.cpu`, value: '3920m' }]);
      assert.deepEqual(byKind('cpu')[0].target, { kind: 'Deployment', namespace: 'default', name: 'cpu' });
      assert.equal(fits.fitsNow, undefined);
    },
  },
  {
    name: 'cpu: the biggest container of several is changed, the others counted',
    objects: [deployment('two', { containers: [app({ cpu: '500m' }, { name: 'side' }), app({ cpu: '6' })] })],
    pod: 'two-',
    check: (_fits, byKind) => assert.deepEqual(byKind('cpu').map((s) => [s.summary, s.path]), [['requests.cpu of app ≤ 3420m', `${TEMPLATE}.containers[1].resources.requests.cpu`]]),
  },
  {
    name: 'cpu: room left by pods already placed',
    objects: [deployment('filler', { containers: [app({ cpu: '3' })] }, 3), deployment('late', { containers: [app({ cpu: '2' })] })],
    pod: 'late-',
    check: (_fits, byKind) => assert.deepEqual(byKind('cpu').map((s) => [s.summary, s.nodes]), [['requests.cpu ≤ 920m', 3]]),
  },
  {
    name: 'memory: floored to whole MiB',
    objects: [deployment('mem', { containers: [app({ memory: '100Gi' })] })],
    pod: 'mem-',
    check: (_fits, byKind) => {
      const [memory] = byKind('memory');
      assert.match(memory.summary, /^requests\.memory ≤ \d+Mi$/);
      assert.equal(memory.nodes, 3);
      assert.equal(byKind('cpu').length, 0);
    },
  },
  {
    name: 'taint: the toleration for it, and how many nodes it opens',
    cluster: (sim) => taint(sim, ['node-1', 'node-2', 'node-3'], { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }),
    objects: [deployment('tainted', {})],
    pod: 'tainted-',
    check: (_fits, byKind) => {
      assert.deepEqual(byKind('toleration').map((s) => [s.summary, s.nodes, s.path]), [['toleration dedicated=gpu:NoSchedule', 3, `${TEMPLATE}.tolerations`]]);
      assert.deepEqual(byKind('toleration')[0].edits, [{ op: 'add', path: `${TEMPLATE}.tolerations`, value: { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' } }]);
    },
  },
  {
    name: 'taints and a cordon: each opens its own nodes',
    cluster: (sim) => {
      taint(sim, ['node-1', 'node-2'], { key: 'team', effect: 'NoExecute' });
      cordon(sim, ['node-3']);
    },
    objects: [deployment('mixed', {})],
    pod: 'mixed-',
    check: (_fits, byKind) => {
      assert.deepEqual(byKind('toleration').map((s) => [s.summary, s.nodes]), [['toleration team:NoExecute', 2]]);
      assert.deepEqual(byKind('toleration')[0].edits[0], { op: 'add', path: `${TEMPLATE}.tolerations`, value: { key: 'team', operator: 'Exists', effect: 'NoExecute' } });
      assert.deepEqual(byKind('uncordon').map((s) => [s.summary, s.nodes, s.command, s.target]), [['kubectl uncordon node-3', 1, 'kubectl uncordon node-3', undefined]]);
    },
  },
  {
    name: 'cordoned: every node, uncordon them',
    cluster: (sim) => cordon(sim, ['node-1', 'node-2', 'node-3']),
    objects: [deployment('cordoned', {})],
    pod: 'cordoned-',
    check: (fits) => assert.deepEqual(fits.suggestions.map((s) => [s.kind, s.summary, s.nodes]), [['uncordon', 'kubectl uncordon node-1 node-2 node-3', 3]]),
  },
  {
    name: 'nodeSelector: a value the nodes have',
    cluster: (sim) => {
      label(sim, ['node-1', 'node-2'], { disktype: 'hdd' });
      label(sim, ['node-3'], { disktype: 'nvme' });
    },
    objects: [deployment('selector', { nodeSelector: { disktype: 'ssd' } })],
    pod: 'selector-',
    check: (_fits, byKind) => {
      assert.deepEqual(byKind('nodeSelector').map((s) => [s.summary, s.nodes, s.path]), [['nodeSelector disktype: hdd', 2, `${TEMPLATE}.nodeSelector`]]);
      assert.deepEqual(byKind('nodeSelector')[0].edits, [{ op: 'set', path: `${TEMPLATE}.nodeSelector`, value: { disktype: 'hdd' } }]);
    },
  },
  {
    name: 'nodeSelector: a label no node has is dropped',
    objects: [deployment('nolabel', { nodeSelector: { 'example.com/pool': 'blue' } })],
    pod: 'nolabel-',
    check: (_fits, byKind) => assert.deepEqual(byKind('nodeSelector').map((s) => [s.summary, s.nodes, s.edits]), [['nodeSelector without example.com/pool (no such node has the label)', 3, [{ op: 'remove', path: `${TEMPLATE}.nodeSelector` }]]]),
  },
  {
    name: 'required node affinity: a value added to the In list',
    cluster: (sim) => label(sim, ['node-2'], { disktype: 'hdd' }),
    objects: [
      deployment('affinity', {
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disktype', operator: 'In', values: ['ssd'] }] }] } } },
      }),
    ],
    pod: 'affinity-',
    check: (_fits, byKind) => {
      const path = `${TEMPLATE}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values`;
      assert.deepEqual(byKind('nodeAffinity').map((s) => [s.summary, s.nodes, s.edits]), [['node affinity disktype In (ssd, hdd)', 1, [{ op: 'add', path, value: 'hdd' }]]]);
    },
  },
  {
    name: 'replicas: a host port on three nodes takes three of five pods',
    objects: [deployment('ports', { containers: [app({}, { ports: [{ containerPort: 80, hostPort: 80 }] })] }, 5)],
    pod: 'ports-',
    check: (fits, byKind) => {
      assert.deepEqual(byKind('replicas').map((s) => [s.summary, s.nodes, s.path, s.edits, s.target?.kind]), [['replicas: 3 instead of 5', 3, 'spec.replicas', [{ op: 'set', path: 'spec.replicas', value: 3 }], 'Deployment']]);
      // The siblings hold the port: another port would collide the same way.
      assert.equal(byKind('hostPort').length, 0);
      assert.ok(fits.suggestions.every((s) => s.nodes > 0));
    },
  },
  {
    name: 'replicas and pod anti-affinity: one per node (dropping the rule alone does not help while the siblings keep it)',
    objects: [
      deployment(
        'spread',
        { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'spread' } }, topologyKey: 'kubernetes.io/hostname' }] } } },
        4,
      ),
    ],
    pod: 'spread-',
    check: (_fits, byKind) => {
      assert.deepEqual(byKind('replicas').map((s) => [s.summary, s.nodes]), [['replicas: 3 instead of 4', 3]]);
      // The placed siblings' own anti-affinity still refuses this pod on their nodes.
      assert.deepEqual(byKind('podAffinity'), []);
    },
  },
  {
    name: 'pod affinity to pods that do not exist: drop the rule',
    objects: [deployment('lonely', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' }] } } })],
    pod: 'lonely-',
    check: (fits) => assert.deepEqual(fits.suggestions.map((s) => [s.kind, s.nodes]), [['podAffinity', 3]]),
  },
  {
    name: 'topology spread over a label the nodes lack: ScheduleAnyway',
    objects: [
      deployment('zoned', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'zoned' } } }] }),
    ],
    pod: 'zoned-',
    check: (_fits, byKind) => assert.deepEqual(byKind('topologySpread').map((s) => [s.summary, s.nodes, s.edits]), [['topologySpreadConstraints[0] (topology.kubernetes.io/zone) whenUnsatisfiable: ScheduleAnyway', 3, [{ op: 'set', path: `${TEMPLATE}.topologySpreadConstraints[0].whenUnsatisfiable`, value: 'ScheduleAnyway' }]]]),
  },
  {
    name: 'topology spread that one node would tip: the maxSkew that lets it in',
    cluster: (sim) => taint(sim, ['node-2', 'node-3'], { key: 'team', value: 'b', effect: 'NoSchedule' }),
    objects: [
      // Two pods of the group already on node-1; node-2 and node-3 count as empty domains (taints are ignored by the skew) but refuse the pod.
      ...['g-1', 'g-2'].map((name): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { group: 'g' } }, spec: { nodeName: 'node-1', containers: [app()] } })),
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'skewed', labels: { group: 'g' } }, spec: { containers: [app()], topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { group: 'g' } } }] } },
    ],
    pod: 'skewed',
    check: (_fits, byKind) => {
      assert.deepEqual(byKind('topologySpread').map((s) => [s.summary, s.nodes, s.edits]), [['topologySpreadConstraints[0] (kubernetes.io/hostname) maxSkew: 3', 1, [{ op: 'set', path: 'spec.topologySpreadConstraints[0].maxSkew', value: 3 }]]]);
      assert.deepEqual(byKind('toleration').map((s) => [s.summary, s.nodes]), [['toleration team=b:NoSchedule', 2]]);
    },
  },
  {
    name: 'missing claim: create it',
    objects: [deployment('claim', { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] })],
    pod: 'claim-',
    check: (fits) => {
      assert.deepEqual(fits.suggestions.map((s) => [s.kind, s.nodes, s.path]), [['claim', 3, `${TEMPLATE}.volumes[0].persistentVolumeClaim.claimName`]]);
      assert.deepEqual(fits.suggestions[0].edits, [{ op: 'create', object: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } }]);
    },
  },
  {
    name: 'unbound claim of a StorageClass that does not exist: the default class, on the claim',
    objects: [
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'fast-data' }, spec: { storageClassName: 'fast', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      deployment('fast', { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'fast-data' } }] }),
    ],
    pod: 'fast-',
    check: (fits) =>
      assert.deepEqual(
        fits.suggestions.map((s) => [s.kind, s.summary, s.nodes, s.target, s.path, s.edits]),
        [['claim', 'storageClassName: standard on PersistentVolumeClaim fast-data (StorageClass fast does not exist)', 3, { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'fast-data' }, 'spec.storageClassName', [{ op: 'set', path: 'spec.storageClassName', value: 'standard' }]]],
      ),
  },
  {
    name: "hostPort: another workload's port, the next free one",
    objects: [deployment('holder', { containers: [app({}, { ports: [{ containerPort: 80, hostPort: 8080 }] })] }, 3), deployment('wants', { containers: [app({}, { ports: [{ containerPort: 80, hostPort: 8080 }] })] })],
    pod: 'wants-',
    check: (_fits, byKind) => assert.deepEqual(byKind('hostPort').map((s) => [s.summary, s.nodes, s.edits]), [['hostPort 8081 instead of 8080', 3, [{ op: 'set', path: `${TEMPLATE}.containers[0].ports[0].hostPort`, value: 8081 }]]]),
  },
  {
    name: 'two filters on every node: no single change, the pair of changes that fits together',
    objects: [deployment('both', { nodeSelector: { disktype: 'ssd' }, containers: [app({ cpu: '8' })] })],
    pod: 'both-',
    check: (fits) => {
      assert.deepEqual(
        fits.suggestions.map((s) => [s.kind, s.together, s.summary, s.nodes, s.path]),
        [['cpu', ['cpu', 'nodeSelector'], 'requests.cpu ≤ 3920m and nodeSelector without disktype (no such node has the label)', 3, `${TEMPLATE}.containers[0].resources.requests.cpu`]],
      );
      assert.deepEqual(fits.suggestions[0].edits, [
        { op: 'set', path: `${TEMPLATE}.containers[0].resources.requests.cpu`, value: '3920m' },
        { op: 'remove', path: `${TEMPLATE}.nodeSelector` },
      ]);
    },
  },
  {
    name: 'three filters on every node: nothing (pairs only)',
    cluster: (sim) => taint(sim, ['node-1', 'node-2', 'node-3'], { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }),
    objects: [deployment('all3', { nodeSelector: { disktype: 'ssd' }, containers: [app({ cpu: '8' })] })],
    pod: 'all3-',
    check: (fits) => assert.deepEqual(fits.suggestions, []),
  },
  {
    name: 'a StatefulSet: replicas on the StatefulSet, its ordered pods counted',
    objects: [
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db' },
        spec: { replicas: 5, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [app({}, { ports: [{ containerPort: 5432, hostPort: 5432 }] })] } } },
      },
    ],
    wait: 60_000,
    pod: 'db-3',
    check: (fits) => assert.deepEqual(fits.suggestions.map((s) => [s.kind, s.summary, s.target?.kind, s.path]), [['replicas', 'replicas: 3 instead of 5', 'StatefulSet', 'spec.replicas']]),
  },
  {
    name: "a CronJob's pod: paths under spec.jobTemplate",
    objects: [{ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [app({ cpu: '6' })] } } } } } }],
    wait: 65_000,
    pod: 'nightly-',
    check: (fits) => assert.deepEqual(fits.suggestions.map((s) => [s.summary, s.target?.kind, s.path]), [['requests.cpu ≤ 3920m', 'CronJob', 'spec.jobTemplate.spec.template.spec.containers[0].resources.requests.cpu']]),
  },
  {
    name: 'a bare pod: paths in the pod itself',
    objects: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bare' }, spec: { containers: [app({ cpu: '5' })] } }],
    pod: 'bare',
    check: (fits) => {
      assert.deepEqual(fits.suggestions.map((s) => [s.summary, s.path, s.target?.kind]), [['requests.cpu ≤ 3920m', 'spec.containers[0].resources.requests.cpu', 'Pod']]);
      assert.equal(fits.progressDeadline, undefined);
    },
  },
  {
    name: "a Deployment's progress deadline: the last progress + progressDeadlineSeconds",
    objects: [deployment('deadline', { containers: [app({ cpu: '8' })] }, 1, { progressDeadlineSeconds: 120 })],
    pod: 'deadline-',
    check: (fits, _byKind, sim) => {
      const progressing = sim.store.get<KubeObject & { status?: { conditions?: { type: string; lastUpdateTime?: string }[] } }>('Deployment', 'default', 'deadline')?.status?.conditions?.find((c) => c.type === 'Progressing');
      assert.ok(progressing?.lastUpdateTime);
      assert.deepEqual(fits.progressDeadline, { deployment: 'deadline', at: Date.parse(progressing.lastUpdateTime) + 120_000, seconds: 120, exceeded: false });
    },
  },
];

describe('Scheduler.suggestFits', () => {
  for (const scenario of scenarios) {
    it(scenario.name, () => {
      const { fits, sim } = fitsOf(scenario);
      assert.equal(fits.totalNodes, 3);
      scenario.check(fits, (kind) => fits.suggestions.filter((s) => s.kind === kind), sim);
    });
  }
});
