import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { needsConfirmation, outcomeDiagnostics, outcomeEntries, planApply, planObjects, resultMessage } from '../../../src/extension/headless/apply-plan';
import type { ApplyOutcome } from '../../../src/extension/headless/journey-source';

const MULTI = readFileSync('examples/multi-document.yaml', 'utf8');

function ok(display: string, kind: string, name: string, action: ApplyOutcome['action']): ApplyOutcome {
  return { display, kind, name, namespace: 'shop', requestedAt: 1000, action };
}

describe('apply plan', () => {
  it('sends every Kubernetes document of the file in order', () => {
    const plan = planApply(MULTI);
    assert.deepEqual(planObjects(plan).map((o) => o.kind), ['Namespace', 'ConfigMap', 'Deployment']);
    assert.deepEqual(plan.problems, []);
  });

  it('sends only the document a CodeLens stands on', () => {
    const plan = planApply(MULTI, { documentIndex: 2 });
    assert.deepEqual(planObjects(plan).map((o) => o.metadata?.name), ['frontend']);
  });

  it('sends nothing while a document has a YAML problem, and places it on the file line of a selection', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: [unclosed\n';
    const plan = planApply(text, { startLine: 10 });
    assert.equal(plan.documents.length, 0);
    assert.equal(plan.problems.length > 0, true);
    assert.ok(plan.problems.every((p) => p.line > 10 && p.severity === 'error'));
  });

  it('refuses a selection that is not a whole object', () => {
    const plan = planApply('replicas: 3\nselector: {}\n');
    assert.equal(plan.documents.length, 0);
    assert.match(plan.problems[0].message, /not a Kubernetes object: apiVersion and kind missing/);
  });

  it('puts a server error on the line of the field its cause names, in file lines', () => {
    const text = readFileSync('examples/nginx-deployment.yaml', 'utf8');
    const plan = planApply(text, { startLine: 0 });
    const outcome: ApplyOutcome = {
      display: 'deployment.apps/nginx-deployment',
      kind: 'Deployment',
      name: 'nginx-deployment',
      requestedAt: 0,
      failure: {
        message: 'Deployment.apps "nginx-deployment" is invalid: spec.template.spec.containers[0].image: Required value',
        fromServer: true,
        code: 422,
        reason: 'Invalid',
        causes: [{ field: 'spec.template.spec.containers[0].image', path: 'spec.template.spec.containers[0].image', message: 'Required value' }],
      },
    };
    const [diagnostic] = outcomeDiagnostics(plan, [outcome]);
    assert.equal(diagnostic.line, 21);
    assert.equal(diagnostic.code, 'Invalid');
    assert.equal(diagnostic.message, outcome.failure!.message);
  });

  it('puts an error without a located cause on the document\'s first line', () => {
    const plan = planApply(MULTI);
    const outcomes: ApplyOutcome[] = [
      ok('namespace/shop', 'Namespace', 'shop', 'unchanged'),
      { display: 'configmap/frontend-config', kind: 'ConfigMap', name: 'frontend-config', requestedAt: 0, failure: { message: 'configmaps "frontend-config" is forbidden', fromServer: true, code: 403, reason: 'Forbidden', causes: [] } },
      ok('deployment.apps/frontend', 'Deployment', 'frontend', 'created'),
    ];
    assert.deepEqual(outcomeDiagnostics(plan, outcomes), [{ line: 7, message: 'configmaps "frontend-config" is forbidden', severity: 'error', code: 'Forbidden' }]);
    assert.deepEqual(outcomeEntries(plan, outcomes).map((e) => [e.documentIndex, e.line, e.action ?? e.error]), [
      [0, 2, 'unchanged'],
      [1, 7, 'configmaps "frontend-config" is forbidden'],
      [2, 15, 'created'],
    ]);
  });

  it('words the result like kubectl, naming what failed', () => {
    const created = ok('deployment.apps/web', 'Deployment', 'web', 'created');
    const same = ok('configmap/c', 'ConfigMap', 'c', 'unchanged');
    const failed: ApplyOutcome = { display: 'pod/p', kind: 'Pod', name: 'p', requestedAt: 0, failure: { message: 'pods "p" is forbidden', fromServer: true, causes: [] } };
    assert.deepEqual(resultMessage([created, same], 'Simulator'), { severity: 'info', text: 'Applied to Simulator: deployment.apps/web created, configmap/c unchanged.' });
    assert.deepEqual(resultMessage([created, failed], 'kind-dev'), { severity: 'warning', text: '1 of 2 objects failed on kind-dev (deployment.apps/web created). pod/p: pods "p" is forbidden' });
    assert.deepEqual(resultMessage([failed], 'kind-dev'), { severity: 'error', text: 'Nothing applied to kind-dev. pod/p: pods "p" is forbidden' });
  });

  it('asks before applying to a real context unless the setting lists it; never for the simulator', () => {
    assert.equal(needsConfirmation({ type: 'simulator' }, []), false);
    assert.equal(needsConfirmation({ type: 'context', context: 'prod' }, []), true);
    assert.equal(needsConfirmation({ type: 'context', context: 'kind-dev' }, ['kind-dev']), false);
    assert.equal(needsConfirmation({ type: 'context', context: 'prod' }, ['kind-dev']), true);
  });
});
