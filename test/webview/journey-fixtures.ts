/**
 * Journey fixtures for the timeline webview: a real journey from the built-in simulator (nginx,
 * 3 pods, with internals), and a synthetic 10,000-pod rollout for layout tests and browser
 * performance measurement. The built-in simulator with full detail takes about 10 s for 300 pods,
 * so the large journey is generated directly, in the tracer's shape: same stage kinds, keys,
 * components, titles and verbatim messages as the tracer derives from a real cluster, timings
 * from docs/lifecycle-facts.md, etcd writes for every pod, and watch deliveries and per-node scheduler
 * verdicts for the first 50 pods (the tracer's `schedulingDetailPods`). Deterministic per seed.
 */
import { readFileSync } from 'node:fs';
import type { KubeObject } from '../../src/core/k8s';
import type { NodeVerdict, SchedulingCycle, WatchDelivery } from '../../src/core/internals';
import { parseManifest } from '../../src/core/manifest';
import { durationStats } from '../../src/core/journey/snapshot';
import { JourneyTracer } from '../../src/core/journey/tracer';
import { PHASE_NAMES, type Journey, type JourneyObjectRef, type ObjectJourney, type PhaseName, type PodPhaseDurations, type Stage, type StuckDetail } from '../../src/core/journey/types';
import { connectTracer } from '../../src/cli/trace';
import { Simulator } from '../../src/sim/simulator';
import { verdictTableOf } from '../../src/common/verdict-table';

// ---------------------------------------------------------------------------------------------
// Real journeys from the simulator

export interface SimulateOptions {
  nodes?: number;
  seed?: number;
  /** Virtual ms to run at most. */
  timeoutMs?: number;
}

export interface SimulatedJourneys {
  journeys: Journey[];
  /** The simulator's virtual time when the run stopped, ms. */
  now: number;
}

/** Applies every document of a manifest to a fresh simulator and returns the journeys when done (or at the timeout). */
export function simulateJourneys(manifestFile: string, options: SimulateOptions = {}): SimulatedJourneys {
  const manifest = parseManifest(readFileSync(manifestFile, 'utf8'));
  const simulator = new Simulator({ nodes: options.nodes ?? 3, seed: options.seed ?? 1 });
  const tracer = new JourneyTracer();
  connectTracer(simulator, tracer);
  const ids: string[] = [];
  for (const document of manifest.documents) {
    const object = document.object as KubeObject;
    const applied = simulator.apply(object);
    const kind = applied.object.kind;
    if (kind === 'Deployment' || kind === 'ReplicaSet' || kind === 'Pod') {
      ids.push(tracer.begin({ kind, namespace: applied.object.metadata?.namespace, name: applied.object.metadata?.name ?? '' }, simulator.clock.now()));
    }
  }
  simulator.runUntil(() => ids.every((id) => tracer.journey(id)?.done === true), options.timeoutMs ?? 60_000);
  return { journeys: ids.map((id) => tracer.journey(id)).filter((j): j is Journey => j !== undefined), now: simulator.clock.now() };
}

// ---------------------------------------------------------------------------------------------
// Synthetic large journey

export interface LargeJourneyOptions {
  /** Pods the Deployment asks for (default 10,000). */
  pods?: number;
  /** Worker nodes (default 100). */
  nodes?: number;
  /** Pods each node has CPU for; the rest stay Pending with FailedScheduling (default 99). */
  podsPerNode?: number;
  /** This node cannot reach the registry: its pods end in ImagePullBackOff (default `node-37`; '' for none). */
  brokenNode?: string;
  /** Pods created per second by the ReplicaSet controller (default 100, i.e. --kube-api-qps 100). */
  createsPerSecond?: number;
  /** Pods whose scheduling cycles keep per-node verdicts and whose watch deliveries are kept (default 50). */
  detailPods?: number;
  /** Apply time, ms (default 2026-01-01T12:00:00Z). */
  appliedAt?: number;
  seed?: number;
  /** The snapshot is taken at this many ms after the apply (default: 45 s after the last pod was created, so pulls have failed by then). */
  snapshotAfterMs?: number;
}

