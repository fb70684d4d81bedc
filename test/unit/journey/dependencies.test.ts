import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { connectTracer, runTrace } from '../../../src/cli/trace';
import type { KubeObject, PodSpec } from '../../../src/core/k8s';
import { parseManifest } from '../../../src/core/manifest';
import { dependencyReferencePaths, missingDependency, podSpecPath } from '../../../src/core/journey/dependencies';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey, ObjectJourney } from '../../../src/core/journey/types';
import { Simulator } from '../../../src/sim/simulator';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function podsOf(journey: Journey): ObjectJourney[] {
  const pods: ObjectJourney[] = [];
  const visit = (node: ObjectJourney | undefined): void => {
    if (!node) return;
    if (node.ref.kind === 'Pod') pods.push(node);
    for (const child of node.children) visit(child);
  };
  visit(journey.tree);
  return pods;
}

/** A simulator with a tracer following `file`'s traceable objects, as `kube-journey trace` connects them. */
function traced(file: string): { sim: Simulator; journey: () => Journey } {
  const sim = new Simulator({ nodes: 2, seed: 3 });
  const tracer = new JourneyTracer();
  connectTracer(sim, tracer);
  let id: string | undefined;
  for (const document of parseManifest(readFileSync(file, 'utf8')).documents) {
    const applied = sim.apply(document.object!).object;
    if (applied.kind !== 'ConfigMap') id = tracer.begin({ kind: applied.kind as 'Deployment' | 'Pod', namespace: 'default', name: applied.metadata?.name ?? '' }, sim.clock.now());
  }
  return { sim, journey: () => tracer.journey(id!) as Journey };
}

