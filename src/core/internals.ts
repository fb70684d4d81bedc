/**
 * Control-plane steps a real cluster does not show on its API: the write to etcd, which
 * component's watch received which change, and the scheduler's per-node verdicts. The simulator
 * records them as a separate stream; the tracer shows them when they exist and does without them
 * against a real cluster.
 */
import type { VerdictTable } from '../common/verdict-table';

export type { FilterCode, FilterFailureVerdict, NodeList, NodeVerdict, VerdictTable } from '../common/verdict-table';

export interface ObjectRef {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
}

/** Components named as real clusters name them (event `source.component` / `reportingComponent`). */
export type ComponentName =
  | 'kubectl'
  | 'kube-apiserver'
  | 'etcd'
  | 'deployment-controller'
  | 'replicaset-controller'
  | 'statefulset-controller'
  | 'replication-controller'
  | 'daemonset-controller'
  | 'job-controller'
  | 'cronjob-controller'
  | 'ttl-after-finished-controller'
  | 'garbage-collector'
  | 'persistentvolume-controller'
  | 'local-path-provisioner'
  | 'endpointslice-controller'
  | 'endpoints-controller'
  | 'kube-proxy'
  | 'default-scheduler'
  | 'kubelet'
  | 'container-runtime';

export interface EtcdWrite {
  type: 'etcdWrite';
  /** Virtual time, milliseconds since the Unix epoch. */
  time: number;
  /** e.g. `/registry/deployments/default/web` */
  key: string;
  verb: 'create' | 'update' | 'delete';
  resourceVersion: string;
  object: ObjectRef;
  /** The field manager or component that made the request. */
  actor: string;
}

export interface WatchDelivery {
  type: 'watchDelivered';
  time: number;
  /** The component whose informer received the change. */
  component: ComponentName;
  eventType: 'ADDED' | 'MODIFIED' | 'DELETED';
  resourceVersion: string;
  object: ObjectRef;
}

export interface SchedulingCycle {
  type: 'schedulingCycle';
  time: number;
  pod: ObjectRef;
  attempt: number;
  totalNodes: number;
  /** Nodes the filters looked at before enough feasible ones were found (adaptive sampling). */
  evaluatedNodes: number;
  feasibleNodes: number;
  result: 'Scheduled' | 'Unschedulable';
  /** The chosen node, when scheduled. */
  node?: string;
  /** The FailedScheduling message, when unschedulable. */
  message?: string;
  /**
   * Every evaluated node's verdict, compactly (see verdict-table.ts: `cycleVerdicts` rebuilds the
   * rows); absent when the scheduler keeps counts only (large benchmarks) or dropped the table.
   */
  table?: VerdictTable;
}

/**
 * The simulator decided how a container ends without being able to read its program (e.g. a
 * Job's `perl -Mbignum=bpi -wle 'print bpi(2000)'`): it assumed a clean exit after a plausible
 * run time. Recorded once the kubelet's status write reports that exit, so `resourceVersion` is
 * the pod version whose container status shows the assumed termination; a real cluster has no
 * such step, and the tracer marks that termination as assumed, not observed.
 */
export interface AssumedExit {
  type: 'assumedExit';
  time: number;
  component: 'kubelet';
  /** The pod. */
  object: ObjectRef;
  container: string;
  exitCode: number;
  /** How long the container was assumed to run, in ms. */
  runMs: number;
  /** Why the outcome was assumed. */
  reason: string;
  resourceVersion: string;
}

/**
 * The simulator keeps a container running without being able to read that it would: an
 * image's own entrypoint it does not know, or a command it cannot follow, under restartPolicy
 * Always. A real program might exit or crash instead. Recorded with the pod status write that
 * first shows the container running; the tracer marks that start as assumed.
 */
export interface AssumedRunning {
  type: 'assumedRunning';
  time: number;
  component: 'kubelet';
  /** The pod. */
  object: ObjectRef;
  container: string;
  /** Why the run was assumed. */
  reason: string;
  /** Set when what was assumed is that this probe of the container succeeds, not its run. */
  probe?: 'startup' | 'liveness' | 'readiness';
  /** Set when what was assumed is that this lifecycle hook of the container succeeds. */
  hook?: 'postStart' | 'preStop';
  resourceVersion: string;
}

/**
 * The simulator let an image pull succeed without being able to know the image exists: it
 * reaches no registry, and knows only some images (see `isKnownImage` in
 * src/sim/kubelet/images.ts). A real registry may not have it, and a real pod then waits in
 * ImagePullBackOff. Recorded when the pull ends, against the pod version of that moment, and
 * also when a container finds on its node an image only such a pull put there; the tracer marks
 * that pull (or "already present") stage as assumed and lists the image once per journey.
 */
export interface AssumedPull {
  type: 'assumedPull';
  time: number;
  component: 'kubelet';
  /** The pod. */
  object: ObjectRef;
  container: string;
  /** The image as containerd names it, e.g. `docker.io/acme/app:1.0`. */
  image: string;
  /** Why the pull was assumed. */
  reason: string;
  /** Set when the container found the image on its node, put there by an earlier assumed pull, instead of pulling it. */
  alreadyPresent?: true;
  resourceVersion: string;
}

/**
 * kube-proxy wrote a Service's rules on the nodes (an iptables sync, pkg/proxy/iptables): the
 * endpoints it now sends the Service's traffic to. One step stands for the kube-proxy of every
 * node, which all see the same EndpointSlices and sync together.
 */
export interface ProxySync {
  type: 'proxySync';
  time: number;
  component: 'kube-proxy';
  /** The Service. */
  object: ObjectRef;
  /** Nodes whose kube-proxy programmed it. */
  nodes: number;
  /** The pods traffic now goes to (ready endpoints), by name in the Service's namespace. */
  endpoints: string[];
  /** The newest EndpointSlice resourceVersion the rules were computed from. */
  resourceVersion: string;
}

/** What the simulator assumed instead of knowing, as the tracer marks it on a stage. */
export type AssumptionStep = AssumedExit | AssumedRunning | AssumedPull;

/** Which of an object's watch deliveries and etcd writes a reader wants: all, only the write that stored it, or none. */
export type FollowedSteps = 'all' | 'create' | 'none';

export type InternalStep = EtcdWrite | WatchDelivery | SchedulingCycle | AssumedExit | AssumedRunning | AssumedPull | ProxySync;
