/**
 * The journey model: what the tracer knows about how an applied object became running
 * containers. It is the one shape the CLI, the VS Code tree, the webview timeline and the hovers
 * read, so it is plain data: objects and arrays only (no Maps, no classes), times in milliseconds
 * since the Unix epoch, durations in milliseconds. A snapshot can go through `JSON.stringify` or
 * `postMessage` as it is, and never changes after it was handed out.
 */
import type { ComponentName, EtcdWrite, InternalStep, SchedulingCycle, WatchDelivery } from '../internals';
import type { WatchEvent } from '../k8s';
import type { FitSuggestions } from './fit-suggestions';

/** Kinds a journey can start from: what `kubectl apply` creates and the tracer can follow down. */
export type { TraceableKind } from '../../common/traceable-kinds';
import type { TraceableKind } from '../../common/traceable-kinds';

/**
 * A component as events name it. Known components use the `ComponentName` spellings; anything
 * else a real cluster reports (`node-controller`, `cloud-controller-manager`, …) is kept verbatim.
 */
export type Component = ComponentName | (string & Record<never, never>);

/** Identifies one object in the journey tree. */
export interface JourneyObjectRef {
  kind: TraceableKind;
  namespace: string;
  name: string;
  /** Unknown until the object was seen on a watch (a journey's root before it is stored). */
  uid?: string;
}

/**
 * Where an object or a whole journey stands.
 * - `pending`: not seen yet (a root right after apply), or a pod not yet bound to a node.
 * - `progressing`: moving forward, nothing wrong seen.
 * - `complete`: reached its goal (Deployment rolled out and Available; ReplicaSet,
 *   ReplicationController, StatefulSet or DaemonSet with all its pods ready and updated; Job
 *   Complete; CronJob whose first Job completed; Pod Ready or Succeeded).
 * - `stuck`: cannot move forward without a change (unschedulable, image pull or crash loop
 *   back-off, a failing readiness probe, a failed create); see `stuck` for why.
 * - `failed`: gave up for good (Pod phase Failed, Deployment ProgressDeadlineExceeded).
 * - `deleted`: removed from the API (or being removed: deletionTimestamp set).
 */
export type JourneyStatus = 'pending' | 'progressing' | 'complete' | 'stuck' | 'failed' | 'deleted';

/**
 * What happened at one step. The lifecycle order of a Deployment rollout is roughly the order
 * listed here, which is also the tie-breaker when two stages carry the same timestamp (real
 * clusters stamp objects to the whole second).
 */
export type StageKind =
  /** The client sent the object (apply time, from `begin`). */
  | 'submitted'
  /** kube-apiserver validated the object and wrote it to etcd (creation or a new generation). */
  | 'stored'
  /** deployment-controller created a ReplicaSet for the Deployment's pod template. */
  | 'replicaSetCreated'
  /** cronjob-controller created a Job for a scheduled time ("Created job hello-29034242"). */
  | 'jobCreated'
  /** A ReplicaSet's `spec.replicas` changed ("Scaled up replica set … from 0 to 3"). */
  | 'scaled'
  /** A controller waits on purpose: a StatefulSet for its previous pod to be Ready, a CronJob for its schedule, a Job's back-off. */
  | 'waiting'
  /** A Job or CronJob is suspended (`spec.suspend: true`): nothing runs until it is resumed. */
  | 'suspended'
  /** replicaset-controller (or a client, for a bare Pod) created the Pod. */
  | 'podCreated'
  /** The scheduler found no node; carries the verbatim FailedScheduling message. */
  | 'failedScheduling'
  /** The scheduler bound the pod: `spec.nodeName` set, PodScheduled=True. */
  | 'scheduled'
  /** kubelet: Initialized=True (init containers done, or none). */
  | 'initialized'
  /** kubelet: pod sandbox and network ready (PodReadyToStartContainers, formerly PodHasNetwork). */
  | 'sandboxReady'
  /** kubelet asked the runtime to pull an image. */
  | 'pulling'
  /** The image was pulled ("Successfully pulled image …"). */
  | 'pulled'
  /** The image was already on the node ("Container image … already present on machine"). */
  | 'imagePresent'
  /** The runtime created a container ("Created container nginx"). */
  | 'containerCreated'
  /** A container started (`state.running.startedAt`); one stage per start, so restarts show. */
  | 'containerStarted'
  /** A container ended (`state.terminated` / `lastState.terminated`): exit code and reason. */
  | 'containerTerminated'
  /** `status.phase` became Running. */
  | 'running'
  /** ContainersReady=True. */
  | 'containersReady'
  /** Ready=True: the pod serves traffic. */
  | 'ready'
  /** Ready went back to False after having been True. */
  | 'notReady'
  /** `status.phase` became Succeeded. */
  | 'succeeded'
  /** Deployment Available=True, or a ReplicaSet whose pods are all available. */
  | 'available'
  /** Deployment Available went back to False (MinimumReplicasUnavailable). */
  | 'unavailable'
  /** A Job reached its goal: condition Complete=True (its successful completions done). */
  | 'complete'
  /** Deployment Progressing condition moved (NewReplicaSetCreated, ReplicaSetUpdated, NewReplicaSetAvailable…). */
  | 'progressing'
  /** kubelet backs off: ImagePullBackOff or CrashLoopBackOff. */
  | 'backOff'
  /** Something failed: ErrImagePull, CreateContainerConfigError, FailedCreate, phase Failed, ProgressDeadlineExceeded… */
  | 'failed'
  /** A probe failed (Unhealthy event). */
  | 'unhealthy'
  /** kubelet stops a container ("Stopping container nginx"). */
  | 'killing'
  /** Deletion requested: `metadata.deletionTimestamp` set (kubectl shows "Terminating"). */
  | 'terminating'
  /** The object is gone (DELETED on the watch). */
  | 'deleted'
  /** kube-apiserver gave a Service its ClusterIP (and NodePorts) as it stored it; or said why it has none. */
  | 'ipAllocated'
  /** endpointslice-controller added a ready pod to one of the Service's EndpointSlices. */
  | 'endpointAdded'
  /** An endpoint left a slice or stopped being ready (pod not ready, terminating or deleted). */
  | 'endpointRemoved'
  /** kube-proxy wrote the Service's rules on the nodes (simulator internals only). */
  | 'programmed'
  /** A pod is an endpoint of a Service whose rules kube-proxy programmed: it serves traffic for it. */
  | 'servingTraffic'
  /** Any other event about the object, kept verbatim (FailedMount, SandboxChanged, …). */
  | 'event';

