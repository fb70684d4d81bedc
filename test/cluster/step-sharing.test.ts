import assert from 'node:assert/strict';
import type { EtcdWrite, InternalStep, ObjectRef, SchedulingCycle, WatchDelivery } from '../../src/core/internals';
import { SharedWords } from '../../src/cluster/shared-words';
import { stepSharer } from '../../src/cluster/step-sharing';
import { shareEventWords } from '../../src/cluster/watched-object';

/** As the stream brings them: every step parsed from its own line, sharing nothing. */
function parsed<T extends InternalStep>(step: T): T {
  return JSON.parse(JSON.stringify(step)) as T;
}

const pod = { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'uid-web-1' };

describe('cluster step sharing (internals steps parsed from the stream)', () => {
  it('gives the steps of one object one reference, and keeps every field as it came', () => {
    const share = stepSharer();
    const write: EtcdWrite = { type: 'etcdWrite', time: 1, key: '/registry/pods/default/web-1', verb: 'update', resourceVersion: '12', object: pod, actor: 'kubelet' };
    const delivery: WatchDelivery = { type: 'watchDelivered', time: 2, component: 'kubelet', eventType: 'MODIFIED', resourceVersion: '12', object: pod };
    const cycle = { type: 'schedulingCycle', time: 3, pod, attempt: 1, totalNodes: 2, evaluatedNodes: 2, feasibleNodes: 1, result: 'Scheduled', node: 'node-1' } as SchedulingCycle;
    const shared = [write, delivery, cycle].map((step) => share(parsed(step)));
    assert.deepEqual(shared, [write, delivery, cycle]);
    const [first, second, third] = shared as [EtcdWrite, WatchDelivery, SchedulingCycle];
    assert.equal(first.object, second.object);
    assert.equal(second.object, third.pod);
  });

  it('gives scheduling cycles with equal plugin lists one instance of each list', () => {
    const share = stepSharer();
    const table = { nodes: { names: ['node-1'] }, filters: ['NodeName', 'NodeResourcesFit'], outcomes: '1*0', failures: [], scorePlugins: [{ plugin: 'NodeResourcesFit', weight: 1 }], scored: [0, 100, 100] };
    const cycle = (name: string): SchedulingCycle => share(parsed({ type: 'schedulingCycle', time: 3, pod: { ...pod, name, uid: `uid-${name}` }, attempt: 1, totalNodes: 1, evaluatedNodes: 1, feasibleNodes: 1, result: 'Scheduled', node: 'node-1', table } as SchedulingCycle));
    const first = cycle('web-1').table!;
    const second = cycle('web-2').table!;
    assert.deepEqual(second, table);
    assert.equal(second.filters, first.filters);
    assert.equal(second.scorePlugins, first.scorePlugins);
    assert.notEqual(second.scored, first.scored, 'scores are each pod\'s own');
  });

  it('tells apart objects of the same name with different uids, and objects in other namespaces', () => {
    const share = stepSharer();
    const step = (object: ObjectRef): WatchDelivery => share(parsed({ type: 'watchDelivered', time: 1, component: 'kubelet', eventType: 'ADDED', resourceVersion: '1', object }));
    const a = step(pod).object;
    assert.notEqual(step({ ...pod, uid: 'uid-web-1-again' }).object, a);
    assert.notEqual(step({ ...pod, namespace: 'shop', uid: 'uid-shop-web-1' }).object, a);
    assert.notEqual(step({ kind: 'Pod', namespace: 'default', name: 'web-1' }).object, a, 'a reference without a uid');
    assert.equal(step(pod).object, a);
  });

  it('starts its tables afresh past the limit, still sharing what comes next', () => {
    const share = stepSharer(2);
    const step = (name: string): WatchDelivery => share(parsed({ type: 'watchDelivered', time: 1, component: 'kubelet', eventType: 'ADDED', resourceVersion: '1', object: { ...pod, name } }));
    const first = step('a').object;
    step('b');
    step('c');
    assert.notEqual(step('a').object, first, 'forgotten');
    assert.equal(step('a').object, step('a').object);
  });
});

describe('cluster Event word sharing', () => {
  it('leaves every field of an Event as it came, the long message included', () => {
    const words = new SharedWords(4);
    const event = {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: 'web-1.17a', namespace: 'default' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'uid-web-1', apiVersion: 'v1', fieldPath: 'spec.containers{app}' },
      type: 'Normal',
      reason: 'Pulled',
      message: `Container image "nginx:1.25" already present on machine${' and more'.repeat(20)}`,
      source: { component: 'kubelet', host: 'node-1' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
    };
    const expected = structuredClone(event);
    for (let i = 0; i < 3; i++) assert.deepEqual(shareEventWords(structuredClone(event), words), expected);
  });
});
