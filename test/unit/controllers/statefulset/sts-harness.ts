/**
 * The controller harness with the StatefulSet controller started, and helpers to read a set's
 * pods, claims and revisions and to play the kubelet's part by hand.
 */
import type { KubeObject } from '../../../../src/core/k8s';
import type { PodObject } from '../../../../src/sim/controllers/controller-types';
import type { ControllerRevisionObject } from '../../../../src/sim/controllers/history/controller-history';
import { StatefulSetController } from '../../../../src/sim/controllers/statefulset/stateful-set';
import type { ClaimObject, StatefulSetObject } from '../../../../src/sim/controllers/statefulset/stateful-set-utils';
import { bindAsScheduler } from '../../../../src/sim/scheduler/binding';
import { apiServerAdmission } from '../../../../src/sim/apis/validation';
import { prepareForCreate } from '../../../../src/sim/store/defaults';
import { MemoryStore } from '../../../../src/sim/store/store';
import { setup, type Harness, type HarnessOptions } from '../harness';

export interface StsHarness extends Harness {
  controller: StatefulSetController;
  set(name?: string): StatefulSetObject;
  /** Pod names that exist (terminating ones included), by ordinal. */
  podNames(): string[];
  pod(name: string): PodObject;
  claims(): ClaimObject[];
  revisions(name?: string): ControllerRevisionObject[];
  /** Pretend a kubelet runs the pod on node-1: deletion then waits for `finishDeletion`. */
  bindToNode(name: string): void;
  finishDeletion(name: string): void;
  /** `reason: message` of the StatefulSet's own events. */
  setEvents(name?: string): string[];
}

export function stsSetup(options: HarnessOptions = {}): StsHarness {
  const h = setup({
    deployments: false,
    // The API server's defaulting and validation, so sets and claims are stored as a cluster stores them.
    makeStore: (storeOptions) => new MemoryStore({ ...storeOptions, admission: { ...apiServerAdmission, prepareForCreate } }),
    ...options,
  });
  const controller = new StatefulSetController(h.ctx);
  controller.start();
  const byOrdinal = (a: KubeObject, b: KubeObject): number => Number(/-(\d+)$/.exec(a.metadata!.name!)![1]) - Number(/-(\d+)$/.exec(b.metadata!.name!)![1]);
  return {
    ...h,
    controller,
    set: (name = 'web') => h.store.read<StatefulSetObject>('StatefulSet', 'default', name),
    podNames: () => h.store.list<PodObject>('Pod').items.sort(byOrdinal).map((p) => p.metadata!.name!),
    pod: (name) => h.store.read<PodObject>('Pod', 'default', name),
    claims: () => h.store.list<ClaimObject>('PersistentVolumeClaim').items.sort(byOrdinal),
    revisions: (name = 'web') => {
      const set = h.store.read<StatefulSetObject>('StatefulSet', 'default', name);
      return h.store.ownedBy<ControllerRevisionObject>('ControllerRevision', set.metadata!.uid!).sort((a, b) => a.revision - b.revision);
    },
    bindToNode: (name) => {
      const pod = h.store.read<PodObject>('Pod', 'default', name);
      bindAsScheduler(h.store, { namespace: 'default', name, uid: pod.metadata!.uid! }, 'node-1', h.clock.now());
    },
    finishDeletion: (name) => {
      h.store.delete('Pod', 'default', name, { gracePeriodSeconds: 0, actor: 'kubelet' });
    },
    setEvents: (name = 'web') => h.recorded.filter((e) => e.kind === 'StatefulSet' && e.name === name).map((e) => `${e.reason}: ${e.message}`),
  };
}

export function webStatefulSet(extra: Partial<NonNullable<StatefulSetObject['spec']>> = {}, name = 'web'): StatefulSetObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default' },
    spec: {
      serviceName: 'nginx',
      replicas: 3,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.24', ports: [{ containerPort: 80, name: 'web' }] }] } },
      ...extra,
    },
  };
}

export const WWW_CLAIM_TEMPLATE = { metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
