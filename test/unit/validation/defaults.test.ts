import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { applyDefaults, imageTag, podQOSClass, prepareForCreate } from '../../../src/sim/store/defaults';

type Json = Record<string, unknown>;

function minimalDeployment(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
    },
  };
}

function pod(spec: Json, name = 'p'): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec };
}

const specOf = (object: KubeObject): Json => object.spec as Json;
const containerOf = (object: KubeObject, index = 0): Json => (specOf(object).containers as Json[])[index];

describe('defaults: Deployment and ReplicaSet', () => {
  it('fills a minimal Deployment as kube-apiserver does', () => {
    const deployment = minimalDeployment();
    applyDefaults('Deployment', deployment);
    assert.deepEqual(deployment.spec, {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
  });

  it('keeps explicit values, zeros included, and gives Recreate no rollingUpdate', () => {
    const deployment = minimalDeployment();
    Object.assign(specOf(deployment), { replicas: 0, revisionHistoryLimit: 0, strategy: { type: 'Recreate' } });
    applyDefaults('Deployment', deployment);
    assert.equal(specOf(deployment).replicas, 0);
    assert.equal(specOf(deployment).revisionHistoryLimit, 0);
    assert.deepEqual(specOf(deployment).strategy, { type: 'Recreate' });
  });

  it('does not give templates what only pods get', () => {
    const deployment = minimalDeployment();
    applyDefaults('Deployment', deployment);
    const templateSpec = (specOf(deployment).template as Json).spec as Json;
    for (const podOnly of ['enableServiceLinks', 'serviceAccountName', 'priority', 'tolerations', 'volumes']) assert.equal(templateSpec[podOnly], undefined, podOnly);
  });

  it('defaults ReplicaSet replicas to 1', () => {
    const replicaSet: KubeObject = { metadata: { name: 'rs' }, spec: { template: { spec: { containers: [{ name: 'a', image: 'a' }] } } } };
    applyDefaults('ReplicaSet', replicaSet);
    assert.equal(specOf(replicaSet).replicas, 1);
    assert.equal(((specOf(replicaSet).template as Json).spec as Json).restartPolicy, 'Always');
  });
});

describe('defaults: containers', () => {
  it('pulls Always only for :latest or an untagged image', () => {
    const cases: [string, string][] = [
      ['nginx', 'Always'],
      ['nginx:latest', 'Always'],
      ['nginx:1.25', 'IfNotPresent'],
      ['localhost:5000/app', 'Always'],
      ['localhost:5000/app:v2', 'IfNotPresent'],
      ['nginx@sha256:0123456789abcdef', 'IfNotPresent'],
      ['nginx:latest@sha256:0123456789abcdef', 'Always'],
    ];
    for (const [image, policy] of cases) {
      const object = pod({ containers: [{ name: 'a', image }] });
      applyDefaults('Pod', object);
      assert.equal(containerOf(object).imagePullPolicy, policy, image);
    }
    assert.equal(imageTag('registry.example.com:443/team/app:1.0'), '1.0');
  });

  it('keeps an explicit imagePullPolicy', () => {
    const object = pod({ containers: [{ name: 'a', image: 'nginx', imagePullPolicy: 'Never' }] });
    applyDefaults('Pod', object);
    assert.equal(containerOf(object).imagePullPolicy, 'Never');
  });

  it('defaults ports, probes and HTTP actions', () => {
    const object = pod({
      containers: [
        {
          name: 'a',
          image: 'nginx',
          ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
          livenessProbe: { httpGet: { port: 80 } },
          readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 },
          startupProbe: { grpc: { port: 9090 } },
        },
      ],
    });
    applyDefaults('Pod', object);
    const container = containerOf(object);
    assert.deepEqual(container.ports, [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }]);
    assert.deepEqual(container.livenessProbe, { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    assert.deepEqual(container.readinessProbe, { tcpSocket: { port: 80 }, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
    assert.deepEqual(container.startupProbe, { grpc: { port: 9090, service: '' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  });

  it('stores quantities in canonical form', () => {
    const deployment = minimalDeployment();
    const container = ((specOf(deployment).template as Json).spec as Json).containers as Json[];
    container[0].resources = { requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: 1, memory: '1.5Gi' } };
    applyDefaults('Deployment', deployment);
    assert.deepEqual(container[0].resources, { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1536Mi' } });
  });
});

describe('defaults: pods (defaulting and admission)', () => {
  it('fills a minimal pod as kube-apiserver and its default admission plugins do', () => {
    const object = pod({ containers: [{ name: 'web', image: 'nginx:1.25' }] });
    applyDefaults('Pod', object, { randomSuffix: () => 'x7k2p' });
    assert.deepEqual(object.spec, {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.25',
          imagePullPolicy: 'IfNotPresent',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          volumeMounts: [{ name: 'kube-api-access-x7k2p', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
        },
      ],
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: 'default',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      volumes: [
        {
          name: 'kube-api-access-x7k2p',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
            ],
          },
        },
      ],
    });
  });

  it('derives a stable token volume name without a random source', () => {
    const first = pod({ containers: [{ name: 'web', image: 'nginx' }] }, 'web-1');
    const again = pod({ containers: [{ name: 'web', image: 'nginx' }] }, 'web-1');
    const other = pod({ containers: [{ name: 'web', image: 'nginx' }] }, 'web-2');
    for (const object of [first, again, other]) applyDefaults('Pod', object);
    const volumeName = (object: KubeObject) => ((specOf(object).volumes as Json[])[0].name as string);
    assert.match(volumeName(first), /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(volumeName(first), volumeName(again));
    assert.notEqual(volumeName(first), volumeName(other));
  });

  it('copies limits into missing requests, for pods only', () => {
    const object = pod({ containers: [{ name: 'a', image: 'a', resources: { limits: { cpu: '0.5', memory: '128Mi' }, requests: { cpu: '100m' } } }] });
    applyDefaults('Pod', object);
    assert.deepEqual(containerOf(object).resources, { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
  });

  it('respects automountServiceAccountToken: false and an explicit service account', () => {
    const object = pod({ serviceAccountName: 'builder', automountServiceAccountToken: false, containers: [{ name: 'a', image: 'a' }] });
    applyDefaults('Pod', object);
    assert.equal(specOf(object).serviceAccount, 'builder');
    assert.equal(specOf(object).volumes, undefined);
    assert.equal(containerOf(object).volumeMounts, undefined);
  });

  it('adds no default toleration the pod already has', () => {
    const object = pod({ containers: [{ name: 'a', image: 'a' }], tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }] });
    applyDefaults('Pod', object);
    assert.deepEqual(
      (specOf(object).tolerations as Json[]).map((t) => [t.key, t.tolerationSeconds]),
      [['node.kubernetes.io/not-ready', 60], ['node.kubernetes.io/unreachable', 300]],
    );
    const tolerateAll = pod({ containers: [{ name: 'a', image: 'a' }], tolerations: [{ operator: 'Exists' }] });
    applyDefaults('Pod', tolerateAll);
    assert.deepEqual(specOf(tolerateAll).tolerations, [{ operator: 'Exists' }]);
  });

  it('is idempotent, since the store defaults every write again', () => {
    const object = pod({ containers: [{ name: 'a', image: 'a', resources: { limits: { cpu: '0.5' } } }], volumes: [{ name: 'v' }] });
    applyDefaults('Pod', object);
    const once = structuredClone(object);
    applyDefaults('Pod', object);
    assert.deepEqual(object, once);
    const workload = minimalDeployment();
    applyDefaults('Deployment', workload);
    const workloadOnce = structuredClone(workload);
    applyDefaults('Deployment', workload);
    assert.deepEqual(workload, workloadOnce);
  });

  it('runs only the update-time admission on updates', () => {
    const created = pod({ containers: [{ name: 'a', image: 'a' }] });
    applyDefaults('Pod', created);
    const updated = structuredClone(created);
    applyDefaults('Pod', updated, { old: created });
    assert.equal((specOf(updated).volumes as Json[]).length, 1);
    assert.equal((containerOf(updated).volumeMounts as Json[]).length, 1);
  });

  it('defaults volumes', () => {
    const object = pod({ containers: [{ name: 'a', image: 'a' }], volumes: [{ name: 'scratch' }, { name: 'config', configMap: { name: 'c' } }, { name: 'host', hostPath: { path: '/tmp' } }] }, 'v');
    applyDefaults('Pod', object, { mountServiceAccountToken: false });
    assert.deepEqual(specOf(object).volumes, [
      { name: 'scratch', emptyDir: {} },
      { name: 'config', configMap: { name: 'c', defaultMode: 420 } },
      { name: 'host', hostPath: { path: '/tmp', type: '' } },
    ]);
  });

  it('sets the pod status on create with its QoS class', () => {
    const object = pod({ containers: [{ name: 'a', image: 'a', resources: { limits: { cpu: '1', memory: '1Gi' } } }] });
    object.status = { phase: 'Running' };
    applyDefaults('Pod', object);
    prepareForCreate('Pod', object);
    assert.deepEqual(object.status, { phase: 'Pending', qosClass: 'Guaranteed' });
    assert.equal(podQOSClass({ containers: [{ name: 'a' }] }), 'BestEffort');
    assert.equal(podQOSClass({ containers: [{ name: 'a', resources: { requests: { cpu: '100m' } } }] }), 'Burstable');
    assert.equal(podQOSClass({ containers: [{ name: 'a', resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } } }] }), 'Burstable');
  });
});

describe('defaults: namespaces and nodes', () => {
  it('labels a namespace with its name and marks it Active', () => {
    const namespace: KubeObject = { metadata: { name: 'team-a', labels: { owner: 'me' } } };
    applyDefaults('Namespace', namespace);
    assert.deepEqual(namespace.metadata?.labels, { owner: 'me', 'kubernetes.io/metadata.name': 'team-a' });
    assert.deepEqual(namespace.status, { phase: 'Active' });
  });

  it('copies node capacity into a missing allocatable', () => {
    const node: KubeObject = { metadata: { name: 'n1' }, status: { capacity: { cpu: '4', memory: '16384Mi', pods: '110' } } };
    applyDefaults('Node', node);
    assert.deepEqual((node.status as Json).allocatable, { cpu: '4', memory: '16Gi', pods: '110' });
  });
});
