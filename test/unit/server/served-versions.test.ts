import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { storedOnlyJourney } from '../../../src/core/journey/stored-only';
import { aggregatedDiscovery, apiGroup, apiResourceList } from '../../../src/server/discovery';
import { parseResourcePath } from '../../../src/server/routing';
import { horizontalPodAutoscalerFromV1, horizontalPodAutoscalerToV1 } from '../../../src/sim/apis/autoscaling/conversion';
import { Simulator } from '../../../src/sim/simulator';

type Json = Record<string, unknown>;

const storedV2 = (): KubeObject => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default', annotations: { team: 'a' } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 2,
    maxReplicas: 5,
    metrics: [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
  },
  status: {
    currentReplicas: 2,
    desiredReplicas: 2,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40, averageValue: '20m' } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' }],
  },
});

describe('autoscaling/v1 HorizontalPodAutoscalers', () => {
  it('shows the CPU target and utilization as v1 fields, the rest in upstream annotations', () => {
    const v1 = horizontalPodAutoscalerToV1(storedV2());
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(v1.spec, { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 70 });
    assert.deepEqual(v1.status, { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 40 });
    const annotations = v1.metadata?.annotations ?? {};
    assert.equal(annotations.team, 'a');
    assert.deepEqual(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/metrics']), [(storedV2().spec as { metrics: Json[] }).metrics[1]]);
    assert.ok(annotations['autoscaling.alpha.kubernetes.io/behavior']);
    assert.ok(annotations['autoscaling.alpha.kubernetes.io/conditions']);
    assert.ok(annotations['autoscaling.alpha.kubernetes.io/current-metrics']);
  });

  it('converts back to the same v2 object', () => {
    assert.deepEqual(horizontalPodAutoscalerFromV1(horizontalPodAutoscalerToV1(storedV2())), storedV2());
  });

  it('turns a v1 CPU percentage into the Resource metric, and reports a malformed annotation', () => {
    const v2 = horizontalPodAutoscalerFromV1({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'w' }, spec: { maxReplicas: 3, targetCPUUtilizationPercentage: 50 } }) as KubeObject;
    assert.deepEqual((v2.spec as Json).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    assert.equal(v2.metadata?.annotations, undefined);
    const broken = horizontalPodAutoscalerFromV1({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'w', annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '[' } }, spec: { maxReplicas: 3 } });
    assert.equal(typeof broken, 'string');
  });

  it('is served in both versions, v2 preferred, v1 addressable', () => {
    const group = apiGroup('autoscaling') as { versions: { version: string }[]; preferredVersion: { version: string } };
    assert.deepEqual(group.versions.map((v) => v.version), ['v2', 'v1']);
    assert.equal(group.preferredVersion.version, 'v2');
    const v1 = apiResourceList('autoscaling', 'v1') as { resources: { name: string }[] };
    assert.deepEqual(v1.resources.map((r) => r.name), ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']);
    const aggregated = aggregatedDiscovery('apis', 'v2') as { items: { metadata: { name?: string }; versions: { version: string }[] }[] };
    assert.deepEqual(aggregated.items.find((item) => item.metadata.name === 'autoscaling')?.versions.map((v) => v.version), ['v2', 'v1']);
    const parsed = parseResourcePath('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web');
    assert.equal(parsed.type === 'resource' && parsed.path.info.apiVersion, 'autoscaling/v1');
  });

  it('applies a v1 manifest as the stored v2 object, with the stored-only note', () => {
    const sim = new Simulator({ nodes: 1 });
    const applied = sim.apply({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'php-apache', namespace: 'default' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'php-apache' }, minReplicas: 1, maxReplicas: 10, targetCPUUtilizationPercentage: 50 } });
    assert.equal(applied.action, 'created');
    assert.equal(applied.object.apiVersion, 'autoscaling/v2');
    assert.deepEqual((applied.object.spec as Json).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    assert.match(storedOnlyJourney(applied.object)?.note ?? '', /scales Deployment\/php-apache between minReplicas and maxReplicas/);
  });
});

describe('serviceaccounts/token in discovery', () => {
  it('is listed under serviceaccounts as upstream lists it', () => {
    const core = apiResourceList('', 'v1') as { resources: Json[] };
    assert.deepEqual(core.resources.find((r) => r.name === 'serviceaccounts/token'), { name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
  });
});
