import assert from 'node:assert/strict';
import { jobManifest, setupBatch } from './harness';

/** The sync batching (1 s) plus the controller's reaction: enough for a pod change to be acted on. */
const SETTLE_MS = 2000;

describe('Job controller', () => {
  it('keeps parallelism pods active until completions pods succeeded, then SuccessCriteriaMet and Complete', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('work', { completions: 3, parallelism: 2 }));
    h.run(SETTLE_MS);
    assert.equal(h.activePods('work').length, 2);
    for (const pod of h.activePods('work')) {
      assert.match(pod.metadata!.name!, /^work-[a-z0-9]{5}$/);
      assert.deepEqual(pod.metadata?.finalizers, ['batch.kubernetes.io/job-tracking']);
      assert.equal(pod.metadata?.labels?.['batch.kubernetes.io/job-name'], 'work');
      assert.equal(pod.metadata?.labels?.['job-name'], 'work');
    }
    h.finish(h.activePods('work')[0], 0);
    h.run(SETTLE_MS);
    assert.equal(h.job('work').status?.succeeded, 1);
    assert.equal(h.activePods('work').length, 2, 'one more pod for the last completion');
    assert.equal(h.pods('work').filter((pod) => pod.status?.phase === 'Succeeded')[0].metadata?.finalizers, undefined, 'finalizer removed once counted');
    for (const pod of h.activePods('work')) h.finish(pod, 0);
    h.run(SETTLE_MS);
    const job = h.job('work');
    assert.deepEqual(h.conditions('work'), ['SuccessCriteriaMet/CompletionsReached', 'Complete/CompletionsReached']);
    assert.equal(job.status?.conditions?.[1].message, 'Reached expected number of succeeded pods');
    assert.equal(job.status?.succeeded, 3);
    assert.ok(job.status?.completionTime);
    assert.deepEqual(job.status?.uncountedTerminatedPods, {});
    const events = h.events('Job', 'work');
    assert.equal(events.filter((line) => line.startsWith('SuccessfulCreate: Created pod: work-')).length, 3);
    assert.equal(events.at(-1), 'Completed: Job completed');
  });

  it('waits the pod-failure back-off (10 s, then 20 s) of virtual time before replacing a failed pod', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('retry', { backoffLimit: 5 }));
    h.run(SETTLE_MS);
    const failedAt = h.clock.now();
    h.finish(h.activePods('retry')[0], 1);
    h.run(9000);
    assert.equal(h.activePods('retry').length, 0, 'no replacement within 10 s of the failure');
    h.run(1100);
    assert.equal(h.activePods('retry').length, 1);
    const replacement = h.activePods('retry')[0];
    const createdAt = Date.parse(replacement.metadata!.creationTimestamp!);
    // Timestamps have second precision: the back-off runs from the container's finishedAt.
    assert.ok(createdAt - failedAt >= 9000 && createdAt - failedAt < 11_000, `created ${createdAt - failedAt} ms after the failure`);
    const secondFailure = h.clock.now();
    h.finish(replacement, 1);
    h.run(19_000);
    assert.equal(h.activePods('retry').length, 0, 'second back-off is 20 s');
    h.run(2000);
    assert.equal(h.activePods('retry').length, 1);
    assert.ok(Date.parse(h.activePods('retry')[0].metadata!.creationTimestamp!) - secondFailure >= 19_000);
    assert.equal(h.job('retry').status?.failed, 2);
  });

  it('fails with BackoffLimitExceeded once failures pass backoffLimit', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('flaky', { backoffLimit: 1 }));
    h.run(SETTLE_MS);
    h.finish(h.activePods('flaky')[0], 2);
    h.run(15_000);
    h.finish(h.activePods('flaky')[0], 2);
    h.run(SETTLE_MS);
    const job = h.job('flaky');
    assert.deepEqual(h.conditions('flaky'), ['FailureTarget/BackoffLimitExceeded', 'Failed/BackoffLimitExceeded']);
    assert.equal(job.status?.conditions?.find((c) => c.type === 'Failed')?.message, 'Job has reached the specified backoff limit');
    assert.equal(job.status?.failed, 2);
    assert.equal(job.status?.completionTime, undefined);
    assert.equal(h.events('Job', 'flaky').at(-1), 'BackoffLimitExceeded: Job has reached the specified backoff limit');
  });

  it('runs Indexed Jobs one pod per index, named, annotated, labelled and with the index hostname', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    h.run(SETTLE_MS);
    const pods = h.activePods('idx').sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
    assert.deepEqual(pods.map((pod) => pod.metadata?.annotations?.['batch.kubernetes.io/job-completion-index']), ['0', '1', '2']);
    pods.forEach((pod, index) => {
      assert.match(pod.metadata!.name!, new RegExp(`^idx-${index}-[a-z0-9]{5}$`));
      assert.equal(pod.metadata?.labels?.['batch.kubernetes.io/job-completion-index'], String(index));
      assert.equal(pod.spec?.hostname, `idx-${index}`);
      assert.equal(pod.spec?.containers[0].env?.find((e) => e.name === 'JOB_COMPLETION_INDEX')?.valueFrom?.fieldRef?.fieldPath, "metadata.annotations['batch.kubernetes.io/job-completion-index']");
    });
    h.finish(pods[0], 0);
    h.finish(pods[2], 0);
    h.run(SETTLE_MS);
    assert.equal(h.job('idx').status?.completedIndexes, '0,2');
    h.finish(pods[1], 0);
    h.run(SETTLE_MS);
    assert.equal(h.job('idx').status?.completedIndexes, '0-2');
    assert.ok(h.conditions('idx').includes('Complete/CompletionsReached'));
  });

  it('applies podFailurePolicy: Ignore does not count, FailJob fails the Job with the rule in the message', () => {
    const h = setupBatch();
    const policy = { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [3] } }, { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }] };
    h.store.create('Job', jobManifest('pfp', { backoffLimit: 6, podFailurePolicy: policy }));
    h.run(SETTLE_MS);
    h.finish(h.activePods('pfp')[0], 3);
    h.run(SETTLE_MS);
    assert.equal(h.job('pfp').status?.failed, undefined, 'an ignored failure is not counted');
    assert.equal(h.activePods('pfp').length, 1, 'and is replaced without back-off');
    const pod = h.activePods('pfp')[0];
    h.finish(pod, 42);
    h.run(SETTLE_MS);
    assert.deepEqual(h.conditions('pfp'), ['FailureTarget/PodFailurePolicy', 'Failed/PodFailurePolicy']);
    assert.equal(h.job('pfp').status?.conditions?.[1].message, `Container main for pod default/${pod.metadata!.name!} failed with exit code 42 matching FailJob rule at index 1`);
  });

  it('fails with DeadlineExceeded after activeDeadlineSeconds and deletes the active pods', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('slow', { activeDeadlineSeconds: 30 }));
    h.run(SETTLE_MS);
    const pod = h.activePods('slow')[0];
    h.run(25_000);
    assert.deepEqual(h.conditions('slow'), []);
    h.run(5000);
    // The pod was never bound, so its deletion completes at once and nothing is left terminating.
    assert.equal(h.store.get('Pod', 'default', pod.metadata!.name!), undefined, 'active pod deleted');
    assert.ok(h.events('Job', 'slow').includes(`SuccessfulDelete: Deleted pod: ${pod.metadata!.name!}`));
    assert.equal(h.job('slow').status?.failed, 1, 'a pod deleted for a failing Job counts as failed');
    assert.deepEqual(h.conditions('slow'), ['FailureTarget/DeadlineExceeded', 'Failed/DeadlineExceeded']);
    assert.equal(h.events('Job', 'slow').at(-1), 'DeadlineExceeded: Job was active longer than specified deadline');
  });

  it('suspends (pods deleted, Suspended condition) and resumes (pods again, startTime reset)', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('pause', { parallelism: 2, completions: 2 }));
    h.run(SETTLE_MS);
    assert.equal(h.activePods('pause').length, 2);
    h.store.mutate('Job', 'default', 'pause', (copy) => {
      (copy.spec as { suspend: boolean }).suspend = true;
    });
    h.run(SETTLE_MS);
    assert.equal(h.activePods('pause').length, 0);
    assert.deepEqual(h.conditions('pause'), ['Suspended/JobSuspended']);
    const started = h.job('pause').status?.startTime;
    h.run(60_000);
    h.store.mutate('Job', 'default', 'pause', (copy) => {
      (copy.spec as { suspend: boolean }).suspend = false;
    });
    h.run(SETTLE_MS);
    assert.equal(h.activePods('pause').length, 2);
    assert.deepEqual(h.conditions('pause'), []);
    assert.notEqual(h.job('pause').status?.startTime, started);
    const events = h.events('Job', 'pause');
    assert.ok(events.indexOf('Suspended: Job suspended') < events.indexOf('Resumed: Job resumed'));
  });

  it('deletes a finished Job ttlSecondsAfterFinished later, its pods with it', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('short', { ttlSecondsAfterFinished: 100 }));
    h.run(SETTLE_MS);
    h.finish(h.activePods('short')[0], 0);
    h.run(SETTLE_MS);
    assert.ok(h.conditions('short').includes('Complete/CompletionsReached'));
    h.run(95_000);
    assert.ok(h.store.get('Job', 'default', 'short'), 'still there before the TTL');
    h.run(5000);
    assert.equal(h.store.get('Job', 'default', 'short'), undefined);
    h.run(SETTLE_MS);
    assert.equal(h.store.list('Pod', { namespace: 'default' }).items.length, 0);
  });

  it('fails an index after backoffLimitPerIndex failures and the Job once failed indexes pass maxFailedIndexes', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('per', { completions: 3, parallelism: 3, completionMode: 'Indexed', backoffLimitPerIndex: 1, maxFailedIndexes: 1 }));
    h.run(SETTLE_MS);
    const byIndex = (index: number) => h.activePods('per').find((pod) => pod.metadata?.annotations?.['batch.kubernetes.io/job-completion-index'] === String(index))!;
    assert.equal(byIndex(0).metadata?.annotations?.['batch.kubernetes.io/job-index-failure-count'], '0');
    h.finish(byIndex(0), 1);
    h.run(12_000);
    assert.equal(byIndex(0).metadata?.annotations?.['batch.kubernetes.io/job-index-failure-count'], '1', 'index 0 retried once');
    h.finish(byIndex(0), 1);
    h.run(SETTLE_MS);
    assert.equal(h.job('per').status?.failedIndexes, '0');
    assert.deepEqual(h.conditions('per'), []);
    h.finish(byIndex(1), 1);
    h.run(12_000);
    h.finish(byIndex(1), 1);
    h.run(SETTLE_MS);
    assert.equal(h.job('per').status?.failedIndexes, '0-1');
    assert.deepEqual(h.conditions('per'), ['FailureTarget/MaxFailedIndexesExceeded', 'Failed/MaxFailedIndexesExceeded']);
    assert.equal(h.events('Job', 'per').at(-1), 'MaxFailedIndexesExceeded: Job has exceeded the specified maximal number of failed indexes');
  });

  it('meets a successPolicy before all indexes complete, and deletes the remaining pods', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('leader', { completions: 3, parallelism: 3, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0' }] } }));
    h.run(SETTLE_MS);
    const leader = h.activePods('leader').find((pod) => pod.metadata?.annotations?.['batch.kubernetes.io/job-completion-index'] === '0')!;
    h.finish(leader, 0);
    h.run(SETTLE_MS);
    assert.deepEqual(h.conditions('leader'), ['SuccessCriteriaMet/SuccessPolicy', 'Complete/SuccessPolicy']);
    assert.equal(h.job('leader').status?.conditions?.[0].message, 'Matched rules at index 0');
    assert.equal(h.activePods('leader').length, 0);
  });

  it('counts container restarts against backoffLimit with restartPolicy OnFailure', () => {
    const h = setupBatch();
    h.store.create('Job', jobManifest('restarts', { backoffLimit: 2 }, { restartPolicy: 'OnFailure' }));
    h.run(SETTLE_MS);
    const pod = h.activePods('restarts')[0];
    h.store.mutate('Pod', 'default', pod.metadata!.name!, (copy) => {
      copy.status = { ...(copy.status as object), phase: 'Running', containerStatuses: [{ name: 'main', image: 'busybox', imageID: '', ready: false, restartCount: 2, state: { running: {} } }] };
    }, { subresource: 'status' });
    h.run(SETTLE_MS);
    assert.ok(h.conditions('restarts').includes('FailureTarget/BackoffLimitExceeded'));
  });
});
