/**
 * Builds recorded streams in the shape a real cluster's watch delivers them: full objects with
 * managedFields and resourceVersions, whole-second metav1.Time stamps, core/v1 events from the
 * kubelet and controllers (source.component, first/lastTimestamp, count) and events.k8s.io-style
 * events from the scheduler (empty source, eventTime with microseconds, action, series).
 * The scenarios in build.ts use it; run `npx tsx test/golden/build.ts` to rewrite the streams.
 */
import type { KubeObject } from '../../src/core/k8s';
import type { StreamRecord } from '../../src/core/journey/stream';

type Json = Record<string, unknown>;

/** Deterministic pseudo-random hex (mulberry32), so rebuilt streams are identical. */
class Hex {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  private next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  chars(n: number): string {
    let out = '';
    while (out.length < n) out += this.next().toString(16).padStart(8, '0');
    return out.slice(0, n);
  }
  uid(): string {
    const h = this.chars(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}

function meta(o: KubeObject): Json {
  return o.metadata as Json;
}

/** RFC 3339, whole seconds (metav1.Time). */
export function seconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** RFC 3339 with microseconds (metav1.MicroTime). */
export function micro(ms: number, extraMicros = 0): string {
  const base = new Date(Math.floor(ms)).toISOString().slice(0, 23);
  const micros = String(Math.floor((ms % 1) * 1000) + extraMicros).padStart(3, '0').slice(0, 3);
  return `${base}${micros}Z`;
}

export interface EventSpec {
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  /** Component as core/v1 recorders write it; omitted for events.k8s.io-style events. */
  component?: string;
  host?: string;
  fieldPath?: string;
  count?: number;
  /** First occurrence, ms (defaults to now). */
  first?: number;
}

export class Cluster {
  readonly lines: StreamRecord[] = [];
  private rv: number;
  private readonly hex: Hex;
  /** Cluster time = arrival time, ms since the epoch (the scenarios model no clock skew). */
  now: number;
  private readonly eventObjects = new Map<string, KubeObject>();

  constructor(start: number, seed: number, firstResourceVersion = 48_211) {
    this.now = start;
    this.hex = new Hex(seed);
    this.rv = firstResourceVersion;
  }

  /** Sets the clock. Objects may be built in any order; `ndjson` sorts lines by arrival. */
  at(ms: number): this {
    this.now = ms;
    return this;
  }

  after(ms: number): this {
    return this.at(this.now + ms);
  }

  uid(): string {
    return this.hex.uid();
  }

  suffix(n: number): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let out = '';
    for (const ch of this.hex.chars(n * 2).match(/../g) ?? []) out += alphabet[parseInt(ch, 16) % alphabet.length];
    return out.slice(0, n);
  }

  begin(kind: 'Deployment' | 'ReplicaSet' | 'Pod', name: string, namespace = 'default'): void {
    this.lines.push({ receivedAt: this.now, begin: { kind, namespace, name } });
  }

  /** Records the watch event carrying a copy of `object`; its resourceVersion is assigned in arrival order by `ndjson`. */
  emit(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): void {
    const copy = clone(object);
    this.fresh.add(copy);
    this.lines.push({ receivedAt: Math.round(this.now), event: { type, object: copy } });
  }

  private readonly fresh = new Set<KubeObject>();

  /** Records a list item (a watch's initial ADDED) without a new resourceVersion. */
  listed(object: KubeObject): void {
    this.lines.push({ receivedAt: Math.round(this.now), event: { type: 'ADDED', object: clone(object) } });
  }

  /** Sets `manager`'s managedFields entry time (adding the entry on first use). */
  managed(object: KubeObject, manager: string, fieldsV1: Json, subresource?: string, operation = 'Update'): void {
    const m = meta(object);
    const list = (m.managedFields as Json[] | undefined) ?? [];
    m.managedFields = list;
    const existing = list.find((e) => e.manager === manager && e.subresource === subresource && e.operation === operation);
    const entry: Json = existing ?? { manager, operation, apiVersion: String(object.apiVersion ?? 'v1'), time: '', fieldsType: 'FieldsV1', fieldsV1: fieldsV1 };
    entry.time = seconds(this.now);
    if (subresource) entry.subresource = subresource;
    if (!existing) list.push(entry);
  }

  private involved(object: KubeObject, fieldPath?: string): Json {
    const m = meta(object);
    const ref: Json = { kind: object.kind, namespace: m.namespace, name: m.name, uid: m.uid, apiVersion: object.apiVersion, resourceVersion: m.resourceVersion };
    if (fieldPath) ref.fieldPath = fieldPath;
    return ref;
  }

  private eventSeq = 0;

  /** `<object>.<UnixNano hex>` like client-go; the nanoseconds keep names unique within a millisecond. */
  private eventName(object: KubeObject, first: number): string {
    const nanos = BigInt(Math.floor(first)) * 1_000_000n + BigInt(Math.floor((first % 1) * 1e6)) + BigInt(++this.eventSeq * 1_379);
    return `${String(meta(object).name)}.${nanos.toString(16)}`;
  }

  /**
   * A core/v1 event (kubelet, controllers). A repeat of the same reason and message for the same
   * object updates the existing Event (count + 1, lastTimestamp), as the client-go correlator does.
   */
  event(about: KubeObject, spec: EventSpec): void {
    const key = `${String(meta(about).uid)}|${spec.reason}|${spec.message}|${spec.fieldPath ?? ''}`;
    const existing = this.eventObjects.get(key);
    if (existing) {
      existing.count = Number(existing.count) + 1;
      existing.lastTimestamp = seconds(this.now);
      this.emit('MODIFIED', existing);
      return;
    }
    const first = spec.first ?? this.now;
    const component = spec.component ?? 'kubelet';
    const ev: KubeObject = {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: this.eventName(about, first), namespace: String(meta(about).namespace), uid: this.uid(), creationTimestamp: seconds(first) },
      involvedObject: this.involved(about, spec.fieldPath),
      reason: spec.reason,
      message: spec.message,
      source: spec.host ? { component, host: spec.host } : { component },
      firstTimestamp: seconds(first),
      lastTimestamp: seconds(this.now),
      count: spec.count ?? 1,
      type: spec.type ?? 'Normal',
      eventTime: null,
      reportingComponent: component,
      reportingInstance: spec.host ?? '',
    };
    this.eventObjects.set(key, ev);
    this.emit('ADDED', ev);
  }

