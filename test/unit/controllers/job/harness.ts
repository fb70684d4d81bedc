/**
 * The batch controllers on the real store (with kube-apiserver's defaulting and validation) and
 * no kubelet: tests move pods through their phases themselves, at chosen virtual times.
 */
import type { KubeObject } from '../../../../src/core/k8s';
import { VirtualClock } from '../../../../src/sim/clock';
import { defaultTimings, type EventRecorder, type SimContext } from '../../../../src/sim/context';
import { apiServerAdmission } from '../../../../src/sim/apis/validation';
import { CronJobController } from '../../../../src/sim/controllers/cronjob/cronjob-controller';
import { GarbageCollector } from '../../../../src/sim/controllers/garbage-collector';
import { JobController } from '../../../../src/sim/controllers/job/job-controller';
import type { JobObject } from '../../../../src/sim/controllers/job/job-types';
import { TTLAfterFinishedController } from '../../../../src/sim/controllers/ttlafterfinished/ttlafterfinished-controller';
import type { PodObject } from '../../../../src/sim/controllers/controller-types';
import { prepareForCreate } from '../../../../src/sim/store/defaults';
import { rfc3339 } from '../../../../src/sim/store/object-utils';
import { MemoryStore } from '../../../../src/sim/store/store';

export interface BatchHarness {
  clock: VirtualClock;
  store: MemoryStore;
  ctx: SimContext;
  run(ms: number): void;
  job(name: string): JobObject;
  /** The Job's pods that still exist, oldest first. */
  pods(jobName: string): PodObject[];
  activePods(jobName: string): PodObject[];
  /** Events of one object as `reason: message`, in order. */
  events(kind: string, name: string): string[];
  /** The pod's container ended with `exitCode` (Succeeded for 0, else Failed). */
  finish(pod: PodObject, exitCode: number): void;
  conditions(name: string): string[];
}

export function setupBatch(options: { cronJobs?: boolean; startTime?: number } = {}): BatchHarness {
  const clock = new VirtualClock({ seed: 5, startTime: options.startTime });
  const internals = { record: () => undefined, recordsWatchDeliveries: false };
  const store = new MemoryStore({ clock, internals, admission: { ...apiServerAdmission, prepareForCreate } });
  store.create('Namespace', { metadata: { name: 'default' } });
  const recorded: { kind: string; name: string; line: string }[] = [];
  const events: EventRecorder = {
    record: (involved, _type, reason, message) => {
      recorded.push({ kind: involved.kind ?? '', name: involved.metadata?.name ?? '', line: `${reason}: ${message}` });
    },
  };
  const ctx: SimContext = { store, clock, events, internals, timings: defaultTimings };
  new GarbageCollector(ctx).start();
  new JobController(ctx).start();
  new TTLAfterFinishedController(ctx).start();
  if (options.cronJobs) new CronJobController(ctx).start();

  const pods = (jobName: string): PodObject[] => {
    const job = store.get<JobObject>('Job', 'default', jobName);
    return job ? store.ownedBy<PodObject>('Pod', job.metadata!.uid!) : [];
  };
  return {
    clock,
    store,
    ctx,
    run: (ms) => clock.advanceTo(clock.now() + ms),
    job: (name) => store.get<JobObject>('Job', 'default', name)!,
    pods,
    activePods: (jobName) => pods(jobName).filter((pod) => !pod.metadata?.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed'),
    events: (kind, name) => recorded.filter((e) => e.kind === kind && e.name === name).map((e) => e.line),
    conditions: (name) => (store.get<JobObject>('Job', 'default', name)?.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => `${c.type}/${c.reason ?? ''}`),
    finish(pod, exitCode) {
      const now = rfc3339(clock.now());
      store.mutate<KubeObject>('Pod', 'default', pod.metadata!.name!, (copy) => {
        const name = (pod.spec?.containers ?? [])[0]?.name ?? 'main';
        copy.status = {
          ...(copy.status as object),
          phase: exitCode === 0 ? 'Succeeded' : 'Failed',
          containerStatuses: [{ name, image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: now, finishedAt: now } } }],
        };
      }, { subresource: 'status', fieldManager: 'kubelet' });
    },
  };
}

export function jobManifest(name: string, spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { ...spec, template: { spec: { containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'work'] }], restartPolicy: 'Never', ...podSpec } } },
  };
}
