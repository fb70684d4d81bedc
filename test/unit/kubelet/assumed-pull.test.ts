/**
 * Pulls of images the simulator cannot know exist (see `isKnownImage`): they succeed, and the
 * kubelet records that it assumed so, for the tracer to mark the pull.
 */
import assert from 'node:assert/strict';
import type { AssumedPull } from '../../../src/core/internals';
import { makeHarness, type Harness } from './harness';

const assumedPulls = (h: Harness): AssumedPull[] => h.internals.snapshot().steps.filter((step): step is AssumedPull => step.type === 'assumedPull');

const podVersions = (h: Harness, name: string): string[] =>
  h.internals
    .snapshot()
    .steps.filter((step) => step.type === 'etcdWrite' && step.object.kind === 'Pod' && step.object.name === name)
    .map((step) => (step.type === 'etcdWrite' ? step.resourceVersion : ''));

describe('assumed image pulls', () => {
  it('records a pull of an unknown image as assumed, against a version the pod was written at, and nothing for nginx', () => {
    const h = makeHarness();
    h.createPod('app', [{ name: 'app', image: 'acme/app:1.0', command: ['sleep', 'infinity'] }]);
    h.createPod('web', [{ name: 'web', image: 'nginx:1.25' }]);
    h.runFor(60_000);
    assert.ok(h.events('app').some((event) => event.text.startsWith('Normal Pulled Successfully pulled image "acme/app:1.0"')));
    const pulls = assumedPulls(h);
    assert.deepEqual(
      pulls.map((step) => [step.object.name, step.container, step.image, step.reason, step.alreadyPresent]),
      [['app', 'app', 'docker.io/acme/app:1.0', 'the simulator reaches no registry', undefined]],
    );
    assert.ok(podVersions(h, 'app').includes(pulls[0].resourceVersion), 'names a version the pod was written at');
  });

  it('records a container that finds the image an assumed pull left on its node, but not one the node started with', () => {
    const h = makeHarness({ nodes: [{ name: 'node-1' }, { name: 'node-2', images: ['acme/app:1.0'] }] });
    const app = [{ name: 'app', image: 'acme/app:1.0', imagePullPolicy: 'IfNotPresent', command: ['sleep', 'infinity'] }];
    h.createPod('first', app);
    h.runFor(60_000);
    h.createPod('second', app);
    h.createPod('preloaded', app, {}, 'node-2');
    h.runFor(60_000);
    assert.ok(h.events('second').some((event) => event.text === 'Normal Pulled Container image "acme/app:1.0" already present on machine'));
    assert.ok(h.events('preloaded').some((event) => event.text === 'Normal Pulled Container image "acme/app:1.0" already present on machine'));
    assert.deepEqual(
      assumedPulls(h).map((step) => [step.object.name, step.alreadyPresent]),
      [
        ['first', undefined],
        ['second', true],
      ],
    );
  });

  it('assumes nothing of an image the registry refuses: the docs’ non-existing-repo/non-existing-image ends in ImagePullBackOff', () => {
    const h = makeHarness();
    h.createPod('job', [{ name: 'main', image: 'non-existing-repo/non-existing-image:example' }], { restartPolicy: 'Never' });
    h.runFor(60_000);
    assert.ok(h.events('job').some((event) => event.text === 'Warning Failed Error: ErrImagePull'));
    assert.ok(h.events('job').some((event) => event.text === 'Warning Failed Error: ImagePullBackOff'));
    assert.equal(h.pod('job')?.status?.phase, 'Pending');
    assert.deepEqual(assumedPulls(h), []);
  });
});
