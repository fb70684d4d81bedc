/**
 * Which Kubernetes component acts on a manifest field, and at which stage of the journey. The
 * official descriptions (schema/fields.ts) say what a field means; these say what happens to it
 * after `kubectl apply`, in Kube Journey's own words, grounded in the components' sources (see
 * docs/lifecycle-facts.md). Declared as data so that the hover, its tests and the
 * docs read one table.
 */

/** A live fact the hover can add once the manifest was traced. */
export type LiveFact = 'replicas' | 'image' | 'scheduling' | 'readiness' | 'restarts' | 'revision' | 'podTemplate' | 'runs';

/** Stages in the order a manifest goes through them. */
export type RoleStage = 'admission' | 'controllers' | 'scheduling' | 'kubelet' | 'rollout' | 'status';

export const STAGE_LABELS: Record<RoleStage, string> = {
  admission: 'API server: validation and storage',
  controllers: 'controllers',
  scheduling: 'scheduling',
  kubelet: 'on the node',
  rollout: 'rollouts',
  status: 'status',
};

export interface FieldRole {
  /** The component, named as events and logs name it. */
  component: string;
  stage: RoleStage;
  /** What the component does with the field. One or two sentences. */
  effect: string;
  live?: LiveFact;
}

/**
 * Where a rule applies: the object itself, one workload kind, a Deployment or ReplicaSet
 * (`workload`), or a pod spec (wherever it sits). `Job` rules also cover a CronJob's
 * `spec.jobTemplate`, the Job every run copies.
 */
type Scope = 'object' | 'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'CronJob' | 'ReplicationController' | 'Service' | 'workload' | 'podSpec' | 'PodOnly';

interface RoleRule {
  scope: Scope;
  /** Path inside the scope, `[]` for any list index: `containers[].image`. A rule also covers the fields under it. */
  path: string;
  role: FieldRole;
}

