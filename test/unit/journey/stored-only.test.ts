import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { renderStoredOnly, storedOnlyJourney } from '../../../src/core/journey/stored-only';

const object = (kind: string, body: Record<string, unknown> = {}, namespace: string | undefined = 'default'): KubeObject => ({ kind, metadata: { name: 'x', ...(namespace ? { namespace } : {}) }, ...body });

describe('stored-only journeys', () => {
  it('completes at stored, naming what acts on each kind in a real cluster', () => {
    const cases: [KubeObject, RegExp][] = [
      [object('Ingress'), /ingress controller routes traffic .* none is installed on a fresh kind cluster/],
      [object('IngressClass', { spec: { controller: 'k8s.io/ingress-nginx' } }, undefined), /spec\.controller \(k8s\.io\/ingress-nginx\)/],
      [object('NetworkPolicy'), /network plugin enforces it .*kindnet/],
      [object('Role'), /RBAC authorizer .* does not authorize requests/],
      [object('ClusterRoleBinding', {}, undefined), /grants its ClusterRole to its subjects in every namespace/],
      [object('HorizontalPodAutoscaler', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'php-apache' } } }), /scales Deployment\/php-apache between minReplicas and maxReplicas .* metrics-server, which kind does not install/],
      [object('PodDisruptionBudget'), /eviction API \(kubectl drain\)/],
      [object('Lease'), /spec\.holderIdentity renews it/],
      [object('ServiceAccount'), /spec\.serviceAccountName/],
      [object('ResourceQuota'), /ResourceQuota admission plugin/],
      [object('LimitRange'), /LimitRanger admission plugin/],
      [object('PriorityClass', {}, undefined), /Priority admission plugin/],
      [object('ConfigMap', { data: { b: '1', a: '2' } }), /kubelet reads it/],
    ];
    for (const [candidate, note] of cases) {
      const journey = storedOnlyJourney(candidate);
      assert.ok(journey, candidate.kind);
      assert.equal(journey.status, 'complete');
      assert.equal(journey.stage, 'stored');
      assert.match(journey.note, note, candidate.kind);
    }
    assert.equal(storedOnlyJourney(object('ConfigMap', { data: { b: '1', a: '2' } }))?.facts, '2 keys: a, b');
  });

  it('leaves the kinds the simulator or other journeys act on to them', () => {
    for (const kind of ['Deployment', 'Pod', 'Service', 'Endpoints', 'EndpointSlice', 'PersistentVolume', 'PersistentVolumeClaim', 'StorageClass', 'Node', 'Event']) {
      assert.equal(storedOnlyJourney(object(kind)), undefined, kind);
    }
  });

  it('sizes a Secret\'s values without showing them', () => {
    const journey = storedOnlyJourney(object('Secret', { data: { 'tls.key': 'c2VjcmV0LWtleQ==', 'tls.crt': '' } }));
    assert.equal(journey?.facts, '2 keys: tls.crt (0 bytes), tls.key (10 bytes)');
    const text = renderStoredOnly(journey ? [journey] : [], 80);
    assert.match(text, /^Secret default\/x {2}\[complete\] {2}2 keys: tls\.crt \(0 bytes\), tls\.key \(10 bytes\)\n {2}Stored\. The kubelet reads it/);
    assert.doesNotMatch(text, /c2VjcmV0|secret-key/);
    for (const line of text.split('\n')) assert.ok(line.length <= 80, line);
  });
});
