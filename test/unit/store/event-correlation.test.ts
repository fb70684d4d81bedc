import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import type { EventSource } from '../../../src/sim/context';
import { VirtualClock } from '../../../src/sim/clock';
import { MemoryStore } from '../../../src/sim/store/store';
import { StoreEventRecorder } from '../../../src/sim/store/events';

const CONTROLLER: EventSource = { component: 'replicaset-controller' };
const KUBELET: EventSource = { component: 'kubelet', host: 'node-1' };

function setup() {
  const clock = new VirtualClock({ seed: 3 });
  const store = new MemoryStore({ clock, internals: { record: () => undefined, recordsWatchDeliveries: false }, historyPerKind: 5 });
  store.create('Namespace', { metadata: { name: 'default' } });
  const recorder = new StoreEventRecorder(store, clock, false);
  const replicaSet = store.create('ReplicaSet', { metadata: { name: 'web-abc' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
  const pod = store.create('Pod', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  const events = (reason: string): KubeObject[] => store.list('Event').items.filter((e) => e.reason === reason);
  return { clock, store, recorder, replicaSet, pod, events };
}

function createdPods(recorder: StoreEventRecorder, replicaSet: KubeObject, from: number, to: number): void {
  for (let i = from; i < to; i++) recorder.record(replicaSet, 'Normal', 'SuccessfulCreate', `Created pod: web-abc-${i}`, CONTROLLER);
}

describe('event correlation (client-go EventCorrelator)', () => {
  it('writes 9 similar events, then one combined event, and stops at the budget of 25 writes per object', () => {
    const { recorder, replicaSet, events } = setup();
    createdPods(recorder, replicaSet, 0, 100);
    const written = events('SuccessfulCreate');
    assert.equal(written.length, 10);
    const single = written.filter((e) => !String(e.message).startsWith('('));
    assert.deepEqual(single.map((e) => e.message), Array.from({ length: 9 }, (_, i) => `Created pod: web-abc-${i}`));
    const combined = written.find((e) => String(e.message).startsWith('('))!;
    // Writes 10 to 25 went to the combined event: it was created once and patched 15 times.
    assert.equal(combined.message, '(combined from similar events): Created pod: web-abc-24');
    assert.equal(combined.count, 16);
  });

  it('writes again when the budget refills (one event per 5 minutes), with every event seen meanwhile counted', () => {
    const { clock, recorder, replicaSet, events } = setup();
    createdPods(recorder, replicaSet, 0, 100);
    clock.advanceTo(clock.now() + 299_000);
    createdPods(recorder, replicaSet, 100, 101);
    assert.equal(events('SuccessfulCreate').find((e) => String(e.message).startsWith('('))!.count, 16, 'no token yet');
    clock.advanceTo(clock.now() + 2_000);
    createdPods(recorder, replicaSet, 101, 102);
    const combined = events('SuccessfulCreate').find((e) => String(e.message).startsWith('('))!;
    assert.equal(combined.count, 93); // events 10 to 102 folded into it
    assert.equal(combined.message, '(combined from similar events): Created pod: web-abc-101');
  });

  it('starts afresh after 10 minutes without a similar event: single events again', () => {
    const { clock, recorder, replicaSet, events } = setup();
    createdPods(recorder, replicaSet, 0, 5);
    clock.advanceTo(clock.now() + 601_000);
    createdPods(recorder, replicaSet, 5, 11);
    // 11 distinct messages in all, but never 10 within 10 minutes: no combined event.
    assert.equal(events('SuccessfulCreate').length, 11);
    assert.ok(events('SuccessfulCreate').every((e) => !String(e.message).startsWith('(')));
  });

  it('counts identical events in one object; the spam budget holds writes back but not the count', () => {
    const { clock, recorder, pod, events } = setup();
    for (let i = 0; i < 40; i++) {
      recorder.record(pod, 'Warning', 'BackOff', 'Back-off restarting failed container c in pod p_default(uid)', KUBELET);
      clock.advanceTo(clock.now() + 1_000);
    }
    const [backOff] = events('BackOff');
    assert.equal(backOff.count, 25);
    assert.equal(backOff.firstTimestamp, '2026-01-01T12:00:00Z');
    assert.equal(backOff.lastTimestamp, '2026-01-01T12:00:24Z', 'the 25th event was the last written');
    clock.advanceTo(clock.now() + 300_000);
    recorder.record(pod, 'Warning', 'BackOff', 'Back-off restarting failed container c in pod p_default(uid)', KUBELET);
    assert.equal(events('BackOff')[0].count, 41);
  });

  it('keeps one budget per source: another component still writes about the same object', () => {
    const { recorder, replicaSet, events } = setup();
    createdPods(recorder, replicaSet, 0, 30);
    recorder.record(replicaSet, 'Normal', 'Custom', 'from another controller', { component: 'deployment-controller' });
    assert.equal(events('Custom').length, 1);
  });

  describe('the part of the object an event is about (involvedObject.fieldPath)', () => {
    const WEB = { fieldPath: 'spec.containers{web}' };
    const CACHE = { fieldPath: 'spec.containers{cache}' };

    it('writes it last in involvedObject for a container event, and leaves it out of a pod event about the same version', () => {
      const { recorder, pod, events } = setup();
      recorder.record(pod, 'Normal', 'Pulling', 'Pulling image "nginx:1.25"', KUBELET, WEB);
      recorder.record(pod, 'Warning', 'FailedMount', 'MountVolume.SetUp failed for volume "v" : secret "s" not found', KUBELET);
      const [pulling] = events('Pulling');
      assert.deepEqual(Object.keys(pulling.involvedObject as object), ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']);
      assert.equal((pulling.involvedObject as { fieldPath?: string }).fieldPath, 'spec.containers{web}');
      const [failedMount] = events('FailedMount');
      assert.deepEqual(Object.keys(failedMount.involvedObject as object), ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion']);
    });

    it('counts the same container pulling twice in one Event, and two containers pulling the same image as two', () => {
      const { clock, recorder, pod, events } = setup();
      recorder.record(pod, 'Normal', 'Pulling', 'Pulling image "nginx:1.25"', KUBELET, WEB);
      clock.advanceTo(clock.now() + 1_000);
      recorder.record(pod, 'Normal', 'Pulling', 'Pulling image "nginx:1.25"', KUBELET, WEB);
      recorder.record(pod, 'Normal', 'Pulling', 'Pulling image "nginx:1.25"', KUBELET, CACHE);
      const pulls = events('Pulling').map((e) => [(e.involvedObject as { fieldPath?: string }).fieldPath, e.count]);
      assert.deepEqual(pulls.sort(), [
        ['spec.containers{cache}', 1],
        ['spec.containers{web}', 2],
      ]);
    });

    it('still combines similar events of different containers into one, and spends one budget for them', () => {
      const { recorder, pod, events } = setup();
      for (let i = 0; i < 30; i++) recorder.record(pod, 'Warning', 'Unhealthy', `Liveness probe failed: attempt ${i}`, KUBELET, i % 2 === 0 ? WEB : CACHE);
      const written = events('Unhealthy');
      assert.equal(written.filter((e) => String(e.message).startsWith('(combined')).length, 1);
      // 9 single events, then the combined one created once and patched to the 25th write.
      assert.equal(written.length, 10);
      assert.equal(written.find((e) => String(e.message).startsWith('(combined'))!.count, 16);
    });
  });
});
