/**
 * Finished journeys of the workload kinds beyond Deployments, traced from hand-built streams
 * shaped as a real cluster sends them, for the views that show journeys (tree, CodeLens, hover,
 * CLI text, timeline). Built through the tracer (or a session in front of one), so they have the
 * shape it really produces.
 */
import type { KubeObject, WatchEvent } from '../../../src/core/k8s';
import { JourneyTracer, type RootSpec } from '../../../src/core/journey/tracer';
import type { Journey, TraceableKind } from '../../../src/core/journey/types';
import { iso, nextRv, podObject, T0, type Owner } from './objects';

const API_VERSION: Record<string, string> = { StatefulSet: 'apps/v1', DaemonSet: 'apps/v1', Job: 'batch/v1', CronJob: 'batch/v1', ReplicationController: 'v1' };

export function workloadObject(kind: string, name: string, uid: string, spec: Record<string, unknown>, status: Record<string, unknown>, owner?: Owner, created = T0): KubeObject {
  const apiVersion = API_VERSION[kind] ?? 'apps/v1';
  const metadata: Record<string, unknown> = { name, namespace: 'default', uid, resourceVersion: nextRv(), generation: 1, creationTimestamp: iso(created) };
  if (owner) metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }];
  else metadata.managedFields = [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion, time: iso(T0), fieldsType: 'FieldsV1', fieldsV1: {} }];
  return { kind, apiVersion, metadata, spec, status };
}

function readyPod(name: string, uid: string, owner: Owner, at: number, node = 'node-1'): KubeObject {
  return podObject({ name, uid, owner, created: at - 500, nodeName: node, phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True', at }, { type: 'Ready', status: 'True', at: at + 2000 }], containers: [{ running: { startedAt: iso(at + 1000) }, ready: true }] });
}

function exitedPod(name: string, uid: string, owner: Owner, at: number, node: string, exitCode: number): KubeObject {
  const reason = exitCode === 0 ? 'Completed' : 'Error';
  return podObject({
    name,
    uid,
    owner,
    created: at,
    nodeName: node,
    phase: exitCode === 0 ? 'Succeeded' : 'Failed',
    conditions: [{ type: 'PodScheduled', status: 'True', at: at + 100 }],
    containers: [{ name: 'nginx', terminated: { exitCode, reason, startedAt: iso(at + 1000), finishedAt: iso(at + 4000) } }],
  });
}

/** What the journeys are traced into: a tracer, or a session in front of one (the extension's). */
export interface TraceTarget {
  begin(root: RootSpec, appliedAt: number): string;
  ingest(event: WatchEvent, receivedAt: number): void;
  journey(id: string): Journey | undefined;
}

interface Traced {
  tracer: TraceTarget;
  id: string;
  journey(): Journey;
}

function begin(kind: TraceableKind, name: string, into: TraceTarget = new JourneyTracer()): Traced {
  const tracer = into;
  const id = tracer.begin({ kind, name }, T0);
  return { tracer, id, journey: () => tracer.journey(id) as Journey };
}

/**
 * StatefulSet `web` with `replicas` pods web-0 … web-N, each created once the one before is Ready
 * (OrderedReady), or all in the same second (`parallel`, podManagementPolicy Parallel).
 */
export function statefulSetJourney(replicas = 2, into?: TraceTarget, parallel = false): Journey {
  const t = begin('StatefulSet', 'web', into);
  const spec = { replicas, serviceName: 'nginx', podManagementPolicy: parallel ? 'Parallel' : 'OrderedReady', selector: { matchLabels: { app: 'nginx' } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } };
  const set: Owner = { kind: 'StatefulSet', name: 'web', uid: 'sts-1' };
  t.tracer.ingest({ type: 'ADDED', object: workloadObject('StatefulSet', 'web', 'sts-1', spec, {}) }, T0 + 5);
  let at = T0 + 1000;
  for (let i = 0; i < replicas; i++) {
    const created = parallel ? T0 + 500 : at - 500;
    t.tracer.ingest({ type: 'ADDED', object: podObject({ name: `web-${i}`, uid: `p${i}`, owner: set, created }) }, at - 400);
    if (i === 0) t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('StatefulSet', 'web', 'sts-1', spec, { observedGeneration: 1, replicas: 1, readyReplicas: 0, currentRevision: 'web-7b9b', updateRevision: 'web-7b9b' }) }, at - 300);
    t.tracer.ingest({ type: 'MODIFIED', object: readyPod(`web-${i}`, `p${i}`, set, at, `node-${(i % 3) + 1}`) }, at + 2100);
    at += 3000;
  }
  const status = { observedGeneration: 1, replicas, readyReplicas: replicas, currentReplicas: replicas, updatedReplicas: replicas, availableReplicas: replicas, currentRevision: 'web-7b9b', updateRevision: 'web-7b9b' };
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('StatefulSet', 'web', 'sts-1', spec, status) }, at);
  return t.journey();
}

