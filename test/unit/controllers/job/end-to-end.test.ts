/**
 * The docs' batch examples through the whole simulator (store, Job controller, scheduler,
 * kubelets): the `pi` Job of the Job concept page, and the `hello` CronJob of the CronJob page.
 */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import type { JobObject } from '../../../../src/sim/controllers/job/job-types';
import type { PodObject } from '../../../../src/sim/controllers/controller-types';
import { Simulator } from '../../../../src/sim/simulator';
import type { AssumedExit } from '../../../../src/core/internals';
import type { BoundedInternalsLog } from '../../../../src/sim/internals-log';

const assumedExits = (log: BoundedInternalsLog): AssumedExit[] => log.snapshot().steps.filter((step): step is AssumedExit => step.type === 'assumedExit');

const PI_JOB: KubeObject = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'pi', namespace: 'default' },
  spec: {
    template: { spec: { containers: [{ name: 'pi', image: 'perl:5.34.0', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] }], restartPolicy: 'Never' } },
    backoffLimit: 4,
  },
};

function eventLines(sim: Simulator, kind: string, name: string): string[] {
  return sim.store
    .list<KubeObject>('Event', { namespace: 'default' })
    .items.filter((event) => (event.involvedObject as { kind?: string; name?: string }).kind === kind && (event.involvedObject as { name?: string }).name === name)
    .map((event) => `${String(event.reason)}: ${String(event.message)}`);
}

describe('batch workloads through the simulator', () => {
  it('runs the docs’ pi Job to Complete, its unreadable perl command assumed to exit 0', () => {
    const sim = new Simulator({ seed: 7 });
    sim.apply(PI_JOB);
    const job = (): JobObject => sim.store.get<JobObject>('Job', 'default', 'pi')!;
    const outcome = sim.runUntil(() => (job().status?.conditions ?? []).some((c) => c.type === 'Complete' && c.status === 'True'), 300_000);
    assert.equal(outcome, 'done');
    const status = job().status!;
    assert.equal(status.succeeded, 1);
    assert.equal(status.active, undefined);
    assert.deepEqual(status.conditions?.map((c) => [c.type, c.reason]), [
      ['SuccessCriteriaMet', 'CompletionsReached'],
      ['Complete', 'CompletionsReached'],
    ]);
    assert.ok(status.completionTime && status.startTime && Date.parse(status.completionTime) > Date.parse(status.startTime));
    const pods = sim.store.list<PodObject>('Pod', { namespace: 'default' }).items;
    assert.equal(pods.length, 1);
    assert.match(pods[0].metadata!.name!, /^pi-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(pods[0].status?.phase, 'Succeeded');
    assert.equal(pods[0].metadata?.finalizers, undefined);
    assert.equal(pods[0].metadata?.labels?.['batch.kubernetes.io/job-name'], 'pi');
    // The selector the API server generates names the Job's uid, and the pods carry it.
    const jobUid = sim.store.get('Job', 'default', 'pi')?.metadata?.uid;
    assert.ok(jobUid);
    assert.equal((sim.store.get('Job', 'default', 'pi')?.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels?.['batch.kubernetes.io/controller-uid'], jobUid);
    assert.equal(pods[0].metadata?.labels?.['batch.kubernetes.io/controller-uid'], jobUid);
    assert.equal(sim.store.get('Job', 'default', 'pi')?.metadata?.generation, 1);
    const events = eventLines(sim, 'Job', 'pi');
    assert.deepEqual(events, [`SuccessfulCreate: Created pod: ${pods[0].metadata!.name!}`, 'Completed: Job completed']);
    const assumed = assumedExits(sim.internals);
    assert.equal(assumed.length, 1);
    assert.equal(assumed[0].object.name, pods[0].metadata!.name);
    assert.equal(assumed[0].container, 'pi');
    assert.equal(assumed[0].exitCode, 0);
    assert.match(assumed[0].reason, /perl -Mbignum=bpi/);
  });

  it('fires the docs’ hello CronJob within a virtual minute, and its Job completes', () => {
    const sim = new Simulator({ seed: 11 });
    sim.apply({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'hello', namespace: 'default' },
      spec: {
        schedule: '*/1 * * * *',
        jobTemplate: { spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox:1.28', imagePullPolicy: 'IfNotPresent', command: ['/bin/sh', '-c', 'date; echo Hello from the Kubernetes cluster'] }], restartPolicy: 'OnFailure' } } } },
      },
    });
    const start = sim.clock.now();
    const jobs = (): JobObject[] => sim.store.list<JobObject>('Job', { namespace: 'default' }).items;
    const outcome = sim.runUntil(() => jobs().some((job) => (job.status?.conditions ?? []).some((c) => c.type === 'Complete')), 120_000);
    assert.equal(outcome, 'done');
    const [job] = jobs();
    const scheduled = Math.ceil((start + 1) / 60_000) * 60_000;
    assert.equal(job.metadata?.name, `hello-${scheduled / 60_000}`);
    assert.equal(job.metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], new Date(scheduled).toISOString().replace('.000Z', 'Z'));
    assert.ok(Date.parse(job.status!.startTime!) - start < 60_000 + 1000);
    sim.runUntil(() => eventLines(sim, 'CronJob', 'hello').some((line) => line.startsWith('SawCompletedJob')), 60_000);
    const events = eventLines(sim, 'CronJob', 'hello');
    assert.deepEqual(events.slice(0, 2), [`SuccessfulCreate: Created job ${job.metadata!.name!}`, `SawCompletedJob: Saw completed job: ${job.metadata!.name!}, status: Complete`]);
    assert.equal(assumedExits(sim.internals).length, 0, 'date; echo is readable: nothing assumed');
  });

  it('deletes a running Job and its pods in the foreground without a pod stuck on the tracking finalizer', () => {
    const sim = new Simulator({ seed: 5 });
    sim.apply({ ...PI_JOB, spec: { ...(PI_JOB.spec as object), parallelism: 2, completions: 4 } });
    const pods = (): PodObject[] => sim.store.list<PodObject>('Pod', { namespace: 'default' }).items;
    assert.equal(sim.runUntil(() => pods().filter((pod) => pod.status?.phase === 'Running').length === 2, 60_000), 'done');
    sim.store.delete('Job', 'default', 'pi', { propagationPolicy: 'Foreground' });
    assert.equal(sim.runUntil(() => pods().length === 0 && !sim.store.get('Job', 'default', 'pi'), 120_000), 'done');
  });
});