const RULES: readonly RoleRule[] = [
  {
    scope: 'Service',
    path: 'spec.selector',
    role: { component: 'endpointslice-controller', stage: 'controllers', effect: 'Every pod of the namespace whose labels match becomes an endpoint in the Service\'s EndpointSlices (and its Endpoints), ready once the pod is Ready. A selector no pod matches leaves the Service with no endpoints; without a selector the endpoints are yours to write.' },
  },
  {
    scope: 'Service',
    path: 'spec.type',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'ClusterIP gets a virtual IP from the service range (10.96.0.0/12 on kind); NodePort and LoadBalancer also get a port in 30000–32767 on every node; a LoadBalancer waits for a cloud provider for its external IP (`<pending>` on kind); ExternalName gets no IP, only a DNS alias.' },
  },
  {
    scope: 'Service',
    path: 'spec.clusterIP',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'Allocated from the service range when unset; a chosen IP must be in that range and free (`provided IP is already allocated`). `None` makes the Service headless: no virtual IP and no kube-proxy rules, DNS answers with the pods\' own IPs.' },
  },
  {
    scope: 'Service',
    path: 'spec.ports[].nodePort',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'Allocated from 30000–32767 when unset (NodePort and LoadBalancer Services); a chosen port must be in that range and free (`provided port is already allocated`).' },
  },
  {
    scope: 'Service',
    path: 'spec.ports[].targetPort',
    role: { component: 'endpointslice-controller', stage: 'controllers', effect: 'Resolved on each pod: a number as it is, a name looked up among the pod\'s container ports of the same protocol. A pod without that named port gets no port for it in the EndpointSlice.' },
  },
  {
    scope: 'Service',
    path: 'spec.ports',
    role: { component: 'kube-proxy', stage: 'kubelet', effect: 'kube-proxy on every node writes rules sending the Service\'s IP and port to the endpoints\' ports, at most a second after the EndpointSlices change.' },
  },
  {
    scope: 'Service',
    path: 'spec.publishNotReadyAddresses',
    role: { component: 'endpointslice-controller', stage: 'controllers', effect: 'Lists pods as ready endpoints before they are Ready (and while terminating), so DNS and traffic reach them early, as StatefulSet peers discovering each other need.' },
  },
  {
    scope: 'object',
    path: 'apiVersion',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'Picks the API group and version the request is decoded in; the object is defaulted, validated and written to etcd in the storage version.' },
  },
  {
    scope: 'object',
    path: 'kind',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'Selects the resource: the object is stored under `/registry/<resource>/<namespace>/<name>` in etcd, and the controllers that watch that resource react to it.' },
  },
  {
    scope: 'object',
    path: 'metadata.name',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'Identifies the object: server-side apply creates it when no object has this name, and patches it otherwise.' },
  },
  {
    scope: 'object',
    path: 'metadata.namespace',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'The namespace must exist before the object is created; without it, the context\'s default namespace is used.' },
  },
  {
    scope: 'object',
    path: 'metadata.labels',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'Stored with the object; controllers and services find objects by matching these labels against their selectors.' },
  },
  {
    scope: 'object',
    path: 'status',
    role: { component: 'controllers and the kubelet', stage: 'status', effect: 'Written by the components, never by `apply`: a manifest\'s `status` is ignored by the API server.' },
  },
  {
    scope: 'Deployment',
    path: 'metadata.name',
    role: { component: 'deployment-controller', stage: 'controllers', effect: 'The ReplicaSet is named `<name>-<pod-template-hash>`, and the ReplicaSet controller names its pods `<replicaset>-<5 random characters>`.' },
  },
  {
    scope: 'Deployment',
    path: 'spec.replicas',
    role: {
      component: 'deployment-controller, then replicaset-controller',
      stage: 'controllers',
      effect: 'The deployment controller writes this count into the current ReplicaSet (scaling old ones down during a rollout); the ReplicaSet controller then creates or deletes pods until exactly that many exist. Defaults to 1.',
      live: 'replicas',
    },
  },
  {
    scope: 'ReplicaSet',
    path: 'spec.replicas',
    role: {
      component: 'replicaset-controller',
      stage: 'controllers',
      effect: 'The ReplicaSet controller keeps that many pods: it creates missing ones in batches of 1, 2, 4, 8… (at most 500 per sync) and deletes extra ones, not-yet-scheduled and not-ready pods first.',
      live: 'replicas',
    },
  },
  {
    scope: 'workload',
    path: 'spec.selector',
    role: { component: 'deployment-controller and replicaset-controller', stage: 'controllers', effect: 'How the controllers find the ReplicaSets and pods they own. It must match the template\'s labels, and it cannot change after creation in apps/v1.' },
  },
  {
    scope: 'Deployment',
    path: 'spec.template',
    role: {
      component: 'deployment-controller',
      stage: 'rollout',
      effect: 'The controller hashes the pod template (FNV-32a, the `pod-template-hash` label): any change to it creates a new ReplicaSet and starts a rolling update; an unchanged template reuses the current one.',
      live: 'revision',
    },
  },
  {
    scope: 'ReplicaSet',
    path: 'spec.template',
    role: { component: 'replicaset-controller', stage: 'controllers', effect: 'Every pod the ReplicaSet creates is a copy of this template. Changing it does not touch existing pods; only new pods get the new template.', live: 'podTemplate' },
  },
  {
    scope: 'workload',
    path: 'spec.template.metadata.labels',
    role: { component: 'replicaset-controller', stage: 'controllers', effect: 'Each new pod gets these labels (a Deployment adds `pod-template-hash`); the selector must match them or the API server rejects the object.' },
  },
  {
    scope: 'Deployment',
    path: 'spec.strategy',
    role: {
      component: 'deployment-controller',
      stage: 'rollout',
      effect: 'How a new template replaces the old pods. RollingUpdate (the default) keeps at most `replicas + maxSurge` pods (surge rounds up) and at least `replicas - maxUnavailable` available (unavailable rounds down); both default to 25%.',
    },
  },
  {
    scope: 'Deployment',
    path: 'spec.minReadySeconds',
    role: { component: 'deployment-controller', stage: 'rollout', effect: 'A pod counts as available only after it has been Ready this long; the rollout and the Available condition wait for it.' },
  },
  {
    scope: 'Deployment',
    path: 'spec.revisionHistoryLimit',
    role: { component: 'deployment-controller', stage: 'rollout', effect: 'Old ReplicaSets kept for `kubectl rollout undo` (default 10); the controller deletes the oldest beyond that.' },
  },
  {
    scope: 'Deployment',
    path: 'spec.progressDeadlineSeconds',
    role: { component: 'deployment-controller', stage: 'rollout', effect: 'Without progress for this long (default 600 s), the controller sets the Progressing condition to False with reason `ProgressDeadlineExceeded`; `kubectl rollout status` then fails.' },
  },
  {
    scope: 'Deployment',
    path: 'spec.paused',
    role: { component: 'deployment-controller', stage: 'rollout', effect: 'While paused, template changes create no new ReplicaSet (Progressing reason `DeploymentPaused`); scaling still applies.' },
  },
  {
    scope: 'StatefulSet',
    path: 'metadata.name',
    role: { component: 'statefulset-controller', stage: 'controllers', effect: 'Each pod is named `<name>-<ordinal>` (`web-0`, `web-1`, …) and keeps that name, its hostname and its volumes when it is recreated.' },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.replicas',
    role: {
      component: 'statefulset-controller',
      stage: 'controllers',
      effect: 'The controller keeps one pod per ordinal from 0 to replicas − 1. With the default `OrderedReady` policy it creates them one at a time, lowest ordinal first, and removes them highest first.',
      live: 'replicas',
    },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.serviceName',
    role: { component: 'statefulset-controller', stage: 'controllers', effect: 'Sets each pod\'s `subdomain` to this Service (its hostname is the pod name), so a headless Service of that name gives every pod a stable DNS name `<pod>.<serviceName>.<namespace>.svc`. The controller does not create the Service.' },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.podManagementPolicy',
    role: {
      component: 'statefulset-controller',
      stage: 'controllers',
      effect: '`OrderedReady` (the default) creates pod N only once pods 0 … N−1 are Running and Ready, and deletes in reverse order; `Parallel` creates and deletes them all at once. It applies to scaling, not to rolling updates.',
      live: 'replicas',
    },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.volumeClaimTemplates',
    role: { component: 'statefulset-controller', stage: 'controllers', effect: 'Before creating a pod, the controller creates one PersistentVolumeClaim per template, named `<template>-<statefulset>-<ordinal>`, and mounts it in the pod; a recreated pod gets the same claims back. The claims outlive the pods unless the retention policy says `Delete`.' },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.updateStrategy',
    role: {
      component: 'statefulset-controller',
      stage: 'rollout',
      effect: '`RollingUpdate` (the default) replaces pods on a template change one at a time, highest ordinal first, each after the one before is Running and Ready again; `OnDelete` leaves running pods alone until you delete them.',
      live: 'revision',
    },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.updateStrategy.rollingUpdate.partition',
    role: { component: 'statefulset-controller', stage: 'rollout', effect: 'Only pods with an ordinal ≥ partition move to the new revision (`status.updateRevision`); lower ones stay on `currentRevision` even when recreated. Lower it step by step for a staged (canary) rollout.', live: 'revision' },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.persistentVolumeClaimRetentionPolicy',
    role: { component: 'statefulset-controller', stage: 'controllers', effect: '`whenDeleted` and `whenScaled` say whether the claims from volumeClaimTemplates are kept (`Retain`, the default) or deleted (`Delete`, by the garbage collector through owner references the controller sets) when the StatefulSet is deleted or scaled down.' },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.minReadySeconds',
    role: { component: 'statefulset-controller', stage: 'rollout', effect: 'A pod counts in `status.availableReplicas` only after it has been Ready this long (default 0).', live: 'readiness' },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.ordinals',
    role: { component: 'statefulset-controller', stage: 'controllers', effect: '`start` is the first ordinal (default 0): with `start: 5` and 3 replicas the pods are `<name>-5`, `<name>-6` and `<name>-7`.' },
  },
  {
    scope: 'StatefulSet',
    path: 'spec.template',
    role: { component: 'statefulset-controller', stage: 'rollout', effect: 'The controller records every template as a ControllerRevision (`<name>-<hash>`); a change makes a new update revision that the update strategy rolls out.', live: 'revision' },
  },
  {
    scope: 'DaemonSet',
    path: 'spec.template',
    role: { component: 'daemonset-controller', stage: 'controllers', effect: 'One pod from this template on every eligible node. The controller adds node affinity for its node to each pod (the scheduler then binds it there) and tolerations for `node.kubernetes.io/not-ready`, `unreachable`, `disk-pressure`, `memory-pressure`, `pid-pressure` and `unschedulable`, so daemon pods stay through node trouble.', live: 'replicas' },
  },
  {
    scope: 'DaemonSet',
    path: 'spec.template.spec.nodeSelector',
    role: { component: 'daemonset-controller', stage: 'controllers', effect: 'Narrows the eligible nodes: the controller creates a pod only on nodes whose labels match, and deletes it from a node that stops matching. No matching node means no pod, not a Pending one.', live: 'scheduling' },
  },
  {
    scope: 'DaemonSet',
    path: 'spec.template.spec.affinity',
    role: { component: 'daemonset-controller', stage: 'controllers', effect: 'Required node affinity narrows the eligible nodes the controller creates pods for; the controller then adds its own term for the pod\'s node.', live: 'scheduling' },
  },
  {
    scope: 'DaemonSet',
    path: 'spec.template.spec.tolerations',
    role: { component: 'daemonset-controller', stage: 'controllers', effect: 'A node with a `NoSchedule` or `NoExecute` taint these do not tolerate gets no daemon pod (control-plane nodes, for instance); tolerating it puts a pod there too.', live: 'scheduling' },
  },
  {
    scope: 'DaemonSet',
    path: 'spec.updateStrategy',
    role: { component: 'daemonset-controller', stage: 'rollout', effect: '`RollingUpdate` (the default) replaces daemon pods node by node on a template change; `OnDelete` replaces a pod only when you delete it.', live: 'revision' },
  },
  {
    scope: 'DaemonSet',
    path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
    role: { component: 'daemonset-controller', stage: 'rollout', effect: 'How many nodes may be without an available daemon pod during an update (default 1, or a percentage of the desired nodes): the controller deletes old pods on at most that many nodes at once.', live: 'revision' },
  },
  {
    scope: 'DaemonSet',
    path: 'spec.updateStrategy.rollingUpdate.maxSurge',
    role: { component: 'daemonset-controller', stage: 'rollout', effect: 'How many nodes may run an old and a new pod side by side (default 0): the new pod starts first and the old one is deleted once the new one is available. Must be 0 when maxUnavailable is not.', live: 'revision' },
  },
  {
    scope: 'DaemonSet',
    path: 'spec.minReadySeconds',
    role: { component: 'daemonset-controller', stage: 'rollout', effect: 'A daemon pod counts as available (`status.numberAvailable`) only after it has been Ready this long; a rolling update waits for it.', live: 'readiness' },
  },
  {
    scope: 'ReplicationController',
    path: 'spec.replicas',
    role: { component: 'replication-controller', stage: 'controllers', effect: 'The controller keeps that many pods matching the selector, creating or deleting pods as a ReplicaSet does. Defaults to 1.', live: 'replicas' },
  },
  {
    scope: 'ReplicationController',
    path: 'spec.template',
    role: { component: 'replication-controller', stage: 'controllers', effect: 'Every pod the controller creates is a copy of this template; changing it does not touch existing pods.', live: 'podTemplate' },
  },
  {
    scope: 'Job',
    path: 'spec.completions',
    role: { component: 'job-controller', stage: 'controllers', effect: 'How many pods must succeed for the Job to complete. Unset, the first successful pod completes it once no other pod runs.', live: 'runs' },
  },
  {
    scope: 'Job',
    path: 'spec.parallelism',
    role: { component: 'job-controller', stage: 'controllers', effect: 'How many pods the controller runs at once (default 1), never more than the completions still missing; 0 runs none.', live: 'runs' },
  },
  {
    scope: 'Job',
    path: 'spec.backoffLimit',
    role: {
      component: 'job-controller',
      stage: 'controllers',
      effect: 'Failed pods the controller retries (default 6). Each retry waits an exponential back-off (10 s, 20 s, 40 s … up to 6 min); one failure more and the Job is Failed with reason `BackoffLimitExceeded` ("Job has reached the specified backoff limit") and its running pods are deleted.',
      live: 'runs',
    },
  },
  {
    scope: 'Job',
    path: 'spec.backoffLimitPerIndex',
    role: { component: 'job-controller', stage: 'controllers', effect: 'Indexed Jobs only: retries per completion index instead of for the whole Job. An index past its limit is marked in `status.failedIndexes` and the others carry on; the Job fails with reason `FailedIndexes` at the end (or at once past `maxFailedIndexes`).', live: 'runs' },
  },
  {
    scope: 'Job',
    path: 'spec.completionMode',
    role: { component: 'job-controller', stage: 'controllers', effect: '`NonIndexed` (the default): any `completions` successes complete the Job. `Indexed`: each pod gets an index 0 … completions − 1 (annotation `batch.kubernetes.io/job-completion-index`, env `JOB_COMPLETION_INDEX`, hostname `<job>-<index>`), and each index must succeed once.', live: 'runs' },
  },
  {
    scope: 'Job',
    path: 'spec.activeDeadlineSeconds',
    role: { component: 'job-controller', stage: 'controllers', effect: 'Counted from `status.startTime`: past it the controller deletes the running pods and marks the Job Failed with reason `DeadlineExceeded` ("Job was active longer than specified deadline"), whatever the backoffLimit.', live: 'runs' },
  },
  {
    scope: 'Job',
    path: 'spec.ttlSecondsAfterFinished',
    role: { component: 'ttl-after-finished-controller', stage: 'status', effect: 'This long after the Job completes or fails, the controller deletes it, and its pods with it (cascading deletion). Unset, finished Jobs stay until deleted.' },
  },
  {
    scope: 'Job',
    path: 'spec.podFailurePolicy',
    role: { component: 'job-controller', stage: 'controllers', effect: 'Rules matched against a failed pod\'s exit codes or conditions (such as `DisruptionTarget`): `FailJob` fails the Job at once (reason `PodFailurePolicy`), `Ignore` retries without counting against backoffLimit, `Count` counts as usual, `FailIndex` fails just that index. Needs `restartPolicy: Never`.', live: 'runs' },
  },
  {
    scope: 'Job',
    path: 'spec.suspend',
    role: { component: 'job-controller', stage: 'controllers', effect: 'While true the controller creates no pods and deletes running ones; the Job gets condition `Suspended` (reason `JobSuspended`). Resuming resets `startTime`, so activeDeadlineSeconds starts again.', live: 'runs' },
  },
  {
    scope: 'Job',
    path: 'spec.successPolicy',
    role: { component: 'job-controller', stage: 'controllers', effect: 'Indexed Jobs only: rules (`succeededIndexes`, `succeededCount`) that complete the Job early. When one matches, the Job gets `SuccessCriteriaMet` (reason `SuccessPolicy`), its remaining pods are terminated, then it is Complete.', live: 'runs' },
  },
  {
    scope: 'Job',
    path: 'spec.template',
    role: { component: 'job-controller', stage: 'controllers', effect: 'Every pod of the Job, retries included, is a copy of this template. `restartPolicy` must be `Never` (a failed container fails the pod: a new pod is a retry) or `OnFailure` (the kubelet restarts the container in the same pod).', live: 'runs' },
  },
  {
    scope: 'CronJob',
    path: 'spec.schedule',
    role: { component: 'cronjob-controller', stage: 'controllers', effect: 'Cron syntax (`minute hour day-of-month month day-of-week`, or `@hourly` …). At each scheduled time the controller creates a Job from jobTemplate, named `<cronjob>-<scheduled time in minutes since the epoch>`, and records it in `status.lastScheduleTime`.', live: 'runs' },
  },
  {
    scope: 'CronJob',
    path: 'spec.timeZone',
    role: { component: 'cronjob-controller', stage: 'controllers', effect: 'The IANA time zone the schedule is read in (`Etc/UTC`, `Europe/Paris`). Unset, kube-controller-manager\'s local time zone.', live: 'runs' },
  },
  {
    scope: 'CronJob',
    path: 'spec.concurrencyPolicy',
    role: {
      component: 'cronjob-controller',
      stage: 'controllers',
      effect: 'What a scheduled time does while an earlier Job still runs: `Allow` (default) starts another, `Forbid` skips this run (event `JobAlreadyActive`: "Not starting job because prior execution is running and concurrency policy is Forbid"), `Replace` deletes the running Job and starts the new one.',
      live: 'runs',
    },
  },
  {
    scope: 'CronJob',
    path: 'spec.startingDeadlineSeconds',
    role: { component: 'cronjob-controller', stage: 'controllers', effect: 'A run the controller notices more than this late (controller down, `Forbid` blocking) is skipped and counted as missed. Unset, a late run still starts; more than 100 missed times give the warning `TooManyMissedTimes`.', live: 'runs' },
  },
  {
    scope: 'CronJob',
    path: 'spec.suspend',
    role: { component: 'cronjob-controller', stage: 'controllers', effect: 'While true no new Job is created (Jobs already running go on); the times missed meanwhile count against startingDeadlineSeconds when it is resumed.', live: 'runs' },
  },
  {
    scope: 'CronJob',
    path: 'spec.successfulJobsHistoryLimit',
    role: { component: 'cronjob-controller', stage: 'controllers', effect: 'Completed Jobs kept (default 3); the controller deletes older ones, with their pods.' },
  },
  {
    scope: 'CronJob',
    path: 'spec.failedJobsHistoryLimit',
    role: { component: 'cronjob-controller', stage: 'controllers', effect: 'Failed Jobs kept (default 1); the controller deletes older ones, with their pods.' },
  },
  {
    scope: 'CronJob',
    path: 'spec.jobTemplate',
    role: { component: 'cronjob-controller', stage: 'controllers', effect: 'Each run creates a Job from this template (owned by the CronJob); the job-controller then runs its pods. Changing it affects later runs only, never a Job already created.', live: 'runs' },
  },
  {
    scope: 'podSpec',
    path: 'nodeSelector',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'The NodeAffinity filter drops every node whose labels lack one of these pairs (`node(s) didn\'t match Pod\'s node affinity/selector`). No matching node leaves the pod Pending.', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'affinity.nodeAffinity',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'Required terms filter nodes (NodeAffinity plugin); preferred terms add to a node\'s score (weight 2).', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'affinity',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'The InterPodAffinity plugin places the pod near (affinity) or away from (anti-affinity) pods matching the terms; required terms filter nodes, preferred ones score them.', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'tolerations',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'The TaintToleration filter skips nodes with a NoSchedule or NoExecute taint the pod does not tolerate (`node(s) had untolerated taint {…}`); PreferNoSchedule taints only lower the score.', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'topologySpreadConstraints',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'The PodTopologySpread plugin keeps matching pods spread over the topology domains (zones, nodes) within `maxSkew`.', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'schedulingGates',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'While any gate is listed the scheduler makes no attempt: the pod stays Pending with PodScheduled=False reason `SchedulingGated` (`kubectl get pod` shows SchedulingGated). Gates can only be removed; removing the last one queues the pod.', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'nodeName',
    role: { component: 'kubelet', stage: 'scheduling', effect: 'A pod with a node name set skips the scheduler: the kubelet of that node admits and starts it directly.', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'schedulerName',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'Only the scheduler with this name picks the pod from its queue (default `default-scheduler`); with no such scheduler the pod stays Pending.' },
  },
  {
    scope: 'podSpec',
    path: 'priorityClassName',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'Higher-priority pods leave the scheduling queue first (PrioritySort), and DefaultPreemption may evict lower-priority pods to make room for them.' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].image',
    role: {
      component: 'kubelet',
      stage: 'kubelet',
      effect: 'After the pod is bound, the kubelet of that node asks the container runtime to pull the image (events `Pulling`, then `Pulled`), unless it is already present. The scheduler\'s ImageLocality score prefers nodes that have it.',
      live: 'image',
    },
  },
  {
    scope: 'podSpec',
    path: 'containers[].imagePullPolicy',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'When the kubelet pulls: `IfNotPresent` (default for tagged images) reuses an image on the node, `Always` (default for `:latest` or no tag) pulls every start, `Never` fails with `ErrImageNeverPull` if it is missing.', live: 'image' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].resources.requests',
    role: {
      component: 'default-scheduler',
      stage: 'scheduling',
      effect: 'The NodeResourcesFit filter keeps only nodes whose allocatable room, minus the requests of the pods already there, still fits these requests (`Insufficient cpu`, `Insufficient memory`); scoring then favours the least allocated nodes.',
      live: 'scheduling',
    },
  },
  {
    scope: 'podSpec',
    path: 'containers[].resources.limits',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'The kubelet hands the limits to the container runtime as cgroup limits: CPU above the limit is throttled, memory above it is killed (`OOMKilled`). Requests default to the limits when unset.', live: 'restarts' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].resources',
    role: { component: 'default-scheduler and kubelet', stage: 'scheduling', effect: 'Requests decide where the pod fits (scheduler); limits cap what it may use on the node (kubelet and container runtime).', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].ports[].hostPort',
    role: { component: 'default-scheduler', stage: 'scheduling', effect: 'The NodePorts filter skips nodes where another pod already uses this port (`node(s) didn\'t have free ports for the requested pod ports`).', live: 'scheduling' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].readinessProbe',
    role: {
      component: 'kubelet',
      stage: 'kubelet',
      effect: 'The kubelet runs the probe once the container started; the pod\'s Ready condition turns True only when it passes. Ready pods count as available for the Deployment and receive Service traffic.',
      live: 'readiness',
    },
  },
  {
    scope: 'podSpec',
    path: 'containers[].livenessProbe',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'When the probe fails `failureThreshold` times, the kubelet kills and restarts the container (event `Unhealthy`, then `Killing`).', live: 'restarts' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].startupProbe',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'Liveness and readiness probes wait until this probe succeeds once; failing it past `failureThreshold` restarts the container.', live: 'readiness' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].command',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'The container runtime starts this process (replacing the image\'s ENTRYPOINT). If it exits, the pod\'s restartPolicy decides what the kubelet does next.', live: 'restarts' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].args',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'Arguments for the container\'s process (replacing the image\'s CMD), passed by the kubelet to the container runtime.', live: 'restarts' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].env',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'The kubelet resolves the variables before creating the container; a missing ConfigMap or Secret key leaves it waiting with `CreateContainerConfigError`.' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].envFrom',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'The kubelet reads the whole ConfigMap or Secret before creating the container; if it does not exist, the container waits with `CreateContainerConfigError`.' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].volumeMounts',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'The kubelet mounts the pod\'s volumes into the container before starting it; a volume that cannot be mounted shows as a `FailedMount` event.' },
  },
  {
    scope: 'podSpec',
    path: 'containers[].name',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'Names the container in the kubelet\'s events (`Created container nginx`, `Started container nginx`) and in `status.containerStatuses`.' },
  },
  {
    scope: 'podSpec',
    path: 'containers',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'The kubelet of the node the pod is bound to creates the pod sandbox, then pulls, creates and starts each container through the container runtime (CRI).', live: 'readiness' },
  },
  {
    scope: 'podSpec',
    path: 'initContainers',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'The kubelet runs each init container to completion, in order, before any app container starts; the Initialized condition turns True after the last one.' },
  },
  {
    scope: 'podSpec',
    path: 'volumes',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'The kubelet prepares the volumes on the node before the containers start (`FailedMount` when it cannot).' },
  },
  {
    scope: 'podSpec',
    path: 'restartPolicy',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'What the kubelet does when a container exits. With `Always` (the only value a Deployment allows), it restarts it after a back-off that starts at 10 s and doubles up to 5 min (`CrashLoopBackOff`).', live: 'restarts' },
  },
  {
    scope: 'podSpec',
    path: 'terminationGracePeriodSeconds',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'On deletion the kubelet sends SIGTERM and waits this long (default 30 s) before SIGKILL; the pod shows as Terminating meanwhile.' },
  },
  {
    scope: 'podSpec',
    path: 'serviceAccountName',
    role: { component: 'kube-apiserver', stage: 'admission', effect: 'The ServiceAccount admission plugin checks the account and mounts its token into the pod when it is created.' },
  },
  {
    scope: 'podSpec',
    path: 'readinessGates',
    role: { component: 'kubelet', stage: 'kubelet', effect: 'Ready stays False (`ReadinessGatesNotReady`) until every listed condition is True, even when all containers are ready.', live: 'readiness' },
  },
  {
    scope: 'PodOnly',
    path: 'spec',
    role: { component: 'default-scheduler and kubelet', stage: 'scheduling', effect: 'The scheduler picks a node for this pod and sets `spec.nodeName`; the kubelet on that node then runs it.', live: 'scheduling' },
  },
];