/** Which clock gave a stage its `time`. */
export type TimeSource =
  /** The object's own timestamp (creationTimestamp, lastTransitionTime, startedAt, …), possibly
   * sharpened to the millisecond by a more precise observation within the same second. */
  | 'object'
  /** The Event's eventTime / firstTimestamp. */
  | 'event'
  /** The simulator's internals stream (exact virtual time). */
  | 'internal'
  /** When the change arrived on the watch (nothing better was known). */
  | 'observed'
  /** The apply time given to `begin`. */
  | 'applied';

/** One field that changed between two versions of an object, as `path: from → to`. */
export interface FieldChange {
  /** Dotted path with list items named by key, e.g. `spec.nodeName`, `status.containerStatuses[nginx].restartCount`. */
  path: string;
  /** Absent when the field was not set before. */
  from?: string;
  /** Absent when the field was removed. */
  to?: string;
}

/** A status condition that changed (pod, Deployment or ReplicaSet condition). Its lastTransitionTime
 * (lastUpdateTime for a reason change) is the stage's `time`. */
export interface ConditionChange {
  /** Condition type: `PodScheduled`, `Ready`, `Available`, `Progressing`, … */
  type: string;
  /** Previous status (`True` / `False` / `Unknown`); absent when the condition is new. */
  from?: string;
  to: string;
  reason?: string;
  /** Verbatim condition message. */
  message?: string;
  /**
   * The transition time, ms, for producers that have it separately. The tracer leaves it out:
   * the stage's `time` is this transition, and leaving it out lets identical changes be shared.
   */
  time?: number;
}

/** The Kubernetes Event behind a stage, merged over its repeats. */
export interface EventEvidence {
  /** `Normal` or `Warning`. */
  type: string;
  reason: string;
  /** Verbatim message of the latest occurrence. */
  message: string;
  /** Occurrences so far (`count`, or `series.count` for events.k8s.io-style events). */
  count: number;
  /** Who reported it: `source.component`, else `reportingComponent`. */
  component: string;
  /** `source.host` or `reportingInstance`, when set. */
  host?: string;
  /** events.k8s.io `action` (e.g. `Binding`, `Scheduling`), when set. */
  action?: string;
  /** First occurrence (eventTime, else firstTimestamp), ms. */
  firstTime: number;
  /** Latest occurrence (series.lastObservedTime, else lastTimestamp, else firstTime), ms. */
  lastTime: number;
  /** The Event object's name (`<object>.<hex>`), which identifies repeats. */
  name: string;
  /** `involvedObject.fieldPath`, e.g. `spec.containers{nginx}`. */
  fieldPath?: string;
}