/** mulberry32: small, fast, deterministic. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const IMAGE = 'registry.example.com/shop/web:2.4.1';
const IMAGE_BYTES = 48_213_512;

interface Builder {
  rand: () => number;
  rv: number;
  origin: number;
}

function suffix(b: Builder, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += NAME_ALPHABET[Math.floor(b.rand() * NAME_ALPHABET.length)];
  return out;
}

function hex8(b: Builder): string {
  return Math.floor(b.rand() * 4294967296).toString(16).padStart(8, '0');
}

function uid(b: Builder): string {
  const h = hex8(b) + hex8(b) + hex8(b) + hex8(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function between(b: Builder, lo: number, hi: number): number {
  return lo + (hi - lo) * b.rand();
}

/** Whole seconds, as core/v1 events and metav1.Time carry them. */
function second(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/** `<object>.<16 hex digits>`, the shape of an Event's name (the hex of a UnixNano timestamp). */
function eventName(b: Builder, object: string, ms: number): string {
  return `${object}.${Math.floor(ms).toString(16)}${hex8(b).slice(0, 5)}`;
}

function etcdWrite(b: Builder, ref: JourneyObjectRef, resource: string, verb: 'create' | 'update', time: number, actor: string): NonNullable<Stage['evidence']['internals']>['etcd'] {
  b.rv++;
  return [{ type: 'etcdWrite', time, key: `/registry/${resource}/${ref.namespace}/${ref.name}`, verb, resourceVersion: String(b.rv), object: { ...ref }, actor }];
}

function watches(b: Builder, ref: JourneyObjectRef, eventType: WatchDelivery['eventType'], time: number, components: WatchDelivery['component'][]): WatchDelivery[] {
  return components.map((component, i) => ({ type: 'watchDelivered', time: time + 0.2 * (i + 1), component, eventType, resourceVersion: String(b.rv), object: { ...ref } }));
}

function kubeletEvent(b: Builder, pod: string, node: string, reason: string, message: string, at: number, type = 'Normal', count = 1, lastAt = at): NonNullable<Stage['evidence']['event']> {
  return { type, reason, message, count, component: 'kubelet', host: node, firstTime: second(at), lastTime: second(lastAt), name: eventName(b, pod, at), fieldPath: 'spec.containers{web}' };
}

interface NodeSlot {
  name: string;
  pods: number;
  imagePulledAt?: number;
}

function verdictsFor(slots: readonly NodeSlot[], chosen: string | undefined, capacity: number, rand: () => number): NodeVerdict[] {
  // Adaptive sampling: 50% − nodes/125, at least 5%, at least 100 nodes.
  const percent = Math.max(5, 50 - slots.length / 125);
  const evaluate = Math.min(slots.length, Math.max(100, Math.ceil((slots.length * percent) / 100)));
  const start = Math.floor(rand() * slots.length);
  const rows: NodeVerdict[] = [];
  for (let i = 0; i < evaluate; i++) {
    const slot = slots[(start + i) % slots.length];
    const fits = slot.pods < capacity;
    const filters: NodeVerdict['filters'] = [
      { plugin: 'NodeUnschedulable', code: 'Success' },
      { plugin: 'NodeName', code: 'Success' },
      { plugin: 'TaintToleration', code: 'Success' },
      { plugin: 'NodeAffinity', code: 'Success' },
      { plugin: 'NodePorts', code: 'Success' },
      fits ? { plugin: 'NodeResourcesFit', code: 'Success' } : { plugin: 'NodeResourcesFit', code: 'Unschedulable', reason: 'Insufficient cpu' },
    ];
    if (!fits) {
      rows.push({ node: slot.name, filters });
      continue;
    }
    const fit = Math.round(100 - (slot.pods / capacity) * 100);
    const balanced = Math.round(95 + rand() * 5);
    const image = slot.imagePulledAt === undefined ? 0 : 46;
    const scores = [
      { plugin: 'TaintToleration', score: 300, weight: 3 },
      { plugin: 'NodeAffinity', score: 0, weight: 2 },
      { plugin: 'NodeResourcesFit', score: fit, weight: 1 },
      { plugin: 'NodeResourcesBalancedAllocation', score: balanced, weight: 1 },
      { plugin: 'ImageLocality', score: image, weight: 1 },
    ];
    rows.push({ node: slot.name, filters, scores, total: scores.reduce((sum, s) => sum + s.score, 0) });
  }
  if (chosen && !rows.some((r) => r.node === chosen)) {
    const best = rows.find((r) => r.total !== undefined);
    if (best) best.node = chosen;
  }
  return rows;
}

/** Go's `time.Duration.String()` for the pull messages: `441.350941ms`, `5.870196872s`. */
function goDuration(ms: number): string {
  const trim = (text: string): string => text.replace(/\.?0+$/, '');
  return ms < 1000 ? `${trim(ms.toFixed(6))}ms` : `${trim((ms / 1000).toFixed(9))}s`;
}

function fitMessage(nodes: number): string {
  return `0/${nodes} nodes are available: ${nodes} Insufficient cpu. preemption: 0/${nodes} nodes are available: ${nodes} No preemption victims found for incoming pod.`;
}

/** A realistic rollout of `pods` replicas (default 10,000) with its stuck pods, as the tracer would snapshot it. */
export function buildLargeJourney(options: LargeJourneyOptions = {}): Journey {
  const podCount = options.pods ?? 10_000;
  const nodeCount = options.nodes ?? 100;
  const capacity = options.podsPerNode ?? 99;
  const brokenNode = options.brokenNode ?? 'node-37';
  const createsPerSecond = options.createsPerSecond ?? 100;
  const detailPods = options.detailPods ?? 50;
  const origin = options.appliedAt ?? Date.UTC(2026, 0, 1, 12, 0, 0);
  const b: Builder = { rand: random(options.seed ?? 7), rv: 120_400, origin };
  const slots: NodeSlot[] = Array.from({ length: nodeCount }, (_, i) => ({ name: `node-${i + 1}`, pods: 0 }));

  const deployName = 'web';
  const rsName = `${deployName}-${suffix(b, 10)}`;
  const deployRef: JourneyObjectRef = { kind: 'Deployment', namespace: 'shop', name: deployName, uid: uid(b) };
  const rsRef: JourneyObjectRef = { kind: 'ReplicaSet', namespace: 'shop', name: rsName, uid: uid(b) };
  const lastCreate = 12 + (podCount / createsPerSecond) * 1000;
  const snapshotAt = origin + (options.snapshotAfterMs ?? lastCreate + 45_000);

  const pods: ObjectJourney[] = [];
  const phaseValues: Record<PhaseName, number[]> = Object.fromEntries(PHASE_NAMES.map((n) => [n, []])) as unknown as Record<PhaseName, number[]>;
  const readyTimes: number[] = [];
  const stuckEntries: { ref: JourneyObjectRef; status: 'stuck'; stuck: StuckDetail }[] = [];
  let scheduledCount = 0;
  let runningCount = 0;
  let lastChange = origin;
  const usedNames = new Set<string>();
  let rrNode = 0;

  for (let i = 0; i < podCount; i++) {
    let name: string;
    do name = `${rsName}-${suffix(b, 5)}`;
    while (usedNames.has(name));
    usedNames.add(name);
    const ref: JourneyObjectRef = { kind: 'Pod', namespace: 'shop', name, uid: uid(b) };
    const created = origin + 12 + (i / createsPerSecond) * 1000 + between(b, 0, 3);
    if (created > snapshotAt) break;
    const detailed = i < detailPods;
    const stages: Stage[] = [];
    const add = (stage: Stage): void => {
      if (stage.time <= snapshotAt) stages.push(stage);
    };
    const etcd = etcdWrite(b, ref, 'pods', 'create', created, 'replicaset-controller');
    add({
      key: 'podCreated',
      kind: 'podCreated',
      time: created,
      timeSource: 'internal',
      component: 'replicaset-controller',
      title: `Created by ReplicaSet ${rsName}`,
      message: `Created pod: ${name}`,
      reason: 'SuccessfulCreate',
      evidence: {
        fields: [{ path: 'metadata.ownerReferences[ReplicaSet]', to: rsName }],
        event: { type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${name}`, count: 1, component: 'replicaset-controller', firstTime: second(created), lastTime: second(created), name: eventName(b, rsName, created) },
        internals: detailed ? { etcd, watch: watches(b, ref, 'ADDED', created, ['default-scheduler', 'replicaset-controller', 'deployment-controller']) } : { etcd },
      },
    });

    // Least-allocated spreading, round robin among nodes with room.
    let slot: NodeSlot | undefined;
    for (let tries = 0; tries < nodeCount; tries++) {
      const candidate = slots[(rrNode + tries) % nodeCount];
      if (candidate.pods < capacity) {
        slot = candidate;
        rrNode = (rrNode + tries + 1) % nodeCount;
        break;
      }
    }
    const scheduleAt = created + between(b, 4, 30);
    const details: ObjectJourney['pod'] = { readyContainers: 0, totalContainers: 1, restarts: 0, containers: [{ name: 'web', state: 'Pending', ready: false, restarts: 0, image: IMAGE }], marks: { created }, phases: {}, phase: 'Pending' };
    let status: ObjectJourney['status'] = 'pending';
    let stuck: StuckDetail | undefined;

    if (!slot) {
      const message = fitMessage(nodeCount);
      const attempts = 1 + Math.floor((snapshotAt - scheduleAt) / 60_000) + Math.floor(b.rand() * 3);
      const cycle: SchedulingCycle = { type: 'schedulingCycle', time: scheduleAt, pod: { ...ref }, attempt: attempts, totalNodes: nodeCount, evaluatedNodes: nodeCount, feasibleNodes: 0, result: 'Unschedulable', message, ...(detailed ? { table: verdictTableOf(verdictsFor(slots, undefined, capacity, b.rand)) } : {}) };
      add({
        key: 'failedScheduling',
        kind: 'failedScheduling',
        time: scheduleAt,
        timeSource: 'event',
        component: 'default-scheduler',
        title: 'No node fits the pod',
        message,
        reason: 'FailedScheduling',
        warning: true,
        count: attempts,
        lastTime: Math.min(snapshotAt, scheduleAt + (attempts - 1) * 60_000),
        evidence: {
          conditions: [{ type: 'PodScheduled', to: 'False', reason: 'Unschedulable', message, time: second(scheduleAt) }],
          event: { type: 'Warning', reason: 'FailedScheduling', message, count: attempts, component: 'default-scheduler', host: 'default-scheduler-control-plane', action: 'Scheduling', firstTime: scheduleAt, lastTime: scheduleAt + (attempts - 1) * 60_000, name: eventName(b, name, scheduleAt) },
          internals: { scheduling: cycle, schedulingAttempts: attempts },
        },
      });
      status = 'stuck';
      stuck = { reason: 'FailedScheduling', message, since: scheduleAt, lastSeen: scheduleAt + (attempts - 1) * 60_000, count: attempts, component: 'default-scheduler', object: { ...ref } };
    } else {
      slot.pods++;
      const node = slot.name;
      scheduledCount++;
      details.node = node;
      details.marks.scheduled = scheduleAt;
      const cycle: SchedulingCycle = { type: 'schedulingCycle', time: scheduleAt, pod: { ...ref }, attempt: 1, totalNodes: nodeCount, evaluatedNodes: Math.min(nodeCount, 100), feasibleNodes: Math.min(nodeCount, 100), result: 'Scheduled', node, ...(detailed ? { table: verdictTableOf(verdictsFor(slots, node, capacity, b.rand)) } : {}) };
      const bindEtcd = etcdWrite(b, ref, 'pods', 'update', scheduleAt, 'default-scheduler');
      add({
        key: 'scheduled',
        kind: 'scheduled',
        time: scheduleAt,
        timeSource: 'event',
        component: 'default-scheduler',
        title: `Bound to ${node}`,
        message: `Successfully assigned shop/${name} to ${node}`,
        reason: 'Scheduled',
        evidence: {
          fields: [{ path: 'spec.nodeName', to: node }],
          conditions: [{ type: 'PodScheduled', to: 'True', time: second(scheduleAt) }],
          event: { type: 'Normal', reason: 'Scheduled', message: `Successfully assigned shop/${name} to ${node}`, count: 1, component: 'default-scheduler', host: 'default-scheduler-control-plane', action: 'Binding', firstTime: scheduleAt, lastTime: scheduleAt, name: eventName(b, name, scheduleAt) },
          internals: { scheduling: cycle, schedulingAttempts: 1, etcd: bindEtcd, ...(detailed ? { watch: watches(b, ref, 'MODIFIED', scheduleAt, ['kubelet', 'default-scheduler', 'replicaset-controller', 'deployment-controller']) } : {}) },
        },
      });
      status = 'progressing';
      const initAt = scheduleAt + between(b, 2, 6);
      add({ key: 'initialized', kind: 'initialized', time: initAt, timeSource: 'internal', component: 'kubelet', title: 'Initialized', evidence: { conditions: [{ type: 'Initialized', to: 'True', time: second(initAt) }], internals: { etcd: etcdWrite(b, ref, 'pods', 'update', initAt, 'kubelet') } } });
      // A node starting ~100 pods at once is slower to create sandboxes than an idle one.
      const sandboxAt = initAt + between(b, 250, 900) + slot.pods * 4;
      add({ key: 'sandboxReady', kind: 'sandboxReady', time: sandboxAt, timeSource: 'internal', component: 'kubelet', title: 'Pod sandbox and network ready', evidence: { conditions: [{ type: 'PodReadyToStartContainers', from: 'False', to: 'True', time: second(sandboxAt) }], internals: { etcd: etcdWrite(b, ref, 'pods', 'update', sandboxAt, 'kubelet') } } });
      details.podIP = `10.244.${Number(node.slice(5)) % 256}.${(slot.pods % 250) + 2}`;
      details.containers[0].state = 'ContainerCreating';
      const pullAt = sandboxAt + between(b, 20, 60);
      if (node === brokenNode) {
        const pullMessage = `Failed to pull image "${IMAGE}": rpc error: code = Unknown desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": failed to do request: Head "https://registry.example.com/v2/shop/web/manifests/2.4.1": dial tcp 10.0.12.5:443: i/o timeout`;
        const errAt = pullAt + 30_000;
        // Pull back-off: retries after 10 s, then doubling up to 5 min.
        let repeats = 1;
        let lastSeen = errAt;
        for (let delay = 10_000; lastSeen + delay <= snapshotAt; delay = Math.min(delay * 2, 300_000)) {
          lastSeen += delay;
          repeats++;
        }
        add({ key: 'pulling:web', kind: 'pulling', time: pullAt, timeSource: 'event', component: 'kubelet', title: `Pulling image ${IMAGE}`, message: `Pulling image "${IMAGE}"`, reason: 'Pulling', container: 'web', count: repeats, lastTime: lastSeen, evidence: { event: kubeletEvent(b, name, node, 'Pulling', `Pulling image "${IMAGE}"`, pullAt, 'Normal', repeats, lastSeen) } });
        add({ key: 'pullFailed:web', kind: 'failed', time: errAt, timeSource: 'event', component: 'container-runtime', title: `Pulling image ${IMAGE} failed`, container: 'web', message: pullMessage, reason: 'Failed', warning: true, count: repeats, lastTime: lastSeen, evidence: { event: kubeletEvent(b, name, node, 'Failed', pullMessage, errAt, 'Warning', repeats, lastSeen) } });
        add({
          key: 'waiting:web:ErrImagePull',
          kind: 'failed',
          time: errAt + 1,
          timeSource: 'object',
          component: 'kubelet',
          title: 'Container web waiting: ErrImagePull',
          message: pullMessage.replace(/^Failed to pull image "[^"]+": /, ''),
          reason: 'ErrImagePull',
          container: 'web',
          warning: true,
          count: repeats,
          lastTime: lastSeen,
          evidence: { fields: [{ path: 'status.containerStatuses[web].state', from: 'ContainerCreating', to: 'ErrImagePull' }], event: kubeletEvent(b, name, node, 'Failed', 'Error: ErrImagePull', errAt, 'Warning', repeats, lastSeen) },
        });
        const backOffAt = errAt + between(b, 600, 1200);
        const backOffMessage = `Back-off pulling image "${IMAGE}"`;
        add({
          key: 'waiting:web:ImagePullBackOff',
          kind: 'backOff',
          time: backOffAt,
          timeSource: 'object',
          component: 'kubelet',
          title: 'Container web waiting: ImagePullBackOff',
          message: backOffMessage,
          reason: 'ImagePullBackOff',
          container: 'web',
          warning: true,
          count: repeats,
          lastTime: lastSeen,
          evidence: { fields: [{ path: 'status.containerStatuses[web].state', from: 'ErrImagePull', to: 'ImagePullBackOff' }], event: kubeletEvent(b, name, node, 'BackOff', backOffMessage, backOffAt, 'Normal', repeats, lastSeen) },
        });
        details.containers[0].state = 'ImagePullBackOff';
        status = 'stuck';
        stuck = { reason: 'ImagePullBackOff', message: backOffMessage, since: errAt, lastSeen, count: repeats, component: 'kubelet', container: 'web', object: { ...ref } };
      } else {
        let createAt: number;
        if (slot.imagePulledAt === undefined || slot.imagePulledAt > pullAt) {
          // Pods that arrive while the node pulls wait for that pull, then pull quickly from cache.
          const waitedFor = slot.imagePulledAt;
          const ownMs = waitedFor === undefined ? between(b, 2400, 6100) : between(b, 80, 400);
          const pullMs = waitedFor === undefined ? ownMs : waitedFor - pullAt + ownMs;
          slot.imagePulledAt ??= pullAt + pullMs;
          const pulledMessage = `Successfully pulled image "${IMAGE}" in ${goDuration(ownMs)} (${goDuration(pullMs)} including waiting). Image size: ${IMAGE_BYTES} bytes.`;
          add({ key: 'pulling:web', kind: 'pulling', time: pullAt, timeSource: 'event', component: 'kubelet', title: `Pulling image ${IMAGE}`, message: `Pulling image "${IMAGE}"`, reason: 'Pulling', container: 'web', evidence: { event: kubeletEvent(b, name, node, 'Pulling', `Pulling image "${IMAGE}"`, pullAt) } });
          add({ key: 'pulled:web', kind: 'pulled', time: pullAt + pullMs, timeSource: 'event', component: 'container-runtime', title: `Pulled image ${IMAGE}`, message: pulledMessage, reason: 'Pulled', container: 'web', evidence: { event: kubeletEvent(b, name, node, 'Pulled', pulledMessage, pullAt + pullMs) } });
          createAt = pullAt + pullMs + between(b, 30, 210);
        } else {
          const presentMessage = `Container image "${IMAGE}" already present on machine`;
          add({ key: 'imagePresent:web', kind: 'imagePresent', time: pullAt, timeSource: 'event', component: 'container-runtime', title: `Image ${IMAGE} already present`, message: presentMessage, reason: 'Pulled', container: 'web', evidence: { event: kubeletEvent(b, name, node, 'Pulled', presentMessage, pullAt) } });
          createAt = pullAt + between(b, 30, 120);
        }
        add({ key: 'containerCreated:web#0', kind: 'containerCreated', time: createAt, timeSource: 'event', component: 'container-runtime', title: 'Container web created', message: 'Created container: web', reason: 'Created', container: 'web', evidence: { event: kubeletEvent(b, name, node, 'Created', 'Created container: web', createAt) } });
        const startAt = createAt + between(b, 60, 140);
        add({ key: 'containerStarted:web#0', kind: 'containerStarted', time: startAt, timeSource: 'object', component: 'container-runtime', title: 'Container web started', message: 'Started container web', reason: 'Started', container: 'web', evidence: { fields: [{ path: 'status.containerStatuses[web].state', from: 'ContainerCreating', to: 'Running' }], event: kubeletEvent(b, name, node, 'Started', 'Started container web', startAt) } });
        const runningAt = startAt + between(b, 15, 40);
        // A readiness probe: initialDelaySeconds 2, periodSeconds 5.
        const readyAt = startAt + 2000 + between(b, 0, 5000);
        if (runningAt <= snapshotAt) {
          runningCount++;
          details.phase = 'Running';
          details.containers[0].state = 'Running';
          details.marks.running = startAt;
          details.marks.watched = runningAt;
        }
        add({ key: 'running', kind: 'running', time: runningAt, timeSource: 'object', component: 'kubelet', title: 'Pod Running', evidence: { fields: [{ path: 'status.phase', from: 'Pending', to: 'Running' }], internals: { etcd: etcdWrite(b, ref, 'pods', 'update', runningAt, 'kubelet') } } });
        add({ key: 'containersReady', kind: 'containersReady', time: readyAt, timeSource: 'object', component: 'kubelet', title: 'All containers ready', evidence: { conditions: [{ type: 'ContainersReady', from: 'False', to: 'True', time: second(readyAt) }] } });
        add({ key: 'ready', kind: 'ready', time: readyAt, timeSource: 'object', component: 'kubelet', title: 'Pod Ready', evidence: { conditions: [{ type: 'Ready', from: 'False', to: 'True', time: second(readyAt) }], internals: { etcd: etcdWrite(b, ref, 'pods', 'update', readyAt, 'kubelet') } } });
        if (readyAt <= snapshotAt) {
          status = 'complete';
          details.readyContainers = 1;
          details.containers[0].ready = true;
          details.marks.ready = readyAt;
          readyTimes.push(readyAt);
          const phases: PodPhaseDurations = {
            create_to_schedule: scheduleAt - created,
            schedule_to_run: startAt - scheduleAt,
            run_to_watch: runningAt - startAt,
            schedule_to_watch: runningAt - scheduleAt,
            create_to_run: startAt - created,
            pod_startup: runningAt - created,
            create_to_ready: readyAt - created,
          };
          details.phases = phases;
          for (const n of PHASE_NAMES) phaseValues[n].push(phases[n] ?? NaN);
        } else {
          details.phases = { create_to_schedule: scheduleAt - created };
          phaseValues.create_to_schedule.push(scheduleAt - created);
        }
      }
    }
    // What has not happened by the snapshot is not known yet.
    if (stuck && stuck.since > snapshotAt) {
      stuck = undefined;
      status = 'progressing';
    }
    if (details.marks.scheduled !== undefined && details.marks.scheduled > snapshotAt) status = 'pending';
    if (stuck) stuckEntries.push({ ref, status: 'stuck', stuck });
    for (const s of stages) lastChange = Math.max(lastChange, s.lastTime ?? s.time);
    stages.sort((x, y) => x.time - y.time);
    pods.push({ ref, status, stages, ...(stuck ? { stuck } : {}), createdAt: created, children: [], pod: details });
  }

  readyTimes.sort((x, y) => x - y);
  const readyCount = readyTimes.length;
  const maxUnavailable = Math.floor(podCount * 0.25);
  const availableAt = readyTimes[Math.max(0, podCount - maxUnavailable - 1)];
  const allReadyAt = readyCount === podCount ? readyTimes[readyCount - 1] : undefined;
  const rsStages: Stage[] = [
    { key: 'replicaSetCreated', kind: 'replicaSetCreated', time: origin + 9, timeSource: 'internal', component: 'deployment-controller', title: `Created ReplicaSet ${rsName} (revision 1)`, evidence: { fields: [{ path: 'spec.replicas', to: String(podCount) }], internals: { etcd: etcdWrite(b, rsRef, 'replicasets', 'create', origin + 9, 'deployment-controller') } } },
  ];
  if (allReadyAt !== undefined) rsStages.push({ key: `available:${podCount}`, kind: 'available', time: allReadyAt + 4, timeSource: 'internal', component: 'replicaset-controller', title: `${podCount}/${podCount} pods available`, evidence: { fields: [{ path: 'status.availableReplicas', from: String(podCount - 1), to: String(podCount) }] } });
  const troubled = stuckEntries.length > 0;
  const rs: ObjectJourney = {
    ref: rsRef,
    status: troubled ? 'stuck' : allReadyAt !== undefined ? 'complete' : 'progressing',
    stages: rsStages,
    ...(troubled ? { stuck: stuckEntries[0].stuck } : {}),
    createdAt: origin + 9,
    children: pods,
    replicas: { desired: podCount, current: pods.length, ready: readyCount, available: readyCount, revision: '1', images: [`web=${IMAGE}`] },
  };
  const scaledMessage = `Scaled up replica set ${rsName} from 0 to ${podCount}`;
  const deployStages: Stage[] = [
    { key: 'submitted', kind: 'submitted', time: origin, timeSource: 'applied', component: 'kubectl', title: 'Applied by kubectl', evidence: { manager: { name: 'kubectl', operation: 'Apply', time: origin } } },
    { key: 'stored#1', kind: 'stored', time: origin + 4, timeSource: 'object', component: 'kube-apiserver', title: `Stored Deployment ${deployName}`, evidence: { fields: [{ path: 'metadata.generation', to: '1' }], internals: { etcd: etcdWrite(b, deployRef, 'deployments', 'create', origin + 4, 'kubectl') } } },
    { key: `scaled:${rsName}:${podCount}`, kind: 'scaled', time: origin + 9, timeSource: 'object', component: 'deployment-controller', title: scaledMessage, message: scaledMessage, reason: 'ScalingReplicaSet', evidence: { fields: [{ path: `ReplicaSet ${rsName} spec.replicas`, from: '0', to: String(podCount) }], event: { type: 'Normal', reason: 'ScalingReplicaSet', message: scaledMessage, count: 1, component: 'deployment-controller', firstTime: second(origin + 9), lastTime: second(origin + 9), name: eventName(b, deployName, origin + 9) } } },
    { key: 'progressing:NewReplicaSetCreated', kind: 'progressing', time: origin + 10, timeSource: 'internal', component: 'deployment-controller', title: 'Progressing: NewReplicaSetCreated', message: `Created new replica set "${rsName}"`, evidence: { conditions: [{ type: 'Progressing', to: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${rsName}"`, time: second(origin + 10) }] } },
    { key: 'progressing:ReplicaSetUpdated', kind: 'progressing', time: origin + 21, timeSource: 'internal', component: 'deployment-controller', title: 'Progressing: ReplicaSetUpdated', message: `ReplicaSet "${rsName}" is progressing.`, evidence: { conditions: [{ type: 'Progressing', from: 'True', to: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rsName}" is progressing.`, time: second(origin + 21) }] } },
  ];
  if (availableAt !== undefined && readyCount >= podCount - maxUnavailable) {
    deployStages.push({ key: 'available', kind: 'available', time: availableAt + 6, timeSource: 'internal', component: 'deployment-controller', title: 'Deployment Available', message: 'Deployment has minimum availability.', evidence: { conditions: [{ type: 'Available', from: 'False', to: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', time: second(availableAt + 6) }] } });
  }
  deployStages.sort((x, y) => x.time - y.time);
  const worst = stuckEntries.slice(0, 20);
  const deployment: ObjectJourney = {
    ref: deployRef,
    status: troubled ? 'stuck' : allReadyAt !== undefined ? 'complete' : 'progressing',
    stages: deployStages,
    ...(troubled ? { stuck: stuckEntries[0].stuck } : {}),
    createdAt: origin + 4,
    children: [rs],
    replicas: { desired: podCount, current: pods.length, ready: readyCount, available: readyCount, updated: pods.length, revision: '1', images: [`web=${IMAGE}`] },
  };
  const phaseStats: Journey['phaseStats'] = {};
  for (const n of PHASE_NAMES) {
    const stats = durationStats(phaseValues[n]);
    if (stats) phaseStats[n] = stats;
  }
  const complete = !troubled && allReadyAt !== undefined;
  return {
    id: `Deployment/shop/${deployName}@${origin}`,
    root: deployRef,
    appliedAt: origin,
    status: deployment.status,
    done: complete,
    stuck: troubled,
    ...(complete ? { completedAt: allReadyAt + 6, totalDurationMs: allReadyAt + 6 - origin } : {}),
    lastChangeAt: lastChange,
    version: 1 + pods.length * 9,
    counts: { desired: podCount, live: pods.length, scheduled: scheduledCount, running: runningCount, ready: readyCount, stuck: stuckEntries.length, terminating: 0, deleted: 0, oldLive: 0, restarts: 0 },
    phaseStats,
    stuckObjects: worst,
    stuckCount: stuckEntries.length,
    tree: deployment,
  };
}

// ---------------------------------------------------------------------------------------------
// Live updates

/**
 * The journey one tracer batch later: `pods` pods (from `first`, spread over the tree) each gain a
 * probe event, and the objects above them are rebuilt, every other object shared, as the
 * tracer's snapshots share unchanged objects (src/core/journey/snapshot.ts).
 */
export function advanceJourney(journey: Journey, step: number, pods: number, first = step * pods): Journey {
  const at = journey.lastChangeAt + 1000;
  let seen = 0;
  const visit = (node: ObjectJourney): ObjectJourney => {
    if (node.ref.kind === 'Pod') {
      const index = seen++;
      if (index < first || index >= first + pods) return node;
      const stage: Stage = { key: `event:Unhealthy#${step}`, kind: 'unhealthy', time: at, timeSource: 'event', component: 'kubelet', title: 'Readiness probe failed', reason: 'Unhealthy', warning: true, evidence: {} };
      return { ...node, stages: [...node.stages, stage] };
    }
    const children = node.children.map(visit);
    return children.some((child, i) => child !== node.children[i]) ? { ...node, children } : node;
  };
  return { ...journey, version: journey.version + 1, lastChangeAt: at, tree: journey.tree ? visit(journey.tree) : undefined };
}
