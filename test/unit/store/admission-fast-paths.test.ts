/**
 * Admission takes shortcuts on the common path: subtrees an update shares with the stored object
 * are not validated again, and the QoS class is summed without maps. These tests pin that the
 * shortcuts give the answers the full checks give.
 */
import assert from 'node:assert/strict';
import type { KubeObject, PodSpec } from '../../../src/core/k8s';
import { applyDefaults, podQOSClass, prepareForCreate } from '../../../src/sim/store/defaults';
import { validate } from '../../../src/sim/apis/validation';

type Json = Record<string, unknown>;

function storedPod(): KubeObject {
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-1',
      namespace: 'default',
      uid: 'u-1',
      labels: { app: 'web' },
      annotations: { 'example.com/note': 'x' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-1', controller: true }],
      finalizers: ['example.com/keep'],
    },
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '10m' } } }],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
      activeDeadlineSeconds: 600,
    },
  };
  applyDefaults('Pod', pod, { randomSuffix: () => 'abcde' });
  prepareForCreate('Pod', pod);
  assert.deepEqual(validate('Pod', pod), []);
  return pod;
}

/** The same update with no subtree shared with the stored object: every field is validated. */
function unshared(object: KubeObject): KubeObject {
  return JSON.parse(JSON.stringify(object)) as KubeObject;
}

const withMeta = (pod: KubeObject, change: Json): KubeObject => ({ ...pod, metadata: { ...pod.metadata, ...change } });
const withSpec = (pod: KubeObject, change: Json): KubeObject => ({ ...pod, spec: { ...(pod.spec as Json), ...change } });

describe('admission: updates sharing subtrees with the stored object', () => {
  const updates: [string, (pod: KubeObject) => KubeObject][] = [
    ['a status-only write', (pod) => ({ ...pod, metadata: { ...pod.metadata }, status: { phase: 'Running' } })],
    ['a new valid label', (pod) => withMeta(pod, { labels: { ...pod.metadata?.labels, tier: 'front' } })],
    ['an invalid label value', (pod) => withMeta(pod, { labels: { app: '-bad' } })],
    ['an invalid annotation key', (pod) => withMeta(pod, { annotations: { 'a/b/c': 'x' } })],
    ['an owner reference without uid', (pod) => withMeta(pod, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n' }] })],
    ['an invalid finalizer', (pod) => withMeta(pod, { finalizers: ['-x'] })],
    ['a changed name', (pod) => withMeta(pod, { name: 'other' })],
    ['a new image', (pod) => withSpec(pod, { containers: [{ ...(pod.spec as PodSpec).containers[0], image: 'nginx:1.26' }] })],
    ['a longer activeDeadlineSeconds', (pod) => withSpec(pod, { activeDeadlineSeconds: 900 })],
    ['a changed restartPolicy', (pod) => withSpec(pod, { restartPolicy: 'Never' })],
    ['a removed toleration', (pod) => withSpec(pod, { tolerations: [] })],
  ];

  for (const [label, change] of updates) {
    it(`reports the same causes for ${label} as a full validation`, () => {
      const stored = storedPod();
      const update = change(stored);
      assert.deepEqual(validate('Pod', update, stored), validate('Pod', unshared(update), unshared(stored)));
    });
  }

  it('still validates a changed subtree', () => {
    const stored = storedPod();
    const causes = validate('Pod', withMeta(stored, { labels: { app: '-bad' } }), stored);
    assert.deepEqual(
      causes.map((cause) => cause.field),
      ['metadata.labels'],
    );
  });

  it('finds nothing to report in an update that shares the whole spec and metadata subtrees', () => {
    const stored = storedPod();
    assert.deepEqual(validate('Pod', { ...stored, metadata: { ...stored.metadata } }, stored), []);
  });
});

describe('admission: QoS class', () => {
  const container = (resources: Json, name = 'c'): Json => ({ name, image: 'nginx', resources });
  const qos = (containers: Json[], initContainers: Json[] = []): string =>
    podQOSClass({ containers, ...(initContainers.length > 0 ? { initContainers } : {}) } as unknown as PodSpec);

  it('is BestEffort without positive cpu or memory amounts', () => {
    assert.equal(qos([container({})]), 'BestEffort');
    assert.equal(qos([container({ requests: { cpu: '0', memory: '0' } })]), 'BestEffort');
    assert.equal(qos([container({ requests: { 'example.com/gpu': '1' } })]), 'BestEffort');
  });

  it('is Guaranteed when every container limits cpu and memory at its requests', () => {
    const resources = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1024Mi' } };
    assert.equal(qos([container(resources), container(resources, 'd')], [container(resources, 'i')]), 'Guaranteed');
  });

  it('is Burstable when the sums differ, a container lacks a limit, or only limits are given', () => {
    assert.equal(qos([container({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } })]), 'Burstable');
    assert.equal(qos([container({ limits: { cpu: '1', memory: '1Gi' } }), container({ requests: { cpu: '1' } }, 'd')]), 'Burstable');
    assert.equal(qos([container({ limits: { cpu: '1', memory: '1Gi' } })]), 'Burstable');
    assert.equal(qos([container({ requests: { cpu: '1' }, limits: { cpu: '1', memory: '1Gi' } })]), 'Burstable');
  });
});