/** Control-plane steps from the simulator's internals stream, attached to the stage they explain. */
export interface InternalEvidence {
  /** The etcd write that stored this change. */
  etcd?: EtcdWrite[];
  /** Which components' watches received the change, in delivery order (capped). */
  watch?: WatchDelivery[];
  /**
   * The scheduling cycle that bound (or failed to bind) the pod, with its per-node verdict table
   * in compact form (`cycleVerdicts` in common/verdict-table.ts rebuilds the rows).
   */
  scheduling?: SchedulingCycle;
  /** How many scheduling attempts were seen for this stage. */
  schedulingAttempts?: number;
}

/** Everything that shows a stage happened. Any part may be missing (events expire, real clusters have no internals). */
export interface StageEvidence {
  fields?: FieldChange[];
  conditions?: ConditionChange[];
  event?: EventEvidence;
  internals?: InternalEvidence;
  /** The field manager of the write (from `metadata.managedFields`), for submitted/stored stages. */
  manager?: { name: string; operation?: string; time?: number };
}

/** One step in an object's journey. */
export interface Stage {
  /** Stable identity of the stage within its object (e.g. `scheduled`, `containerStarted:nginx#1`), for UI keys. */
  key: string;
  kind: StageKind;
  /** When it happened, ms since the epoch (see `timeSource`). */
  time: number;
  timeSource: TimeSource;
  /** The component that acted (kubelet, default-scheduler, …). */
  component: Component;
  /** Short human label written by Kube Journey, e.g. `Bound to node-1`. */
  title: string;
  /**
   * Verbatim Kubernetes text when there is one: the event message, else the condition or
   * container-state message. Prefer it over `title` when showing what Kubernetes said.
   */
  message?: string;
  /** The Kubernetes reason behind the stage: a container's waiting or terminated reason
   * (`ErrImagePull`, `CrashLoopBackOff`, `Error`), else the event's reason. */
  reason?: string;
  /** The container this stage is about. */
  container?: string;
  /** Warning-level stage (failed, back-off, unhealthy, Warning events). */
  warning?: boolean;
  /** Occurrences, when the stage repeated (aggregated events, repeated back-offs). Absent means once. */
  count?: number;
  /** Latest occurrence of a repeated stage, ms. */
  lastTime?: number;
  /**
   * What the simulator assumed here instead of knowing it, e.g. that a program it cannot read
   * exited 0 after a plausible run time. Never set on a real cluster's journey.
   */
  assumed?: string;
  evidence: StageEvidence;
}

/**
 * One outcome the simulator assumed, listed under the journey's summary: equal ones (the same
 * `what`) are listed once, with how many objects they apply to and the first as the example.
 */
export interface Assumption {
  /** The first object it applies to. */
  object: JourneyObjectRef;
  container?: string;
  /** The stage it marks. */
  stageKey?: string;
  /** When the first object reported it. */
  time: number;
  /** What was assumed, in a sentence. */
  what: string;
  /** How many objects it applies to, `object` among them; absent for one (and in files saved before it was counted). */
  objects?: number;
}

/** Why an object (or, for a Deployment, one of its pods) does not move forward. */
export interface StuckDetail {
  /** The Kubernetes reason: `FailedScheduling`, `ErrImagePull`, `ImagePullBackOff`, `CrashLoopBackOff`,
   * `CreateContainerConfigError`, `FailedCreate`, `ProgressDeadlineExceeded`, `Unhealthy`, … */
  reason: string;
  /** Verbatim message from Kubernetes (event, condition or container state). */
  message: string;
  /** First time this problem was seen, ms. */
  since: number;
  /** Latest time it was seen again, ms. */
  lastSeen: number;
  /** How often it was reported, when known (event count, failed scheduling attempts). */
  count?: number;
  component: Component;
  /** The container, for container problems. */
  container?: string;
  /** The object that is stuck (the pod, for a Deployment stuck because of its pods). */
  object: JourneyObjectRef;
  /** For crash loops: how the container last ended. */
  lastTermination?: { reason?: string; exitCode?: number; finishedAt?: number };
  /** The object the pod waits for, when the message names one (a ConfigMap, Secret or claim that does not exist). */
  dependency?: MissingDependency;
  /**
   * For a pod the scheduler refused (`FailedScheduling`): the smallest changes that would make it
   * fit, computed by the simulator re-running its filters (absent on a real cluster's journey).
   */
  fits?: FitSuggestions;
}