  /**
   * An event the scheduler records through events.k8s.io/v1, as a core/v1 watch shows it: empty
   * source, null first/lastTimestamp, eventTime in microseconds; repeats grow `series`.
   */
  schedulerEvent(about: KubeObject, spec: { reason: string; message: string; type?: 'Normal' | 'Warning'; action: string }): void {
    const key = `${String(meta(about).uid)}|${spec.reason}|${spec.message}`;
    const existing = this.eventObjects.get(key);
    if (existing) {
      const series = (existing.series as Json | undefined) ?? { count: 1 };
      series.count = Number(series.count) + 1;
      series.lastObservedTime = micro(this.now, 417);
      existing.series = series;
      this.emit('MODIFIED', existing);
      return;
    }
    const ev: KubeObject = {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: this.eventName(about, this.now), namespace: String(meta(about).namespace), uid: this.uid(), creationTimestamp: seconds(this.now) },
      involvedObject: this.involved(about),
      reason: spec.reason,
      message: spec.message,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: spec.type ?? 'Normal',
      eventTime: micro(this.now, 381),
      action: spec.action,
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane',
    };
    this.eventObjects.set(key, ev);
    this.emit('ADDED', ev);
  }

  /**
   * The stream in arrival order. resourceVersions increase in that order, as one API server
   * commits them; an Event's involvedObject carries the object's latest resourceVersion.
   */
  ndjson(): string {
    const ordered = this.lines.map((line, index) => ({ line, index })).sort((a, b) => a.line.receivedAt - b.line.receivedAt || a.index - b.index);
    const latest = new Map<string, string>();
    const out: string[] = [];
    for (const { line } of ordered) {
      if ('event' in line) {
        const object = line.event.object;
        const m = meta(object);
        if (this.fresh.has(object)) m.resourceVersion = String(++this.rv);
        latest.set(String(m.uid), String(m.resourceVersion));
        const involved = object.involvedObject as Json | undefined;
        if (involved) involved.resourceVersion = latest.get(String(involved.uid)) ?? '';
      }
      out.push(JSON.stringify(line));
    }
    return out.join('\n') + '\n';
  }
}

// ---- objects ---------------------------------------------------------------------------------

