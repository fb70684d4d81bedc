import assert from 'node:assert/strict';
import {
  isImageAlreadyPresent,
  normalizeEvent,
  parseContainerMessage,
  parseErrorReason,
  parseImage,
  parsePodMessage,
  parseScaling,
  parseScheduledNode,
} from '../../../src/core/journey/events';
import { formatDuration, formatOffset, parseTime, sharpen } from '../../../src/core/journey/time';
import { coreEvent, POD_REF, schedulerEvent, T0 } from './objects';

describe('events and timestamps', () => {
  it('reads a core/v1 event (kubelet, whole seconds, count)', () => {
    const ev = normalizeEvent(coreEvent({ about: POD_REF, reason: 'Pulled', message: 'Container image "nginx:1.25" already present on machine', fieldPath: 'spec.containers{nginx}', first: T0, last: T0 + 4_000, count: 3 }));
    assert.equal(ev?.component, 'kubelet');
    assert.equal(ev?.host, 'node-1');
    assert.equal(ev?.container, 'nginx');
    assert.equal(ev?.count, 3);
    assert.deepEqual(ev?.first, { ms: T0 - 250, precise: false });
    assert.deepEqual(ev?.last, { ms: T0 + 3_750, precise: false });
  });

  it('reads a combined event (client-go aggregation) as its latest message, counted once', () => {
    const ev = normalizeEvent(coreEvent({ about: { kind: 'ReplicaSet', name: 'web-5d567cc74c', uid: 'rs-1' }, reason: 'SuccessfulCreate', message: '(combined from similar events): Created pod: web-5d567cc74c-zz9xk', first: T0, last: T0, count: 16, component: 'replicaset-controller' }));
    assert.equal(ev?.message, 'Created pod: web-5d567cc74c-zz9xk');
    assert.equal(ev?.count, 1, 'the count is of the folded messages, not of this pod');
    assert.deepEqual(parsePodMessage(ev!.message), { verb: 'Created', pod: 'web-5d567cc74c-zz9xk' });
  });

  it('reads an events.k8s.io-style event (empty source, eventTime, reportingComponent, series)', () => {
    const ev = normalizeEvent(schedulerEvent({ about: POD_REF, reason: 'FailedScheduling', type: 'Warning', message: 'x', at: T0 + 3, series: { count: 4, last: T0 + 300_003 } }));
    assert.equal(ev?.component, 'default-scheduler');
    assert.equal(ev?.host, 'default-scheduler-control-plane');
    assert.equal(ev?.action, 'Scheduling');
    assert.equal(ev?.count, 4);
    assert.deepEqual(ev?.first, { ms: T0 + 3, precise: true });
    assert.deepEqual(ev?.last, { ms: T0 + 300_003, precise: true });
    assert.equal(normalizeEvent({ kind: 'Event', metadata: { name: 'x' } }), undefined, 'an event about nothing is dropped');
    const native = normalizeEvent({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: { name: 'web.1', namespace: 'default' },
      regarding: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u' },
      reason: 'Scheduled',
      note: 'Successfully assigned default/web to node-1',
      eventTime: '2026-01-01T12:00:00.250000Z',
      reportingController: 'default-scheduler',
      action: 'Binding',
      type: 'Normal',
    });
    assert.equal(native?.message, 'Successfully assigned default/web to node-1');
    assert.equal(native?.component, 'default-scheduler');
    assert.equal(native?.involved.uid, 'u');
  });

  it('parses every known wording of the messages it understands', () => {
    assert.deepEqual(parseScaling('Scaled up replica set web-5d567cc74c to 3'), { direction: 'up', replicaSet: 'web-5d567cc74c', from: undefined, to: 3 });
    assert.deepEqual(parseScaling('Scaled down replica set web-5d567cc74c from 3 to 2'), { direction: 'down', replicaSet: 'web-5d567cc74c', from: 3, to: 2 });
    assert.equal(parseScaling('Scaled up replica set'), undefined);
    assert.deepEqual(parsePodMessage('Created pod: web-5d567cc74c-ss4lb'), { verb: 'Created', pod: 'web-5d567cc74c-ss4lb' });
    assert.deepEqual(parsePodMessage('Deleted pod: web-5d567cc74c-ss4lb'), { verb: 'Deleted', pod: 'web-5d567cc74c-ss4lb' });
    assert.equal(parseScheduledNode('Successfully assigned default/web-5d567cc74c-ss4lb to node-1'), 'node-1');
    assert.equal(parseContainerMessage('Created container nginx'), 'nginx');
    assert.equal(parseContainerMessage('Created container: nginx'), 'nginx');
    assert.equal(parseContainerMessage('Started container nginx'), 'nginx');
    assert.equal(parseImage('Successfully pulled image "nginx:1.25" in 5.870196872s'), 'nginx:1.25');
    assert.equal(parseImage('Successfully pulled image "nginx:1.25" in 1.2s (1.2s including waiting). Image size: 72123456 bytes.'), 'nginx:1.25');
    assert.ok(isImageAlreadyPresent('Container image "nginx:1.25" already present on machine'));
    assert.equal(parseErrorReason('Error: ErrImagePull'), 'ErrImagePull');
    assert.equal(parseErrorReason('Error: failed to create containerd task'), undefined);
  });

  it('tells whole-second stamps from precise ones and sharpens only inside the second', () => {
    assert.deepEqual(parseTime('2026-01-01T12:00:05Z'), { ms: Date.UTC(2026, 0, 1, 12, 0, 5), precise: false });
    assert.deepEqual(parseTime('2026-01-01T12:00:05.123456Z'), { ms: Date.UTC(2026, 0, 1, 12, 0, 5, 123), precise: true });
    assert.equal(parseTime(null), undefined);
    assert.equal(parseTime('yesterday'), undefined);
    const coarse = { ms: 5_000, precise: false };
    assert.equal(sharpen(coarse, [6_200, 5_400, 5_100]), 5_100);
    assert.equal(sharpen(coarse, [6_000, 4_999]), 5_000);
    assert.equal(sharpen({ ms: 5_000, precise: true }, [5_001]), 5_000);
  });

  it('formats offsets and durations for people', () => {
    assert.equal(formatOffset(0), '+0.000s');
    assert.equal(formatOffset(6_822), '+6.822s');
    assert.equal(formatOffset(-412), '-0.412s');
    assert.deepEqual([412, 6_820, 15_500, 125_000, 3_720_000].map(formatDuration), ['412ms', '6.82s', '15.5s', '2m05s', '1h02m']);
  });
});
