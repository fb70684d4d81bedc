import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';
import { ApiError } from '../../../src/sim/store/types';

function pod(name: string, namespace = 'default', spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } };
}

function refusal(action: () => unknown): ApiError {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('expected the request to be refused');
}

function settle(sim: Simulator): void {
  sim.runUntil(() => false, 1_000);
}

describe('admission: ServiceAccount', () => {
  it('makes `default` in the namespaces present at start and in every new one', () => {
    const sim = new Simulator({ nodes: 1 });
    for (const namespace of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) assert.ok(sim.store.get('ServiceAccount', namespace, 'default'), namespace);
    sim.store.create('Namespace', { metadata: { name: 'team-a' } });
    assert.ok(sim.store.get('ServiceAccount', 'team-a', 'default'));
  });

  it('runs a pod without serviceAccountName as default and refuses one naming a missing ServiceAccount', () => {
    const sim = new Simulator({ nodes: 1 });
    const created = sim.store.create('Pod', pod('plain'));
    assert.equal((created.spec as { serviceAccountName?: string }).serviceAccountName, 'default');
    const error = refusal(() => sim.store.create('Pod', pod('x', 'default', { serviceAccountName: 'foo' })));
    assert.equal(error.code, 403);
    assert.equal(error.message, 'pods "x" is forbidden: error looking up service account default/foo: serviceaccount "foo" not found');
  });

  it("gives a pod without imagePullSecrets its ServiceAccount's", () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('ServiceAccount', { metadata: { name: 'puller', namespace: 'default' }, imagePullSecrets: [{ name: 'regcred' }] } as KubeObject);
    const created = sim.store.create('Pod', pod('pulls', 'default', { serviceAccountName: 'puller' }));
    assert.deepEqual((created.spec as { imagePullSecrets?: unknown }).imagePullSecrets, [{ name: 'regcred' }]);
    const own = sim.store.create('Pod', pod('own', 'default', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }] }));
    assert.deepEqual((own.spec as { imagePullSecrets?: unknown }).imagePullSecrets, [{ name: 'mine' }]);
  });

  it('makes `default` again when it is deleted', () => {
    const sim = new Simulator({ nodes: 1 });
    const before = sim.store.get<KubeObject>('ServiceAccount', 'default', 'default')!.metadata?.uid;
    sim.store.delete('ServiceAccount', 'default', 'default');
    const after = sim.store.get<KubeObject>('ServiceAccount', 'default', 'default');
    assert.ok(after && after.metadata?.uid !== before);
  });

  it('fails a ReplicaSet pod naming a missing ServiceAccount with FailedCreate', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.apply({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { serviceAccountName: 'foo', containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    settle(sim);
    const events = sim.store.list<KubeObject & { reason?: string; message?: string }>('Event', { namespace: 'default' }).items.filter((event) => event.reason === 'FailedCreate');
    assert.ok(events.length > 0);
    assert.equal(events[0].message, 'Error creating: pods "web-" is forbidden: error looking up service account default/foo: serviceaccount "foo" not found');
  });
});