export interface ContainerSpec {
  name: string;
  image: string;
  command?: string[];
  cpu?: string;
  port?: number;
}

function containerSpec(c: ContainerSpec): Json {
  const out: Json = { name: c.name, image: c.image };
  if (c.command) out.command = c.command;
  if (c.port) out.ports = [{ containerPort: c.port, protocol: 'TCP' }];
  out.resources = c.cpu ? { requests: { cpu: c.cpu } } : {};
  out.terminationMessagePath = '/dev/termination-log';
  out.terminationMessagePolicy = 'File';
  out.imagePullPolicy = 'IfNotPresent';
  return out;
}

function lastApplied(kind: string, apiVersion: string, name: string, namespace: string, spec: Json): string {
  return `${JSON.stringify({ apiVersion, kind, metadata: { annotations: {}, name, namespace }, spec })}\n`;
}

export function deployment(cluster: Cluster, name: string, replicas: number, containers: ContainerSpec[], createdAt = cluster.now): KubeObject {
  const labels = { app: name };
  const appliedSpec: Json = {
    replicas,
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: { containers: containers.map((c) => ({ name: c.name, image: c.image, ...(c.command ? { command: c.command } : {}), ...(c.port ? { ports: [{ containerPort: c.port }] } : {}), ...(c.cpu ? { resources: { requests: { cpu: c.cpu } } } : {}) })) } },
  };
  const d: KubeObject = {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: {
      name,
      namespace: 'default',
      uid: cluster.uid(),
      resourceVersion: '',
      generation: 1,
      creationTimestamp: seconds(createdAt),
      labels,
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied('Deployment', 'apps/v1', name, 'default', appliedSpec) },
      managedFields: [],
    },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { creationTimestamp: null, labels },
        spec: { containers: containers.map(containerSpec), restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler' },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {},
  };
  const saved = cluster.now;
  cluster.now = Math.max(createdAt, 0);
  cluster.managed(d, 'kubectl-client-side-apply', { 'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} } }, 'f:spec': { 'f:replicas': {}, 'f:template': {} } });
  cluster.now = saved;
  return d;
}

export function replicaSet(cluster: Cluster, owner: KubeObject, hash: string, replicas: number, revision: number, createdAt = cluster.now): KubeObject {
  const dMeta = meta(owner);
  const dSpec = owner.spec as Json;
  const name = `${String(dMeta.name)}-${hash}`;
  const labels = { ...(dMeta.labels as Json), 'pod-template-hash': hash };
  const template = clone(dSpec.template as Json);
  (template.metadata as Json).labels = labels;
  const rs: KubeObject = {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    metadata: {
      name,
      namespace: String(dMeta.namespace),
      uid: cluster.uid(),
      resourceVersion: '',
      generation: 1,
      creationTimestamp: seconds(createdAt),
      labels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(dSpec.replicas),
        'deployment.kubernetes.io/max-replicas': String(Number(dSpec.replicas) + Math.ceil(Number(dSpec.replicas) * 0.25)),
        'deployment.kubernetes.io/revision': String(revision),
      },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: String(dMeta.name), uid: String(dMeta.uid), controller: true, blockOwnerDeletion: true }],
      managedFields: [],
    },
    spec: { replicas, selector: { matchLabels: labels }, template },
    status: { replicas: 0 },
  };
  const saved = cluster.now;
  cluster.now = createdAt;
  cluster.managed(rs, 'kube-controller-manager', { 'f:metadata': { 'f:annotations': {}, 'f:labels': {}, 'f:ownerReferences': {} }, 'f:spec': { 'f:replicas': {}, 'f:selector': {}, 'f:template': {} } });
  cluster.now = saved;
  return rs;
}

function podSpecFrom(template: Json, suffix: string): Json {
  const spec = clone(template.spec as Json);
  const volume = `kube-api-access-${suffix}`;
  for (const c of spec.containers as Json[]) c.volumeMounts = [{ name: volume, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }];
  spec.volumes = [
    {
      name: volume,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      },
    },
  ];
  spec.serviceAccountName = 'default';
  spec.serviceAccount = 'default';
  spec.tolerations = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ];
  spec.priority = 0;
  spec.enableServiceLinks = true;
  spec.preemptionPolicy = 'PreemptLowerPriority';
  return spec;
}

