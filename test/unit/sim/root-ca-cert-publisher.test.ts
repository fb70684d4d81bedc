import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { ROOT_CA_CONFIGMAP } from '../../../src/sim/controllers/root-ca-cert-publisher';
import { Simulator } from '../../../src/sim/simulator';

function rootCA(sim: Simulator, namespace: string): (KubeObject & { data?: Record<string, string> }) | undefined {
  return sim.store.get('ConfigMap', namespace, ROOT_CA_CONFIGMAP);
}

describe('root CA publisher', () => {
  it('publishes kube-root-ca.crt in every namespace, new ones too, and re-creates it when deleted', () => {
    const sim = new Simulator({ nodes: 1 });
    for (const namespace of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) assert.ok(rootCA(sim, namespace)?.data?.['ca.crt'], namespace);
    sim.store.create('Namespace', { metadata: { name: 'team-a' } });
    assert.equal(rootCA(sim, 'team-a'), undefined, 'the controller reacts to the new namespace a moment later');
    sim.runUntil(() => rootCA(sim, 'team-a') !== undefined, 1000);
    assert.ok(rootCA(sim, 'team-a'));
    sim.store.delete('ConfigMap', 'team-a', ROOT_CA_CONFIGMAP);
    sim.runUntil(() => rootCA(sim, 'team-a') !== undefined, 1000);
    assert.ok(rootCA(sim, 'team-a'), 're-created');
  });

  it('lets a pod mount its kube-api-access volume, which projects ca.crt from it', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } });
    const pod = (): KubeObject & { status?: { phase?: string } } => sim.store.get('Pod', 'default', 'web')!;
    const volumes = (pod() as { spec?: { volumes?: { name: string }[] } }).spec?.volumes ?? [];
    assert.ok(volumes.some((v) => v.name.startsWith('kube-api-access-')));
    sim.runUntil(() => pod().status?.phase === 'Running', 60_000);
    assert.equal(pod().status?.phase, 'Running');
    assert.ok(!sim.store.list('Event').items.some((e) => (e as { reason?: string }).reason === 'FailedMount'));
  });
});
