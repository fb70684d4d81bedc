/**
 * The cluster connection when things go wrong mid-journey: the API server restarts, connections
 * are cut, the watch history is too short to resume (410 Expired), RBAC forbids one kind, the
 * server has no internals stream. Each time the journey still completes with nothing missing, or
 * says clearly what it could not see. Every wait is for a condition, never a fixed time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { JourneyTracer } from '../../src/core/journey/tracer';
import type { Journey, ObjectJourney } from '../../src/core/journey/types';
import type { KubeObject } from '../../src/core/k8s';
import { parseManifest } from '../../src/core/manifest';
import { runTraceCluster } from '../../src/cli/trace-cluster';
import { ClusterConnection } from '../../src/cluster/connection';
import { ClusterTraceSession } from '../../src/cluster/session';
import type { WatchProblem } from '../../src/cluster/watcher';
import type { Simulator } from '../../src/sim/simulator';
import { podsOf } from './journey-shape';
import { serveSimulator, startFaultProxy, type FaultProxy, type ServedSimulator } from './served-simulator';

const EXAMPLE = join(__dirname, '..', '..', 'examples', 'nginx-deployment.yaml');
const FAST_BACKOFF = { initialMs: 20, maxMs: 200, factor: 2 };
/** Speed 2: the journey takes about two seconds, long enough to break things in the middle. */
const SPEED = 2;
const EVENTS_FORBIDDEN = 'events is forbidden: User "system:serviceaccount:dev:tracer" cannot list resource "events" in API group "" in the namespace "default"';

interface Traced {
  session: ClusterTraceSession;
  tracer: JourneyTracer;
  journeyId: string;
  journey(): Journey;
}

function manifestObject(name: string): KubeObject {
  return parseManifest(readFileSync(EXAMPLE, 'utf8').replace(/nginx-deployment/g, name)).documents[0].object!;
}

async function startTrace(kubeconfig: string, object: KubeObject): Promise<Traced> {
  const tracer = new JourneyTracer();
  const session = new ClusterTraceSession(ClusterConnection.open({ kubeconfig }), tracer, { backoff: FAST_BACKOFF });
  assert.equal(await session.start([object]), true);
  const [applied] = await session.apply([object]);
  assert.equal(applied.result.failure, undefined);
  const journeyId = applied.journeyId!;
  return { session, tracer, journeyId, journey: () => tracer.journey(journeyId)! };
}

async function until(traced: Traced, what: string, condition: (journey: Journey) => boolean, timeoutMs = 20_000): Promise<void> {
  assert.equal(await traced.session.waitFor(() => condition(traced.journey()), timeoutMs), true, `timed out waiting for ${what}`);
}

function untilProblem(traced: Traced, predicate: (problem: WatchProblem) => boolean): Promise<WatchProblem> {
  return new Promise((resolve) => {
    const found = traced.session.problems().find(predicate);
    if (found) return resolve(found);
    const stop = traced.session.watcher.onProblemsChanged((problems) => {
      const match = problems.find(predicate);
      if (match) {
        stop();
        resolve(match);
      }
    });
  });
}

/** Resolves once the simulator itself (not the client) has `count` Running pods of the deployment. */
function untilServerHasRunningPods(simulator: Simulator, prefix: string, count: number): Promise<void> {
  const running = (): boolean =>
    simulator.store.list('Pod', { namespace: 'default' }).items.filter((pod) => pod.metadata?.name?.startsWith(prefix) && (pod.status as { phase?: string } | undefined)?.phase === 'Running').length >= count;
  return new Promise((resolve) => {
    if (running()) return resolve();
    const stop = simulator.store.subscribe('Pod', () => {
      if (running()) {
        stop();
        resolve();
      }
    });
  });
}

const anyPodScheduled = (journey: Journey): boolean => podsOf(journey).some((pod) => pod.stages.some((s) => s.kind === 'scheduled'));

