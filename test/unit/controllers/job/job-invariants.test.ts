/**
 * Property test of Jobs through the whole simulator: random Jobs (NonIndexed and Indexed, random
 * parallelism and completions, containers that exit 0 or 1 after random sleeps), random pod
 * deletions and suspensions, checked while in motion and once every Job has finished.
 */
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../../src/core/k8s';
import { SeededRandom } from '../../../../src/sim/clock';
import type { JobObject } from '../../../../src/sim/controllers/job/job-types';
import { Simulator } from '../../../../src/sim/simulator';

const INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';

interface JobPlan {
  name: string;
  indexed: boolean;
  parallelism: number;
  completions: number;
  backoffLimit: number;
  /** Shell script of the pod's container: sleeps, then exits 0 or 1. */
  script: string;
}

function jobObject(plan: JobPlan): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: plan.name, namespace: 'default' },
    spec: {
      parallelism: plan.parallelism,
      completions: plan.completions,
      backoffLimit: plan.backoffLimit,
      completionMode: plan.indexed ? 'Indexed' : 'NonIndexed',
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox:1.36', command: ['sh', '-c', plan.script], resources: { requests: { cpu: '50m', memory: '16Mi' } } }] } },
    },
  };
}

function randomPlan(random: SeededRandom, name: string): JobPlan {
  const failing = random.next() < 0.3;
  return {
    name,
    indexed: random.next() < 0.5,
    parallelism: random.int(1, 4),
    completions: random.int(1, 6),
    backoffLimit: random.int(0, 3),
    script: `sleep ${random.int(1, 20)}; exit ${failing ? 1 : 0}`,
  };
}

function podsOf(simulator: Simulator, job: JobObject): (Pod & KubeObject)[] {
  return simulator.store.list<Pod & KubeObject>('Pod').items.filter((pod) => pod.metadata?.ownerReferences?.some((ref) => ref.uid === job.metadata?.uid));
}

function conditionTrue(job: JobObject, type: string): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** Parses `1,3-5` into the indexes it names. */
function indexesOf(text: string | undefined): number[] {
  if (!text) return [];
  return text.split(',').flatMap((part) => {
    const [from, to] = part.split('-').map(Number);
    return to === undefined ? [from] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/** What must hold at every moment, settled or not. */
function checkAlways(simulator: Simulator, plans: Map<string, JobPlan>, context: string): void {
  for (const job of simulator.store.list<JobObject & KubeObject>('Job').items) {
    const plan = plans.get(job.metadata!.name!)!;
    const status = job.status ?? {};
    assert.ok(!(conditionTrue(job, 'Complete') && conditionTrue(job, 'Failed')), `${context}: ${plan.name} is both Complete and Failed`);
    assert.ok((status.succeeded ?? 0) <= plan.completions, `${context}: ${plan.name} succeeded ${status.succeeded} > completions ${plan.completions}`);
    if (!plan.indexed) continue;
    const completed = indexesOf(status.completedIndexes);
    assert.equal(new Set(completed).size, completed.length, `${context}: ${plan.name} completedIndexes repeats an index: ${status.completedIndexes}`);
    assert.ok(completed.every((index) => index >= 0 && index < plan.completions), `${context}: ${plan.name} completedIndexes out of range: ${status.completedIndexes}`);
    const running = podsOf(simulator, job).filter((pod) => !pod.metadata?.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed');
    const runningIndexes = running.map((pod) => pod.metadata?.annotations?.[INDEX_ANNOTATION]);
    assert.equal(new Set(runningIndexes).size, runningIndexes.length, `${context}: ${plan.name} runs two pods with one index: ${runningIndexes.join(',')}`);
    assert.ok(!runningIndexes.some((index) => completed.includes(Number(index))), `${context}: ${plan.name} runs a pod for an index already completed`);
  }
}

describe('simulated Jobs under random operations', () => {
  for (const seed of [1, 2, 3]) {
    it(`finish every Job as Complete or Failed, never both, with indexes run once (seed ${seed})`, () => {
      const random = new SeededRandom(seed * 7919);
      const simulator = new Simulator({ nodes: 3, seed });
      const plans = new Map<string, JobPlan>();
      for (let i = 0; i < 24; i++) {
        const roll = random.next();
        if (roll < 0.35 || plans.size === 0) {
          const plan = randomPlan(random, `job-${plans.size}`);
          plans.set(plan.name, plan);
          simulator.apply(jobObject(plan));
        } else {
          const names = [...plans.keys()];
          const name = names[random.int(0, names.length - 1)];
          if (roll < 0.75) {
            const pods = simulator.store.list<Pod & KubeObject>('Pod').items.filter((pod) => pod.metadata?.labels?.['job-name'] === name && !pod.metadata?.deletionTimestamp);
            if (pods.length > 0) simulator.store.delete('Pod', 'default', pods[random.int(0, pods.length - 1)].metadata!.name!);
          } else {
            const suspend = random.next() < 0.5;
            simulator.store.mutate('Job', 'default', name, (job) => {
              (job.spec as { suspend?: boolean }).suspend = suspend;
            });
          }
        }
        for (let step = 0; step < 3; step++) {
          simulator.runUntil(() => false, random.int(0, 4000));
          checkAlways(simulator, plans, `seed ${seed} op ${i}`);
        }
      }
      for (const name of plans.keys()) {
        simulator.store.mutate('Job', 'default', name, (job) => {
          (job.spec as { suspend?: boolean }).suspend = false;
        });
      }
      const jobs = (): JobObject[] => simulator.store.list<JobObject & KubeObject>('Job').items;
      const settled = simulator.runUntil(() => jobs().every((job) => conditionTrue(job, 'Complete') || conditionTrue(job, 'Failed')), 3_600_000);
      const states = jobs().map((job) => `${job.metadata?.name}: ${JSON.stringify(job.status)}`).join('\n');
      assert.equal(settled, 'done', `seed ${seed}: not every Job finished:\n${states}`);
      checkAlways(simulator, plans, `seed ${seed} settled`);
      assert.ok(jobs().some((job) => conditionTrue(job, 'Complete')), `seed ${seed}: no Job completed:\n${states}`);
      for (const job of jobs()) {
        const plan = plans.get(job.metadata!.name!)!;
        if (conditionTrue(job, 'Complete')) {
          assert.equal(job.status?.succeeded, plan.completions, `${plan.name}: Complete with ${job.status?.succeeded} of ${plan.completions} completions`);
          assert.ok(plan.script.endsWith('exit 0'), `${plan.name}: every pod exits 1, yet the Job completed`);
        } else {
          const failed = job.status?.conditions?.find((c) => c.type === 'Failed');
          assert.equal(failed?.reason, 'BackoffLimitExceeded', `${plan.name}: failed with ${failed?.reason}`);
          assert.ok((job.status?.failed ?? 0) > plan.backoffLimit, `${plan.name}: failed ${job.status?.failed} times, backoffLimit ${plan.backoffLimit}`);
        }
        const active = podsOf(simulator, job).filter((pod) => pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp);
        assert.equal(active.length, 0, `${plan.name}: pods still running after the Job finished`);
      }
    });
  }
});