export function podOf(cluster: Cluster, rs: KubeObject, suffix: string, createdAt = cluster.now): KubeObject {
  const rsMeta = meta(rs);
  const template = (rs.spec as Json).template as Json;
  const resources = ((template.spec as Json).containers as Json[]).some((c) => Object.keys((c.resources as Json | undefined) ?? {}).length > 0);
  const pod: KubeObject = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: `${String(rsMeta.name)}-${suffix}`,
      generateName: `${String(rsMeta.name)}-`,
      namespace: String(rsMeta.namespace),
      uid: cluster.uid(),
      resourceVersion: '',
      creationTimestamp: seconds(createdAt),
      labels: clone((template.metadata as Json).labels as Record<string, string>),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: String(rsMeta.name), uid: String(rsMeta.uid), controller: true, blockOwnerDeletion: true }],
      managedFields: [],
    },
    spec: podSpecFrom(template, cluster.suffix(5)),
    status: { phase: 'Pending', qosClass: resources ? 'Burstable' : 'BestEffort' },
  };
  const saved = cluster.now;
  cluster.now = createdAt;
  cluster.managed(pod, 'kube-controller-manager', { 'f:metadata': { 'f:generateName': {}, 'f:labels': {}, 'f:ownerReferences': {} }, 'f:spec': { 'f:containers': {} } });
  cluster.now = saved;
  return pod;
}

