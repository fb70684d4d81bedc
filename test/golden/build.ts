/**
 * The hand-built golden streams, written the way a real cluster delivers them (see kit.ts).
 * Regenerate with `npx tsx test/golden/build.ts`, then `UPDATE_GOLDEN=1 npx mocha test/unit/journey/golden.test.ts`.
 * Timings follow real clusters (docs/lifecycle-facts.md, "Timings"): scheduling in ~20 ms, pulls of 0.4–6 s,
 * container create/start in ~100–200 ms, back-offs of 10 s doubling.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../src/core/k8s';
import {
  barePod,
  bind,
  Cluster,
  deletionRequested,
  deployment,
  deploymentCondition,
  deploymentStatus,
  kubeletAccepted,
  node,
  podOf,
  replicaSet,
  rsStatus,
  running,
  sandboxReady,
  setRevision,
  terminated,
  unschedulable,
  waiting,
} from './kit';

const here = dirname(fileURLToPath(import.meta.url));
const NGINX = 'nginx:1.25';
const AVAILABLE = 'Deployment has minimum availability.';
const UNAVAILABLE = 'Deployment does not have minimum availability.';

function uidOf(o: KubeObject): string {
  return String((o.metadata as Record<string, unknown>).uid);
}

function nameOf(o: KubeObject): string {
  return String((o.metadata as Record<string, unknown>).name);
}

function listNodes(c: Cluster, count: number): void {
  for (let i = 1; i <= count; i++) c.listed(node(c, `node-${i}`, `172.18.0.${i + 1}`, c.now - 86_400_000));
}

/** kubelet's path from binding to Running and Ready, with its events, for a pod whose image must be pulled or is present. */
function startOnNode(c: Cluster, pod: KubeObject, host: string, ip: string, podIP: string, plan: { accept: number; sandbox: number; pull?: { at: number; ms: number; message: string }; present?: number; created: number; createdMessage: string; started: number; statusAt: number }): void {
  c.at(plan.accept);
  kubeletAccepted(c, pod, ip);
  c.emit('MODIFIED', pod);
  c.at(plan.sandbox);
  sandboxReady(c, pod, podIP);
  c.emit('MODIFIED', pod);
  const fieldPath = 'spec.containers{nginx}';
  if (plan.pull) {
    c.at(plan.pull.at);
    c.event(pod, { reason: 'Pulling', message: `Pulling image "${NGINX}"`, host, fieldPath });
    c.at(plan.pull.at + plan.pull.ms);
    c.event(pod, { reason: 'Pulled', message: plan.pull.message, host, fieldPath });
  } else if (plan.present !== undefined) {
    c.at(plan.present);
    c.event(pod, { reason: 'Pulled', message: `Container image "${NGINX}" already present on machine`, host, fieldPath });
  }
  c.at(plan.created);
  c.event(pod, { reason: 'Created', message: plan.createdMessage, host, fieldPath });
  c.at(plan.started);
  c.event(pod, { reason: 'Started', message: 'Started container nginx', host, fieldPath });
  c.at(plan.statusAt);
  running(c, pod, plan.started);
  c.emit('MODIFIED', pod);
}

