/**
 * The built-in simulator: a store with API-server semantics plus the components of a cluster
 * (deployment and ReplicaSet controllers, scheduler, one kubelet per node), all on one virtual
 * clock. Pure: no network, no vscode. The HTTP API (src/server) serves it to kubectl and to the
 * cluster connection; the CLI and tests drive it in process.
 */
import type { KubeObject, ResourceKind } from '../core/k8s';
import type { PodObject } from './kubelet/pod-worker';
import { VirtualClock } from './clock';
import { defaultTimings, type SimContext, type Timings } from './context';
import { BoundedInternalsLog } from './internals-log';
import { MemoryStore, type Admission } from './store/store';
import { apiServerAdmission } from './apis/validation';
import { prepareForCreate } from './store/defaults';
import { DEFAULT_MAX_PODS } from '../common/simulator-defaults';
import { PodBudget } from './store/pod-budget';
import { withDefaultStorageClass } from './storage/default-storage-class';
import { withStorageObjectInUseProtection } from './storage/in-use-protection';
import { StoreEventRecorder } from './store/events';
import { applyObject, type ApplyResult } from './apply';
import { runUntil, type RunGuard, type RunOutcome } from './driver';
import { startComponents, type Components } from './components';
import type { PodIdentity } from './scheduler/scheduler';
import { AdmissionChain } from './admission/chain';
import { ServiceAllocation } from './store/service-allocation/service-allocation';
import { createBootstrapServices } from './bootstrap-services';
import { SeededRandom } from './clock';
import { zoneNames } from './nodes';

export interface SimulatorOptions {
  /** Worker nodes (default 3). */
  nodes?: number;
  /** Spread the nodes over this many zones of one region (zone and region labels); none by default, as kind. */
  zones?: number;
  /** Seed for every random choice (names, uids, jitter, tie-breaks). */
  seed?: number;
  timings?: Partial<Timings>;
  /**
   * 'full' keeps per-node scheduler verdicts and watch deliveries for the tracer; 'lean' keeps
   * counts only, for 150,000-pod benchmarks.
   */
  detail?: 'full' | 'lean';
  /**
   * With full detail, which pods' scheduling cycles keep their per-node verdict table when they
   * place the pod (default: every pod; a cycle that places nothing always keeps it). Scoring
   * without the table is several times cheaper, and the node chosen is the same.
   */
  verdictTableWhenPlaced?: (pod: PodIdentity) => boolean;
  /**
   * Whether the internals log keeps recent steps for readers that connect later (the served
   * simulator's stream); listeners see every step either way. Default: with full detail.
   */
  retainInternals?: boolean;
  /** Changes kept per kind for resuming watches. */
  historyPerKind?: number;
  /** Defaulting and validation; kube-apiserver's, with its admission plugins (src/sim/admission), by default. */
  admission?: Admission;
  startTime?: number;
  /** The most pods the store holds; creating more is refused with 403 Forbidden (default 200,000, see pod-budget.ts). */
  maxPods?: number;
  /** How the user raises `maxPods`, named in the refusal: `kube-journey --max-pods`. */
  maxPodsHint?: string;
  /** Checked while `runUntil` runs; throwing stops it (the CLI's heap guard). */
  guard?: RunGuard;
  /**
   * A cluster's objects to start from, with their state (a twin: src/cluster/twin-read.ts), in an
   * order they can be restored in: namespaces before what they hold, owners before what they own.
   * The simulator then makes no nodes and no default StorageClass of its own (`nodes` is ignored);
   * the kubelets adopt the pods another kubelet started without starting them again.
   */
  restore?: readonly KubeObject[];
  /**
   * How long an Event lives after its last write, as kube-apiserver's --event-ttl (default one
   * hour). `trace` shortens it: its tracer has read every Event as it was written.
   */
  eventTtlMs?: number;
}

export class Simulator {
  readonly clock: VirtualClock;
  readonly store: MemoryStore;
  readonly internals: BoundedInternalsLog;
  readonly events: StoreEventRecorder;
  readonly context: SimContext;
  readonly components: Components;
  readonly podBudget: PodBudget;
  readonly serviceAllocation: ServiceAllocation;

  constructor(readonly options: SimulatorOptions = {}) {
    const lean = options.detail === 'lean';
    this.clock = new VirtualClock({ seed: options.seed ?? 1, startTime: options.startTime });
    this.internals = new BoundedInternalsLog(100_000, !lean, options.retainInternals ?? !lean);
    this.podBudget = new PodBudget(options.maxPods ?? DEFAULT_MAX_PODS, options.maxPodsHint);
    // The API server's own steps (defaults, DefaultStorageClass, in-use protection, validation), then the admission plugins.
    const base = withStorageObjectInUseProtection(withDefaultStorageClass({ ...apiServerAdmission, prepareForCreate }, () => this.store));
    const chain = options.admission ? undefined : new AdmissionChain(base);
    // Its own random source, so a Service's IP takes nothing from the names and uids of a run.
    this.serviceAllocation = new ServiceAllocation(new SeededRandom((options.seed ?? 1) ^ 0x5e41ce));
    const admission = this.podBudget.guard(this.serviceAllocation.guard(options.admission ?? chain!));
    this.store = new MemoryStore({ clock: this.clock, internals: this.internals, admission, historyPerKind: options.historyPerKind });
    chain?.attach(this.store);
    this.podBudget.track(this.store);
    this.serviceAllocation.track(this.store);
    this.events = new StoreEventRecorder(this.store, this.clock, options.eventTtlMs);
    this.context = { store: this.store, clock: this.clock, events: this.events, internals: this.internals, timings: { ...defaultTimings, ...options.timings } };
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      this.store.create('Namespace', { metadata: { name } }, { fieldManager: 'kube-apiserver' });
    }
    createBootstrapServices(this.store);
    const restoring = options.restore !== undefined;
    this.components = startComponents(this.context, { nodes: restoring ? 0 : (options.nodes ?? 3), lean, verdictTableWhenPlaced: options.verdictTableWhenPlaced, node: options.zones ? { zones: zoneNames(options.zones) } : undefined, defaultStorageClass: !restoring });
    if (options.restore) this.restoreObjects(options.restore);
  }

  /** Restores each object as the components watch (they see them as an informer's first list), then hands started pods to their kubelets. */
  private restoreObjects(objects: readonly KubeObject[]): void {
    for (const object of objects) {
      this.store.restore(object.kind as ResourceKind, object);
      const pod = object as KubeObject & { spec?: { nodeName?: string }; status?: { startTime?: string } };
      if (object.kind === 'Pod' && pod.spec?.nodeName && pod.status?.startTime) this.components.kubelets.adopt(object as PodObject);
    }
  }

  /** Apply one manifest object, as `kubectl apply` would: created, configured or unchanged. */
  apply(object: KubeObject, fieldManager = 'kube-journey'): ApplyResult {
    return applyObject(this.store, object, fieldManager);
  }

  /** Run as fast as possible until `done()` holds or `maxVirtualMs` of virtual time pass. */
  runUntil(done: () => boolean, maxVirtualMs: number): RunOutcome {
    return runUntil(this.clock, done, maxVirtualMs, 1, this.options.guard);
  }
}
