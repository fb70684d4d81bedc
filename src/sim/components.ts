/** Starts the components of a simulated cluster on a shared context. */
import type { SimContext } from './context';
import { DeploymentController } from './controllers/deployment-controller';
import { GarbageCollector } from './controllers/garbage-collector';
import { REPLICATION_CONTROLLERS, ReplicaSetController } from './controllers/replicaset-controller';
import { StatefulSetController } from './controllers/statefulset/stateful-set';
import { Scheduler } from './scheduler/scheduler';
import { KubeletFleet } from './kubelet/fleet';
import { makeNodes, type NodeOptions } from './nodes';

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
  garbageCollector: GarbageCollector;
  scheduler: Scheduler;
  kubelets: KubeletFleet;
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
  const scheduler = new Scheduler(ctx, { verdicts: options.lean ? 'summary' : 'full' });
  const kubelets = new KubeletFleet(ctx);
  const garbageCollector = new GarbageCollector(ctx);
  garbageCollector.start();
  kubelets.start();
  scheduler.start();
  replicaSets.start();
  replicationControllers.start();
  deployments.start();
  statefulSets.start();
  return {
    deployments,
    replicaSets,
    statefulSets,
    replicationControllers,
    garbageCollector,
    scheduler,
    kubelets,
    stop() {
      deployments.stop();
      replicaSets.stop();
      statefulSets.stop();
      replicationControllers.stop();
      garbageCollector.stop();
      scheduler.stop();
      kubelets.stop();
    },
  };
}
