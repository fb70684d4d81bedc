import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApplyRun } from '../../../src/extension/apply-command';
import type { KubeJourneyApi } from '../../../src/extension/extension';
import { openManifest, productApi, simulatorSpeedForSuite, until } from './helpers';

/**
 * A StatefulSet on the built-in simulator, in the extension host: its journey completes, and the
 * CodeLens above the manifest then reads the finished journey, not a state on the way.
 */
describe('a StatefulSet on the built-in simulator', function () {
  this.timeout(180_000);
  let api: KubeJourneyApi;
  simulatorSpeedForSuite(20);

  before(async () => {
    api = await productApi();
  });

  it('completes with web-0 and web-1 ready, and its CodeLens says 2/2 ready with the duration', async () => {
    const document = await openManifest('examples/statefulset.yaml');
    const [run] = await vscode.commands.executeCommand<ApplyRun[]>('kubeJourney.applyAndTrace', document.uri);
    assert.deepEqual(run.outcomes.map((o) => o.display), ['statefulset.apps/web']);
    const journeyId = run.journeyIds[0];
    const journey = await until('the StatefulSet journey to complete', () => {
      const j = api.session.journey(journeyId);
      return j?.done ? j : undefined;
    }, [api.session.onDidChangeJourney]);
    assert.equal(journey.status, 'complete');
    assert.deepEqual(journey.tree?.children.map((pod) => pod.ref.name), ['web-0', 'web-1']);
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri)) ?? [];
    const titles = lenses.map((lens) => lens.command?.title ?? '');
    assert.ok(titles.some((t) => /^2\/2 ready · [\d.]+ (ms|s)$/.test(t)), titles.join(' | '));
  });
});
