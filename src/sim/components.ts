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
import { LocalPathProvisioner } from './controllers/volume/local-path-provisioner';
import { PersistentVolumeController } from './controllers/volume/pv-controller';
import { StorageProtectionController } from './controllers/volume/protection-controller';
import { kindDefaultStorageClass } from './storage/storage-objects';
import { Scheduler, type SchedulerOptions } from './scheduler/scheduler';
import { KubeletFleet } from './kubelet/fleet';
import { makeNodes, type NodeOptions } from './nodes';
import { ServiceAccountsController } from './controllers/serviceaccount/serviceaccounts-controller';
import { ResourceQuotaController } from './controllers/resourcequota/resource-quota-controller';
import { EndpointSliceController } from './controllers/endpointslice/endpointslice-controller';
import { EndpointsController } from './controllers/endpoint/endpoints-controller';
import { KubeProxyFleet } from './proxy/kube-proxy';
import { CustomResourceDefinitionController } from './controllers/apiextensions/crd-controller';

export interface ComponentOptions {
  nodes: number;
  /** Keep only counts in the scheduler's verdicts (benchmarks). */
  lean: boolean;
  /** Without `lean`: which placed pods' cycles keep their per-node table (SchedulerOptions.tableWhenPlaced). */
  verdictTableWhenPlaced?: SchedulerOptions['tableWhenPlaced'];
  node?: Omit<NodeOptions, 'index'>;
  /** Create kind's default `standard` StorageClass (default true; a twin restores its cluster's classes instead). */
  defaultStorageClass?: boolean;
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
  persistentVolumes: PersistentVolumeController;
  localPathProvisioner: LocalPathProvisioner;
  storageProtection: StorageProtectionController;
  scheduler: Scheduler;
  kubelets: KubeletFleet;
  serviceAccounts: ServiceAccountsController;
  resourceQuotas: ResourceQuotaController;
  endpointSlices: EndpointSliceController;
  endpoints: EndpointsController;
  kubeProxies: KubeProxyFleet;
  customResourceDefinitions: CustomResourceDefinitionController;
  stop(): void;
}

export function startComponents(ctx: SimContext, options: ComponentOptions): Components {
  for (const node of makeNodes(options.nodes, { ...options.node, now: ctx.clock.now() })) {
    ctx.store.create('Node', node, { fieldManager: 'kubelet' });
  }
  // kind installs local-path-provisioner and its `standard` class, the default, with the cluster.
  if (options.defaultStorageClass !== false) ctx.store.create('StorageClass', kindDefaultStorageClass(), { fieldManager: 'kubectl-client-side-apply' });
  const deployments = new DeploymentController(ctx);
  const replicaSets = new ReplicaSetController(ctx);
  const statefulSets = new StatefulSetController(ctx);
  const replicationControllers = new ReplicaSetController(ctx, REPLICATION_CONTROLLERS);
  const daemonSets = new DaemonSetsController(ctx);
  const podGC = new PodGCController(ctx);
  const scheduler = new Scheduler(ctx, { verdicts: options.lean ? 'summary' : 'full', tableWhenPlaced: options.verdictTableWhenPlaced });
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
  const persistentVolumes = new PersistentVolumeController(ctx);
  const localPathProvisioner = new LocalPathProvisioner(ctx);
  const storageProtection = new StorageProtectionController(ctx);
  garbageCollector.start();
  persistentVolumes.start();
  localPathProvisioner.start();
  storageProtection.start();
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
  const customResourceDefinitions = new CustomResourceDefinitionController(ctx);
  customResourceDefinitions.start();
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
    persistentVolumes,
    localPathProvisioner,
    storageProtection,
    scheduler,
    kubelets,
    serviceAccounts,
    resourceQuotas,
    endpointSlices,
    endpoints,
    kubeProxies,
    customResourceDefinitions,
    stop() {
      customResourceDefinitions.stop();
      serviceAccounts.stop();
      resourceQuotas.stop();
      endpointSlices.stop();
      endpoints.stop();
      kubeProxies.stop();
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
      persistentVolumes.stop();
      localPathProvisioner.stop();
      storageProtection.stop();
      scheduler.stop();
      kubelets.stop();
    },
  };
}
