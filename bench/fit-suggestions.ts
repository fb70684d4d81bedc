/**
 * What one `Scheduler.suggestFits` call costs on a large cluster: 5,000 nodes (3 zones) holding
 * 10,000 one-cpu pods, half the nodes tainted and labelled, and four stuck Deployments (a request
 * too big, a selector no node matches, both at once, a zone spread of pods too big). Prints the
 * median of 5 calls per pod and the suggestions found.
 * Run: `node --import tsx bench/fit-suggestions.ts` (docs/fit-suggestions.md quotes the figures).
 */
import type { KubeObject, Node, Pod } from '../src/core/k8s';
import { fitSuggestionText } from '../src/core/journey/fit-suggestions';
import { Simulator } from '../src/sim/simulator';
import { median } from './median';

const NODES = 5_000;
const sim = new Simulator({ nodes: NODES, detail: 'lean', zones: 3 });

function deployment(name: string, replicas: number, spec: NonNullable<Pod['spec']>): void {
  sim.apply({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } } } as KubeObject);
}

const container = (cpu: string): NonNullable<Pod['spec']>['containers'][number] => ({ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu, memory: '1Gi' } } });

deployment('filler', 2 * NODES, { containers: [container('1')] });
sim.runUntil(() => false, 60_000);
for (let i = 0; i < NODES / 2; i++) {
  sim.store.mutate<Node & KubeObject>('Node', undefined, `node-${i + 1}`, (node) => {
    node.spec = { ...node.spec, taints: [{ key: 'team', value: String(i % 4), effect: 'NoSchedule' }] };
    node.metadata = { ...node.metadata, labels: { ...node.metadata?.labels, disktype: i % 2 ? 'hdd' : 'ssd' } };
  });
}
deployment('big', 1, { containers: [container('3')] });
deployment('selector', 1, { nodeSelector: { disktype: 'nvme' }, containers: [container('100m')] });
deployment('both', 1, { nodeSelector: { disktype: 'nvme' }, containers: [container('3')] });
deployment('spread', 3, { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'spread' } } }], containers: [container('3')] });
sim.runUntil(() => false, 10_000);

for (const name of ['big', 'selector', 'both', 'spread']) {
  const pod = sim.store.list<Pod & KubeObject>('Pod').items.find((p) => p.metadata?.name?.startsWith(`${name}-`) && !p.spec?.nodeName);
  if (!pod) {
    console.log(`${name}: no pending pod`);
    continue;
  }
  const times: number[] = [];
  let texts: string[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const fits = sim.components.scheduler.suggestFits(pod);
    times.push(performance.now() - start);
    texts = fits.suggestions.map(fitSuggestionText);
  }
  console.log(`${name}: median ${median(times).toFixed(1)} ms (max ${Math.max(...times).toFixed(1)} ms) · ${texts.join(' · ') || 'no suggestion'}`);
}