/** (1) nginx Deployment, 3 replicas, to Available. Scheduled events arrive before and after the bindings. */
function nginxDeployment(): Cluster {
  const T = Date.UTC(2026, 2, 14, 9, 26, 53, 412);
  const c = new Cluster(T - 2_000, 101);
  listNodes(c, 3);
  c.at(T);
  c.begin('Deployment', 'web');
  c.at(T + 9);
  const d = deployment(c, 'web', 3, [{ name: 'nginx', image: NGINX, port: 80 }]);
  c.emit('ADDED', d);
  c.at(T + 23);
  const rs = replicaSet(c, d, '5d567cc74c', 3, 1);
  c.emit('ADDED', rs);
  c.at(T + 25);
  setRevision(c, d, 1);
  c.emit('MODIFIED', d);
  c.at(T + 26);
  c.event(d, { reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-5d567cc74c from 0 to 3', component: 'deployment-controller' });
  c.at(T + 29);
  const progressingSince = c.now;
  deploymentStatus(c, d, { replicas: 0, updated: 0, ready: 0, available: 0 }, [deploymentCondition('Progressing', 'True', 'NewReplicaSetCreated', 'Created new replica set "web-5d567cc74c"', c.now, c.now)]);
  c.emit('MODIFIED', d);

  const pods: KubeObject[] = [];
  for (const [i, suffix] of ['ss4lb', '7xk2p', 'q9wzd'].entries()) {
    c.at(T + 38 + i * 3);
    const pod = podOf(c, rs, suffix);
    pods.push(pod);
    c.emit('ADDED', pod);
    c.event(rs, { reason: 'SuccessfulCreate', message: `Created pod: ${nameOf(pod)}`, component: 'replicaset-controller' });
  }
  c.at(T + 52);
  rsStatus(c, rs, 3, 0, 0);
  c.emit('MODIFIED', rs);

  // pod 0: the Scheduled event comes before the pod's MODIFIED.
  c.at(T + 57);
  bind(c, pods[0], 'node-1');
  c.at(T + 58);
  c.schedulerEvent(pods[0], { reason: 'Scheduled', message: `Successfully assigned default/${nameOf(pods[0])} to node-1`, action: 'Binding' });
  c.at(T + 61);
  c.emit('MODIFIED', pods[0]);
  // pod 1: MODIFIED first, then the event.
  c.at(T + 60);
  bind(c, pods[1], 'node-2');
  c.at(T + 62);
  c.emit('MODIFIED', pods[1]);
  c.at(T + 64);
  c.schedulerEvent(pods[1], { reason: 'Scheduled', message: `Successfully assigned default/${nameOf(pods[1])} to node-2`, action: 'Binding' });
  // pod 2: event first again.
  c.at(T + 65);
  bind(c, pods[2], 'node-3');
  c.schedulerEvent(pods[2], { reason: 'Scheduled', message: `Successfully assigned default/${nameOf(pods[2])} to node-3`, action: 'Binding' });
  c.at(T + 67);
  c.emit('MODIFIED', pods[2]);

  c.at(T + 70);
  deploymentStatus(c, d, { replicas: 3, updated: 3, ready: 0, available: 0 }, [
    deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', UNAVAILABLE, c.now, c.now),
    deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-5d567cc74c" is progressing.', progressingSince, c.now),
  ]);
  c.emit('MODIFIED', d);

  // pod 1 (node-2) has the image; pod 2 (node-3) pulls it in 1.44 s (older message form); pod 0 (node-1) in 5.87 s.
  startOnNode(c, pods[0], 'node-1', '172.18.0.2', '10.244.2.5', {
    accept: T + 95, sandbox: T + 520, pull: { at: T + 590, ms: 5_870, message: `Successfully pulled image "${NGINX}" in 5.87s (5.87s including waiting). Image size: 72123456 bytes.` }, created: T + 6_669, createdMessage: 'Created container: nginx', started: T + 6_776, statusAt: T + 6_801,
  });
  startOnNode(c, pods[1], 'node-2', '172.18.0.3', '10.244.3.17', {
    accept: T + 101, sandbox: T + 480, present: T + 560, created: T + 592, createdMessage: 'Created container: nginx', started: T + 669, statusAt: T + 690,
  });
  startOnNode(c, pods[2], 'node-3', '172.18.0.4', '10.244.4.9', {
    accept: T + 110, sandbox: T + 530, pull: { at: T + 600, ms: 1_440, message: `Successfully pulled image "${NGINX}" in 1.440289346s` }, created: T + 2_110, createdMessage: 'Created container nginx', started: T + 2_190, statusAt: T + 2_215,
  });
  c.at(T + 700);
  rsStatus(c, rs, 3, 1, 1);
  c.emit('MODIFIED', rs);
  c.at(T + 706);
  deploymentStatus(c, d, { replicas: 3, updated: 3, ready: 1, available: 1 }, [
    deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', UNAVAILABLE, T + 70, T + 70),
    deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-5d567cc74c" is progressing.', progressingSince, c.now),
  ]);
  c.emit('MODIFIED', d);
  c.at(T + 2_230);
  rsStatus(c, rs, 3, 2, 2);
  c.emit('MODIFIED', rs);
  c.at(T + 2_235);
  deploymentStatus(c, d, { replicas: 3, updated: 3, ready: 2, available: 2 }, [
    deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', UNAVAILABLE, T + 70, T + 70),
    deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-5d567cc74c" is progressing.', progressingSince, c.now),
  ]);
  c.emit('MODIFIED', d);
  c.at(T + 6_815);
  rsStatus(c, rs, 3, 3, 3);
  c.emit('MODIFIED', rs);
  c.at(T + 6_822);
  deploymentStatus(c, d, { replicas: 3, updated: 3, ready: 3, available: 3 }, [
    deploymentCondition('Available', 'True', 'MinimumReplicasAvailable', AVAILABLE, c.now, c.now),
    deploymentCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-5d567cc74c" has successfully progressed.', progressingSince, c.now),
  ]);
  c.emit('MODIFIED', d);
  return c;
}

/** (2) A pod no node can take: FailedScheduling (events.k8s.io, repeated through `series`) and PodScheduled=False. */
function unschedulablePod(): Cluster {
  const T = Date.UTC(2026, 2, 14, 10, 4, 11, 877);
  const c = new Cluster(T - 1_000, 202, 90_412);
  listNodes(c, 3);
  c.at(T);
  c.begin('Deployment', 'big');
  c.at(T + 7);
  const d = deployment(c, 'big', 1, [{ name: 'app', image: NGINX, cpu: '64' }]);
  c.emit('ADDED', d);
  c.at(T + 19);
  const rs = replicaSet(c, d, '6b7f8c9d5f', 1, 1);
  c.emit('ADDED', rs);
  c.at(T + 21);
  setRevision(c, d, 1);
  c.emit('MODIFIED', d);
  c.event(d, { reason: 'ScalingReplicaSet', message: 'Scaled up replica set big-6b7f8c9d5f to 1', component: 'deployment-controller' });
  c.at(T + 24);
  const progressingSince = c.now;
  deploymentStatus(c, d, { replicas: 0, updated: 0, ready: 0, available: 0 }, [deploymentCondition('Progressing', 'True', 'NewReplicaSetCreated', 'Created new replica set "big-6b7f8c9d5f"', c.now, c.now)]);
  c.emit('MODIFIED', d);
  c.at(T + 31);
  const pod = podOf(c, rs, 'h8vnm');
  c.emit('ADDED', pod);
  c.event(rs, { reason: 'SuccessfulCreate', message: `Created pod: ${nameOf(pod)}`, component: 'replicaset-controller' });
  c.at(T + 36);
  rsStatus(c, rs, 1, 0, 0);
  c.emit('MODIFIED', rs);
  const message = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..';
  c.at(T + 44);
  unschedulable(c, pod, message);
  c.at(T + 46);
  c.schedulerEvent(pod, { reason: 'FailedScheduling', message, type: 'Warning', action: 'Scheduling' });
  c.at(T + 49);
  c.emit('MODIFIED', pod);
  c.at(T + 53);
  deploymentStatus(c, d, { replicas: 1, updated: 1, ready: 0, available: 0 }, [
    deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', UNAVAILABLE, c.now, c.now),
    deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "big-6b7f8c9d5f" is progressing.', progressingSince, c.now),
  ]);
  c.emit('MODIFIED', d);
  // The scheduler retries unschedulable pods at the latest every 5 minutes (podMaxInUnschedulablePodsDuration).
  c.at(T + 300_051);
  c.schedulerEvent(pod, { reason: 'FailedScheduling', message, type: 'Warning', action: 'Scheduling' });
  return c;
}

/** (3) A bare Pod whose image tag does not exist: ErrImagePull, then ImagePullBackOff, twice. */
function imagePullBackOff(): Cluster {
  const T = Date.UTC(2026, 2, 14, 11, 45, 2, 604);
  const c = new Cluster(T, 303, 120_077);
  const image = 'nginx:1.255';
  c.begin('Pod', 'typo');
  c.at(T + 8);
  const pod = barePod(c, 'typo', [{ name: 'nginx', image }]);
  c.emit('ADDED', pod);
  c.at(T + 21);
  bind(c, pod, 'node-2');
  c.at(T + 24);
  c.emit('MODIFIED', pod);
  c.at(T + 26);
  c.schedulerEvent(pod, { reason: 'Scheduled', message: 'Successfully assigned default/typo to node-2', action: 'Binding' });
  c.at(T + 55);
  kubeletAccepted(c, pod, '172.18.0.3');
  c.emit('MODIFIED', pod);
  c.at(T + 390);
  sandboxReady(c, pod, '10.244.3.31');
  c.emit('MODIFIED', pod);
  const host = 'node-2';
  const fieldPath = 'spec.containers{nginx}';
  const pullError = `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/${image}": failed to resolve reference "docker.io/library/${image}": docker.io/library/${image}: not found`;
  const cycle = (start: number): void => {
    c.at(start);
    c.event(pod, { reason: 'Pulling', message: `Pulling image "${image}"`, host, fieldPath });
    c.at(start + 1_180);
    c.event(pod, { reason: 'Failed', type: 'Warning', message: `Failed to pull image "${image}": ${pullError}`, host, fieldPath });
    c.event(pod, { reason: 'Failed', type: 'Warning', message: 'Error: ErrImagePull', host, fieldPath });
    c.at(start + 1_201);
    waiting(c, pod, 'nginx', 'ErrImagePull', pullError);
    c.emit('MODIFIED', pod);
    c.at(start + 1_950);
    c.event(pod, { reason: 'BackOff', message: `Back-off pulling image "${image}"`, host, fieldPath });
    c.event(pod, { reason: 'Failed', type: 'Warning', message: 'Error: ImagePullBackOff', host, fieldPath });
    c.at(start + 1_972);
    waiting(c, pod, 'nginx', 'ImagePullBackOff', `Back-off pulling image "${image}"`);
    c.emit('MODIFIED', pod);
  };
  cycle(T + 431);
  cycle(T + 13_560);
  return c;
}

/** (4) A container that exits at once: terminated with exit code 1, CrashLoopBackOff, restarted, again. */
function crashLoopBackOff(): Cluster {
  const T = Date.UTC(2026, 2, 14, 13, 0, 40, 250);
  const c = new Cluster(T, 404, 201_560);
  const image = 'busybox:1.36';
  c.begin('Deployment', 'crash');
  c.at(T + 10);
  const d = deployment(c, 'crash', 1, [{ name: 'app', image, command: ['sh', '-c', 'echo starting; exit 1'] }]);
  c.emit('ADDED', d);
  c.at(T + 22);
  const rs = replicaSet(c, d, '7c9d8f6b5', 1, 1);
  c.emit('ADDED', rs);
  c.at(T + 24);
  setRevision(c, d, 1);
  c.emit('MODIFIED', d);
  c.event(d, { reason: 'ScalingReplicaSet', message: 'Scaled up replica set crash-7c9d8f6b5 from 0 to 1', component: 'deployment-controller' });
  c.at(T + 27);
  const progressingSince = c.now;
  deploymentStatus(c, d, { replicas: 0, updated: 0, ready: 0, available: 0 }, [deploymentCondition('Progressing', 'True', 'NewReplicaSetCreated', 'Created new replica set "crash-7c9d8f6b5"', c.now, c.now)]);
  c.emit('MODIFIED', d);
  c.at(T + 33);
  const pod = podOf(c, rs, 'x2x4q');
  c.emit('ADDED', pod);
  c.event(rs, { reason: 'SuccessfulCreate', message: `Created pod: ${nameOf(pod)}`, component: 'replicaset-controller' });
  c.at(T + 40);
  rsStatus(c, rs, 1, 0, 0);
  c.emit('MODIFIED', rs);
  c.at(T + 52);
  bind(c, pod, 'node-1');
  c.schedulerEvent(pod, { reason: 'Scheduled', message: `Successfully assigned default/${nameOf(pod)} to node-1`, action: 'Binding' });
  c.at(T + 55);
  c.emit('MODIFIED', pod);
  c.at(T + 60);
  deploymentStatus(c, d, { replicas: 1, updated: 1, ready: 0, available: 0 }, [
    deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', UNAVAILABLE, c.now, c.now),
    deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "crash-7c9d8f6b5" is progressing.', progressingSince, c.now),
  ]);
  c.emit('MODIFIED', d);
  c.at(T + 81);
  kubeletAccepted(c, pod, '172.18.0.2');
  c.emit('MODIFIED', pod);
  c.at(T + 402);
  sandboxReady(c, pod, '10.244.2.44');
  c.emit('MODIFIED', pod);
  const host = 'node-1';
  const fieldPath = 'spec.containers{app}';
  const podRef = `${nameOf(pod)}_default(${uidOf(pod)})`;
  const run = (start: number, backOffSeconds: number, nextRestartCount: number): void => {
    c.at(start);
    c.event(pod, { reason: 'Pulled', message: `Container image "${image}" already present on machine`, host, fieldPath });
    c.at(start + 95);
    c.event(pod, { reason: 'Created', message: 'Created container: app', host, fieldPath });
    c.at(start + 180);
    c.event(pod, { reason: 'Started', message: 'Started container app', host, fieldPath });
    c.at(start + 240);
    const s = pod.status as Record<string, unknown>;
    s.phase = 'Running';
    const cs = (s.containerStatuses as Record<string, unknown>[])[0];
    cs.containerID = `containerd://${c.suffix(5)}${'9a8b7c6d5e4f3a2b1c0d'.repeat(3).slice(0, 59)}`;
    cs.imageID = 'docker.io/library/busybox@sha256:7b3ccabffc97de872a30dfd234fd972a66d247c8cfc69b0550f276481852627c';
    terminated(c, pod, 'app', 1, 'Error', start + 180);
    c.emit('MODIFIED', pod);
    c.at(start + 1_310);
    waiting(c, pod, 'app', 'CrashLoopBackOff', `back-off ${backOffSeconds}s restarting failed container=app pod=${podRef}`);
    void nextRestartCount;
    c.emit('MODIFIED', pod);
    c.at(start + 1_330);
    c.event(pod, { reason: 'BackOff', type: 'Warning', message: `Back-off restarting failed container app in pod ${podRef}`, host, fieldPath });
  };
  run(T + 470, 10, 1);
  run(T + 11_930, 20, 2);
  run(T + 33_050, 40, 3);
  return c;
}

/** (5) Rolling update of a running 2-replica Deployment from nginx:1.25 to 1.26: a new ReplicaSet scales up while the old one scales down. */
function rollingUpdate(): Cluster {
  const T = Date.UTC(2026, 2, 14, 15, 30, 18, 93);
  const before = T - 600_000;
  const c = new Cluster(before, 505, 310_880);
  // The cluster as a watch's initial list shows it: a Deployment rolled out ten minutes ago.
  const d = deployment(c, 'web', 2, [{ name: 'nginx', image: NGINX, port: 80 }], before);
  setRevision(c, d, 1);
  const oldRs = replicaSet(c, d, '5d567cc74c', 2, 1, before);
  rsStatus(c, oldRs, 2, 2, 2);
  const oldPods = ['2kq8z', 'mv7xd'].map((suffix, i) => {
    const p = podOf(c, oldRs, suffix, before);
    bind(c, p, `node-${i + 1}`);
    kubeletAccepted(c, p, `172.18.0.${i + 2}`);
    sandboxReady(c, p, `10.244.${i + 2}.${11 + i}`);
    running(c, p, before + 3_000);
    return p;
  });
  deploymentStatus(c, d, { replicas: 2, updated: 2, ready: 2, available: 2 }, [
    deploymentCondition('Available', 'True', 'MinimumReplicasAvailable', AVAILABLE, before + 3_500, before + 3_500),
    deploymentCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-5d567cc74c" has successfully progressed.', before, before + 3_500),
  ]);
  c.at(T - 1_500);
  for (const o of [d, oldRs, ...oldPods]) c.emit('ADDED', o);

  c.at(T);
  c.begin('Deployment', 'web');
  c.at(T + 11);
  const spec = d.spec as Record<string, unknown>;
  const template = spec.template as Record<string, unknown>;
  ((template.spec as Record<string, unknown>).containers as Record<string, unknown>[])[0].image = 'nginx:1.26';
  const m = d.metadata as Record<string, unknown>;
  m.generation = 2;
  m.annotations = { ...(m.annotations as Record<string, unknown>), 'kubectl.kubernetes.io/last-applied-configuration': String((m.annotations as Record<string, unknown>)['kubectl.kubernetes.io/last-applied-configuration']).replace(NGINX, 'nginx:1.26') };
  c.managed(d, 'kubectl-client-side-apply', {});
  c.emit('MODIFIED', d);

  c.at(T + 24);
  const newRs = replicaSet(c, d, '7b8f9d6c5d', 1, 2);
  c.emit('ADDED', newRs);
  c.at(T + 26);
  setRevision(c, d, 2);
  c.emit('MODIFIED', d);
  c.event(d, { reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-7b8f9d6c5d to 1', component: 'deployment-controller' });
  c.at(T + 30);
  deploymentStatus(c, d, { replicas: 3, updated: 1, ready: 2, available: 2 }, [
    deploymentCondition('Available', 'True', 'MinimumReplicasAvailable', AVAILABLE, before + 3_500, before + 3_500),
    deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-7b8f9d6c5d" is progressing.', before, c.now),
  ]);
  c.emit('MODIFIED', d);

  const startNew = (suffix: string, at: number, host: string, ip: string, podIP: string, pull: boolean): KubeObject => {
    c.at(at);
    const p = podOf(c, newRs, suffix);
    c.emit('ADDED', p);
    c.event(newRs, { reason: 'SuccessfulCreate', message: `Created pod: ${nameOf(p)}`, component: 'replicaset-controller' });
    c.at(at + 17);
    bind(c, p, host);
    c.emit('MODIFIED', p);
    c.at(at + 19);
    c.schedulerEvent(p, { reason: 'Scheduled', message: `Successfully assigned default/${nameOf(p)} to ${host}`, action: 'Binding' });
    c.at(at + 48);
    kubeletAccepted(c, p, ip);
    c.emit('MODIFIED', p);
    c.at(at + 350);
    sandboxReady(c, p, podIP);
    c.emit('MODIFIED', p);
    const fieldPath = 'spec.containers{nginx}';
    let t = at + 380;
    c.at(t);
    if (pull) {
      c.event(p, { reason: 'Pulling', message: 'Pulling image "nginx:1.26"', host, fieldPath });
      t += 2_490;
      c.at(t);
      c.event(p, { reason: 'Pulled', message: 'Successfully pulled image "nginx:1.26" in 2.49s (2.49s including waiting). Image size: 72099501 bytes.', host, fieldPath });
    } else {
      c.event(p, { reason: 'Pulled', message: 'Container image "nginx:1.26" already present on machine', host, fieldPath });
    }
    c.at(t + 120);
    c.event(p, { reason: 'Created', message: 'Created container: nginx', host, fieldPath });
    c.at(t + 210);
    c.event(p, { reason: 'Started', message: 'Started container nginx', host, fieldPath });
    c.at(t + 236);
    running(c, p, t + 210);
    c.emit('MODIFIED', p);
    return p;
  };
  const stopOld = (p: KubeObject, at: number): void => {
    c.at(at);
    c.event(oldRs, { reason: 'SuccessfulDelete', message: `Deleted pod: ${nameOf(p)}`, component: 'replicaset-controller' });
    deletionRequested(c, p, 30);
    c.at(at + 2);
    c.emit('MODIFIED', p);
    const host = String((p.spec as Record<string, unknown>).nodeName);
    c.at(at + 21);
    c.event(p, { reason: 'Killing', message: 'Stopping container nginx', host, fieldPath: 'spec.containers{nginx}' });
    c.at(at + 260);
    terminated(c, p, 'nginx', 0, 'Completed', before + 3_000);
    (p.status as Record<string, unknown>).phase = 'Succeeded';
    c.emit('MODIFIED', p);
    c.at(at + 281);
    c.emit('DELETED', p);
  };

  startNew('b6tqw', T + 45, 'node-3', '172.18.0.4', '10.244.4.21', true);
  c.at(T + 3_220);
  rsStatus(c, newRs, 1, 1, 1);
  c.emit('MODIFIED', newRs);
  // One new pod available: the old ReplicaSet goes down to 1 and the new one up to 2.
  c.at(T + 3_231);
  (oldRs.spec as Record<string, unknown>).replicas = 1;
  c.managed(oldRs, 'kube-controller-manager', {});
  c.emit('MODIFIED', oldRs);
  c.event(d, { reason: 'ScalingReplicaSet', message: 'Scaled down replica set web-5d567cc74c to 1', component: 'deployment-controller' });
  stopOld(oldPods[0], T + 3_236);
  c.at(T + 3_540);
  rsStatus(c, oldRs, 1, 1, 1);
  c.emit('MODIFIED', oldRs);
  c.at(T + 3_552);
  (newRs.spec as Record<string, unknown>).replicas = 2;
  c.managed(newRs, 'kube-controller-manager', {});
  c.emit('MODIFIED', newRs);
  c.event(d, { reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-7b8f9d6c5d to 2', component: 'deployment-controller' });
  startNew('jx4p9', T + 3_566, 'node-1', '172.18.0.2', '10.244.2.27', false);
  c.at(T + 4_340);
  rsStatus(c, newRs, 2, 2, 2);
  c.emit('MODIFIED', newRs);
  c.at(T + 4_352);
  (oldRs.spec as Record<string, unknown>).replicas = 0;
  c.managed(oldRs, 'kube-controller-manager', {});
  c.emit('MODIFIED', oldRs);
  c.event(d, { reason: 'ScalingReplicaSet', message: 'Scaled down replica set web-5d567cc74c to 0', component: 'deployment-controller' });
  stopOld(oldPods[1], T + 4_357);
  c.at(T + 4_660);
  rsStatus(c, oldRs, 0, 0, 0);
  c.emit('MODIFIED', oldRs);
  c.at(T + 4_671);
  deploymentStatus(c, d, { replicas: 2, updated: 2, ready: 2, available: 2 }, [
    deploymentCondition('Available', 'True', 'MinimumReplicasAvailable', AVAILABLE, before + 3_500, before + 3_500),
    deploymentCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-7b8f9d6c5d" has successfully progressed.', before, c.now),
  ]);
  c.emit('MODIFIED', d);
  return c;
}

/**
 * (6) A pod deleted and replaced, then the whole Deployment deleted (background cascade: the
 * garbage collector removes the ReplicaSet, then its pods). The watch here had no access to
 * Events for the first rollout, so that part comes from object state alone.
 */
function deletionAndReplacement(): Cluster {
  const T = Date.UTC(2026, 2, 14, 16, 12, 7, 730);
  const c = new Cluster(T, 606, 402_115);
  c.begin('Deployment', 'web');
  c.at(T + 8);
  const d = deployment(c, 'web', 2, [{ name: 'nginx', image: NGINX, port: 80 }]);
  c.emit('ADDED', d);
  c.at(T + 20);
  const rs = replicaSet(c, d, '5d567cc74c', 2, 1);
  c.emit('ADDED', rs);
  c.at(T + 22);
  setRevision(c, d, 1);
  c.emit('MODIFIED', d);
  c.at(T + 25);
  const progressingSince = c.now;
  deploymentStatus(c, d, { replicas: 0, updated: 0, ready: 0, available: 0 }, [deploymentCondition('Progressing', 'True', 'NewReplicaSetCreated', 'Created new replica set "web-5d567cc74c"', c.now, c.now)]);
  c.emit('MODIFIED', d);
  const pods = ['fw2rn', 'l8c4k'].map((suffix, i) => {
    c.at(T + 33 + i * 2);
    const p = podOf(c, rs, suffix);
    c.emit('ADDED', p);
    return p;
  });
  pods.forEach((p, i) => {
    c.at(T + 52 + i * 4);
    bind(c, p, `node-${i + 1}`);
    c.emit('MODIFIED', p);
  });
  c.at(T + 61);
  rsStatus(c, rs, 2, 0, 0);
  c.emit('MODIFIED', rs);
  c.at(T + 66);
  deploymentStatus(c, d, { replicas: 2, updated: 2, ready: 0, available: 0 }, [
    deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', UNAVAILABLE, c.now, c.now),
    deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-5d567cc74c" is progressing.', progressingSince, c.now),
  ]);
  c.emit('MODIFIED', d);
  pods.forEach((p, i) => {
    c.at(T + 90 + i * 10);
    kubeletAccepted(c, p, `172.18.0.${i + 2}`);
    c.emit('MODIFIED', p);
  });
  pods.forEach((p, i) => {
    c.at(T + 640 + i * 90);
    sandboxReady(c, p, `10.244.${i + 2}.${40 + i}`);
    running(c, p, T + 610 + i * 90);
    c.emit('MODIFIED', p);
  });
  c.at(T + 830);
  rsStatus(c, rs, 2, 2, 2);
  c.emit('MODIFIED', rs);
  c.at(T + 838);
  deploymentStatus(c, d, { replicas: 2, updated: 2, ready: 2, available: 2 }, [
    deploymentCondition('Available', 'True', 'MinimumReplicasAvailable', AVAILABLE, c.now, c.now),
    deploymentCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-5d567cc74c" has successfully progressed.', progressingSince, c.now),
  ]);
  c.emit('MODIFIED', d);

  // `kubectl delete pod web-5d567cc74c-fw2rn` 40 s later: the ReplicaSet replaces it at once.
  const D = T + 40_215;
  const victim = pods[0];
  c.at(D);
  deletionRequested(c, victim, 30);
  c.emit('MODIFIED', victim);
  c.at(D + 9);
  const replacement = podOf(c, rs, 'r5z8t');
  c.emit('ADDED', replacement);
  c.event(rs, { reason: 'SuccessfulCreate', message: `Created pod: ${nameOf(replacement)}`, component: 'replicaset-controller' });
  c.at(D + 14);
  rsStatus(c, rs, 2, 1, 1);
  c.emit('MODIFIED', rs);
  c.at(D + 21);
  deploymentStatus(c, d, { replicas: 2, updated: 2, ready: 1, available: 1 }, [
    deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', UNAVAILABLE, c.now, c.now),
    deploymentCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-5d567cc74c" has successfully progressed.', progressingSince, T + 838),
  ]);
  c.emit('MODIFIED', d);
  c.at(D + 25);
  c.event(victim, { reason: 'Killing', message: 'Stopping container nginx', host: 'node-1', fieldPath: 'spec.containers{nginx}' });
  c.at(D + 31);
  bind(c, replacement, 'node-2');
  c.schedulerEvent(replacement, { reason: 'Scheduled', message: `Successfully assigned default/${nameOf(replacement)} to node-2`, action: 'Binding' });
  c.at(D + 34);
  c.emit('MODIFIED', replacement);
  c.at(D + 62);
  kubeletAccepted(c, replacement, '172.18.0.3');
  c.emit('MODIFIED', replacement);
  c.at(D + 270);
  terminated(c, victim, 'nginx', 0, 'Completed', T + 610);
  (victim.status as Record<string, unknown>).phase = 'Succeeded';
  c.emit('MODIFIED', victim);
  c.at(D + 291);
  c.emit('DELETED', victim);
  c.at(D + 355);
  sandboxReady(c, replacement, '10.244.3.52');
  c.emit('MODIFIED', replacement);
  c.at(D + 381);
  c.event(replacement, { reason: 'Pulled', message: `Container image "${NGINX}" already present on machine`, host: 'node-2', fieldPath: 'spec.containers{nginx}' });
  c.at(D + 470);
  c.event(replacement, { reason: 'Created', message: 'Created container: nginx', host: 'node-2', fieldPath: 'spec.containers{nginx}' });
  c.at(D + 551);
  c.event(replacement, { reason: 'Started', message: 'Started container nginx', host: 'node-2', fieldPath: 'spec.containers{nginx}' });
  c.at(D + 574);
  running(c, replacement, D + 551);
  c.emit('MODIFIED', replacement);
  c.at(D + 590);
  rsStatus(c, rs, 2, 2, 2);
  c.emit('MODIFIED', rs);
  c.at(D + 597);
  deploymentStatus(c, d, { replicas: 2, updated: 2, ready: 2, available: 2 }, [
    deploymentCondition('Available', 'True', 'MinimumReplicasAvailable', AVAILABLE, c.now, c.now),
    deploymentCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-5d567cc74c" has successfully progressed.', progressingSince, T + 838),
  ]);
  c.emit('MODIFIED', d);

  // `kubectl delete deployment web` a minute later (propagationPolicy Background).
  const X = T + 101_480;
  c.at(X);
  c.emit('DELETED', d);
  c.at(X + 41);
  c.emit('DELETED', rs);
  const survivors = [pods[1], replacement];
  survivors.forEach((p, i) => {
    c.at(X + 77 + i * 3);
    deletionRequested(c, p, 30);
    c.emit('MODIFIED', p);
  });
  survivors.forEach((p, i) => {
    const host = String((p.spec as Record<string, unknown>).nodeName);
    c.at(X + 98 + i * 5);
    c.event(p, { reason: 'Killing', message: 'Stopping container nginx', host, fieldPath: 'spec.containers{nginx}' });
  });
  survivors.forEach((p, i) => {
    c.at(X + 340 + i * 30);
    terminated(c, p, 'nginx', 0, 'Completed', i === 0 ? T + 700 : D + 551);
    (p.status as Record<string, unknown>).phase = 'Succeeded';
    c.emit('MODIFIED', p);
    c.at(X + 362 + i * 30);
    c.emit('DELETED', p);
  });
  return c;
}

export const SCENARIOS: Record<string, () => Cluster> = {
  'nginx-deployment': nginxDeployment,
  'unschedulable': unschedulablePod,
  'image-pull-backoff': imagePullBackOff,
  'crash-loop-backoff': crashLoopBackOff,
  'rolling-update': rollingUpdate,
  'deletion-replacement': deletionAndReplacement,
};

function main(): void {
  for (const [name, build] of Object.entries(SCENARIOS)) {
    const file = join(here, name, 'stream.ndjson');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, build().ndjson());
    process.stdout.write(`wrote ${file}\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