/** DaemonSet `fluentd` with one ready pod on each of `nodes` nodes. */
export function daemonSetJourney(nodes = 3, into?: TraceTarget): Journey {
  const t = begin('DaemonSet', 'fluentd', into);
  const spec = { selector: {}, template: { spec: { containers: [{ name: 'fluentd', image: 'fluentd:v2' }] } } };
  const set: Owner = { kind: 'DaemonSet', name: 'fluentd', uid: 'ds-1' };
  t.tracer.ingest({ type: 'ADDED', object: workloadObject('DaemonSet', 'fluentd', 'ds-1', spec, {}) }, T0 + 5);
  for (let i = 1; i <= nodes; i++) {
    const suffix = (100_000 + i * 7919).toString(36).slice(-5);
    t.tracer.ingest({ type: 'ADDED', object: readyPod(`fluentd-${suffix}`, `d${i}`, set, T0 + 1000 + i, `node-${i}`) }, T0 + 3200 + i);
  }
  const status = { observedGeneration: 1, desiredNumberScheduled: nodes, currentNumberScheduled: nodes, numberReady: nodes, updatedNumberScheduled: nodes, numberAvailable: nodes };
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('DaemonSet', 'fluentd', 'ds-1', spec, status) }, T0 + 4000 + nodes);
  return t.journey();
}

const JOB_SPEC = { completions: 1, parallelism: 1, backoffLimit: 4, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'nginx', image: 'perl:5.34.0' }] } } };

/** Job `pi`: the first pod exits 1 (a retry), the second exits 0 and the Job completes. */
export function jobJourney(into?: TraceTarget): Journey {
  const t = begin('Job', 'pi', into);
  const job: Owner = { kind: 'Job', name: 'pi', uid: 'job-1' };
  t.tracer.ingest({ type: 'ADDED', object: workloadObject('Job', 'pi', 'job-1', JOB_SPEC, { active: 1, startTime: iso(T0) }) }, T0 + 5);
  t.tracer.ingest({ type: 'ADDED', object: exitedPod('pi-abcde', 'p1', job, T0 + 100, 'node-1', 1) }, T0 + 4200);
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('Job', 'pi', 'job-1', JOB_SPEC, { active: 0, failed: 1, startTime: iso(T0) }) }, T0 + 4300);
  t.tracer.ingest({ type: 'ADDED', object: exitedPod('pi-fghij', 'p2', job, T0 + 14_000, 'node-2', 0) }, T0 + 18_200);
  const complete = [{ type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: iso(T0 + 18_000) }, { type: 'Complete', status: 'True', lastTransitionTime: iso(T0 + 18_000) }];
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('Job', 'pi', 'job-1', JOB_SPEC, { failed: 1, succeeded: 1, conditions: complete, startTime: iso(T0), completionTime: iso(T0 + 18_000) }) }, T0 + 18_300);
  return t.journey();
}

