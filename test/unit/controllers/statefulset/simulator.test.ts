/**
 * The docs' web StatefulSet (kubernetes.io "StatefulSet Basics": nginx, 2 replicas, serviceName
 * nginx) through the whole simulated cluster: controller, scheduler, kubelets.
 */
import assert from 'node:assert/strict';
import type { Event, KubeObject, Pod } from '../../../../src/core/k8s';
import type { StatefulSetObject } from '../../../../src/sim/controllers/statefulset/stateful-set-utils';
import { Simulator } from '../../../../src/sim/simulator';
import { WWW_CLAIM_TEMPLATE } from './sts-harness';

type PodObject = Pod & KubeObject;

function docsWeb(withClaims: boolean): StatefulSetObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      serviceName: 'nginx',
      replicas: 2,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: {
          containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.24', ports: [{ containerPort: 80, name: 'web' }], ...(withClaims ? { volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }] } : {}) }],
        },
      },
      ...(withClaims ? { volumeClaimTemplates: [WWW_CLAIM_TEMPLATE] } : {}),
    },
  };
}

function set(simulator: Simulator): StatefulSetObject {
  return simulator.store.read<StatefulSetObject>('StatefulSet', 'default', 'web');
}

function events(simulator: Simulator, kind: string, name: string): Event[] {
  return simulator.store.list<Event & KubeObject>('Event').items.filter((e) => e.involvedObject.kind === kind && e.involvedObject.name === name);
}

function readyAt(pod: PodObject): number {
  return Date.parse(pod.status!.conditions!.find((c) => c.type === 'Ready')!.lastTransitionTime!);
}

describe('StatefulSet through the simulator', () => {
  it('the docs web StatefulSet without claims reaches 2/2 Ready, web-1 created only after web-0 is Ready', () => {
    const simulator = new Simulator({ nodes: 2, seed: 4 });
    simulator.apply(docsWeb(false));
    const outcome = simulator.runUntil(() => (set(simulator).status?.readyReplicas ?? 0) === 2, 120_000);
    assert.equal(outcome, 'done');
    const status = set(simulator).status!;
    assert.equal(status.replicas, 2);
    assert.equal(status.availableReplicas, 2);
    assert.equal(status.currentRevision, status.updateRevision);
    const web0 = simulator.store.read<PodObject>('Pod', 'default', 'web-0');
    const web1 = simulator.store.read<PodObject>('Pod', 'default', 'web-1');
    assert.ok(Date.parse(web1.metadata!.creationTimestamp!) >= readyAt(web0), 'web-1 is created once web-0 is Ready');
    assert.equal(web1.status?.phase, 'Running');
    assert.deepEqual(
      events(simulator, 'StatefulSet', 'web').map((e) => [e.reason, e.message, e.source?.component]),
      [
        ['SuccessfulCreate', 'create Pod web-0 in StatefulSet web successful', 'statefulset-controller'],
        ['SuccessfulCreate', 'create Pod web-1 in StatefulSet web successful', 'statefulset-controller'],
      ],
    );
  });

  it('with volumeClaimTemplates: the claim stays Pending (no storage provisioner), so web-0 stays unschedulable and web-1 is never created', () => {
    const simulator = new Simulator({ nodes: 2, seed: 4 });
    simulator.apply(docsWeb(true));
    simulator.runUntil(() => false, 60_000);
    const pods = simulator.store.list<PodObject>('Pod').items;
    assert.deepEqual(pods.map((p) => p.metadata!.name), ['web-0']);
    assert.equal(pods[0].status?.phase, 'Pending');
    assert.equal(pods[0].spec?.nodeName, undefined);
    const scheduled = pods[0].status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(scheduled?.reason, 'Unschedulable');
    const message = '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
    assert.equal(scheduled?.message, message);
    assert.equal(events(simulator, 'Pod', 'web-0').find((e) => e.reason === 'FailedScheduling')?.message, message);
    const claim = simulator.store.read<KubeObject & { status?: { phase?: string } }>('PersistentVolumeClaim', 'default', 'www-web-0');
    assert.equal(claim.status?.phase, 'Pending');
    assert.deepEqual(events(simulator, 'StatefulSet', 'web').map((e) => e.message), ['create Claim www-web-0 Pod web-0 in StatefulSet web success', 'create Pod web-0 in StatefulSet web successful']);
    assert.equal(set(simulator).status?.readyReplicas ?? 0, 0);
  });
});
