import assert from 'node:assert/strict';
import type { Container, KubeObject } from '../../../src/core/k8s';
import { containerConfigError, missingPullSecrets, volumeSetUpError, type SourceLookup } from '../../../src/sim/kubelet/pod-sources';
import { makeHarness, type Harness, type PodObject } from './harness';

const MINUTE = 60_000;

function configMap(name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data } as KubeObject;
}

function secret(name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, data } as KubeObject;
}

function waitingOf(pod: PodObject | undefined): { reason?: string; message?: string } | undefined {
  return pod?.status?.containerStatuses?.[0]?.state?.waiting;
}

function lookupOf(objects: KubeObject[]): SourceLookup {
  const find = (kind: string, name: string): KubeObject | undefined => objects.find((o) => o.kind === kind && o.metadata?.name === name);
  return { configMap: (name) => find('ConfigMap', name), secret: (name) => find('Secret', name) };
}

const specialLevel: Container = {
  name: 'test-container',
  image: 'registry.k8s.io/busybox',
  env: [
    { name: 'PLAIN', value: 'x' },
    { name: 'SPECIAL_LEVEL_KEY', valueFrom: { configMapKeyRef: { name: 'special-config', key: 'SPECIAL_LEVEL' } } },
  ],
};

describe('kubelet: environment from ConfigMaps and Secrets (makeEnvironmentVariables)', () => {
  it('names the missing object or key with upstream’s words, honouring optional', () => {
    const none = lookupOf([]);
    assert.equal(containerConfigError(specialLevel, 'default', none), 'configmap "special-config" not found');
    assert.equal(containerConfigError(specialLevel, 'default', lookupOf([configMap('special-config', { other: '1' })])), "couldn't find key SPECIAL_LEVEL in ConfigMap default/special-config");
    assert.equal(containerConfigError(specialLevel, 'default', lookupOf([configMap('special-config', { SPECIAL_LEVEL: 'very' })])), undefined);
    const binary = { ...configMap('special-config', {}), binaryData: { SPECIAL_LEVEL: 'dmVyeQ==' } } as KubeObject;
    assert.equal(containerConfigError(specialLevel, 'default', lookupOf([binary])), "couldn't find key SPECIAL_LEVEL in ConfigMap default/special-config", 'env reads data only');
    assert.equal(volumeSetUpError({ name: 'v', configMap: { name: 'special-config', items: [{ key: 'SPECIAL_LEVEL', path: 'l' }] } }, lookupOf([binary])), undefined, 'a volume reads binaryData too');
    const optional: Container = { name: 'c', env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'special-config', key: 'K', optional: true } } }] };
    assert.equal(containerConfigError(optional, 'default', none), undefined);
    const fromSecret: Container = { name: 'c', env: [{ name: 'U', valueFrom: { secretKeyRef: { name: 'backend-user', key: 'backend-username' } } }] };
    assert.equal(containerConfigError(fromSecret, 'prod', none), 'secret "backend-user" not found');
    assert.equal(containerConfigError(fromSecret, 'prod', lookupOf([secret('backend-user', { other: 'eA==' })])), "couldn't find key backend-username in Secret prod/backend-user");
    const stringData = { ...secret('backend-user', {}), stringData: { 'backend-username': 'admin' } } as KubeObject;
    assert.equal(containerConfigError(fromSecret, 'prod', lookupOf([stringData])), undefined, 'a key not yet folded from stringData still counts');
  });

  it('checks envFrom before env, and a literal value wins over valueFrom', () => {
    const both: Container = { name: 'c', envFrom: [{ secretRef: { name: 'test-secret' } }], env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }] };
    assert.equal(containerConfigError(both, 'default', lookupOf([])), 'secret "test-secret" not found');
    const optionalFrom: Container = { name: 'c', envFrom: [{ configMapRef: { name: 'cm', optional: true }, prefix: 'P_' }] };
    assert.equal(containerConfigError(optionalFrom, 'default', lookupOf([])), undefined);
    const literal: Container = { name: 'c', env: [{ name: 'A', value: 'set', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }] };
    assert.equal(containerConfigError(literal, 'default', lookupOf([])), undefined);
  });

  it('leaves the container in CreateContainerConfigError and the pod Pending, retrying until the ConfigMap appears', () => {
    const h = makeHarness();
    h.createPod('dapi-test-pod', [specialLevel]);
    h.runFor(MINUTE);
    const pod = h.pod('dapi-test-pod');
    assert.equal(pod?.status?.phase, 'Pending');
    assert.deepEqual(waitingOf(pod), { reason: 'CreateContainerConfigError', message: 'configmap "special-config" not found' });
    const failures = h.events('dapi-test-pod').filter((e) => e.text === 'Warning Failed Error: configmap "special-config" not found');
    assert.ok(failures.length >= 3, `the kubelet retries (${failures.length} failures in a minute)`);
    assert.ok(!h.events('dapi-test-pod').some((e) => e.text.startsWith('Normal Created')), 'no container is created');

    h.store.create('ConfigMap', configMap('special-config', { SPECIAL_LEVEL: 'very' }));
    const createdAt = h.clock.now();
    h.runFor(MINUTE);
    assert.equal(h.pod('dapi-test-pod')?.status?.phase, 'Running');
    const started = h.events('dapi-test-pod').find((e) => e.text === 'Normal Started Started container test-container');
    assert.ok(started && started.time - createdAt <= 16_000, 'started at the next retry (the sync back-off is 10–15 s)');
  });
});