describe('admission: NamespaceLifecycle', () => {
  it('refuses deleting the namespaces kube-apiserver makes', () => {
    const sim = new Simulator({ nodes: 1 });
    for (const name of ['default', 'kube-system', 'kube-public']) {
      assert.equal(refusal(() => sim.store.delete('Namespace', undefined, name)).message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
  });

  it('refuses objects in a namespace that does not exist or is being deleted', () => {
    const sim = new Simulator({ nodes: 1, timings: {} });
    assert.equal(refusal(() => sim.store.create('Pod', pod('p', 'nowhere'))).message, 'namespaces "nowhere" not found');
    sim.store.create('Namespace', { metadata: { name: 'going' } });
    sim.store.create('ConfigMap', { metadata: { name: 'kept', namespace: 'going' } });
    sim.store.delete('Namespace', undefined, 'going');
    const error = refusal(() => sim.store.create('ConfigMap', { metadata: { name: 'late', namespace: 'going' } }));
    assert.equal(error.code, 403);
    assert.equal(error.message, 'configmaps "late" is forbidden: unable to create new content in namespace going because it is being terminated');
  });
});

describe('admission: ResourceQuota', () => {
  it('refuses the pod past a pods quota with upstream message and counts status.used', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('ResourceQuota', { metadata: { name: 'pod-demo', namespace: 'default' }, spec: { hard: { pods: '2' } } });
    sim.store.create('Pod', pod('a'));
    sim.store.create('Pod', pod('b'));
    const error = refusal(() => sim.store.create('Pod', pod('c')));
    assert.equal(error.code, 403);
    assert.equal(error.message, 'pods "c" is forbidden: exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2');
    settle(sim);
    const quota = sim.store.get<KubeObject>('ResourceQuota', 'default', 'pod-demo')!;
    assert.deepEqual(quota.status, { hard: { pods: '2' }, used: { pods: '2' } });
  });

  it('makes every container state what a compute quota limits', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('ResourceQuota', { metadata: { name: 'mem-cpu-demo', namespace: 'default' }, spec: { hard: { 'requests.cpu': '1', 'requests.memory': '1Gi', 'limits.cpu': '2', 'limits.memory': '2Gi' } } });
    const error = refusal(() => sim.store.create('Pod', pod('bare')));
    assert.equal(error.message, 'pods "bare" is forbidden: failed quota: mem-cpu-demo: must specify limits.cpu for: c; limits.memory for: c; requests.cpu for: c; requests.memory for: c');
    const sized = (name: string, cpu: string, memory: string): KubeObject =>
      pod(name, 'default', { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu, memory }, limits: { cpu, memory } } }] });
    sim.store.create('Pod', sized('first', '800m', '600Mi'));
    const over = refusal(() => sim.store.create('Pod', sized('second', '300m', '700Mi')));
    assert.equal(over.message, 'pods "second" is forbidden: exceeded quota: mem-cpu-demo, requested: requests.cpu=300m,requests.memory=700Mi, used: requests.cpu=800m,requests.memory=600Mi, limited: requests.cpu=1,requests.memory=1Gi');
    settle(sim);
    const quota = sim.store.get<KubeObject>('ResourceQuota', 'default', 'mem-cpu-demo')!;
    assert.deepEqual((quota.status as { used?: unknown }).used, { 'limits.cpu': '800m', 'limits.memory': '600Mi', 'requests.cpu': '800m', 'requests.memory': '600Mi' });
  });

  it('recounts status.used when a pod goes, and counts only the pods a scoped quota selects', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('ResourceQuota', { metadata: { name: 'best-effort', namespace: 'default' }, spec: { hard: { pods: '1' }, scopes: ['BestEffort'] } });
    sim.store.create('Pod', pod('plain'));
    const sized = pod('sized', 'default', { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] });
    assert.ok(sim.store.create('Pod', sized), 'a Burstable pod is outside a BestEffort quota');
    assert.match(refusal(() => sim.store.create('Pod', pod('second'))).message, /exceeded quota: best-effort, requested: pods=1, used: pods=1, limited: pods=1$/);
    settle(sim);
    assert.deepEqual((sim.store.get<KubeObject>('ResourceQuota', 'default', 'best-effort')!.status as { used?: unknown }).used, { pods: '1' });
    sim.store.delete('Pod', 'default', 'plain', { gracePeriodSeconds: 0 });
    settle(sim);
    assert.deepEqual((sim.store.get<KubeObject>('ResourceQuota', 'default', 'best-effort')!.status as { used?: unknown }).used, { pods: '0' });
    assert.ok(sim.store.create('Pod', pod('second')));
  });

  it('refuses a Service update that takes node ports past the quota', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('ResourceQuota', { metadata: { name: 'object-quota-demo', namespace: 'default' }, spec: { hard: { persistentvolumeclaims: '1', 'services.loadbalancers': '2', 'services.nodeports': '0' } } });
    const service = sim.store.create('Service', { metadata: { name: 'web', namespace: 'default' }, spec: { ports: [{ port: 80 }] } });
    const error = refusal(() => sim.store.update('Service', { ...structuredClone(service), spec: { ...(service.spec as object), type: 'NodePort' } }));
    assert.equal(error.message, 'services "web" is forbidden: exceeded quota: object-quota-demo, requested: services.nodeports=1, used: services.nodeports=0, limited: services.nodeports=0');
  });

  it('counts objects by their legacy and count/ names', () => {
    const sim = new Simulator({ nodes: 1 });
    // kube-root-ca.crt, published in every namespace, counts as on a real cluster.
    sim.store.create('ResourceQuota', { metadata: { name: 'object-counts', namespace: 'default' }, spec: { hard: { configmaps: '2', 'count/deployments.apps': '0' } } });
    sim.store.create('ConfigMap', { metadata: { name: 'one', namespace: 'default' } });
    assert.equal(refusal(() => sim.store.create('ConfigMap', { metadata: { name: 'two', namespace: 'default' } })).message, 'configmaps "two" is forbidden: exceeded quota: object-counts, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
    const deployment: KubeObject = {
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    assert.equal(refusal(() => sim.store.create('Deployment', deployment)).message, 'deployments.apps "web" is forbidden: exceeded quota: object-counts, requested: count/deployments.apps=1, used: count/deployments.apps=0, limited: count/deployments.apps=0');
  });
});