/** An object (or one of its keys) a pod refers to and cannot start without. */
export interface MissingDependency {
  kind: 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim';
  /** Unknown when only a key is named (`configmap references non-existent config key: x`). */
  name?: string;
  /** The missing key, when the object exists without it. */
  key?: string;
  /** The volume whose set-up failed, for FailedMount. */
  volume?: string;
}

/** clusterloader2's PodStartupLatency transitions plus time to Ready, for one pod, in ms. */
export interface PodPhaseDurations {
  /** creationTimestamp → bound to a node. */
  create_to_schedule?: number;
  /** Bound → running (the latest container `startedAt` when the pod first turned Running). */
  schedule_to_run?: number;
  /** Running → first seen Running on the watch. */
  run_to_watch?: number;
  /** Bound → first seen Running on the watch. */
  schedule_to_watch?: number;
  /** creationTimestamp → running. */
  create_to_run?: number;
  /** creationTimestamp → first seen Running on the watch: the SLO's pod startup latency. */
  pod_startup?: number;
  /** creationTimestamp → Ready=True. */
  create_to_ready?: number;
}

export type PhaseName = keyof PodPhaseDurations;

/** Phase names in the order they are shown. */
export const PHASE_NAMES: readonly PhaseName[] = [
  'create_to_schedule',
  'schedule_to_run',
  'run_to_watch',
  'schedule_to_watch',
  'create_to_run',
  'pod_startup',
  'create_to_ready',
];

/** The instants the phases are measured between, ms. */
export interface PodPhaseMarks {
  created?: number;
  scheduled?: number;
  running?: number;
  /** When the watch first delivered the pod with phase Running. */
  watched?: number;
  ready?: number;
}

/** Pod-only facts for the tree and hovers. */
export interface PodDetails {
  /** `spec.nodeName`, once bound. */
  node?: string;
  /** Whether that node reports Ready, when the tracer has seen the Node. */
  nodeReady?: boolean;
  /** `status.phase`. */
  phase?: string;
  podIP?: string;
  readyContainers: number;
  totalContainers: number;
  /** Sum of the containers' restartCount. */
  restarts: number;
  /** Per container: state as `kubectl get pods` would summarise it (`Running`, `ContainerCreating`, `CrashLoopBackOff`, `Completed`, …),
   * and the exit code while it is terminated (what tells a Job's failed try from its successful one). */
  containers: { name: string; state: string; ready: boolean; restarts: number; image?: string; exitCode?: number }[];
  marks: PodPhaseMarks;
  phases: PodPhaseDurations;
}

/**
 * Replica counts for any workload, from its spec and status, read as the digest reads them: a
 * DaemonSet's `desired` is desiredNumberScheduled, a Job's its completions, a CronJob's 1.
 */
export interface ReplicaDetails {
  desired: number;
  current: number;
  ready: number;
  available: number;
  /** Deployment, StatefulSet and DaemonSet: replicas of the newest template. */
  updated?: number;
  /** `deployment.kubernetes.io/revision`, or a StatefulSet's `status.updateRevision` (`web-7b9b`). */
  revision?: string;
  /** StatefulSet: `status.currentRevision`, when it is not yet the update revision (a rolling update under way). */
  currentRevision?: string;
  /** Container images of the pod template, `name=image`. */
  images: string[];
  /** Jobs only. */
  job?: JobDetails;
  /** CronJobs only. */
  cronJob?: CronJobDetails;
}

/** A Job's spec and status counts. */
export interface JobDetails {
  /** `spec.completions`; absent when unset (one success completes the Job). */
  completions?: number;
  parallelism: number;
  backoffLimit: number;
  completionMode: string;
  suspended: boolean;
  active: number;
  succeeded: number;
  /** Failed pods so far: each one was a retry while the back-off limit held. */
  failed: number;
  startTime?: number;
  completionTime?: number;
}

/** A CronJob's schedule and the state of its runs. */
export interface CronJobDetails {
  schedule: string;
  timeZone?: string;
  suspended: boolean;
  concurrencyPolicy: string;
  /** Jobs running now (`status.active`). */
  active: number;
  lastScheduleTime?: number;
  lastSuccessfulTime?: number;
}