describe('kubelet: ConfigMap, Secret and projected volumes (MountVolume.SetUp)', () => {
  it('gives the plugins’ errors for missing objects and keys, honouring optional', () => {
    const none = lookupOf([]);
    assert.equal(volumeSetUpError({ name: 'secret-volume', secret: { secretName: 'test-secret' } }, none), 'secret "test-secret" not found');
    assert.equal(volumeSetUpError({ name: 'config-volume', configMap: { name: 'special-config' } }, none), 'configmap "special-config" not found');
    assert.equal(volumeSetUpError({ name: 'v', configMap: { name: 'special-config', optional: true } }, none), undefined);
    const items = { name: 'v', configMap: { name: 'special-config', items: [{ key: 'SPECIAL_LEVEL', path: 'keys' }] } };
    assert.equal(volumeSetUpError(items, lookupOf([configMap('special-config', { other: '1' })])), 'configmap references non-existent config key: SPECIAL_LEVEL');
    const secretItems = { name: 'v', secret: { secretName: 's', items: [{ key: 'username', path: 'u' }] } };
    assert.equal(volumeSetUpError(secretItems, lookupOf([secret('s', { password: 'eA==' })])), 'references non-existent secret key: username');
    const projected = {
      name: 'all-in-one',
      projected: { sources: [{ secret: { name: 'mysecret' } }, { downwardAPI: { items: [] } }, { configMap: { name: 'myconfigmap' } }, { serviceAccountToken: { path: 'token' } }] },
    };
    assert.equal(volumeSetUpError(projected, none), '[secret "mysecret" not found, configmap "myconfigmap" not found]');
    assert.equal(volumeSetUpError(projected, lookupOf([secret('mysecret', {})])), 'configmap "myconfigmap" not found');
    assert.equal(volumeSetUpError({ name: 'cache', emptyDir: {} }, none), undefined);
  });

  function podWithSecretVolume(h: Harness): void {
    h.createPod('secret-test-pod', [{ name: 'test-container', image: 'nginx:1.25', volumeMounts: [{ name: 'secret-volume', mountPath: '/etc/secret-volume' }] }], {
      volumes: [{ name: 'secret-volume', secret: { secretName: 'test-secret' } }],
    });
  }

  it('keeps the pod ContainerCreating with FailedMount events, retried with a doubling back-off', () => {
    const h = makeHarness();
    podWithSecretVolume(h);
    h.runFor(5 * MINUTE);
    const pod = h.pod('secret-test-pod');
    assert.equal(pod?.status?.phase, 'Pending');
    assert.deepEqual(waitingOf(pod), { reason: 'ContainerCreating' });
    assert.equal(pod?.status?.podIP, undefined, 'no sandbox while a volume is not mounted');
    const mounts = h.events('secret-test-pod').filter((e) => e.text === 'Warning FailedMount MountVolume.SetUp failed for volume "secret-volume" : secret "test-secret" not found');
    const gaps = mounts.slice(1).map((e, i) => e.time - mounts[i].time);
    assert.deepEqual(gaps.slice(0, 8), [500, 1000, 2000, 4000, 8000, 16_000, 32_000, 64_000]);
    assert.ok(gaps.slice(8).every((gap) => gap === 122_000), `capped at 2m2s: ${gaps.slice(8).join(', ')}`);
    assert.ok(!h.events('secret-test-pod').some((e) => e.text.startsWith('Normal Pulling')), 'nothing is pulled before the volumes are mounted');
  });

  it('mounts at the next retry once the Secret exists, then starts the pod', () => {
    const h = makeHarness();
    podWithSecretVolume(h);
    h.runFor(20_000);
    h.store.create('Secret', secret('test-secret', { username: 'bXktYXBw' }));
    const createdAt = h.clock.now();
    h.runFor(MINUTE);
    const lastFailure = h.events('secret-test-pod').filter((e) => e.text.startsWith('Warning FailedMount')).at(-1);
    assert.ok(lastFailure && lastFailure.time <= createdAt);
    assert.equal(h.pod('secret-test-pod')?.status?.phase, 'Running');
    const pulling = h.events('secret-test-pod').find((e) => e.text.startsWith('Normal Pulling'));
    assert.ok(pulling && pulling.time - createdAt <= 16_500, 'the next SetUp (back-off 16 s) succeeds and the pod goes on');
  });
});

describe('kubelet: imagePullSecrets (getPullSecretsForPod)', () => {
  it('warns about missing pull secrets and still pulls', () => {
    assert.deepEqual(missingPullSecrets({ containers: [], imagePullSecrets: [{ name: 'regcred' }, { name: '' }, { name: 'present' }] }, lookupOf([secret('present', {})])), ['regcred']);
    const h = makeHarness();
    h.createPod('private-reg', [{ name: 'private-reg-container', image: 'nginx:1.25' }], { imagePullSecrets: [{ name: 'regcred' }] });
    h.runFor(MINUTE);
    const texts = h.events('private-reg').map((e) => e.text);
    assert.equal(texts[0], 'Warning FailedToRetrieveImagePullSecret Unable to retrieve some image pull secrets (regcred); attempting to pull the image may not succeed.');
    assert.ok(texts.includes('Normal Pulling Pulling image "nginx:1.25"'));
    assert.equal(h.pod('private-reg')?.status?.phase, 'Running');
  });
});