/** Path segments with list indices replaced by `[]` and glued to the list name: `containers[].image`. */
function normalize(path: readonly (string | number)[]): string[] {
  const out: string[] = [];
  for (const segment of path) {
    if (typeof segment === 'number' || /^\d+$/.test(segment)) {
      if (out.length > 0) out[out.length - 1] += '[]';
    } else out.push(segment);
  }
  return out;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

/** Whether a rule's path is the field or one of its parents; a rule on a list (`tolerations`) also covers its items. */
function coveredBy(path: readonly string[], rulePath: readonly string[]): boolean {
  return rulePath.length <= path.length && rulePath.every((segment, i) => path[i] === segment || path[i] === `${segment}[]`);
}

/** Where the pod spec sits in a kind, or undefined for kinds without one. */
/** Kinds whose pod template sits at `spec.template`. */
const TEMPLATE_KINDS: ReadonlySet<string> = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController']);

function podSpecPrefix(kind: string): string[] | undefined {
  if (kind === 'Pod') return ['spec'];
  if (kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  return TEMPLATE_KINDS.has(kind) ? ['spec', 'template', 'spec'] : undefined;
}

function scopedPath(scope: Scope, kind: string, path: readonly string[]): readonly string[] | undefined {
  switch (scope) {
    case 'object':
      return path;
    case 'Job':
      if (kind === 'CronJob') return startsWith(path, ['spec', 'jobTemplate']) ? path.slice(2) : undefined;
      return kind === scope ? path : undefined;
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'CronJob':
    case 'ReplicationController':
    case 'Service':
      return kind === scope ? path : undefined;
    case 'workload':
      return kind === 'Deployment' || kind === 'ReplicaSet' ? path : undefined;
    case 'PodOnly':
      return kind === 'Pod' ? path : undefined;
    case 'podSpec': {
      const prefix = podSpecPrefix(kind);
      return prefix && startsWith(path, prefix) ? path.slice(prefix.length) : undefined;
    }
  }
}

/**
 * The role of the field at `path` (as fieldPathAt gives it) in an object of `kind`: the most
 * specific rule whose path is the field or one of its parents. Kind-specific rules win over
 * generic ones of the same depth.
 */
export function fieldRole(kind: string, path: readonly (string | number)[]): FieldRole | undefined {
  const normalized = normalize(path);
  let best: { rule: RoleRule; depth: number } | undefined;
  for (const rule of RULES) {
    const inScope = scopedPath(rule.scope, kind, normalized);
    if (!inScope) continue;
    const rulePath = rule.path.split('.');
    if (!coveredBy(inScope, rulePath)) continue;
    const depth = normalized.length - inScope.length + rulePath.length;
    const specific = rule.scope !== 'object';
    if (!best || depth > best.depth || (depth === best.depth && specific && best.rule.scope === 'object')) best = { rule, depth };
  }
  return best?.rule.role;
}

/** Every rule, for documentation and tests. */
export function allFieldRoles(): readonly { scope: string; path: string; role: FieldRole }[] {
  return RULES;
}