const DEPLOYMENT_STAGES = ['submitted', 'stored', 'scaled', 'available'];
const REPLICA_SET_STAGES = ['replicaSetCreated', 'available'];
const POD_STAGES = ['podCreated', 'scheduled', 'pulling', 'pulled', 'containerCreated', 'containerStarted', 'running', 'ready'];

/** What a complete nginx journey shows that this one does not (empty: nothing missing). */
function missingFromJourney(journey: Journey): string[] {
  const missing: string[] = [];
  if (journey.status !== 'complete') missing.push(`journey ${journey.status}`);
  const deployment = journey.tree;
  if (!deployment) return [...missing, 'the Deployment'];
  const lacks = (object: ObjectJourney, kinds: readonly string[]): void => {
    for (const kind of kinds) if (!object.stages.some((s) => s.kind === kind)) missing.push(`${object.ref.kind} ${object.ref.name} ${kind}${object.preexisting ? ' (preexisting)' : ''}`);
  };
  lacks(deployment, DEPLOYMENT_STAGES);
  const replicaSet = deployment.children[0];
  if (!replicaSet) return [...missing, 'the ReplicaSet'];
  lacks(replicaSet, REPLICA_SET_STAGES);
  const pods = podsOf(journey);
  if (pods.length !== 3) missing.push(`${3 - pods.length} pods`);
  for (const pod of pods) {
    if (pod.pod?.phase !== 'Running' || pod.status !== 'complete') missing.push(`${pod.ref.name} running and ready`);
    lacks(pod, POD_STAGES);
  }
  return missing;
}

/**
 * Waits until the journey is complete with every stage of a healthy rollout: what happened while
 * the connection was down arrives after it is back, so "done" alone is not the end of it.
 */
async function untilCompleteWithNothingMissing(traced: Traced): Promise<void> {
  const complete = await traced.session.waitFor(() => missingFromJourney(traced.journey()).length === 0, 20_000);
  const journey = traced.journey();
  assert.ok(complete, `missing: ${missingFromJourney(journey).join('; ')} (applied ${journey.appliedAt}, created ${journey.tree?.createdAt}, server clock offset ${traced.session.clock.offset()} ms)`);
}

function podCollection(traced: Traced) {
  return traced.session.watcher.collections().find((c) => c.kind === 'Pod')!;
}