export function barePod(cluster: Cluster, name: string, containers: ContainerSpec[]): KubeObject {
  const appliedSpec: Json = { containers: containers.map((c) => ({ name: c.name, image: c.image })) };
  const pod: KubeObject = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name,
      namespace: 'default',
      uid: cluster.uid(),
      resourceVersion: '',
      creationTimestamp: seconds(cluster.now),
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied('Pod', 'v1', name, 'default', appliedSpec) },
      managedFields: [],
    },
    spec: podSpecFrom({ spec: { containers: containers.map(containerSpec), restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler' } }, cluster.suffix(5)),
    status: { phase: 'Pending', qosClass: 'BestEffort' },
  };
  cluster.managed(pod, 'kubectl-client-side-apply', { 'f:metadata': { 'f:annotations': {} }, 'f:spec': { 'f:containers': {} } });
  return pod;
}

// ---- pod status as kubelet and scheduler write it -------------------------------------------

export function condition(type: string, status: string, at: number, reason?: string, message?: string): Json {
  const c: Json = { type, status, lastProbeTime: null, lastTransitionTime: seconds(at) };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

function status(pod: KubeObject): Json {
  return pod.status as Json;
}

function setCondition(pod: KubeObject, next: Json): void {
  const s = status(pod);
  const list = ((s.conditions as Json[] | undefined) ?? []).slice();
  const i = list.findIndex((c) => c.type === next.type);
  if (i >= 0) {
    if (list[i].status === next.status) next.lastTransitionTime = list[i].lastTransitionTime;
    list[i] = next;
  } else list.push(next);
  s.conditions = list;
}

/** The scheduler's binding: spec.nodeName and PodScheduled=True. */
export function bind(cluster: Cluster, pod: KubeObject, node: string): void {
  (pod.spec as Json).nodeName = node;
  setCondition(pod, condition('PodScheduled', 'True', cluster.now));
  cluster.managed(pod, 'kube-scheduler', { 'f:status': { 'f:conditions': { 'k:{"type":"PodScheduled"}': {} } } }, 'status');
}

export function unschedulable(cluster: Cluster, pod: KubeObject, message: string): void {
  setCondition(pod, condition('PodScheduled', 'False', cluster.now, 'Unschedulable', message));
  cluster.managed(pod, 'kube-scheduler', { 'f:status': { 'f:conditions': { 'k:{"type":"PodScheduled"}': {} } } }, 'status');
}

function containerNames(pod: KubeObject): { name: string; image: string }[] {
  return ((pod.spec as Json).containers as Json[]).map((c) => ({ name: String(c.name), image: String(c.image) }));
}

function kubeletManaged(cluster: Cluster, pod: KubeObject): void {
  cluster.managed(pod, 'kubelet', { 'f:status': { 'f:conditions': {}, 'f:containerStatuses': {}, 'f:hostIP': {}, 'f:podIP': {}, 'f:startTime': {} } }, 'status');
}

/** kubelet's first status: accepted on the node, sandbox being created, containers ContainerCreating. */
export function kubeletAccepted(cluster: Cluster, pod: KubeObject, hostIP: string): void {
  const s = status(pod);
  const names = containerNames(pod).map((c) => c.name);
  setCondition(pod, condition('PodReadyToStartContainers', 'False', cluster.now));
  setCondition(pod, condition('Initialized', 'True', cluster.now));
  setCondition(pod, condition('Ready', 'False', cluster.now, 'ContainersNotReady', `containers with unready status: [${names.join(' ')}]`));
  setCondition(pod, condition('ContainersReady', 'False', cluster.now, 'ContainersNotReady', `containers with unready status: [${names.join(' ')}]`));
  s.hostIP = hostIP;
  s.hostIPs = [{ ip: hostIP }];
  s.startTime = seconds(cluster.now);
  s.containerStatuses = containerNames(pod).map((c) => ({
    name: c.name,
    state: { waiting: { reason: 'ContainerCreating' } },
    lastState: {},
    ready: false,
    restartCount: 0,
    image: c.image,
    imageID: '',
    started: false,
  }));
  kubeletManaged(cluster, pod);
}

export function sandboxReady(cluster: Cluster, pod: KubeObject, podIP: string): void {
  setCondition(pod, condition('PodReadyToStartContainers', 'True', cluster.now));
  const s = status(pod);
  s.podIP = podIP;
  s.podIPs = [{ ip: podIP }];
  kubeletManaged(cluster, pod);
}

function containerStatus(pod: KubeObject, name: string): Json {
  const found = ((status(pod).containerStatuses as Json[] | undefined) ?? []).find((c) => c.name === name);
  if (!found) throw new Error(`no status for container ${name}`);
  return found;
}

const IMAGE_DIGESTS: Record<string, string> = {
  'nginx:1.25': 'docker.io/library/nginx@sha256:a484819eb60211f5299034ac80f6a681b06f89e65866ce91f356ed7c72af059c',
  'nginx:1.26': 'docker.io/library/nginx@sha256:54b2f7f4d1dc3f56a7ab6c1bbad6d4fb4ca8fff8b26b2c8d73d8e9d42a1c6c3f',
  'busybox:1.36': 'docker.io/library/busybox@sha256:7b3ccabffc97de872a30dfd234fd972a66d247c8cfc69b0550f276481852627c',
};

/** Containers running (startedAt = the container start, `startedAtMs`), phase Running; ready unless told otherwise. */
export function running(cluster: Cluster, pod: KubeObject, startedAtMs: number, ready = true): void {
  const s = status(pod);
  for (const c of containerNames(pod)) {
    const cs = containerStatus(pod, c.name);
    cs.state = { running: { startedAt: seconds(startedAtMs) } };
    cs.ready = ready;
    cs.started = true;
    cs.imageID = IMAGE_DIGESTS[c.image] ?? `docker.io/library/${c.image}@sha256:${'0'.repeat(64)}`;
    cs.containerID = `containerd://${cluster.suffix(5)}${'f0e1d2c3b4a5968778695a4b3c2d1e0f'.repeat(2).slice(0, 59)}`;
  }
  s.phase = 'Running';
  if (ready) {
    setCondition(pod, condition('Ready', 'True', cluster.now));
    setCondition(pod, condition('ContainersReady', 'True', cluster.now));
  }
  kubeletManaged(cluster, pod);
}

export function terminated(cluster: Cluster, pod: KubeObject, name: string, exitCode: number, reason: string, startedAtMs: number): void {
  const cs = containerStatus(pod, name);
  cs.state = { terminated: { exitCode, reason, startedAt: seconds(startedAtMs), finishedAt: seconds(cluster.now), containerID: cs.containerID } };
  cs.ready = false;
  cs.started = false;
  const names = containerNames(pod).map((c) => c.name);
  setCondition(pod, condition('Ready', 'False', cluster.now, 'ContainersNotReady', `containers with unready status: [${names.join(' ')}]`));
  setCondition(pod, condition('ContainersReady', 'False', cluster.now, 'ContainersNotReady', `containers with unready status: [${names.join(' ')}]`));
  kubeletManaged(cluster, pod);
}

/** Container waiting with a reason; a terminated current state moves to lastState and counts a restart. */
export function waiting(cluster: Cluster, pod: KubeObject, name: string, reason: string, message?: string): void {
  const cs = containerStatus(pod, name);
  const current = cs.state as Json;
  if (current.terminated) {
    cs.lastState = { terminated: current.terminated };
    cs.restartCount = Number(cs.restartCount) + 1;
  }
  cs.state = { waiting: message ? { reason, message } : { reason } };
  cs.ready = false;
  kubeletManaged(cluster, pod);
}

export function deletionRequested(cluster: Cluster, object: KubeObject, graceSeconds: number): void {
  const m = meta(object);
  m.deletionTimestamp = seconds(cluster.now + graceSeconds * 1000);
  m.deletionGracePeriodSeconds = graceSeconds;
}

// ---- workload status as the controllers write it ----------------------------------------------

export function rsStatus(cluster: Cluster, rs: KubeObject, replicas: number, ready: number, available: number): void {
  const s: Json = { replicas, fullyLabeledReplicas: replicas, observedGeneration: meta(rs).generation };
  if (ready > 0) s.readyReplicas = ready;
  if (available > 0) s.availableReplicas = available;
  rs.status = s;
  cluster.managed(rs, 'kube-controller-manager', { 'f:status': { 'f:availableReplicas': {}, 'f:fullyLabeledReplicas': {}, 'f:observedGeneration': {}, 'f:readyReplicas': {}, 'f:replicas': {} } }, 'status');
}

export function deploymentCondition(type: string, status: string, reason: string, message: string, transitionMs: number, updateMs: number): Json {
  return { type, status, lastUpdateTime: seconds(updateMs), lastTransitionTime: seconds(transitionMs), reason, message };
}

export function deploymentStatus(
  cluster: Cluster,
  d: KubeObject,
  counts: { replicas: number; updated: number; ready: number; available: number },
  conditions: Json[],
): void {
  const desired = Number((d.spec as Json).replicas);
  const s: Json = { observedGeneration: meta(d).generation, replicas: counts.replicas, updatedReplicas: counts.updated };
  if (counts.ready > 0) s.readyReplicas = counts.ready;
  if (counts.available > 0) s.availableReplicas = counts.available;
  const unavailable = Math.max(0, counts.replicas - counts.available, desired - counts.available);
  if (unavailable > 0) s.unavailableReplicas = unavailable;
  s.conditions = conditions;
  d.status = s;
  cluster.managed(d, 'kube-controller-manager', { 'f:status': { 'f:availableReplicas': {}, 'f:conditions': {}, 'f:observedGeneration': {}, 'f:readyReplicas': {}, 'f:replicas': {}, 'f:updatedReplicas': {} } }, 'status');
}

export function setRevision(cluster: Cluster, d: KubeObject, revision: number): void {
  const m = meta(d);
  m.annotations = { ...(m.annotations as Json), 'deployment.kubernetes.io/revision': String(revision) };
  cluster.managed(d, 'kube-controller-manager', { 'f:metadata': { 'f:annotations': { 'f:deployment.kubernetes.io/revision': {} } } });
}

export function node(cluster: Cluster, name: string, ip: string, createdAt: number): KubeObject {
  const n: KubeObject = {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name,
      uid: cluster.uid(),
      resourceVersion: '',
      creationTimestamp: seconds(createdAt),
      labels: { 'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR: `10.244.${ip.split('.')[3]}.0/24`, podCIDRs: [`10.244.${ip.split('.')[3]}.0/24`], providerID: `kind://docker/kind/${name}` },
    status: {
      capacity: { cpu: '4', 'ephemeral-storage': '102626232Ki', memory: '16331300Ki', pods: '110' },
      allocatable: { cpu: '4', 'ephemeral-storage': '102626232Ki', memory: '16331300Ki', pods: '110' },
      conditions: [
        { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: seconds(createdAt), lastTransitionTime: seconds(createdAt), reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
        { type: 'DiskPressure', status: 'False', lastHeartbeatTime: seconds(createdAt), lastTransitionTime: seconds(createdAt), reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
        { type: 'PIDPressure', status: 'False', lastHeartbeatTime: seconds(createdAt), lastTransitionTime: seconds(createdAt), reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
        { type: 'Ready', status: 'True', lastHeartbeatTime: seconds(createdAt), lastTransitionTime: seconds(createdAt), reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.31.2',
        containerRuntimeVersion: 'containerd://1.7.18',
        kernelVersion: '6.8.0-45-generic',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
  meta(n).resourceVersion = String(1000 + Number(ip.split('.')[3]));
  return n;
}
