import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import type { CronJobObject } from '../../../../src/sim/controllers/cronjob/cronjob-controller';
import type { JobObject } from '../../../../src/sim/controllers/job/job-types';
import { setupBatch, type BatchHarness } from '../job/harness';

const START = Date.parse('2026-01-01T12:00:30Z');
const MINUTE = 60_000;

function cronJob(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: { schedule: '*/1 * * * *', ...spec, jobTemplate: { spec: { template: { spec: { containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'work'] }], restartPolicy: 'Never' } } } } },
  };
}

function jobNames(h: BatchHarness): string[] {
  return h.store.list<JobObject>('Job', { namespace: 'default' }).items.filter((job) => !job.metadata?.deletionTimestamp).map((job) => job.metadata!.name!).sort();
}

/** Finish every running pod of every Job with `exitCode`. */
function finishAll(h: BatchHarness, exitCode: number): void {
  for (const name of jobNames(h)) for (const pod of h.activePods(name)) h.finish(pod, exitCode);
}

describe('CronJob controller', () => {
  it('creates <name>-<minutes> at each scheduled time with the scheduled-timestamp annotation and tracks it', () => {
    const h = setupBatch({ cronJobs: true, startTime: START });
    h.store.create('CronJob', cronJob('tick', {}));
    h.run(29_000);
    assert.deepEqual(jobNames(h), []);
    h.run(2000);
    const minute = Date.parse('2026-01-01T12:01:00Z') / MINUTE;
    assert.deepEqual(jobNames(h), [`tick-${minute}`]);
    const job = h.job(`tick-${minute}`);
    assert.equal(job.metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-01-01T12:01:00Z');
    const cj = h.store.get<CronJobObject>('CronJob', 'default', 'tick')!;
    assert.equal(cj.status?.lastScheduleTime, '2026-01-01T12:01:00Z');
    assert.deepEqual(cj.status?.active?.map((ref) => ref.name), [`tick-${minute}`]);
    finishAll(h, 0);
    h.run(3000);
    const after = h.store.get<CronJobObject>('CronJob', 'default', 'tick')!;
    assert.equal(after.status?.active, undefined);
    assert.ok(after.status?.lastSuccessfulTime);
    assert.deepEqual(h.events('CronJob', 'tick'), [`SuccessfulCreate: Created job tick-${minute}`, `SawCompletedJob: Saw completed job: tick-${minute}, status: Complete`]);
  });

  it('writes the scheduled time in the CronJob’s timeZone', () => {
    const h = setupBatch({ cronJobs: true, startTime: START });
    h.store.create('CronJob', cronJob('tz', { schedule: '0 8 * * *', timeZone: 'Europe/Paris' }));
    h.run(24 * 60 * MINUTE);
    const [name] = jobNames(h);
    // 08:00 in Paris on 2 January is 07:00 UTC.
    assert.equal(name, `tz-${Date.parse('2026-01-02T07:00:00Z') / MINUTE}`);
    assert.equal(h.job(name).metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-01-02T08:00:00+01:00');
  });

  it('Forbid skips a run while the previous Job is active', () => {
    const h = setupBatch({ cronJobs: true, startTime: START });
    h.store.create('CronJob', cronJob('solo', { concurrencyPolicy: 'Forbid' }));
    h.run(2 * MINUTE + 1000);
    assert.equal(jobNames(h).length, 1);
    assert.ok(h.events('CronJob', 'solo').includes('JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid'));
  });

  it('Replace deletes the running Job and starts the new one', () => {
    const h = setupBatch({ cronJobs: true, startTime: START });
    h.store.create('CronJob', cronJob('swap', { concurrencyPolicy: 'Replace' }));
    h.run(MINUTE);
    const [first] = jobNames(h);
    h.run(MINUTE);
    const names = jobNames(h);
    assert.equal(names.length, 1);
    assert.notEqual(names[0], first);
    assert.ok(h.events('CronJob', 'swap').includes(`SuccessfulDelete: Deleted job ${first}`));
  });

  it('keeps successfulJobsHistoryLimit finished Jobs and deletes older ones', () => {
    const h = setupBatch({ cronJobs: true, startTime: START });
    h.store.create('CronJob', cronJob('hist', { successfulJobsHistoryLimit: 2 }));
    for (let i = 0; i < 4; i++) {
      h.run(MINUTE);
      h.run(2000);
      finishAll(h, 0);
      h.run(3000);
    }
    h.run(5000);
    const complete = h.store.list<JobObject>('Job', { namespace: 'default' }).items.filter((job) => !job.metadata?.deletionTimestamp);
    assert.equal(complete.length, 2);
    assert.equal(h.events('CronJob', 'hist').filter((line) => line.startsWith('SuccessfulDelete: Deleted job hist-')).length, 2);
  });

  it('after more than 100 missed start times warns TooManyMissedTimes and starts only the most recent', () => {
    const h = setupBatch({ cronJobs: true, startTime: START });
    h.store.create('CronJob', cronJob('late', { suspend: true }));
    h.run(180 * MINUTE);
    assert.deepEqual(jobNames(h), []);
    h.store.mutate('CronJob', 'default', 'late', (copy) => {
      (copy.spec as { suspend: boolean }).suspend = false;
    });
    h.run(1000);
    assert.deepEqual(jobNames(h), [`late-${Math.floor(h.clock.now() / MINUTE)}`]);
    assert.ok(h.events('CronJob', 'late').includes('TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew'));
  });

  it('skips the missed runs older than startingDeadlineSeconds', () => {
    const h = setupBatch({ cronJobs: true, startTime: START });
    h.store.create('CronJob', cronJob('window', { schedule: '0 13 * * *', startingDeadlineSeconds: 60, suspend: true }));
    h.run(62 * MINUTE);
    h.store.mutate('CronJob', 'default', 'window', (copy) => {
      (copy.spec as { suspend: boolean }).suspend = false;
    });
    h.run(1000);
    assert.deepEqual(jobNames(h), [], '13:00 is more than 60 s ago');
    assert.ok(!h.events('CronJob', 'window').some((line) => line.startsWith('TooManyMissedTimes')));
  });

  it('does not adopt a Job made with kubectl create job --from=cronjob/x, and counts its success', () => {
    const h = setupBatch({ cronJobs: true, startTime: START });
    const cj = h.store.create('CronJob', cronJob('manual', { schedule: '0 0 1 1 *' })) as CronJobObject;
    h.store.create('Job', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'manual-run', namespace: 'default', annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' }, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'manual', uid: cj.metadata!.uid!, controller: true }] },
      spec: cj.spec!.jobTemplate.spec,
    });
    h.run(2000);
    assert.ok(h.events('CronJob', 'manual').includes('UnexpectedJob: Saw a job that the controller did not create or forgot: manual-run'));
    finishAll(h, 0);
    h.run(3000);
    assert.equal(h.store.get<CronJobObject>('CronJob', 'default', 'manual')!.status?.lastSuccessfulTime, h.job('manual-run').status?.completionTime);
  });
});
