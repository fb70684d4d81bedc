import assert from 'node:assert/strict';
import { Simulator } from '../../../src/sim/simulator';
import type { InternalStep } from '../../../src/core/internals';
import type { KubeObject } from '../../../src/core/k8s';

function deployment(replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } } },
  };
}

/** Runs a 3-pod Deployment to Ready; returns each pod's uid and its watch deliveries and etcd writes, by pod name, and how many steps Events had. */
function podSteps(followedPods?: ReadonlySet<string>): { uids: Map<string, string>; steps: Map<string, string[]>; events: number } {
  const simulator = new Simulator({ nodes: 1, seed: 3 });
  if (followedPods) simulator.internals.followsObject = (kind, object) => (kind === 'Event' ? 'none' : kind !== 'Pod' || followedPods.has(object.metadata?.uid ?? '') ? 'all' : 'create');
  const uids = new Map<string, string>();
  let events = 0;
  const steps = new Map<string, string[]>();
  simulator.internals.onStep((step: InternalStep) => {
    if (step.type !== 'watchDelivered' && step.type !== 'etcdWrite') return;
    if (step.object.kind === 'Event') events++;
    if (step.object.kind !== 'Pod') return;
    uids.set(step.object.name, step.object.uid!);
    const list = steps.get(step.object.name) ?? [];
    list.push(step.type === 'etcdWrite' ? `write ${step.verb}` : `delivered to ${step.component}`);
    steps.set(step.object.name, list);
  });
  simulator.apply(deployment(3));
  const ready = (): boolean => simulator.store.list<KubeObject & { status?: { readyReplicas?: number } }>('Deployment').items[0]?.status?.readyReplicas === 3;
  assert.equal(simulator.runUntil(ready, 60_000), 'done');
  return { uids, steps, events };
}

describe('internals steps of objects nobody follows', () => {
  it('records everything of a pod the listener follows, only the create write of one it does not, and nothing of a kind it ignores', () => {
    const everything = podSteps();
    // The same seed makes the same pods: follow the first one.
    const [first] = everything.uids.keys();
    const followed = podSteps(new Set([everything.uids.get(first)!]));
    assert.equal(followed.steps.size, 3);
    for (const [name, steps] of followed.steps) {
      const all = everything.steps.get(name) ?? [];
      assert.ok(all.some((step) => step.startsWith('delivered')) && all.includes('write update'), `${name}: without a follower every step is recorded`);
      assert.deepEqual(steps, name === first ? all : ['write create'], name);
    }
    assert.ok(everything.events > 0, 'Events are written');
    assert.equal(followed.events, 0);
  });
});