describe('admission: LimitRanger', () => {
  const limitRange: KubeObject = {
    metadata: { name: 'cpu-min-max-demo-lr', namespace: 'default' },
    spec: { limits: [{ type: 'Container', max: { cpu: '800m' }, min: { cpu: '200m' } }] },
  };

  it('sets defaults the containers leave out and says so in the annotation', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('LimitRange', { metadata: { name: 'mem-limit-range', namespace: 'default' }, spec: { limits: [{ type: 'Container', default: { memory: '512Mi' }, defaultRequest: { memory: '256Mi' } }] } });
    const created = sim.store.create('Pod', pod('defaulted'));
    const container = (created.spec as { containers: { resources?: unknown }[] }).containers[0];
    assert.deepEqual(container.resources, { limits: { memory: '512Mi' }, requests: { memory: '256Mi' } });
    assert.equal(created.metadata?.annotations?.['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: memory request for container c; memory limit for container c');
  });

  it('enforces maxLimitRequestRatio and a Pod-wide max', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('LimitRange', { metadata: { name: 'limit-memory-ratio-pod', namespace: 'default' }, spec: { limits: [{ type: 'Pod', maxLimitRequestRatio: { memory: '2' }, max: { cpu: '1' } }] } });
    const twoContainers = pod('ratio', 'default', {
      containers: [
        { name: 'a', image: 'nginx', resources: { requests: { memory: '100Mi', cpu: '600m' }, limits: { memory: '300Mi', cpu: '600m' } } },
        { name: 'b', image: 'nginx', resources: { requests: { memory: '100Mi', cpu: '600m' }, limits: { memory: '300Mi', cpu: '600m' } } },
      ],
    });
    assert.equal(
      refusal(() => sim.store.create('Pod', twoContainers)).message,
      'pods "ratio" is forbidden: [maximum cpu usage per Pod is 1, but limit is 1200m, memory max limit to request ratio per Pod is 2, but provided ratio is 3.000000]',
    );
  });

  it('enforces min and max with upstream messages', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('LimitRange', structuredClone(limitRange));
    const withCpu = (name: string, request: string, limit: string): KubeObject =>
      pod(name, 'default', { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: request }, limits: { cpu: limit } } }] });
    assert.equal(refusal(() => sim.store.create('Pod', withCpu('big', '500m', '1500m'))).message, 'pods "big" is forbidden: maximum cpu usage per Container is 800m, but limit is 1500m');
    assert.equal(refusal(() => sim.store.create('Pod', withCpu('small', '100m', '800m'))).message, 'pods "small" is forbidden: minimum cpu usage per Container is 200m, but request is 100m');
    // Defaults come from max (the limit) and then the default limit (the request): a bare pod fits.
    const bare = sim.store.create('Pod', pod('bare'));
    assert.deepEqual((bare.spec as { containers: { resources?: unknown }[] }).containers[0].resources, { limits: { cpu: '800m' }, requests: { cpu: '800m' } });
  });
});