describe('cluster connection: faults mid-journey', function () {
  this.timeout(60_000);
  let dir: string;
  let served: ServedSimulator | undefined;
  let proxy: FaultProxy | undefined;
  let traced: Traced | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kj-faults-'));
  });

  afterEach(async () => {
    await traced?.session.stop();
    await proxy?.close();
    await served?.stop();
    traced = proxy = served = undefined;
  });

  it('resumes every watch from its resourceVersion when the API server restarts', async () => {
    served = await serveSimulator({ nodes: 3, seed: 1, speed: SPEED });
    served.writeKubeconfig(join(dir, 'kubeconfig'));
    traced = await startTrace(join(dir, 'kubeconfig'), manifestObject('restarted'));
    await until(traced, 'a pod to be scheduled', anyPodScheduled);

    await served.stopApi();
    await untilProblem(traced, (p) => p.reason === 'Unreachable');
    await untilServerHasRunningPods(served.simulator, 'restarted-', 1);
    await served.startApi();

    await untilCompleteWithNothingMissing(traced);
    const pods = podCollection(traced);
    assert.equal(pods.stats.lists, 1, 'resumed, not relisted');
    assert.equal(pods.stats.expired, 0);
    assert.ok(pods.stats.failures >= 1);
    assert.equal(await traced.session.watcher.watching(20_000), true, 'every stream open again');
    assert.deepEqual(traced.session.problems(), []);
    assert.equal(traced.session.watcher.internals, 'streaming');
  });

  it('reconnects after every connection is cut, twice', async () => {
    served = await serveSimulator({ nodes: 3, seed: 1, speed: SPEED });
    proxy = await startFaultProxy(served);
    served.writeKubeconfig(join(dir, 'kubeconfig'), proxy.url);
    traced = await startTrace(join(dir, 'kubeconfig'), manifestObject('dropped'));
    await until(traced, 'a pod to be scheduled', anyPodScheduled);

    const watchesBefore = podCollection(traced).stats.watches;
    proxy.dropConnections();
    await until(traced, 'a pod to be pulling its image', (j) => podsOf(j).some((pod) => pod.stages.some((s) => s.kind === 'pulling')));
    await untilServerHasRunningPods(served.simulator, 'dropped-', 1);
    proxy.dropConnections();

    await untilCompleteWithNothingMissing(traced);
    const pods = podCollection(traced);
    assert.ok(pods.stats.watches >= watchesBefore + 2, `watched again after each cut (${pods.stats.watches} watches)`);
    assert.equal(pods.stats.lists, 1, 'resumed, not relisted');
  });

  it('relists after 410 Expired when the history no longer reaches back, and still sees everything', async () => {
    served = await serveSimulator({ nodes: 3, seed: 1, speed: SPEED, historyPerKind: 2 });
    served.writeKubeconfig(join(dir, 'kubeconfig'));
    traced = await startTrace(join(dir, 'kubeconfig'), manifestObject('expired'));
    await until(traced, 'a pod to be scheduled', anyPodScheduled);

    await served.stopApi();
    await untilProblem(traced, (p) => p.reason === 'Unreachable');
    // Every pod changes at least twice more meanwhile: more than the history keeps.
    await untilServerHasRunningPods(served.simulator, 'expired-', 3);
    await served.startApi();

    await untilCompleteWithNothingMissing(traced);
    const pods = podCollection(traced);
    assert.ok(pods.stats.expired >= 1, 'the resumed watch was answered 410 Expired');
    assert.ok(pods.stats.lists >= 2, 'and the pods were listed again');
  });

  it('traces without events when RBAC forbids them, and says so', async () => {
    served = await serveSimulator({ nodes: 3, seed: 1, speed: 20 });
    proxy = await startFaultProxy(served);
    proxy.refuse(/\/events$/, 403, 'Forbidden', EVENTS_FORBIDDEN);
    served.writeKubeconfig(join(dir, 'kubeconfig'), proxy.url);
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = '';
    let stderr = '';
    out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

    const code = await runTraceCluster({ file: EXAMPLE, kubeconfig: join(dir, 'kubeconfig'), timeoutMs: 30_000, settleMs: 100, json: false, evidence: false, out, err });

    assert.equal(code, 0);
    assert.match(stdout, /Journey of Deployment default\/nginx-deployment {2}\[complete\]/);
    assert.match(stdout, /3\/3 ready/);
    assert.ok(stderr.includes(`kube-journey: warning: cannot watch events in namespace "default": ${EVENTS_FORBIDDEN}\n`), stderr);
    assert.ok(stderr.includes(`kube-journey: the journeys above were traced without events in namespace "default" (${EVENTS_FORBIDDEN})\n`), stderr);
    assert.ok(proxy.requests.some((r) => r.startsWith('GET /api/v1/namespaces/default/events')));
  });

  it('does without the internals stream on a server that has none (a real cluster)', async () => {
    served = await serveSimulator({ nodes: 3, seed: 1, speed: 20 });
    proxy = await startFaultProxy(served);
    proxy.refuse(/^\/apis\/internals\.kube-journey\.dev\//, 404, 'NotFound', 'the server could not find the requested resource');
    served.writeKubeconfig(join(dir, 'kubeconfig'), proxy.url);
    traced = await startTrace(join(dir, 'kubeconfig'), manifestObject('real'));
    assert.equal(traced.session.watcher.internals, 'absent');

    await untilCompleteWithNothingMissing(traced);
    const scheduled = podsOf(traced.journey())[0].stages.find((s) => s.kind === 'scheduled')!;
    assert.equal(scheduled.evidence.internals, undefined);
    assert.deepEqual(traced.session.problems(), []);
  });
});