describe('journey: what a stuck pod waits for', () => {
  it('reads the missing object from the kubelet’s and the scheduler’s words', () => {
    assert.deepEqual(missingDependency('CreateContainerConfigError', 'configmap "special-config" not found'), { kind: 'ConfigMap', name: 'special-config', volume: undefined });
    assert.deepEqual(missingDependency('CreateContainerConfigError', 'secret "test-secret" not found'), { kind: 'Secret', name: 'test-secret', volume: undefined });
    assert.deepEqual(missingDependency('CreateContainerConfigError', "couldn't find key SPECIAL_LEVEL in ConfigMap default/special-config"), { kind: 'ConfigMap', name: 'special-config', key: 'SPECIAL_LEVEL' });
    assert.deepEqual(missingDependency('FailedMount', 'MountVolume.SetUp failed for volume "secret-volume" : secret "test-secret" not found'), { kind: 'Secret', name: 'test-secret', volume: 'secret-volume' });
    assert.deepEqual(missingDependency('FailedMount', 'MountVolume.SetUp failed for volume "all-in-one" : [secret "user" not found, secret "pass" not found]'), { kind: 'Secret', name: 'user', volume: 'all-in-one' });
    assert.deepEqual(missingDependency('FailedMount', 'MountVolume.SetUp failed for volume "config" : configmap references non-existent config key: game.properties'), { kind: 'ConfigMap', key: 'game.properties', volume: 'config' });
    assert.deepEqual(missingDependency('FailedScheduling', '0/3 nodes are available: persistentvolumeclaim "task-pv-claim" not found. preemption: …'), { kind: 'PersistentVolumeClaim', name: 'task-pv-claim' });
    assert.equal(missingDependency('ImagePullBackOff', 'Back-off pulling image "nginx:1.255"'), undefined);
    assert.equal(missingDependency('FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[x]'), undefined);
  });

  it('finds every field of the pod spec that names it', () => {
    const spec: PodSpec = {
      initContainers: [{ name: 'init', envFrom: [{ configMapRef: { name: 'special-config' } }] }],
      containers: [
        {
          name: 'app',
          env: [
            { name: 'A', value: 'x' },
            { name: 'B', valueFrom: { configMapKeyRef: { name: 'special-config', key: 'SPECIAL_LEVEL' } } },
            { name: 'C', valueFrom: { secretKeyRef: { name: 'special-config', key: 'k' } } },
          ],
        },
      ],
      volumes: [
        { name: 'config', configMap: { name: 'special-config', items: [{ key: 'game.properties', path: 'g' }] } },
        { name: 'secret-volume', secret: { secretName: 'test-secret' } },
        { name: 'all-in-one', projected: { sources: [{ secret: { name: 'user' } }, { configMap: { name: 'special-config' } }] } },
        { name: 'data', persistentVolumeClaim: { claimName: 'task-pv-claim' } },
      ],
      imagePullSecrets: [{ name: 'test-secret' }],
    };
    assert.deepEqual(dependencyReferencePaths(spec, { kind: 'ConfigMap', name: 'special-config' }), [
      'initContainers[0].envFrom[0].configMapRef.name',
      'containers[0].env[1].valueFrom.configMapKeyRef.name',
      'volumes[0].configMap.name',
      'volumes[2].projected.sources[1].configMap.name',
    ]);
    assert.deepEqual(dependencyReferencePaths(spec, { kind: 'ConfigMap', name: 'special-config', key: 'SPECIAL_LEVEL' }), ['containers[0].env[1].valueFrom.configMapKeyRef.key']);
    assert.deepEqual(dependencyReferencePaths(spec, { kind: 'ConfigMap', key: 'game.properties', volume: 'config' }), ['volumes[0].configMap.items[0].key']);
    assert.deepEqual(dependencyReferencePaths(spec, { kind: 'Secret', name: 'test-secret', volume: 'secret-volume' }), ['volumes[1].secret.secretName']);
    assert.deepEqual(dependencyReferencePaths(spec, { kind: 'Secret', name: 'test-secret' }), ['volumes[1].secret.secretName', 'imagePullSecrets[0].name']);
    assert.deepEqual(dependencyReferencePaths(spec, { kind: 'Secret', name: 'user', volume: 'all-in-one' }), ['volumes[2].projected.sources[0].secret.name']);
    assert.deepEqual(dependencyReferencePaths(spec, { kind: 'PersistentVolumeClaim', name: 'task-pv-claim' }), ['volumes[3].persistentVolumeClaim.claimName']);
    assert.equal(podSpecPath('Deployment'), 'spec.template.spec');
    assert.equal(podSpecPath('CronJob'), 'spec.jobTemplate.spec.template.spec');
    assert.equal(podSpecPath('Service'), undefined);
  });

  it('shows CreateContainerConfigError as the stuck stage naming the ConfigMap, then continues to Ready once it is created', () => {
    const { sim, journey } = traced('examples/missing-configmap.yaml');
    sim.runUntil(() => journey().stuck, 60_000);
    const stuck = journey();
    assert.equal(stuck.status, 'stuck');
    assert.equal(stuck.done, false);
    const entry = stuck.stuckObjects[0];
    assert.equal(entry.stuck.reason, 'CreateContainerConfigError');
    assert.equal(entry.stuck.message, 'configmap "web-config" not found');
    assert.equal(entry.stuck.component, 'kubelet');
    assert.deepEqual(entry.stuck.dependency, { kind: 'ConfigMap', name: 'web-config', volume: undefined });

    sim.runUntil(() => false, 30_000);
    assert.equal(journey().status, 'stuck', 'still stuck while the ConfigMap is missing');
    sim.store.create('ConfigMap', { metadata: { name: 'web-config', namespace: 'default' }, data: { greeting: 'hi' } } as KubeObject);
    sim.runUntil(() => journey().done && !journey().stuck, 60_000);
    const recovered = journey();
    assert.equal(recovered.status, 'complete');
    for (const pod of podsOf(recovered)) {
      const kinds = pod.stages.map((stage) => stage.key);
      const waited = kinds.indexOf('waiting:nginx:CreateContainerConfigError');
      assert.ok(waited >= 0, `the wait stays in ${pod.ref.name}'s journey`);
      assert.ok(kinds.indexOf('ready') > waited, 'Ready comes after the wait');
    }
  });

  it('shows FailedMount naming the Secret and the volume while the pod is ContainerCreating, and the recovery', () => {
    const { sim, journey } = traced('test/corpus/docs/pods/inject/secret-pod.yaml');
    sim.runUntil(() => journey().stuck, 60_000);
    const entry = journey().stuckObjects[0];
    assert.equal(entry.stuck.reason, 'FailedMount');
    assert.equal(entry.stuck.message, 'MountVolume.SetUp failed for volume "secret-volume" : secret "test-secret" not found');
    assert.deepEqual(entry.stuck.dependency, { kind: 'Secret', name: 'test-secret', volume: 'secret-volume' });
    const pod = podsOf(journey())[0] ?? journey().tree;
    assert.ok(pod?.stages.some((stage) => stage.key === 'failedMount:secret-volume' && stage.component === 'kubelet'));
    sim.store.create('Secret', { metadata: { name: 'test-secret', namespace: 'default' }, data: { username: 'bXktYXBw', password: 'Mzk1MjgkdmRnN0pi' } } as KubeObject);
    sim.runUntil(() => journey().done && !journey().stuck, 180_000);
    assert.equal(journey().status, 'complete');
  });

  it('is never stuck on a missing pull secret, which the kubelet only warns about', () => {
    const sim = new Simulator({ nodes: 1, seed: 3 });
    const tracer = new JourneyTracer();
    connectTracer(sim, tracer);
    sim.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'private-reg', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], imagePullSecrets: [{ name: 'regcred' }] } } as KubeObject);
    const id = tracer.begin({ kind: 'Pod', namespace: 'default', name: 'private-reg' }, sim.clock.now());
    let everStuck = false;
    tracer.onDidChange(() => {
      everStuck ||= tracer.journey(id)?.stuck === true;
    });
    sim.runUntil(() => tracer.journey(id)?.done === true, 60_000);
    const journey = tracer.journey(id) as Journey;
    assert.equal(journey.status, 'complete');
    assert.ok(journey.tree?.stages.some((stage) => stage.evidence.event?.reason === 'FailedToRetrieveImagePullSecret'), 'the warning is in the journey');
    assert.equal(everStuck, false);
  });

  it('makes kube-journey trace exit 1 with the kubelet’s words, and 0 when the ConfigMap comes with the Deployment', async () => {
    const run = async (file: string): Promise<{ code: number; err: string }> => {
      const out = new Capture();
      const err = new Capture();
      const code = await runTrace({ file, nodes: 3, seed: 1, timeoutMs: 60_000, json: false, evidence: false, out, err });
      return { code, err: err.text };
    };
    const missing = await run('examples/missing-configmap.yaml');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /deployment\/web did not finish .*: pod\/web-\S+: CreateContainerConfigError: configmap "web-config" not found/);
    const together = await run('examples/configmap-deployment.yaml');
    assert.equal(together.err, '');
    assert.equal(together.code, 0);
  });
});
