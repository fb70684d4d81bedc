/** Defaulting and validation of batch/v1 Jobs and CronJobs, as kube-apiserver does them. */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { validate } from '../../../src/sim/apis/validation';
import { applyDefaults, prepareForCreate } from '../../../src/sim/store/defaults';

type Json = Record<string, unknown>;

function job(spec: Json = {}, podSpec: Json = {}): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default' },
    spec: { ...spec, template: { spec: { containers: [{ name: 'pi', image: 'perl:5.34.0' }], restartPolicy: 'Never', ...podSpec } } },
  };
}

function cronJob(spec: Json = {}, name = 'hello'): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: { schedule: '*/1 * * * *', ...spec, jobTemplate: { spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } },
  };
}

/** Defaulted and prepared as on create, then validated: the causes as `field: message`. */
function causes(kind: 'Job' | 'CronJob', object: KubeObject): string[] {
  applyDefaults(kind, object);
  prepareForCreate(kind, object);
  return validate(kind, object).map((cause) => `${cause.field}: ${cause.message}`);
}

describe('batch defaults', () => {
  it('defaults a Job as SetDefaults_Job and the Job strategy do', () => {
    const object = job({ backoffLimit: 4 });
    applyDefaults('Job', object);
    prepareForCreate('Job', object);
    const spec = object.spec as Json;
    assert.equal(spec.completions, 1);
    assert.equal(spec.parallelism, 1);
    assert.equal(spec.backoffLimit, 4);
    assert.equal(spec.completionMode, 'NonIndexed');
    assert.equal(spec.suspend, false);
    assert.equal(spec.manualSelector, false);
    assert.equal(spec.podReplacementPolicy, 'TerminatingOrFailed');
    const templateLabels = ((spec.template as Json).metadata as Json).labels as Json;
    assert.equal(templateLabels['batch.kubernetes.io/job-name'], 'pi');
    assert.equal(templateLabels['job-name'], 'pi');
    assert.deepEqual(object.metadata?.labels, templateLabels);
    assert.equal(((spec.template as Json).spec as Json).dnsPolicy, 'ClusterFirst');
  });

  it('defaults backoffLimit to MaxInt32 with backoffLimitPerIndex, and podReplacementPolicy Failed with a podFailurePolicy', () => {
    const object = job({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } });
    applyDefaults('Job', object);
    const spec = object.spec as Json;
    assert.equal(spec.backoffLimit, 2147483647);
    assert.equal(spec.parallelism, 1);
    assert.equal(spec.podReplacementPolicy, 'Failed');
    assert.equal(((spec.podFailurePolicy as { rules: { onPodConditions: Json[] }[] }).rules[0].onPodConditions[0]).status, 'True');
  });

  it('defaults a CronJob as SetDefaults_CronJob does', () => {
    const object = cronJob();
    applyDefaults('CronJob', object);
    const spec = object.spec as Json;
    assert.deepEqual([spec.concurrencyPolicy, spec.suspend, spec.successfulJobsHistoryLimit, spec.failedJobsHistoryLimit], ['Allow', false, 3, 1]);
  });
});

describe('batch validation', () => {
  it('accepts the docs’ examples', () => {
    assert.deepEqual(causes('Job', job({ backoffLimit: 4 })), []);
    assert.deepEqual(causes('CronJob', cronJob()), []);
  });

  it('rejects restartPolicy Always in a Job template', () => {
    assert.deepEqual(causes('Job', job({}, { restartPolicy: 'Always' })), ['spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"']);
  });

  it('rejects negative counts and per-index fields outside Indexed mode', () => {
    assert.deepEqual(causes('Job', job({ parallelism: -1, backoffLimitPerIndex: 1 })), [
      'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      'spec.backoffLimitPerIndex: Forbidden: requires indexed completion mode',
    ]);
    assert.deepEqual(causes('Job', job({ completionMode: 'Indexed', completions: 2, maxFailedIndexes: 1 })), ['spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified']);
    assert.deepEqual(causes('Job', job({ completionMode: 'Sometimes' })), ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']);
  });

  it('requires restartPolicy Never with a podFailurePolicy', () => {
    const object = job({ podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } }, { restartPolicy: 'OnFailure' });
    assert.deepEqual(causes('Job', object), ['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified']);
  });

  it('checks a manual selector against the template labels', () => {
    const object = job({ manualSelector: true, selector: { matchLabels: { app: 'x' } } });
    (object.spec as { template: Json }).template.metadata = { labels: { app: 'y' } };
    assert.deepEqual(causes('Job', object), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`']);
  });

  it('keeps completions and completionMode immutable', () => {
    const old = job();
    applyDefaults('Job', old);
    prepareForCreate('Job', old);
    const updated = structuredClone(old);
    (updated.spec as Json).completions = 5;
    assert.deepEqual(validate('Job', updated, old).map((c) => `${c.field}: ${c.message}`), ['spec.completions: Invalid value: 5: field is immutable']);
  });

  it('rejects an unparseable schedule with robfig’s message, and an unknown time zone', () => {
    assert.deepEqual(causes('CronJob', cronJob({ schedule: '* * *' })), ['spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]']);
    assert.deepEqual(causes('CronJob', cronJob({ schedule: 'CRON_TZ=UTC 0 * * * *' })), ['spec.schedule: Invalid value: "CRON_TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']);
    assert.deepEqual(causes('CronJob', cronJob({ timeZone: 'Mars/Olympus' })), ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']);
    assert.deepEqual(causes('CronJob', cronJob({ timeZone: 'Europe/Paris' })), []);
  });

  it('rejects a bad concurrencyPolicy, restartPolicy Always in the job template and a name over 52 characters', () => {
    assert.deepEqual(causes('CronJob', cronJob({ concurrencyPolicy: 'Sometimes' })), ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']);
    const always = cronJob();
    ((always.spec as { jobTemplate: { spec: { template: { spec: Json } } } }).jobTemplate.spec.template.spec).restartPolicy = 'Always';
    assert.deepEqual(causes('CronJob', always), ['spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"']);
    const long = 'a'.repeat(53);
    assert.deepEqual(causes('CronJob', cronJob({}, long)), [`metadata.name: Invalid value: "${long}": must be no more than 52 characters`]);
  });
});