/** Job `pi` with backoffLimit 0 whose only pod exits 1: Failed, BackoffLimitExceeded. */
export function failedJobJourney(into?: TraceTarget): Journey {
  const t = begin('Job', 'pi', into);
  const job: Owner = { kind: 'Job', name: 'pi', uid: 'job-1' };
  const spec = { ...JOB_SPEC, backoffLimit: 0 };
  t.tracer.ingest({ type: 'ADDED', object: workloadObject('Job', 'pi', 'job-1', spec, { active: 1, startTime: iso(T0) }) }, T0 + 5);
  t.tracer.ingest({ type: 'ADDED', object: exitedPod('pi-abcde', 'p1', job, T0 + 100, 'node-1', 1) }, T0 + 4200);
  const failed = [
    { type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: iso(T0 + 4300) },
    { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: iso(T0 + 4300) },
  ];
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('Job', 'pi', 'job-1', spec, { failed: 1, conditions: failed, startTime: iso(T0) }) }, T0 + 4400);
  return t.journey();
}

export const CRON_SPEC = { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.28' }] } } } } };

/** CronJob `hello` before its first scheduled time. */
export function waitingCronJobJourney(into?: TraceTarget): Journey {
  const t = begin('CronJob', 'hello', into);
  t.tracer.ingest({ type: 'ADDED', object: workloadObject('CronJob', 'hello', 'cj-1', CRON_SPEC, {}) }, T0 + 5);
  return t.journey();
}

/** CronJob `hello` whose first Job (one pod, exit 0) completed one minute after the apply. */
export function cronJobJourney(into?: TraceTarget): Journey {
  const t = begin('CronJob', 'hello', into);
  const cron: Owner = { kind: 'CronJob', name: 'hello', uid: 'cj-1' };
  const runAt = T0 + 60_000;
  t.tracer.ingest({ type: 'ADDED', object: workloadObject('CronJob', 'hello', 'cj-1', CRON_SPEC, {}) }, T0 + 5);
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('CronJob', 'hello', 'cj-1', CRON_SPEC, { active: [{ kind: 'Job', name: 'hello-29034242' }], lastScheduleTime: iso(runAt) }) }, runAt + 50);
  const jobSpec = CRON_SPEC.jobTemplate.spec;
  t.tracer.ingest({ type: 'ADDED', object: workloadObject('Job', 'hello-29034242', 'job-1', jobSpec, { active: 1 }, cron, runAt) }, runAt + 60);
  const job: Owner = { kind: 'Job', name: 'hello-29034242', uid: 'job-1' };
  t.tracer.ingest({ type: 'ADDED', object: exitedPod('hello-29034242-x7k2p', 'p1', job, runAt + 100, 'node-1', 0) }, runAt + 4200);
  const complete = [{ type: 'Complete', status: 'True', lastTransitionTime: iso(runAt + 5000) }];
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('Job', 'hello-29034242', 'job-1', jobSpec, { succeeded: 1, conditions: complete, completionTime: iso(runAt + 5000) }, cron, runAt) }, runAt + 5100);
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('CronJob', 'hello', 'cj-1', CRON_SPEC, { lastScheduleTime: iso(runAt), lastSuccessfulTime: iso(runAt + 5000) }) }, runAt + 5200);
  return t.journey();
}

/** ReplicationController `nginx` with one ready pod. */
export function replicationControllerJourney(into?: TraceTarget): Journey {
  const t = begin('ReplicationController', 'nginx', into);
  const spec = { replicas: 1, selector: { app: 'nginx' }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } };
  const rc: Owner = { kind: 'ReplicationController', name: 'nginx', uid: 'rc-1' };
  t.tracer.ingest({ type: 'ADDED', object: workloadObject('ReplicationController', 'nginx', 'rc-1', spec, {}) }, T0 + 5);
  t.tracer.ingest({ type: 'ADDED', object: readyPod('nginx-x7k2p', 'p1', rc, T0 + 100) }, T0 + 2200);
  t.tracer.ingest({ type: 'MODIFIED', object: workloadObject('ReplicationController', 'nginx', 'rc-1', spec, { observedGeneration: 1, replicas: 1, readyReplicas: 1, availableReplicas: 1 }) }, T0 + 2300);
  return t.journey();
}