describe('admission: PodSecurity', () => {
  const restrictedNamespace: KubeObject = { metadata: { name: 'locked', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } };
  const violations =
    'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
    'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
    'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
    'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

  it('refuses a pod that breaks the enforced level', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('Namespace', structuredClone(restrictedNamespace));
    const error = refusal(() => sim.store.create('Pod', pod('x', 'locked')));
    assert.equal(error.code, 403);
    assert.equal(error.message, `pods "x" is forbidden: violates PodSecurity "restricted:latest": ${violations}`);
  });

  it('admits a pod that meets restricted', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('Namespace', structuredClone(restrictedNamespace));
    const compliant = pod('ok', 'locked', {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
    });
    assert.ok(sim.store.create('Pod', compliant));
  });

  it('warns about a workload template at the warn level only, and about a pod under warn', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('Namespace', structuredClone(restrictedNamespace));
    sim.store.create('Namespace', { metadata: { name: 'warned', labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' } } });
    sim.store.create('Namespace', { metadata: { name: 'watched', labels: { 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/warn-version': 'v1.32' } } });
    const deployment = (namespace: string): KubeObject => ({
      metadata: { name: 'web', namespace },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const enforcedOnly: string[] = [];
    sim.store.create('Deployment', deployment('locked'), { warnings: enforcedOnly });
    assert.deepEqual(enforcedOnly, []);
    const warned: string[] = [];
    sim.store.create('Deployment', deployment('warned'), { warnings: warned });
    assert.deepEqual(warned, [`would violate PodSecurity "restricted:latest": ${violations}`]);
    const podWarnings: string[] = [];
    sim.store.create('Pod', pod('host', 'watched', { hostNetwork: true, containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] }), { warnings: podWarnings });
    assert.deepEqual(podWarnings, ['would violate PodSecurity "baseline:v1.32": host namespaces (hostNetwork), privileged (container "c" must not set securityContext.privileged=true)']);
  });

  it('warns about the pods already there when a namespace enforce level gets stricter', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('Namespace', { metadata: { name: 'apps' } });
    for (const name of ['web-b', 'web-a', 'web-c']) sim.store.create('Pod', pod(name, 'apps'));
    sim.store.create('Pod', pod('root', 'apps', { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'c', image: 'nginx', securityContext: { runAsUser: 0 } }] }));
    const warnings: string[] = [];
    sim.store.mutate('Namespace', undefined, 'apps', (namespace) => {
      namespace.metadata!.labels = { ...namespace.metadata!.labels, 'pod-security.kubernetes.io/enforce': 'restricted' };
    }, { warnings });
    assert.deepEqual(warnings, [
      'existing pods in namespace "apps" violate the new PodSecurity enforce level "restricted:latest"',
      'root: allowPrivilegeEscalation != false, unrestricted capabilities, runAsUser=0',
      'web-a (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);
    const relaxed: string[] = [];
    sim.store.mutate('Namespace', undefined, 'apps', (namespace) => {
      namespace.metadata!.labels = { ...namespace.metadata!.labels, 'pod-security.kubernetes.io/enforce': 'baseline' };
    }, { warnings: relaxed });
    assert.deepEqual(relaxed, []);
  });

  it('refuses a namespace whose labels name no level or version', () => {
    const sim = new Simulator({ nodes: 1 });
    const error = refusal(() => sim.store.create('Namespace', { metadata: { name: 'typo', labels: { 'pod-security.kubernetes.io/enforce': 'strict' } } }));
    assert.equal(error.code, 422);
    assert.equal(error.message, 'Namespace "typo" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });
});

describe('admission: Priority', () => {
  type PrioritySpec = { priority?: number; preemptionPolicy?: string; priorityClassName?: string };
  const priorityClass = (name: string, value: number, extra: Record<string, unknown> = {}): KubeObject =>
    ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra }) as KubeObject;

  it('takes priority and preemptionPolicy from a stored PriorityClass and refuses a missing one', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('PriorityClass', priorityClass('gold', 1000, { preemptionPolicy: 'Never' }));
    const gold = sim.store.create('Pod', pod('gold-pod', 'default', { priorityClassName: 'gold' })).spec as PrioritySpec;
    assert.deepEqual([gold.priority, gold.preemptionPolicy], [1000, 'Never']);
    const critical = sim.store.create('Pod', pod('critical', 'default', { priorityClassName: 'system-node-critical' })).spec as PrioritySpec;
    assert.deepEqual([critical.priority, critical.preemptionPolicy], [2000001000, 'PreemptLowerPriority']);
    const error = refusal(() => sim.store.create('Pod', pod('lost', 'default', { priorityClassName: 'silver' })));
    assert.equal(error.code, 403);
    assert.equal(error.message, 'pods "lost" is forbidden: no PriorityClass with name silver was found');
  });

  it('refuses a pod whose own priority or preemptionPolicy differ from its class', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('PriorityClass', priorityClass('gold', 1000));
    const priority = refusal(() => sim.store.create('Pod', pod('p1', 'default', { priorityClassName: 'gold', priority: 5 })));
    assert.equal(priority.message, 'pods "p1" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
    const policy = refusal(() => sim.store.create('Pod', pod('p2', 'default', { priorityClassName: 'gold', preemptionPolicy: 'Never' })));
    assert.equal(policy.message, 'pods "p2" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name');
  });

  it('gives a pod without a class the globalDefault one, and priority 0 when there is none', () => {
    const sim = new Simulator({ nodes: 1 });
    const plain = sim.store.create('Pod', pod('plain')).spec as PrioritySpec;
    assert.deepEqual([plain.priorityClassName, plain.priority, plain.preemptionPolicy], [undefined, 0, 'PreemptLowerPriority']);
    sim.store.create('PriorityClass', priorityClass('standard', 100, { globalDefault: true }));
    const defaulted = sim.store.create('Pod', pod('defaulted')).spec as PrioritySpec;
    assert.deepEqual([defaulted.priorityClassName, defaulted.priority], ['standard', 100]);
  });

  it("lets the scheduler's preemption verdict see a created class's priority and preemptionPolicy", () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('PriorityClass', priorityClass('batch-low', 10));
    sim.store.create('PriorityClass', priorityClass('urgent', 1000));
    sim.store.create('PriorityClass', priorityClass('polite', 1000, { preemptionPolicy: 'Never' }));
    const sized = (name: string, className: string): KubeObject => pod(name, 'default', { priorityClassName: className, containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '3' } } }] });
    sim.store.create('Pod', sized('filler', 'batch-low'));
    settle(sim);
    sim.store.create('Pod', sized('urgent-pod', 'urgent'));
    sim.store.create('Pod', sized('polite-pod', 'polite'));
    settle(sim);
    const scheduledMessage = (name: string): string =>
      ((sim.store.read('Pod', 'default', name).status as { conditions?: { type: string; message?: string }[] }).conditions ?? []).find((c) => c.type === 'PodScheduled')?.message ?? '';
    // Evicting the lower-priority filler would make room: upstream's message then has no preemption suffix.
    assert.equal(scheduledMessage('urgent-pod'), '0/1 nodes are available: 1 Insufficient cpu.');
    assert.equal(scheduledMessage('polite-pod'), '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.');
  });

  it('keeps the created priority on update and allows only one globalDefault class', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.store.create('PriorityClass', priorityClass('standard', 100, { globalDefault: true }));
    const created = sim.store.create('Pod', pod('kept'));
    const next = structuredClone(created);
    delete (next.spec as PrioritySpec).priority;
    next.metadata = { ...next.metadata, labels: { touched: 'yes' } };
    assert.equal((sim.store.update('Pod', next).spec as PrioritySpec).priority, 100);
    const second = refusal(() => sim.store.create('PriorityClass', priorityClass('other', 5, { globalDefault: true })));
    assert.equal(second.code, 403);
    assert.equal(second.message, 'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass standard is already marked as default. Only one default can exist');
    const standard = sim.store.get<KubeObject>('PriorityClass', undefined, 'standard')!;
    assert.ok(sim.store.update('PriorityClass', { ...structuredClone(standard), description: 'the default' } as KubeObject));
  });
});
