/**
 * The simulator's fit-suggestions route over its real HTTPS API, as the VS Code Quick Fix reads it:
 * `GET /apis/internals.kube-journey.dev/v1alpha1/namespaces/{ns}/pods/{name}/fits`.
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import type { KubeObject, Pod } from '../../src/core/k8s';
import { fitSuggestionsPath, type FitSuggestionsResponse } from '../../src/protocol/simulator-server';
import { serveSimulator, type ServedSimulator } from './served-simulator';

type PodObject = Pod & KubeObject;

describe('GET …/namespaces/{ns}/pods/{name}/fits on the served simulator', function () {
  this.timeout(60_000);
  let served: ServedSimulator;

  const get = (path: string, token = served.token): Promise<{ status: number; body: Record<string, unknown> }> =>
    new Promise((resolve, reject) => {
      const req = request(`${served.url}${path}`, { ca: served.certificate.certPem, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on('error', reject);
      req.end();
    });

  /** The first pod of `prefix` once `ready` holds for it, watched on the store (no polling). */
  const podWhen = (prefix: string, ready: (pod: PodObject) => boolean): Promise<PodObject> =>
    new Promise((resolve) => {
      const find = (): PodObject | undefined => served.simulator.store.list<PodObject>('Pod').items.find((pod) => pod.metadata?.name?.startsWith(prefix) && ready(pod));
      const now = find();
      if (now) return resolve(now);
      const stop = served.simulator.store.subscribe('Pod', () => {
        const pod = find();
        if (!pod) return;
        stop();
        resolve(pod);
      });
    });

  const refused = (pod: PodObject): boolean => pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable') === true;

  const deployment = (name: string, cpu: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu } } }] } } },
  });

  before(async () => {
    served = await serveSimulator({ nodes: 3, seed: 1, speed: 20 });
  });

  after(async () => {
    await served?.stop();
  });

  it('answers a refused pod with the suggestions and their manifest paths', async () => {
    served.simulator.apply(deployment('too-big', '8'));
    const pod = await podWhen('too-big-', refused);
    const name = pod.metadata!.name!;
    const { status, body } = await get(fitSuggestionsPath('default', name));
    assert.equal(status, 200);
    const answer = body as unknown as FitSuggestionsResponse;
    assert.equal(answer.kind, 'FitSuggestions');
    assert.equal(answer.apiVersion, 'internals.kube-journey.dev/v1alpha1');
    assert.deepEqual(answer.pod, { namespace: 'default', name, uid: pod.metadata?.uid });
    assert.equal(answer.node, undefined);
    assert.equal(answer.fits.totalNodes, 3);
    assert.deepEqual(
      answer.fits.suggestions.map((s) => ({ kind: s.kind, summary: s.summary, nodes: s.nodes, target: s.target, path: s.path, edits: s.edits })),
      [
        {
          kind: 'cpu',
          summary: 'requests.cpu ≤ 3920m',
          nodes: 3,
          target: { kind: 'Deployment', namespace: 'default', name: 'too-big' },
          path: 'spec.template.spec.containers[0].resources.requests.cpu',
          edits: [{ op: 'set', path: 'spec.template.spec.containers[0].resources.requests.cpu', value: '3920m' }],
        },
      ],
    );
    assert.equal(answer.fits.progressDeadline?.deployment, 'too-big');
  });

  it('names the node of a scheduled pod, with nothing to suggest', async () => {
    served.simulator.apply(deployment('small', '100m'));
    const pod = await podWhen('small-', (p) => p.spec?.nodeName !== undefined);
    const { status, body } = await get(fitSuggestionsPath('default', pod.metadata!.name!));
    assert.equal(status, 200);
    const answer = body as unknown as FitSuggestionsResponse;
    assert.equal(answer.node, pod.spec?.nodeName);
    assert.deepEqual(answer.fits.suggestions, []);
  });

  it('answers 404 with a Status for a pod that does not exist, and 401 without the token', async () => {
    const missing = await get(fitSuggestionsPath('default', 'nope'));
    assert.equal(missing.status, 404);
    assert.equal(missing.body.kind, 'Status');
    assert.equal(missing.body.message, 'pods "nope" not found');
    const anonymous = await get(fitSuggestionsPath('default', 'nope'), 'wrong');
    assert.equal(anonymous.status, 401);
  });
});
