/**
 * A small simulated control plane for controller tests: the real store and event recorder, the
 * two controllers, and a stand-in kubelet that marks pods Ready after a delay (no scheduler or
 * kubelet exists in these tests).
 */
import type { KubeObject } from '../../../src/core/k8s';
import { VirtualClock } from '../../../src/sim/clock';
import { defaultTimings, type EventRecorder, type SimContext } from '../../../src/sim/context';
import { DeploymentController } from '../../../src/sim/controllers/deployment-controller';
import { GarbageCollector } from '../../../src/sim/controllers/garbage-collector';
import { ReplicaSetController } from '../../../src/sim/controllers/replicaset-controller';
import type { DeploymentObject, PodObject, ReplicaSetObject } from '../../../src/sim/controllers/controller-types';
import { StoreEventRecorder } from '../../../src/sim/store/events';
import { rfc3339 } from '../../../src/sim/store/object-utils';
import { MemoryStore, type StoreOptions } from '../../../src/sim/store/store';
import { ApiError, type WriteOptions } from '../../../src/sim/store/types';

export interface Harness {
  clock: VirtualClock;
  store: MemoryStore;
  ctx: SimContext;
  /** Advance virtual time by `ms`, running everything due. */
  run(ms: number): void;
  deployment(name: string): DeploymentObject;
  replicaSets(deploymentName: string): ReplicaSetObject[];
  pods(rs: ReplicaSetObject): PodObject[];
  /** Events as `reason: message` lines, in the order they were recorded. */
  events(filter?: { kind?: string; name?: string }): string[];
  recorded: RecordedEvent[];
  markReady(pod: PodObject): void;
}

export interface RecordedEvent {
  kind: string;
  name: string;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  component: string;
}

export interface HarnessOptions {
  /** Virtual ms from pod creation to Ready; undefined: pods never become Ready on their own. */
  readyAfterMs?: number;
  /** Which pods become Ready (default: all); e.g. not those running a broken image. */
  readyIf?: (pod: PodObject) => boolean;
  /** Run the deployment controller too (default true). */
  deployments?: boolean;
  /** A store to use instead of a plain MemoryStore (e.g. one that fails some writes). */
  makeStore?: (options: StoreOptions) => MemoryStore;
}

export function setup(options: HarnessOptions = {}): Harness {
  const clock = new VirtualClock({ seed: 3 });
  const internals = { record: () => undefined, recordsWatchDeliveries: false };
  const storeOptions: StoreOptions = { clock, internals };
  const store = options.makeStore ? options.makeStore(storeOptions) : new MemoryStore(storeOptions);
  store.create('Namespace', { metadata: { name: 'default' } });
  const storeEvents = new StoreEventRecorder(store, clock, false);
  const recorded: RecordedEvent[] = [];
  // Captured before they reach the store, so the tests see every event even where the store
  // aggregates or refuses one.
  const events: EventRecorder = {
    record: (involved, type, reason, message, source, options) => {
      recorded.push({ kind: involved.kind ?? '', name: involved.metadata?.name ?? '', type, reason, message, component: source.component });
      storeEvents.record(involved, type, reason, message, source, options);
    },
  };
  const ctx: SimContext = { store, clock, events, internals, timings: defaultTimings };
  new GarbageCollector(ctx).start();
  new ReplicaSetController(ctx).start();
  if (options.deployments !== false) new DeploymentController(ctx).start();

  const markReady = (pod: PodObject): void => {
    const current = store.get<PodObject>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '');
    if (!current || current.metadata?.deletionTimestamp) return;
    store.mutate<KubeObject>('Pod', pod.metadata?.namespace, pod.metadata?.name ?? '', (copy) => {
      copy.status = { ...(copy.status as PodObject['status']), phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(clock.now()) }] };
    }, { subresource: 'status', fieldManager: 'kubelet' });
  };
  if (options.readyAfterMs !== undefined) {
    const delay = options.readyAfterMs;
    store.subscribe('Pod', (change) => {
      const pod = change.object as PodObject;
      if (change.type === 'ADDED' && (options.readyIf?.(pod) ?? true)) clock.after(delay, () => markReady(pod));
    });
  }

  return {
    clock,
    store,
    ctx,
    run: (ms) => {
      clock.advanceTo(clock.now() + ms);
    },
    deployment: (name) => store.read<DeploymentObject>('Deployment', 'default', name),
    replicaSets: (deploymentName) => {
      const d = store.read<DeploymentObject>('Deployment', 'default', deploymentName);
      return store.ownedBy<ReplicaSetObject>('ReplicaSet', d.metadata?.uid ?? '').sort((a, b) => Number(a.metadata?.annotations?.['deployment.kubernetes.io/revision']) - Number(b.metadata?.annotations?.['deployment.kubernetes.io/revision']));
    },
    pods: (rs) => store.ownedBy<PodObject>('Pod', rs.metadata?.uid ?? ''),
    events: (filter = {}) =>
      recorded.filter((e) => (!filter.kind || e.kind === filter.kind) && (!filter.name || e.name === filter.name)).map((e) => `${e.reason}: ${e.message}`),
    recorded,
    markReady,
  };
}

export function nginxDeployment(name: string, replicas: number, image = 'nginx:1.25', strategy?: NonNullable<DeploymentObject['spec']>['strategy']): DeploymentObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      ...(strategy ? { strategy } : {}),
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image }] },
      },
    },
  };
}

/** Change the pod template's image, as `kubectl set image` does. */
export function setImage(h: Harness, name: string, image: string): void {
  h.store.mutate<DeploymentObject>('Deployment', 'default', name, (copy) => {
    copy.spec!.template.spec!.containers[0].image = image;
  }, { fieldManager: 'kubectl-set' });
}

/** A store with a pod quota: creating a pod beyond `limit` fails as the ResourceQuota admission would. */
export class QuotaStore extends MemoryStore {
  limit = Infinity;
  constructor(options: StoreOptions) {
    super(options);
  }
  override create<T extends KubeObject>(kind: Parameters<MemoryStore['create']>[0], object: T, options?: WriteOptions): T {
    if (kind === 'Pod' && this.list('Pod').items.length >= this.limit) {
      throw new ApiError(403, 'Forbidden', `pods "${object.metadata?.generateName ?? ''}" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=${this.limit}, limited: pods=${this.limit}`);
    }
    return super.create(kind, object, options);
  }
}

