/** A store, clock and event recorder with a kubelet fleet on top, and a timeline of what it writes. */
import type { Container, KubeObject, Pod, PodSpec } from '../../../src/core/k8s';
import { VirtualClock } from '../../../src/sim/clock';
import { defaultTimings, type EventRecorder, type EventSource, type SimContext, type Timings } from '../../../src/sim/context';
import { BoundedInternalsLog } from '../../../src/sim/internals-log';
import { KubeletFleet } from '../../../src/sim/kubelet/fleet';
import { makeNode, type NodeOptions } from '../../../src/sim/nodes';
import { MemoryStore } from '../../../src/sim/store/store';

export type PodObject = Pod & KubeObject;

export interface TimelineEntry {
  time: number;
  kind: 'status' | 'event' | 'deleted';
  pod: string;
  /** For events: `Type Reason message`. For status: a one-line summary. */
  text: string;
  /** The pod as written (status, deleted); the involved pod (event). */
  object: KubeObject;
  source?: EventSource;
  /** For events: the `involvedObject.fieldPath` the kubelet gave (a container's), if any. */
  fieldPath?: string;
}

export interface Harness {
  ctx: SimContext;
  clock: VirtualClock;
  internals: BoundedInternalsLog;
  store: MemoryStore;
  fleet: KubeletFleet;
  timeline: TimelineEntry[];
  createPod(name: string, containers: Container[], spec?: Partial<PodSpec>, node?: string): PodObject;
  pod(name: string): PodObject | undefined;
  runFor(ms: number): void;
  events(pod?: string): TimelineEntry[];
  statuses(pod?: string): TimelineEntry[];
}

/** `phase Ready=… nginx=waiting:ContainerCreating` */
export function summarizeStatus(pod: PodObject): string {
  const status = pod.status ?? {};
  const ready = status.conditions?.find((c) => c.type === 'Ready')?.status ?? '-';
  const containers = (status.containerStatuses ?? []).map((c) => {
    const state = c.state ?? {};
    const detail = state.waiting ? `waiting:${state.waiting.reason}` : state.running ? 'running' : state.terminated ? `terminated:${state.terminated.reason}` : '?';
    return `${c.name}=${detail}${c.ready ? '+ready' : ''}`;
  });
  return [status.phase ?? '-', `Ready=${ready}`, ...containers].join(' ');
}

export function makeHarness(options: { seed?: number; timings?: Partial<Timings>; nodes?: Array<{ name: string } & NodeOptions> } = {}): Harness {
  const clock = new VirtualClock({ seed: options.seed ?? 7 });
  const internals = new BoundedInternalsLog(10_000, false, true);
  const store = new MemoryStore({ clock, internals });
  const timeline: TimelineEntry[] = [];
  const events: EventRecorder = {
    record(involved, type, reason, message, source, options) {
      timeline.push({ time: clock.now(), kind: 'event', pod: involved.metadata?.name ?? '', text: `${type} ${reason} ${message}`, object: involved, source, fieldPath: options?.fieldPath });
    },
  };
  const ctx: SimContext = { store, clock, events, internals, timings: { ...defaultTimings, ...options.timings } };
  store.create('Namespace', { metadata: { name: 'default' } });
  for (const node of options.nodes ?? [{ name: 'node-1' }]) store.create('Node', makeNode(node.name, { now: clock.now(), ...node }));
  store.subscribe('Pod', (change) => {
    const pod = change.object as PodObject;
    const name = pod.metadata?.name ?? '';
    if (change.type === 'DELETED') timeline.push({ time: clock.now(), kind: 'deleted', pod: name, text: 'deleted', object: pod });
    else if (change.type === 'MODIFIED' && change.previous && JSON.stringify(change.previous.status) !== JSON.stringify(pod.status)) {
      timeline.push({ time: clock.now(), kind: 'status', pod: name, text: summarizeStatus(pod), object: pod });
    }
  });
  const fleet = new KubeletFleet(ctx);
  fleet.start();
  return {
    ctx,
    clock,
    internals,
    store,
    fleet,
    timeline,
    createPod(name, containers, spec = {}, node = 'node-1') {
      return store.create<PodObject>('Pod', { metadata: { name, namespace: 'default' }, spec: { containers, nodeName: node, ...spec } });
    },
    pod: (name) => store.get<PodObject>('Pod', 'default', name),
    runFor: (ms) => {
      clock.advanceTo(clock.now() + ms);
    },
    events: (pod) => timeline.filter((e) => e.kind === 'event' && (!pod || e.pod === pod)),
    statuses: (pod) => timeline.filter((e) => e.kind === 'status' && (!pod || e.pod === pod)),
  };
}
