/**
 * The kubelet records the events about a container against the container's reference
 * (kubecontainer.GenerateContainerRef: `involvedObject.fieldPath` `spec.containers{NAME}` or
 * `spec.initContainers{NAME}`), and the events about the pod as a whole without one.
 */
import assert from 'node:assert/strict';
import type { Container } from '../../../src/core/k8s';
import { makeHarness, type Harness } from './harness';

/** `Reason fieldPath` of each event about the pod, once per distinct pair, in order. */
function reasonsAndPaths(h: Harness, pod: string): string[] {
  return [...new Set(h.events(pod).map((e) => `${e.text.split(' ')[1]} ${e.fieldPath ?? '-'}`))];
}

describe('kubelet: the container an event is about (involvedObject.fieldPath)', () => {
  it('names the init container and the container in their pulls, creations, starts and stops', () => {
    const h = makeHarness();
    h.createPod('web', [{ name: 'app', image: 'nginx:1.25' }], { initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['true'] }] });
    h.runFor(60_000);
    h.store.delete('Pod', 'default', 'web');
    h.runFor(60_000);
    assert.deepEqual(reasonsAndPaths(h, 'web'), [
      'Pulling spec.initContainers{setup}',
      'Pulled spec.initContainers{setup}',
      'Created spec.initContainers{setup}',
      'Started spec.initContainers{setup}',
      'Pulling spec.containers{app}',
      'Pulled spec.containers{app}',
      'Created spec.containers{app}',
      'Started spec.containers{app}',
      'Killing spec.containers{app}',
    ]);
  });

  it('names the container in pull failures and back-offs, and none in a missing pull secret’s warning', () => {
    const h = makeHarness();
    h.createPod('bad', [{ name: 'app', image: 'nginx:doesnotexist' }], { imagePullSecrets: [{ name: 'regcred' }] });
    h.runFor(60_000);
    assert.deepEqual(reasonsAndPaths(h, 'bad'), ['FailedToRetrieveImagePullSecret -', 'Pulling spec.containers{app}', 'Failed spec.containers{app}', 'BackOff spec.containers{app}']);
    assert.ok(h.events('bad').some((e) => e.text === 'Warning Failed Error: ErrImagePull' && e.fieldPath === 'spec.containers{app}'));
  });

  it('names the container in InspectFailed and ErrImageNeverPull', () => {
    const h = makeHarness();
    h.createPod('upper', [{ name: 'app', image: 'Nginx:1.25' }]);
    h.createPod('never', [{ name: 'app', image: 'nginx:1.25', imagePullPolicy: 'Never' }]);
    h.runFor(30_000);
    assert.deepEqual(reasonsAndPaths(h, 'upper'), ['InspectFailed spec.containers{app}', 'Failed spec.containers{app}']);
    assert.deepEqual(reasonsAndPaths(h, 'never'), ['ErrImageNeverPull spec.containers{app}', 'Failed spec.containers{app}']);
  });

  it('names the container in a config error, and none in FailedMount', () => {
    const h = makeHarness();
    const env: Container = { name: 'app', image: 'nginx:1.25', env: [{ name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'missing', key: 'level' } } }] };
    h.createPod('config', [env]);
    h.createPod('mount', [{ name: 'app', image: 'nginx:1.25', volumeMounts: [{ name: 'secret', mountPath: '/etc/secret' }] }], { volumes: [{ name: 'secret', secret: { secretName: 'missing' } }] });
    h.runFor(60_000);
    assert.ok(h.events('config').some((e) => e.text === 'Warning Failed Error: configmap "missing" not found' && e.fieldPath === 'spec.containers{app}'));
    assert.deepEqual(reasonsAndPaths(h, 'mount'), ['FailedMount -']);
  });

  it('names the container in probe failures, the kill that follows and the crash-loop back-off', () => {
    const h = makeHarness();
    const probed: Container = {
      name: 'probed',
      image: 'busybox:1.36',
      command: ['sh', '-c', 'sleep 3600'],
      livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 1, failureThreshold: 1 },
    };
    h.createPod('probe', [probed], { terminationGracePeriodSeconds: 1 });
    h.createPod('crash', [{ name: 'crasher', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }]);
    h.runFor(120_000);
    const probe = reasonsAndPaths(h, 'probe');
    for (const reason of ['Unhealthy', 'Killing']) assert.ok(probe.includes(`${reason} spec.containers{probed}`), probe.join('\n'));
    assert.ok(reasonsAndPaths(h, 'crash').includes('BackOff spec.containers{crasher}'));
  });

  it('names the container in failed lifecycle hooks and the kill after a failed postStart', () => {
    const h = makeHarness();
    h.createPod('post', [{ name: 'web', image: 'nginx:1.25', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 1'] } } } }]);
    h.createPod('pre', [{ name: 'web', image: 'nginx:1.25', lifecycle: { preStop: { exec: { command: ['sh', '-c', 'exit 3'] } } } }]);
    h.runFor(30_000);
    h.store.delete('Pod', 'default', 'pre');
    h.runFor(60_000);
    const post = reasonsAndPaths(h, 'post');
    for (const reason of ['FailedPostStartHook', 'Killing']) assert.ok(post.includes(`${reason} spec.containers{web}`), post.join('\n'));
    assert.ok(reasonsAndPaths(h, 'pre').includes('FailedPreStopHook spec.containers{web}'));
  });
});
