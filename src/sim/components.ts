/** Starts the components of a simulated cluster on a shared context. */
import type { SimContext } from './context';
import { DaemonSetsController } from './controllers/daemon/daemon-controller';
import { DeploymentController } from './controllers/deployment-controller';
import { GarbageCollector } from './controllers/garbage-collector';
import { CronJobController } from './controllers/cronjob/cronjob-controller';
import { JobController } from './controllers/job/job-controller';
import { PodGCController } from './controllers/podgc/gc-controller';
import { RootCACertPublisher } from './controllers/root-ca-cert-publisher';
import { REPLICATION_CONTROLLERS, ReplicaSetController } from './controllers/replicaset-controller';
import { StatefulSetController } from './controllers/statefulset/stateful-set';
import { TTLAfterFinishedController } from './controllers/ttlafterfinished/ttlafterfinished-controller';
import { Scheduler } from './scheduler/scheduler';
import { KubeletFleet } from './kubelet/fleet';
import { makeNodes, type NodeOptions } from './nodes';
import { ServiceAccountsController } from './controllers/serviceaccount/serviceaccounts-controller';
import { ResourceQuotaController } from './controllers/resourcequota/resource-quota-controller';

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
  rootCACertPublisher: RootCACertPublisher;
  scheduler: Scheduler;
  kubelets: KubeletFleet;
  serviceAccounts: ServiceAccountsController;
  resourceQuotas: ResourceQuotaController;
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
  const serviceAccounts = new ServiceAccountsController(ctx);
  const resourceQuotas = new ResourceQuotaController(ctx);
  serviceAccounts.start();
  resourceQuotas.start();
  const rootCACertPublisher = new RootCACertPublisher(ctx);
  rootCACertPublisher.start();
  garbageCollector.start();
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
    rootCACertPublisher,
    scheduler,
    kubelets,
    serviceAccounts,
    resourceQuotas,
    stop() {
      serviceAccounts.stop();
      resourceQuotas.stop();
      deployments.stop();
      jobs.stop();
      cronJobs.stop();
      ttlAfterFinished.stop();
      rootCACertPublisher.stop();
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
