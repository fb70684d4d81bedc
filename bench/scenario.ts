/**
 * One benchmark run, in its own process so peak memory is this run's alone:
 * `node --import tsx bench/scenario.ts <nodes> <pods> [--trace] [--services] [--daemonset|--job|--spread]` prints one JSON line.
 * Pods come from Deployments of at most 3,000 replicas, each in its own namespace (the
 * Kubernetes scalability threshold is 3,000 pods per namespace); with `--daemonset`, from one
 * DaemonSet (a pod per node), done when its status says every desired pod is ready; with `--job`,
 * from one Job of <pods> completions, 500 pods at a time, done when the Job is Complete. With
 * `--services`, each Deployment has a Service selecting its pods, and the run is done when
 * kube-proxy programmed every pod as an endpoint too (3,000 endpoints, 30 EndpointSlices each).
 */
import { readFileSync } from 'node:fs';
import { Simulator } from '../src/sim/simulator';
import { tuneHeapForSimulator } from '../src/server/heap-tuning';
import { JourneyTracer } from '../src/core/journey/tracer';
import type { KubeObject } from '../src/core/k8s';

const PODS_PER_DEPLOYMENT = 3000;

function peakRssMiB(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : process.memoryUsage().rss / 1024 / 1024;
}

/**
 * With `spread`, every pod also asks to be spread over nodes (a hostname topology-spread
 * constraint, maxSkew 1, DoNotSchedule) and prefers nodes without another pod of its Deployment
 * (preferred hostname anti-affinity): the scheduler benchmark.
 */
function deployment(name: string, namespace: string, replicas: number, spread = false): KubeObject {
  const selector = { matchLabels: { app: name } };
  const placement = spread
    ? {
        topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: selector }],
        affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: selector, topologyKey: 'kubernetes.io/hostname' } }] } },
      }
    : {};
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector,
      template: { metadata: { labels: { app: name } }, spec: { ...placement, containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] } },
    },
  };
}

/** A node agent as clusters run them: a DaemonSet in kube-system that tolerates every taint. */
function daemonSet(name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { tolerations: [{ operator: 'Exists' }], containers: [{ name: 'agent', image: 'nginx:1.25', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
      },
    },
  };
}

/** A batch Job as the docs write them: many short runs of a program the simulator can read (`sleep 1`). */
function job(name: string, completions: number): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      completions,
      parallelism: 500,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 1'], resources: { requests: { cpu: '10m', memory: '16Mi' } } }] } },
    },
  };
}

function jobComplete(simulator: Simulator, name: string): boolean {
  const conditions = (simulator.store.get('Job', 'default', name)?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
  return conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ?? false;
}

function daemonSetReady(simulator: Simulator, name: string, nodes: number): boolean {
  const status = simulator.store.get('DaemonSet', 'kube-system', name)?.status as { desiredNumberScheduled?: number; numberReady?: number } | undefined;
  return status?.desiredNumberScheduled === nodes && status.numberReady === nodes;
}

function main(): void {
  // The same heap sizing as the simulator the extension and the CLI run.
  tuneHeapForSimulator();
  const [nodesArg, podsArg] = process.argv.slice(2);
  const nodes = Number(nodesArg);
  const pods = Number(podsArg);
  const trace = process.argv.includes('--trace');
  const daemon = process.argv.includes('--daemonset');
  const batch = process.argv.includes('--job');
  const services = process.argv.includes('--services');
  const serviceNames: { namespace: string; name: string; replicas: number }[] = [];
  const spread = process.argv.includes('--spread');
  const setupStart = performance.now();
  const simulator = new Simulator({ nodes, seed: 1, detail: 'lean', historyPerKind: 10_000 });
  let tracer: JourneyTracer | undefined;
  if (trace) {
    tracer = new JourneyTracer();
    for (const kind of ['Deployment', 'ReplicaSet', 'Pod', 'Event', 'Node'] as const) {
      simulator.store.subscribe(kind, (change) => tracer!.ingest({ type: change.type, object: change.object }, simulator.clock.now()));
    }
  }
  const setupMs = performance.now() - setupStart;

  let running = 0;
  simulator.store.subscribe('Pod', (change) => {
    const phase = (change.object.status as { phase?: string } | undefined)?.phase;
    const before = (change.previous?.status as { phase?: string } | undefined)?.phase;
    if (change.type !== 'DELETED' && phase === 'Running' && before !== 'Running') running++;
  });

  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const virtualStart = simulator.clock.now();
  let remaining = daemon || batch ? 0 : pods;
  if (daemon) simulator.apply(daemonSet('node-agent'));
  if (batch) simulator.apply(job('batch-work', pods));
  for (let i = 0; remaining > 0; i++) {
    const replicas = Math.min(PODS_PER_DEPLOYMENT, remaining);
    remaining -= replicas;
    const namespace = `bench-${i}`;
    simulator.store.create('Namespace', { metadata: { name: namespace } });
    simulator.apply(deployment(`app-${i}`, namespace, replicas, spread));
    if (services) {
      simulator.apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: `app-${i}`, namespace }, spec: { selector: { app: `app-${i}` }, ports: [{ port: 80, protocol: 'TCP' }] } });
      serviceNames.push({ namespace, name: `app-${i}`, replicas });
    }
    tracer?.begin({ kind: 'Deployment', namespace, name: `app-${i}` }, simulator.clock.now());
  }
  const programmed = (): boolean => serviceNames.every(({ namespace, name, replicas }) => simulator.components.kubeProxies.endpointsOf(namespace, name)?.length === replicas);
  const done = daemon ? () => daemonSetReady(simulator, 'node-agent', nodes) : batch ? () => jobComplete(simulator, 'batch-work') : () => running >= pods && programmed();
  const outcome = simulator.runUntil(done, 3_600_000);
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  process.stdout.write(
    `${JSON.stringify({
      nodes,
      pods,
      trace,
      daemonset: daemon,
      job: batch,
      spread,
      outcome,
      running,
      setupMs: Math.round(setupMs),
      wallMs: Math.round(wallMs),
      // CPU time of this process (garbage collection threads included): steadier than wall time on a shared machine.
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      podsPerSecond: Math.round(pods / (wallMs / 1000)),
      virtualSeconds: (simulator.clock.now() - virtualStart) / 1000,
      peakRssMiB: Math.round(peakRssMiB()),
      heapUsedMiB: Math.round(process.memoryUsage().heapUsed / 1024 / 1024),
    })}\n`,
  );
}

main();
