/** The pure side of fit suggestions: applying edits to a manifest object, attaching them to a journey, printing them. */
import assert from 'node:assert/strict';
import { applyFitEdit, applyFitEdits, attachFits, fieldSegments, fitSuggestionText, type FitSuggestions } from '../../../src/core/journey/fit-suggestions';
import { renderJourney } from '../../../src/core/journey/render-text';
import { JourneyTracer } from '../../../src/core/journey/tracer';
import type { Journey, ObjectJourney } from '../../../src/core/journey/types';
import { DEPLOYMENT, deploymentObject, podObject, replicaSetObject, T0 } from './objects';

const FITS: FitSuggestions = {
  computedAt: T0 + 100,
  totalNodes: 3,
  suggestions: [
    { kind: 'cpu', summary: 'requests.cpu ≤ 3920m', nodes: 3, totalNodes: 3, edits: [], line: 22 },
    { kind: 'uncordon', summary: 'kubectl uncordon node-3', nodes: 1, totalNodes: 3, edits: [], command: 'kubectl uncordon node-3' },
  ],
  progressDeadline: { deployment: 'web', at: T0 + 600_000, seconds: 600, exceeded: false },
};

/** A Deployment with one Ready pod and one the scheduler refused. */
function journey(): Journey {
  const tracer = new JourneyTracer();
  const id = tracer.begin({ kind: 'Deployment', name: 'web' }, T0);
  tracer.ingest({ type: 'ADDED', object: deploymentObject({ replicas: 2 }) }, T0 + 5);
  tracer.ingest({ type: 'ADDED', object: replicaSetObject({ owner: DEPLOYMENT, replicas: 2 }) }, T0 + 6);
  tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-5d567cc74c-aaaaa', uid: 'ok', created: T0 + 10 }) }, T0 + 10);
  const refused = [{ type: 'PodScheduled', status: 'False', at: T0 + 25, reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient cpu.' }];
  tracer.ingest({ type: 'ADDED', object: podObject({ name: 'web-5d567cc74c-bbbbb', uid: 'stuck', created: T0 + 10, conditions: refused }) }, T0 + 25);
  return tracer.journey(id) as Journey;
}

function pods(tree: ObjectJourney | undefined): ObjectJourney[] {
  return tree ? [...(tree.ref.kind === 'Pod' ? [tree] : []), ...tree.children.flatMap(pods)] : [];
}

describe('fit suggestions (core)', () => {
  it('reads dotted field paths with list indexes', () => {
    assert.deepEqual(fieldSegments('spec.template.spec.containers[0].ports[12].hostPort'), ['spec', 'template', 'spec', 'containers', 0, 'ports', 12, 'hostPort']);
  });

  it('applies set, add, remove and create to a copy, making missing maps and lists on the way', () => {
    const object = { spec: { template: { spec: { containers: [{ name: 'app' }], nodeSelector: { a: 'b' } } } } };
    const set = applyFitEdit(object, { op: 'set', path: 'spec.template.spec.containers[0].resources.requests.cpu', value: '3920m' });
    assert.deepEqual(set.spec.template.spec.containers[0], { name: 'app', resources: { requests: { cpu: '3920m' } } });
    assert.deepEqual(object.spec.template.spec.containers[0], { name: 'app' }, 'the original is left as it was');
    const added = applyFitEdits(object, [
      { op: 'add', path: 'spec.template.spec.tolerations', value: { key: 'k', operator: 'Exists', effect: 'NoSchedule' } },
      { op: 'add', path: 'spec.template.spec.tolerations', value: { key: 'j', operator: 'Exists', effect: 'NoExecute' } },
    ]) as typeof object & { spec: { template: { spec: { tolerations: unknown[] } } } };
    assert.deepEqual(added.spec.template.spec.tolerations.map((t) => (t as { key: string }).key), ['k', 'j']);
    const removed = applyFitEdits(object, [{ op: 'remove', path: 'spec.template.spec.nodeSelector' }, { op: 'remove', path: 'spec.template.spec.containers[0]' }]);
    assert.deepEqual(removed.spec.template.spec, { containers: [] });
    assert.deepEqual(applyFitEdit(object, { op: 'create', object: { apiVersion: 'v1', kind: 'PersistentVolumeClaim' } }), object);
  });

  it('words a suggestion with its nodes and line', () => {
    assert.equal(fitSuggestionText(FITS.suggestions[0]), 'requests.cpu ≤ 3920m (fits on 3 of 3 nodes) · line 22');
    assert.equal(fitSuggestionText(FITS.suggestions[1]), 'kubectl uncordon node-3 (fits on 1 of 3 nodes)');
  });

  it('attaches suggestions to the refused pod only, copying the objects on its way and keeping the rest', () => {
    const before = journey();
    const asked: string[] = [];
    const after = attachFits(before, (ref) => (asked.push(ref.name), FITS));
    assert.deepEqual(asked, ['web-5d567cc74c-bbbbb', 'web-5d567cc74c-bbbbb'], 'the tree and the stuck list');
    const [ready, stuck] = pods(after.tree);
    assert.equal(ready, pods(before.tree)[0], 'an unchanged pod is the same object');
    assert.equal(stuck.stuck?.fits, FITS);
    assert.equal(pods(before.tree)[1].stuck?.fits, undefined, 'the snapshot handed out before is not changed');
    assert.equal(after.stuckObjects.find((entry) => entry.ref.name === 'web-5d567cc74c-bbbbb')?.stuck.fits, FITS);
  });

  it('prints "fits if:" and the progress deadline under the refused pod, not in the summary', () => {
    const text = renderJourney(attachFits(journey(), () => FITS));
    assert.match(text, /\n {6}! FailedScheduling since \+0\.025s: 0\/3 nodes are available: 3 Insufficient cpu\.\n {8}fits if: requests\.cpu ≤ 3920m \(fits on 3 of 3 nodes\) · line 22\n {8}fits if: kubectl uncordon node-3 \(fits on 1 of 3 nodes\)\n {8}ProgressDeadlineExceeded at \+600\.000s \(progressDeadlineSeconds 600\)\n/);
    assert.equal(text.match(/fits if:/g)?.length, 2);
    const none = renderJourney(attachFits(journey(), () => ({ computedAt: T0, totalNodes: 3, suggestions: [] })));
    assert.match(none, /\n {8}fits if: no single change is enough \(several filters refuse every node\)\n/);
    const now = renderJourney(attachFits(journey(), () => ({ computedAt: T0, totalNodes: 3, fitsNow: 2, suggestions: [] })));
    assert.match(now, /\n {8}fits now on 2 of 3 nodes \(the scheduler will retry it\)\n/);
  });
});
