/**
 * CodeLens summaries, live facts and field roles for StatefulSets, DaemonSets, Jobs, CronJobs and
 * ReplicationControllers.
 */
import assert from 'node:assert/strict';
import { humanDuration } from '../../../src/core/explain/format';
import { fieldRole, type LiveFact } from '../../../src/core/explain/field-roles';
import { fieldHoverInText } from '../../../src/core/explain/hover';
import { documentLenses, journeySummary } from '../../../src/core/explain/lens';
import { allPods, currentPods, liveFactLines } from '../../../src/core/explain/live';
import { parseManifest } from '../../../src/core/manifest';
import { cronJobJourney, daemonSetJourney, failedJobJourney, jobJourney, replicationControllerJourney, statefulSetJourney, waitingCronJobJourney } from '../journey/kind-journeys';
import { caret } from './fixtures';

describe('explain: workload kinds beyond Deployments', () => {
  describe('CodeLens summary', () => {
    it('counts ready pods for StatefulSets, DaemonSets and RCs', () => {
      const sts = statefulSetJourney(2);
      assert.equal(journeySummary(sts), `2/2 ready · ${humanDuration(sts.totalDurationMs!)}`);
      assert.match(journeySummary(daemonSetJourney(3)), /^3\/3 ready · /);
      assert.match(journeySummary(replicationControllerJourney()), /^1\/1 ready · /);
    });

    it('says how a Job ended: completed with its time, or failed with upstream’s reason', () => {
      const job = jobJourney();
      assert.equal(journeySummary(job), `completed · ${humanDuration(job.totalDurationMs!)}`);
      assert.equal(journeySummary(failedJobJourney()), 'failed: BackoffLimitExceeded');
    });

    it('says where a CronJob stands: next Job pending, then last Job completed', () => {
      assert.equal(journeySummary(waitingCronJobJourney()), 'next Job pending');
      const cron = cronJobJourney();
      assert.equal(journeySummary(cron), `last Job completed · ${humanDuration(cron.totalDurationMs!)}`);
    });

    it('puts the summary lens above a traced Job with a tooltip in the Job’s terms', () => {
      const job = jobJourney();
      const lenses = documentLenses(parseManifest('apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: pi\nspec:\n  backoffLimit: 4\n'), (root) => (root.kind === 'Job' && root.name === 'pi' ? job : undefined));
      assert.deepEqual(lenses.map((l) => l.action), ['apply', 'openTimeline', 'openTimeline']);
      assert.match(lenses[2].title, /^completed · /);
      assert.match(lenses[2].tooltip ?? '', /Job/);
    });
  });

  describe('live facts', () => {
    it('finds the pods of each kind: the set’s own, a Job’s tries, a CronJob’s latest Job’s', () => {
      assert.deepEqual(currentPods(statefulSetJourney(3)).map((p) => p.ref.name), ['web-0', 'web-1', 'web-2']);
      assert.equal(currentPods(daemonSetJourney(4)).length, 4);
      assert.equal(allPods(jobJourney()).length, 2);
      assert.deepEqual(currentPods(cronJobJourney()).map((p) => p.ref.name), ['hello-29034242-x7k2p']);
      assert.deepEqual(allPods(cronJobJourney()).map((p) => p.ref.name), ['hello-29034242-x7k2p']);
      assert.deepEqual(currentPods(waitingCronJobJourney()), []);
    });

    it('reads replicas in each kind’s terms', () => {
      assert.equal(liveFactLines('replicas', statefulSetJourney(2))[0], '2/2 ready · revision web-7b9b');
      assert.equal(liveFactLines('replicas', daemonSetJourney(3))[0], '3/3 ready on 3 nodes');
      assert.match(liveFactLines('replicas', daemonSetJourney(3))[1], /^running on node-1, node-2, node-3$/);
    });

    it('lists a Job’s tries with their exit codes, and a CronJob’s latest Job', () => {
      assert.deepEqual(liveFactLines('runs', jobJourney()), ['1/1 succeeded · 1 failed', 'try 1: pi-abcde Error (exit code 1) on node-1', 'try 2: pi-fghij Completed (exit code 0) on node-2']);
      const failed = liveFactLines('runs', failedJobJourney());
      assert.equal(failed[failed.length - 1], 'BackoffLimitExceeded: `Job has reached the specified backoff limit`');
      const cron = liveFactLines('runs', cronJobJourney());
      assert.equal(cron[1], 'latest Job hello-29034242: complete');
      assert.equal(cron[2], 'try 1: hello-29034242-x7k2p Completed (exit code 0) on node-1');
      assert.deepEqual(liveFactLines('runs', waitingCronJobJourney()).slice(1), ['no Job created yet']);
    });

    it('shows the StatefulSet revision for a template field', () => {
      assert.deepEqual(liveFactLines('revision', statefulSetJourney(2)), ['2/2 pods on the newest template', 'revision web-7b9b']);
    });
  });

  describe('field roles', () => {
    const KEY_FIELDS: Record<string, { path: string; component: string; live?: LiveFact }[]> = {
      StatefulSet: [
        { path: 'spec.serviceName', component: 'statefulset-controller' },
        { path: 'spec.podManagementPolicy', component: 'statefulset-controller', live: 'replicas' },
        { path: 'spec.volumeClaimTemplates.0.metadata.name', component: 'statefulset-controller' },
        { path: 'spec.updateStrategy.rollingUpdate.partition', component: 'statefulset-controller', live: 'revision' },
        { path: 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted', component: 'statefulset-controller' },
        { path: 'spec.minReadySeconds', component: 'statefulset-controller' },
        { path: 'spec.ordinals.start', component: 'statefulset-controller' },
        { path: 'spec.replicas', component: 'statefulset-controller', live: 'replicas' },
      ],
      DaemonSet: [
        { path: 'spec.updateStrategy.rollingUpdate.maxUnavailable', component: 'daemonset-controller' },
        { path: 'spec.updateStrategy.rollingUpdate.maxSurge', component: 'daemonset-controller' },
        { path: 'spec.template.spec.nodeSelector.disktype', component: 'daemonset-controller', live: 'scheduling' },
        { path: 'spec.template.spec.tolerations.0.key', component: 'daemonset-controller', live: 'scheduling' },
      ],
      Job: [
        { path: 'spec.completions', component: 'job-controller', live: 'runs' },
        { path: 'spec.parallelism', component: 'job-controller', live: 'runs' },
        { path: 'spec.backoffLimit', component: 'job-controller', live: 'runs' },
        { path: 'spec.backoffLimitPerIndex', component: 'job-controller' },
        { path: 'spec.completionMode', component: 'job-controller' },
        { path: 'spec.activeDeadlineSeconds', component: 'job-controller' },
        { path: 'spec.ttlSecondsAfterFinished', component: 'ttl-after-finished-controller' },
        { path: 'spec.podFailurePolicy.rules.0.action', component: 'job-controller' },
        { path: 'spec.suspend', component: 'job-controller' },
        { path: 'spec.successPolicy.rules.0.succeededCount', component: 'job-controller' },
      ],
      CronJob: [
        { path: 'spec.schedule', component: 'cronjob-controller', live: 'runs' },
        { path: 'spec.timeZone', component: 'cronjob-controller' },
        { path: 'spec.concurrencyPolicy', component: 'cronjob-controller' },
        { path: 'spec.startingDeadlineSeconds', component: 'cronjob-controller' },
        { path: 'spec.suspend', component: 'cronjob-controller' },
        { path: 'spec.successfulJobsHistoryLimit', component: 'cronjob-controller' },
        { path: 'spec.failedJobsHistoryLimit', component: 'cronjob-controller' },
        { path: 'spec.jobTemplate.metadata.labels', component: 'cronjob-controller' },
        // The Job a run copies: its fields are the job-controller's, as in a Job.
        { path: 'spec.jobTemplate.spec.backoffLimit', component: 'job-controller', live: 'runs' },
      ],
      ReplicationController: [
        { path: 'spec.replicas', component: 'replication-controller', live: 'replicas' },
        { path: 'spec.template', component: 'replication-controller' },
      ],
    };
    for (const [kind, fields] of Object.entries(KEY_FIELDS)) {
      it(`names who acts on a ${kind}’s key fields`, () => {
        for (const field of fields) {
          const role = fieldRole(kind, field.path.split('.'));
          assert.equal(role?.component, field.component, `${kind} ${field.path}`);
          if (field.live) assert.equal(role?.live, field.live, `${kind} ${field.path} live fact`);
        }
      });
    }

    it('finds the pod spec of every kind: the kubelet and the scheduler act on it as in a Deployment', () => {
      for (const [kind, prefix] of [['StatefulSet', 'spec.template.spec'], ['DaemonSet', 'spec.template.spec'], ['Job', 'spec.template.spec'], ['ReplicationController', 'spec.template.spec'], ['CronJob', 'spec.jobTemplate.spec.template.spec']] as const) {
        assert.equal(fieldRole(kind, `${prefix}.containers.0.image`.split('.'))?.live, 'image', kind);
        assert.equal(fieldRole(kind, `${prefix}.restartPolicy`.split('.'))?.component, 'kubelet', kind);
      }
      assert.equal(fieldRole('StatefulSet', 'spec.template.spec.nodeSelector'.split('.'))?.component, 'default-scheduler', 'only a DaemonSet’s controller reads the node selector');
    });

    it('adds the live runs of a traced Job to the hover of backoffLimit', () => {
      const job = jobJourney();
      const { text, offset } = caret('apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: pi\nspec:\n  back‸offLimit: 4\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: pi\n        image: perl\n');
      const hover = fieldHoverInText(text, offset, (root) => (root.kind === 'Job' && root.name === 'pi' ? job : undefined));
      assert.match(hover?.markdown ?? '', /\*\*Live\*\* · Job pi: completed · /);
      assert.match(hover?.markdown ?? '', /job-controller/);
      assert.match(hover?.markdown ?? '', /BackoffLimitExceeded/);
      assert.match(hover?.markdown ?? '', /try 1: pi-abcde Error \(exit code 1\) on node-1/);
    });
  });
});
