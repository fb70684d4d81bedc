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

  it("with volumeClaimTemplates: each claim binds through the default class standard (provisioned on its pod's node), and the set reaches 2/2 Ready", () => {
    const simulator = new Simulator({ nodes: 2, seed: 4 });
    simulator.apply(docsWeb(true));
    const outcome = simulator.runUntil(() => (set(simulator).status?.readyReplicas ?? 0) === 2, 120_000);
    assert.equal(outcome, 'done');
    for (const ordinal of [0, 1]) {
      const pod = simulator.store.read<PodObject>('Pod', 'default', `web-${ordinal}`);
      assert.equal(pod.status?.phase, 'Running');
      const claim = simulator.store.read<KubeObject & { spec?: { volumeName?: string; storageClassName?: string }; status?: { phase?: string } }>('PersistentVolumeClaim', 'default', `www-web-${ordinal}`);
      assert.equal(claim.status?.phase, 'Bound');
      assert.equal(claim.spec?.storageClassName, 'standard');
      assert.equal(claim.spec?.volumeName, `pvc-${claim.metadata?.uid}`);
      assert.equal(claim.metadata?.annotations?.['volume.kubernetes.io/selected-node'], pod.spec?.nodeName);
      assert.deepEqual(
        simulator.store.list<Event & KubeObject>('Event').items.filter((e) => e.involvedObject.name === `www-web-${ordinal}`).map((e) => e.reason),
        ['WaitForFirstConsumer', 'ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded'],
      );
    }
    assert.deepEqual(events(simulator, 'StatefulSet', 'web').map((e) => e.message), [
      'create Claim www-web-0 Pod web-0 in StatefulSet web success',
      'create Pod web-0 in StatefulSet web successful',
      'create Claim www-web-1 Pod web-1 in StatefulSet web success',
      'create Pod web-1 in StatefulSet web successful',
    ]);
  });
});
