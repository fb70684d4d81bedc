/** Starts the components of a simulated cluster on a shared context. */
import type { SimContext } from './context';
import { DaemonSetsController } from './controllers/daemon/daemon-controller';
import { DeploymentController } from './controllers/deployment-controller';
import { GarbageCollector } from './controllers/garbage-collector';
import { CronJobController } from './controllers/cronjob/cronjob-controller';
import { JobController } from './controllers/job/job-controller';
import { PodGCController } from './controllers/podgc/gc-controller';
import { REPLICATION_CONTROLLERS, ReplicaSetController } from './controllers/replicaset-controller';
import { StatefulSetController } from './controllers/statefulset/stateful-set';
import { TTLAfterFinishedController } from './controllers/ttlafterfinished/ttlafterfinished-controller';
import { Scheduler } from './scheduler/scheduler';
import { KubeletFleet } from './kubelet/fleet';
import { makeNodes, type NodeOptions } from './nodes';
import { EndpointSliceController } from './controllers/endpointslice/endpointslice-controller';
import { EndpointsController } from './controllers/endpoint/endpoints-controller';
import { KubeProxyFleet } from './proxy/kube-proxy';

export interface ComponentOptions {
  nodes: number;
  /** Keep only counts in the scheduler's verdicts (benchmarks). */
  lean: boolean;
  node?: Omit<NodeOptions, 'index'>;
}

export interface Components {
  deployments: DeploymentController;
  replicaSets: ReplicaSetController;
  statefulSets: StatefulSetController;
  replicationControllers: ReplicaSetController;
  daemonSets: DaemonSetsController;
  podGC: PodGCController;
  garbageCollector: GarbageCollector;
  jobs: JobController;
  cronJobs: CronJobController;
  ttlAfterFinished: TTLAfterFinishedController;
  scheduler: Scheduler;
  kubelets: KubeletFleet;
  endpointSlices: EndpointSliceController;
  endpoints: EndpointsController;
  kubeProxies: KubeProxyFleet;
  stop(): void;
}

export function startComponents(ctx: SimContext, options: ComponentOptions): Components {
  for (const node of makeNodes(options.nodes, { ...options.node, now: ctx.clock.now() })) {
    ctx.store.create('Node', node, { fieldManager: 'kubelet' });
  }
  const deployments = new DeploymentController(ctx);
  const replicaSets = new ReplicaSetController(ctx);
  const statefulSets = new StatefulSetController(ctx);
  const replicationControllers = new ReplicaSetController(ctx, REPLICATION_CONTROLLERS);
  const daemonSets = new DaemonSetsController(ctx);
  const podGC = new PodGCController(ctx);
  const scheduler = new Scheduler(ctx, { verdicts: options.lean ? 'summary' : 'full' });
  const kubelets = new KubeletFleet(ctx);
  const jobs = new JobController(ctx);
  const cronJobs = new CronJobController(ctx);
  const ttlAfterFinished = new TTLAfterFinishedController(ctx);
  const garbageCollector = new GarbageCollector(ctx);
  const endpointSlices = new EndpointSliceController(ctx);
  const endpoints = new EndpointsController(ctx);
  const kubeProxies = new KubeProxyFleet(ctx);
  garbageCollector.start();
  endpointSlices.start();
  endpoints.start();
  kubeProxies.start();
  kubelets.start();
  scheduler.start();
  replicaSets.start();
  replicationControllers.start();
  daemonSets.start();
  podGC.start();
  deployments.start();
  statefulSets.start();
  jobs.start();
  cronJobs.start();
  ttlAfterFinished.start();
  return {
    deployments,
    replicaSets,
    statefulSets,
    replicationControllers,
    daemonSets,
    podGC,
    garbageCollector,
    jobs,
    cronJobs,
    ttlAfterFinished,
    scheduler,
    kubelets,
    endpointSlices,
    endpoints,
    kubeProxies,
    stop() {
      endpointSlices.stop();
      endpoints.stop();
      kubeProxies.stop();
      deployments.stop();
      jobs.stop();
      cronJobs.stop();
      ttlAfterFinished.stop();
      replicaSets.stop();
      statefulSets.stop();
      replicationControllers.stop();
      daemonSets.stop();
      podGC.stop();
      garbageCollector.stop();
      scheduler.stop();
      kubelets.stop();
    },
  };
}