/** One object's journey, with the objects it owns. */
export interface ObjectJourney {
  ref: JourneyObjectRef;
  status: JourneyStatus;
  /** Stages ordered by time (ties in lifecycle order). */
  stages: Stage[];
  /** Set when status is `stuck` or `failed`. */
  stuck?: StuckDetail;
  /** creationTimestamp (sharpened when a more precise observation exists), ms. */
  createdAt?: number;
  /** When the DELETED arrived (or deletion was requested, while terminating), ms. */
  deletedAt?: number;
  /** The object existed well before the journey began (an old ReplicaSet and its pods in a rollout);
   * its stages before the apply are left out. */
  preexisting?: boolean;
  /** ReplicaSets under a Deployment (oldest revision first), Pods under a ReplicaSet (by creation). */
  children: ObjectJourney[];
  /** Pods only. */
  pod?: PodDetails;
  /** Workloads only (every kind but Pod, Service and EndpointSlice). */
  replicas?: ReplicaDetails;
  /** Services only. */
  service?: ServiceDetails;
  /** EndpointSlices only: the pods the slice routes to. */
  endpoints?: EndpointDetails[];
}

export interface ServiceDetails {
  type: string;
  /** `None` for a headless Service; absent for ExternalName. */
  clusterIP?: string;
  nodePorts: number[];
  /** `app=hello`; absent when the Service has no selector. */
  selector?: string;
  externalName?: string;
  /** Ready endpoints across its slices. */
  readyEndpoints: number;
  /** Endpoints kube-proxy last programmed (absent: not seen, e.g. on a real cluster). */
  programmedEndpoints?: number;
  programmedNodes?: number;
}

export interface EndpointDetails {
  /** The pod (its address when the endpoint names no pod). */
  pod: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  node?: string;
}

/** Distribution of one phase across a journey's pods, ms. */
export interface DurationStats {
  /** Pods that have this phase. */
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Pod counts of a journey. For a Deployment they count the pods of the newest ReplicaSet. */
export interface PodCounts {
  /** Replicas asked for (Deployment or ReplicaSet `spec.replicas`; 1 for a bare Pod). */
  desired: number;
  /** Pods that exist and are not terminating. */
  live: number;
  scheduled: number;
  running: number;
  ready: number;
  stuck: number;
  terminating: number;
  /** Pods deleted during the journey, all ReplicaSets. */
  deleted: number;
  /** Live pods of older ReplicaSets (a rollout in progress). */
  oldLive: number;
  /** Container restarts summed over live pods, all ReplicaSets. */
  restarts: number;
}

/** A stuck object, for the journey's summary list. */
export interface StuckEntry {
  ref: JourneyObjectRef;
  status: JourneyStatus;
  stuck: StuckDetail;
}

/** One applied root object (a Deployment, or a bare ReplicaSet or Pod) and everything it caused. */
export interface Journey {
  /** Stable id: `<Kind>/<namespace>/<name>@<appliedAt>`. */
  id: string;
  root: JourneyObjectRef;
  /** When the client applied the manifest, ms. */
  appliedAt: number;
  status: JourneyStatus;
  /** The root reached an end state: complete, failed or deleted. */
  done: boolean;
  /** Some object in the journey is stuck or failed (see `stuckObjects`). */
  stuck: boolean;
  /** When the root became complete (Deployment Available and rolled out, Pod Ready), ms. */
  completedAt?: number;
  /** apply → complete, ms. */
  totalDurationMs?: number;
  /** Time of the latest change seen, ms. */
  lastChangeAt: number;
  /** Increments with every change to the journey: a cheap "did it change" check for UIs. */
  version: number;
  counts: PodCounts;
  /** Phase distributions over the pods created during the journey. */
  phaseStats: Partial<Record<PhaseName, DurationStats>>;
  /** Stuck or failed objects, worst first, at most `TracerOptions.stuckListLimit`. */
  stuckObjects: StuckEntry[];
  /** How many objects are stuck or failed in all. */
  stuckCount: number;
  /** What the simulator assumed along the journey, the first `TracerOptions.stuckListLimit` (absent:
   * nothing). The outcome holds only under them: every consumer shows them beside it. */
  assumptions?: Assumption[];
  /** How many distinct assumptions there are in all (each may apply to many objects, see `Assumption.objects`). */
  assumptionCount?: number;
  /** How many objects at least one assumption applies to (absent in files saved before it was counted). */
  assumedObjects?: number;
  /** The root and its descendants; absent until the root was seen. */
  tree?: ObjectJourney;
}

/** Tells listeners which journey changed; read the new state with `journey(id)`. */
export interface JourneyChange {
  journeyId: string;
  version: number;
}

/**
 * What takes in a cluster's changes to trace them: the tracer itself, or a session in front of it.
 * The cluster watcher and the extension's journey sources feed one.
 */
export interface JourneySink {
  ingest(event: WatchEvent, receivedAt: number): void;
  ingestInternal(step: InternalStep): void;
}
