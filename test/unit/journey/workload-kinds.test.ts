/**
 * Journeys of the workload kinds beyond Deployments, from hand-built streams shaped as a real
 * cluster sends them: StatefulSet (the OrderedReady wait), DaemonSet, Job (retries, Complete,
 * Failed with upstream's reason), CronJob (schedule wait, Job below it) and ReplicationController.
 */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey, ObjectJourney } from '../../../src/core/journey/types';
import { renderJourney } from '../../../src/core/journey/render-text';
import { coreEvent, iso, nextRv, podObject, T0, type Owner } from './objects';

function workload(kind: string, apiVersion: string, name: string, uid: string, spec: Record<string, unknown>, status: Record<string, unknown>, owner?: Owner): KubeObject {
  const metadata: Record<string, unknown> = { name, namespace: 'default', uid, resourceVersion: nextRv(), generation: 1, creationTimestamp: iso(T0) };
  if (owner) metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }];
  else metadata.managedFields = [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion, time: iso(T0), fieldsType: 'FieldsV1', fieldsV1: {} }];
  return { kind, apiVersion, metadata, spec, status };
}

const readyPod = (name: string, uid: string, owner: Owner, at: number): KubeObject =>
  podObject({ name, uid, owner, nodeName: 'node-1', phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True', at }, { type: 'Ready', status: 'True', at: at + 2000 }], containers: [{ running: { startedAt: iso(at + 1000) }, ready: true }] });

function titles(object: ObjectJourney | undefined): string[] {
  return (object?.stages ?? []).map((stage) => stage.title);
}

function trace(kind: 'StatefulSet' | 'DaemonSet' | 'Job' | 'CronJob' | 'ReplicationController', name: string): { tracer: JourneyTracer; journey: () => Journey } {
  const tracer = new JourneyTracer();
  const id = tracer.begin({ kind, name }, T0);
  return { tracer, journey: () => tracer.journey(id) as Journey };
}

describe('journeys of StatefulSets, DaemonSets, Jobs, CronJobs and ReplicationControllers', () => {
  it('StatefulSet: shows the OrderedReady wait for web-0 before web-1, and completes when both are ready on the update revision', () => {
    const { tracer, journey } = trace('StatefulSet', 'web');
    const spec = { replicas: 2, serviceName: 'nginx', podManagementPolicy: 'OrderedReady', selector: { matchLabels: { app: 'nginx' } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } };
    const set: Owner = { kind: 'StatefulSet', name: 'web', uid: 'sts-1' };
    tracer.ingest({ type: 'ADDED', object: workload('StatefulSet', 'apps/v1', 'web', 'sts-1', spec, {}) }, T0 + 5);
    tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-0', uid: 'p0', owner: set }) }, T0 + 10);
    tracer.ingest({ type: 'MODIFIED', object: workload('StatefulSet', 'apps/v1', 'web', 'sts-1', spec, { observedGeneration: 1, replicas: 1, readyReplicas: 0, currentRevision: 'web-7b9b', updateRevision: 'web-7b9b' }) }, T0 + 20);
    assert.ok(titles(journey().tree).includes('Waiting for web-0 to be Running and Ready before creating web-1 (OrderedReady)'), titles(journey().tree).join(' | '));
    assert.equal(journey().status, 'progressing');
    tracer.ingest({ type: 'MODIFIED', object: readyPod('web-0', 'p0', set, T0 + 1000) }, T0 + 3100);
    tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-1', uid: 'p1', owner: set, created: T0 + 3200 }) }, T0 + 3200);
    tracer.ingest({ type: 'MODIFIED', object: readyPod('web-1', 'p1', set, T0 + 4000) }, T0 + 6100);
    tracer.ingest({ type: 'MODIFIED', object: workload('StatefulSet', 'apps/v1', 'web', 'sts-1', spec, { observedGeneration: 1, replicas: 2, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 2, currentRevision: 'web-7b9b', updateRevision: 'web-7b9b' }) }, T0 + 6200);
    const done = journey();
    assert.equal(done.status, 'complete');
    assert.deepEqual(done.tree?.children.map((pod) => pod.ref.name), ['web-0', 'web-1']);
    assert.equal(done.tree?.children[0].stages.find((s) => s.kind === 'podCreated')?.component, 'statefulset-controller');
    assert.ok(titles(done.tree).includes('2/2 pods ready (revision web-7b9b)'));
  });

  it('StatefulSet: web-0 stays before web-1 when both are stamped the same second and web-1 is first seen after it ends', () => {
    // A fast cluster (the simulator at speed 20) makes web-1 within the second web-0 was made in.
    // web-0, seen inside that second, is sharpened to its arrival; web-1, seen a few ms after the
    // second ended, keeps the bare stamp: the start of the second, before web-0.
    const { tracer, journey } = trace('StatefulSet', 'web');
    const spec = { replicas: 2, serviceName: 'nginx', podManagementPolicy: 'OrderedReady', selector: { matchLabels: { app: 'nginx' } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } };
    const set: Owner = { kind: 'StatefulSet', name: 'web', uid: 'sts-1' };
    const second = Math.floor(T0 / 1000) * 1000;
    tracer.ingest({ type: 'ADDED', object: workload('StatefulSet', 'apps/v1', 'web', 'sts-1', spec, {}) }, T0 + 5);
    tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-0', uid: 'p0', owner: set, created: T0 + 10 }) }, T0 + 12);
    tracer.ingest({ type: 'MODIFIED', object: readyPod('web-0', 'p0', set, T0 + 10) }, second + 980);
    tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-1', uid: 'p1', owner: set, created: second + 990 }) }, second + 1004);
    const pods = journey().tree?.children ?? [];
    assert.deepEqual(pods.map((pod) => pod.ref.name), ['web-0', 'web-1']);
    // The stage and the creation time still say what the stamp says.
    assert.equal(pods[1].createdAt, second);
  });

  it('StatefulSet: not complete while pods run an older revision', () => {
    const { tracer, journey } = trace('StatefulSet', 'web');
    const spec = { replicas: 1, selector: {}, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } } };
    tracer.ingest({ type: 'ADDED', object: workload('StatefulSet', 'apps/v1', 'web', 'sts-1', spec, { observedGeneration: 1, replicas: 1, readyReplicas: 1, updatedReplicas: 1, currentRevision: 'web-old', updateRevision: 'web-new' }) }, T0 + 5);
    assert.notEqual(journey().status, 'complete');
  });

  it('DaemonSet: one pod per eligible node, complete when all are ready and updated; no eligible node is said plainly', () => {
    const { tracer, journey } = trace('DaemonSet', 'fluentd');
    const spec = { selector: {}, template: { spec: { containers: [{ name: 'fluentd', image: 'fluentd:v2' }] } } };
    tracer.ingest({ type: 'ADDED', object: workload('DaemonSet', 'apps/v1', 'fluentd', 'ds-1', spec, {}) }, T0 + 5);
    tracer.ingest({ type: 'MODIFIED', object: workload('DaemonSet', 'apps/v1', 'fluentd', 'ds-1', spec, { observedGeneration: 1, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 1, updatedNumberScheduled: 3, numberAvailable: 1 }) }, T0 + 50);
    assert.ok(titles(journey().tree).includes('Wants 3 pods, one per eligible node'));
    assert.equal(journey().status, 'progressing');
    tracer.ingest({ type: 'MODIFIED', object: workload('DaemonSet', 'apps/v1', 'fluentd', 'ds-1', spec, { observedGeneration: 1, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3 }) }, T0 + 4000);
    assert.equal(journey().status, 'complete');
    assert.ok(titles(journey().tree).includes('3/3 daemon pods ready'));

    const none = trace('DaemonSet', 'gpu');
    none.tracer.ingest({ type: 'ADDED', object: workload('DaemonSet', 'apps/v1', 'gpu', 'ds-2', spec, { observedGeneration: 1, desiredNumberScheduled: 0 }) }, T0 + 5);
    const stage = none.journey().tree?.stages.find((s) => s.title.startsWith('No node is eligible'));
    assert.ok(stage?.warning);
  });

  it('Job: a failed pod is a retry, not the end; Complete ends the journey', () => {
    const { tracer, journey } = trace('Job', 'pi');
    const spec = { completions: 1, parallelism: 1, backoffLimit: 4, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34.0' }] } } };
    const job: Owner = { kind: 'Job', name: 'pi', uid: 'job-1' };
    tracer.ingest({ type: 'ADDED', object: workload('Job', 'batch/v1', 'pi', 'job-1', spec, { active: 1, startTime: iso(T0) }) }, T0 + 5);
    tracer.ingest({ type: 'ADDED', object: podObject({ name: 'pi-abcde', uid: 'p1', owner: job, nodeName: 'node-1', phase: 'Failed', containers: [{ name: 'pi', terminated: { exitCode: 1, reason: 'Error', finishedAt: iso(T0 + 1900) } }] }) }, T0 + 2000);
    tracer.ingest({ type: 'MODIFIED', object: workload('Job', 'batch/v1', 'pi', 'job-1', spec, { active: 0, failed: 1, startTime: iso(T0) }) }, T0 + 2100);
    assert.ok(titles(journey().tree).includes('Pod failed (1 of 5 tries); retrying after back-off'), titles(journey().tree).join(' | '));
    assert.equal(journey().status, 'progressing', 'a failed pod the Job retries does not end the journey');
    tracer.ingest({ type: 'ADDED', object: podObject({ name: 'pi-fghij', uid: 'p2', owner: job, nodeName: 'node-2', phase: 'Succeeded', containers: [{ name: 'pi', terminated: { exitCode: 0, reason: 'Completed', finishedAt: iso(T0 + 14000) } }] }) }, T0 + 15000);
    const complete = [{ type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: iso(T0 + 15000) }, { type: 'Complete', status: 'True', lastTransitionTime: iso(T0 + 15000) }];
    tracer.ingest({ type: 'MODIFIED', object: workload('Job', 'batch/v1', 'pi', 'job-1', spec, { failed: 1, succeeded: 1, conditions: complete, completionTime: iso(T0 + 15000) }) }, T0 + 15100);
    assert.equal(journey().status, 'complete');
    assert.ok(titles(journey().tree).includes('Job completed (1/1 succeeded)'));
    assert.equal(journey().stuckCount, 0, 'the failed try is not a problem of the completed Job');
    assert.equal(journey().counts.stuck, 0);
    assert.equal(journey().tree?.children.length, 2);
  });

  it('Job: an exit the simulator assumed marks the termination stage and is listed under the journey and its text summary', () => {
    const { tracer, journey } = trace('Job', 'pi');
    const job: Owner = { kind: 'Job', name: 'pi', uid: 'job-1' };
    const spec = { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } };
    tracer.ingest({ type: 'ADDED', object: workload('Job', 'batch/v1', 'pi', 'job-1', spec, { active: 1 }) }, T0 + 5);
    const done = podObject({ name: 'pi-abcde', uid: 'p1', owner: job, nodeName: 'node-1', phase: 'Succeeded', rv: '4242', containers: [{ name: 'pi', terminated: { exitCode: 0, reason: 'Completed', finishedAt: iso(T0 + 6000) } }] });
    tracer.ingest({ type: 'ADDED', object: done }, T0 + 6000);
    tracer.ingestInternal({ type: 'assumedExit', time: T0 + 6000, component: 'kubelet', object: { kind: 'Pod', namespace: 'default', name: 'pi-abcde', uid: 'p1' }, container: 'pi', exitCode: 0, runMs: 4300, reason: 'command not readable by the simulator: perl -e 1', resourceVersion: '4242' });
    const j = journey();
    const terminated = j.tree?.children[0]?.stages.find((stage) => stage.kind === 'containerTerminated');
    assert.equal(terminated?.assumed, 'assumed: exit 0 after 4.3s (command not readable by the simulator: perl -e 1)');
    assert.equal(j.assumptionCount, 1);
    assert.equal(j.assumptions?.[0]?.what, 'pi assumed to exit 0 (command not readable by the simulator: perl -e 1)');
    const text = renderJourney(j, { color: false });
    assert.match(text, /assuming 1 outcome the simulator cannot know/);
    assert.match(text, /assuming 1 outcome the simulator cannot know, for 1 pod$/m);
    assert.match(text, /assumed +1 outcome, for 1 pod \(a real cluster may differ\)\n +Pod default\/pi-abcde: pi assumed to exit 0 \(command/);
    // A journey saved before assumptions were grouped has neither `objects` nor `assumedObjects`: it reads as it did.
    const { assumedObjects: _unsaved, ...saved } = j;
    const old = renderJourney(saved, { color: false });
    assert.match(old, /assuming 1 outcome the simulator cannot know \(see "assumed"\)/);
    assert.match(old, /assumed +1 outcome \(a real cluster may differ\)\n +Pod default\/pi-abcde: pi assumed/);
  });

  it('Job: assumed exits with the same code and reason are listed once with their pods, whatever each ran for, and a pod exiting again counts once', () => {
    const { tracer, journey } = trace('Job', 'pi');
    const job: Owner = { kind: 'Job', name: 'pi', uid: 'job-1' };
    const spec = { completions: 3, parallelism: 3, template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'pi', image: 'perl' }] } } };
    tracer.ingest({ type: 'ADDED', object: workload('Job', 'batch/v1', 'pi', 'job-1', spec, { active: 3 }) }, T0 + 5);
    const reason = 'command not readable by the simulator: perl -e 1';
    const exits = (name: string, uid: string, runMs: number, at: number, restartCount = 0): void => {
      const rv = nextRv();
      const pod = podObject({ name, uid, owner: job, nodeName: 'node-1', phase: 'Running', rv, containers: [{ name: 'pi', restartCount, terminated: { exitCode: 0, reason: 'Completed', finishedAt: iso(at) } }] });
      tracer.ingest({ type: 'MODIFIED', object: pod }, at);
      tracer.ingestInternal({ type: 'assumedExit', time: at, component: 'kubelet', object: { kind: 'Pod', namespace: 'default', name, uid }, container: 'pi', exitCode: 0, runMs, reason, resourceVersion: rv });
    };
    exits('pi-aaaaa', 'p1', 4300, T0 + 6000);
    exits('pi-bbbbb', 'p2', 4320, T0 + 6100);
    exits('pi-ccccc', 'p3', 5100, T0 + 6200);
    exits('pi-aaaaa', 'p1', 3900, T0 + 12000, 1);
    const j = journey();
    assert.deepEqual(
      j.assumptions?.map((assumption) => [assumption.object.name, assumption.what, assumption.objects]),
      [['pi-aaaaa', `pi assumed to exit 0 (${reason})`, 3]],
    );
    assert.equal(j.assumedObjects, 3);
  });

  it('a container kept running unread marks its start as assumed, and the journey lists it', () => {
    const { tracer, journey } = trace('ReplicationController', 'app');
    const rc: Owner = { kind: 'ReplicationController', name: 'app', uid: 'rc-1' };
    const spec = { replicas: 1, selector: { app: 'app' }, template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } } };
    tracer.ingest({ type: 'ADDED', object: workload('ReplicationController', 'v1', 'app', 'rc-1', spec, { replicas: 1, readyReplicas: 1, availableReplicas: 1 }) }, T0 + 5);
    const running = podObject({ name: 'app-abcde', uid: 'p1', owner: rc, nodeName: 'node-1', phase: 'Running', rv: '77', containers: [{ name: 'app', running: { startedAt: iso(T0 + 3000) } }] });
    tracer.ingest({ type: 'ADDED', object: running }, T0 + 3100);
    const reason = 'no command: the entrypoint of image registry.example/app:1 is not readable by the simulator';
    tracer.ingestInternal({ type: 'assumedRunning', time: T0 + 3100, component: 'kubelet', object: { kind: 'Pod', namespace: 'default', name: 'app-abcde', uid: 'p1' }, container: 'app', reason, resourceVersion: '77' });
    const j = journey();
    const started = j.tree?.children[0]?.stages.find((stage) => stage.kind === 'containerStarted');
    assert.equal(started?.assumed, `assumed: keeps running (${reason})`);
    assert.equal(j.assumptionCount, 1);
    assert.equal(j.assumptions?.[0]?.what, `app assumed to keep running (${reason})`);
    assert.match(renderJourney(j, { color: false }), /assuming 1 outcome the simulator cannot know/);
  });

  it('a pull the simulator assumed marks each pod’s pull (or image present) stage, and the journey lists the image once', () => {
    const { tracer, journey } = trace('ReplicationController', 'app');
    const rc: Owner = { kind: 'ReplicationController', name: 'app', uid: 'rc-1' };
    const spec = { replicas: 2, selector: { app: 'app' }, template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image: 'acme/app:1.0' }] } } };
    tracer.ingest({ type: 'ADDED', object: workload('ReplicationController', 'v1', 'app', 'rc-1', spec, { replicas: 2 }) }, T0 + 5);
    const pods = ['app-aaaaa', 'app-bbbbb'].map((name, i) => ({ name, uid: `p${i + 1}` }));
    for (const pod of pods) tracer.ingest({ type: 'ADDED', object: podObject({ name: pod.name, uid: pod.uid, owner: rc, nodeName: 'node-1', rv: '80' }) }, T0 + 20);
    const pulled = (pod: { name: string; uid: string }, alreadyPresent?: true): void =>
      tracer.ingestInternal({ type: 'assumedPull', time: T0 + 3000, component: 'kubelet', object: { kind: 'Pod', namespace: 'default', ...pod }, container: 'app', image: 'docker.io/acme/app:1.0', reason: 'the simulator reaches no registry', ...(alreadyPresent ? { alreadyPresent } : {}), resourceVersion: '80' });
    const about = (pod: { name: string; uid: string }): { kind: string; name: string; uid: string } => ({ kind: 'Pod', ...pod });
    // The first pod's step arrives before its Pulled event: the mark waits for the stage.
    pulled(pods[0]);
    tracer.ingest({ type: 'ADDED', object: coreEvent({ about: about(pods[0]), reason: 'Pulled', message: 'Successfully pulled image "acme/app:1.0" in 2.1s (2.1s including waiting). Image size: 45248155 bytes.', fieldPath: 'spec.containers{app}', first: T0 + 3000 }) }, T0 + 3000);
    tracer.ingest({ type: 'ADDED', object: coreEvent({ about: about(pods[1]), reason: 'Pulled', message: 'Container image "acme/app:1.0" already present on machine', fieldPath: 'spec.containers{app}', first: T0 + 3000 }) }, T0 + 3000);
    pulled(pods[1], true);
    const j = journey();
    const mark = 'assumed: the registry serves docker.io/acme/app:1.0 (the simulator reaches no registry)';
    const [first, second] = j.tree?.children ?? [];
    assert.equal(first?.stages.find((stage) => stage.kind === 'pulled')?.assumed, mark);
    assert.equal(second?.stages.find((stage) => stage.kind === 'imagePresent')?.assumed, mark);
    assert.equal(j.assumptionCount, 1, 'one image, one assumption, however many pods pulled it');
    assert.equal(j.assumptions?.[0]?.what, 'image docker.io/acme/app:1.0 assumed to exist (the simulator reaches no registry)');
    assert.equal(j.assumptions?.[0]?.objects, 2, 'both pods depend on it');
    assert.equal(j.assumedObjects, 2);
    const text = renderJourney(j, { color: false }).replace(/\s+/g, ' ');
    assert.ok(text.includes(`Image size: 45248155 bytes. [${mark}]`), text);
    assert.match(text, /assuming 1 outcome the simulator cannot know/);
  });

  it('100 pods running one unreadable program give one assumption for 100 pods, and a snapshot keeps the count it was taken with', () => {
    const { tracer, journey } = trace('ReplicationController', 'app');
    const rc: Owner = { kind: 'ReplicationController', name: 'app', uid: 'rc-1' };
    const spec = { replicas: 100, selector: { app: 'app' }, template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image: 'acme/app:1.0' }] } } };
    tracer.ingest({ type: 'ADDED', object: workload('ReplicationController', 'v1', 'app', 'rc-1', spec, { replicas: 100 }) }, T0 + 5);
    const reason = 'no command: the entrypoint of image acme/app:1.0 is not readable by the simulator';
    const runs = (i: number): void => {
      const name = `app-${String(i).padStart(5, '0')}`;
      const pod = { kind: 'Pod', namespace: 'default', name, uid: `p${i}` };
      tracer.ingest({ type: 'ADDED', object: podObject({ name, uid: pod.uid, owner: rc, nodeName: 'node-1', phase: 'Running', rv: `9${i}`, containers: [{ name: 'app', running: { startedAt: iso(T0 + 3000 + i) } }] }) }, T0 + 3100 + i);
      tracer.ingestInternal({ type: 'assumedRunning', time: T0 + 3100 + i, component: 'kubelet', object: pod, container: 'app', reason, resourceVersion: `9${i}` });
    };
    for (let i = 0; i < 40; i++) runs(i);
    const early = journey();
    const earlyAssumptions = structuredClone(early.assumptions);
    assert.equal(early.assumptions?.[0]?.objects, 40);
    for (let i = 40; i < 100; i++) runs(i);
    // A pod reporting the same again (its start seen twice) is still one pod.
    tracer.ingestInternal({ type: 'assumedRunning', time: T0 + 9000, component: 'kubelet', object: { kind: 'Pod', namespace: 'default', name: 'app-00007', uid: 'p7' }, container: 'app', reason, resourceVersion: '97' });
    const j = journey();
    assert.equal(j.assumptionCount, 1);
    assert.equal(j.assumedObjects, 100);
    assert.deepEqual(j.assumptions, [{ object: { kind: 'Pod', namespace: 'default', name: 'app-00000', uid: 'p0' }, container: 'app', time: T0 + 3100, what: `app assumed to keep running (${reason})`, objects: 100 }]);
    assert.deepEqual(early.assumptions, earlyAssumptions, 'the earlier snapshot still says 40 pods');
    const text = renderJourney(j, { color: false, width: 400 });
    assert.match(text, /assuming 1 outcome the simulator cannot know, for 100 pods$/m);
    assert.match(text, /assumed +1 outcome, for 100 pods \(a real cluster may differ\)\n +Pod default\/app-00000 and 99 more pods: app assumed to keep running \(no command/);
    assert.doesNotMatch(text, /… and \d+ more/);
  });

  it('Job: Failed with BackoffLimitExceeded ends the journey with upstream’s message', () => {
    const { tracer, journey } = trace('Job', 'pi');
    const spec = { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } };
    const failed = [{ type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: iso(T0 + 3000) }, { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: iso(T0 + 3000) }];
    tracer.ingest({ type: 'ADDED', object: workload('Job', 'batch/v1', 'pi', 'job-1', spec, { failed: 1, conditions: failed }) }, T0 + 3100);
    const j = journey();
    assert.equal(j.status, 'failed');
    assert.equal(j.done, true);
    assert.equal(j.stuckObjects[0]?.stuck.reason, 'BackoffLimitExceeded');
    assert.equal(j.stuckObjects[0]?.stuck.message, 'Job has reached the specified backoff limit');
  });

  it('Job: a suspended Job is stuck, saying why', () => {
    const { tracer, journey } = trace('Job', 'later');
    tracer.ingest({ type: 'ADDED', object: workload('Job', 'batch/v1', 'later', 'job-1', { suspend: true, template: { spec: { containers: [] } } }, { conditions: [{ type: 'Suspended', status: 'True' }] }) }, T0 + 5);
    assert.equal(journey().status, 'stuck');
    assert.equal(journey().stuckObjects[0]?.stuck.reason, 'Suspended');
  });

  it('CronJob: waits for its schedule, its Job hangs below it, and the first completed Job completes the journey', () => {
    const { tracer, journey } = trace('CronJob', 'hello');
    const spec = { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.28' }] } } } } };
    tracer.ingest({ type: 'ADDED', object: workload('CronJob', 'batch/v1', 'hello', 'cj-1', spec, {}) }, T0 + 5);
    assert.ok(titles(journey().tree).includes('Waiting for the schedule "*/1 * * * *"'));
    assert.equal(journey().status, 'pending');
    const cron: Owner = { kind: 'CronJob', name: 'hello', uid: 'cj-1' };
    const runAt = T0 + 60_000;
    tracer.ingest({ type: 'MODIFIED', object: workload('CronJob', 'batch/v1', 'hello', 'cj-1', spec, { active: [{ kind: 'Job', name: 'hello-29034242' }], lastScheduleTime: iso(runAt) }) }, runAt + 50);
    tracer.ingest({ type: 'ADDED', object: workload('Job', 'batch/v1', 'hello-29034242', 'job-1', { template: { spec: { containers: [] } } }, { active: 1 }, cron) }, runAt + 60);
    const job = journey().tree?.children[0];
    assert.equal(job?.ref.kind, 'Job');
    assert.equal(job?.stages.find((s) => s.kind === 'jobCreated')?.component, 'cronjob-controller');
    tracer.ingest({ type: 'MODIFIED', object: workload('Job', 'batch/v1', 'hello-29034242', 'job-1', { template: { spec: { containers: [] } } }, { succeeded: 1, conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: iso(runAt + 5000) }] }, cron) }, runAt + 5100);
    assert.equal(journey().status, 'complete');
  });

  it('ReplicationController: its pods are its own, counted as a ReplicaSet’s', () => {
    const { tracer, journey } = trace('ReplicationController', 'nginx');
    const spec = { replicas: 1, selector: { app: 'nginx' }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } };
    const rc: Owner = { kind: 'ReplicationController', name: 'nginx', uid: 'rc-1' };
    tracer.ingest({ type: 'ADDED', object: workload('ReplicationController', 'v1', 'nginx', 'rc-1', spec, {}) }, T0 + 5);
    tracer.ingest({ type: 'ADDED', object: readyPod('nginx-x7k2p', 'p1', rc, T0 + 100) }, T0 + 2200);
    tracer.ingest({ type: 'MODIFIED', object: workload('ReplicationController', 'v1', 'nginx', 'rc-1', spec, { observedGeneration: 1, replicas: 1, readyReplicas: 1, availableReplicas: 1 }) }, T0 + 2300);
    assert.equal(journey().status, 'complete');
    assert.equal(journey().tree?.children[0]?.stages.find((s) => s.kind === 'podCreated')?.component, 'replication-controller');
  });
});
