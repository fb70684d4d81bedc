import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import type { DaemonSetObject } from '../../../../src/sim/controllers/daemon/util/daemonset-util';
import { Simulator } from '../../../../src/sim/simulator';

/** kubernetes/website content/en/examples/controllers/daemonset.yaml, as the DaemonSet concept page shows it. */
const FLUENTD_ELASTICSEARCH: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'fluentd-elasticsearch', namespace: 'kube-system', labels: { 'k8s-app': 'fluentd-logging' } },
  spec: {
    selector: { matchLabels: { name: 'fluentd-elasticsearch' } },
    template: {
      metadata: { labels: { name: 'fluentd-elasticsearch' } },
      spec: {
        tolerations: [
          { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
          { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
        ],
        containers: [
          {
            name: 'fluentd-elasticsearch',
            image: 'quay.io/fluentd_elasticsearch/fluentd:v2.5.2',
            resources: { limits: { memory: '200Mi' }, requests: { cpu: '100m', memory: '200Mi' } },
            volumeMounts: [{ name: 'varlog', mountPath: '/var/log' }],
          },
        ],
        terminationGracePeriodSeconds: 30,
        volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }],
      },
    },
  },
};

describe('DaemonSet end to end through the simulator', () => {
  it("runs the docs' fluentd-elasticsearch DaemonSet on every node until desired = ready", () => {
    const simulator = new Simulator({ nodes: 3, seed: 11 });
    assert.equal(simulator.apply(structuredClone(FLUENTD_ELASTICSEARCH)).action, 'created');
    const read = (): DaemonSetObject => simulator.store.read<DaemonSetObject>('DaemonSet', 'kube-system', 'fluentd-elasticsearch');
    const outcome = simulator.runUntil(() => {
      const status = read().status;
      return status?.desiredNumberScheduled === 3 && status.numberReady === 3 && status.numberAvailable === 3;
    }, 120_000);
    assert.equal(outcome, 'done');
    const status = read().status!;
    assert.deepEqual(
      { desired: status.desiredNumberScheduled, current: status.currentNumberScheduled, ready: status.numberReady, updated: status.updatedNumberScheduled, available: status.numberAvailable, misscheduled: status.numberMisscheduled },
      { desired: 3, current: 3, ready: 3, updated: 3, available: 3, misscheduled: 0 },
    );
    const pods = simulator.store.ownedBy('Pod', read().metadata!.uid!);
    assert.deepEqual(pods.map((pod) => (pod.spec as { nodeName?: string }).nodeName).sort(), ['node-1', 'node-2', 'node-3']);

    // One pod's journey, as its events tell it: the controller creates it, the scheduler binds it, the kubelet starts it.
    const pod = pods[0];
    const events = simulator.store
      .list<KubeObject & { involvedObject?: { name?: string; kind?: string }; regarding?: { name?: string }; reason?: string; message?: string; note?: string }>('Event')
      .items.filter((e) => (e.involvedObject ?? e.regarding)?.name === pod.metadata?.name)
      .map((e) => e.reason);
    assert.deepEqual(events, ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
    const creates = simulator.store
      .list<KubeObject & { involvedObject?: { name?: string; kind?: string }; reason?: string; message?: string; source?: { component?: string } }>('Event')
      .items.filter((e) => e.involvedObject?.kind === 'DaemonSet')
      .map((e) => `${e.source?.component} ${e.reason}: ${e.message}`);
    assert.ok(creates.includes(`daemonset-controller SuccessfulCreate: Created pod: ${pod.metadata?.name}`), creates.join('\n'));
  });
});
