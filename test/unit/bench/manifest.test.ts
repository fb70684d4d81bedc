import assert from 'node:assert/strict';
import { deploymentsManifest } from '../../../bench/manifest';
import { parseManifest } from '../../../src/core/manifest';
import type { KubeObject } from '../../../src/core/k8s';

describe('bench manifest', () => {
  it('writes the Deployments the user paths apply: valid YAML, distinct names, the requested replicas and requests', () => {
    const manifest = parseManifest(deploymentsManifest(3, 7));
    assert.deepEqual(manifest.documents.flatMap((d) => d.problems), []);
    const objects = manifest.documents.map((d) => d.object as KubeObject);
    assert.deepEqual(
      objects.map((o) => [o.kind, o.metadata?.name, o.metadata?.namespace, (o.spec as { replicas: number }).replicas]),
      [
        ['Deployment', 'app-0', undefined, 7],
        ['Deployment', 'app-1', undefined, 7],
        ['Deployment', 'app-2', undefined, 7],
      ],
    );
    const spec = objects[2].spec as { selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: { containers: { image: string; resources: unknown }[] } } };
    assert.deepEqual(spec.selector.matchLabels, spec.template.metadata.labels);
    assert.deepEqual(spec.template.spec.containers.map((c) => [c.image, c.resources]), [['nginx:1.25', { requests: { cpu: '10m', memory: '16Mi' } }]]);
  });
});
