import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApplyRun } from '../../../src/extension/apply-command';
import type { KubeJourneyApi } from '../../../src/extension/extension';
import { openManifest, productApi, simulatorSpeedForSuite, until } from './helpers';

/**
 * A Deployment whose ConfigMap is missing: its journey gets stuck in CreateContainerConfigError,
 * the manifest line that names the ConfigMap gets a warning saying so, and applying the
 * ConfigMap (with the same Deployment) lets the pods start and clears the warning.
 */
describe('a pod waiting for a missing ConfigMap', function () {
  this.timeout(180_000);
  let api: KubeJourneyApi;
  let missing: ApplyRun;
  let document: vscode.TextDocument;
  simulatorSpeedForSuite(20);

  before(async () => {
    api = await productApi();
  });

  async function apply(relative: string): Promise<ApplyRun> {
    const opened = await openManifest(relative);
    const runs = await vscode.commands.executeCommand<ApplyRun[]>('kubeJourney.applyAndTrace', opened.uri);
    assert.equal(runs.length, 1);
    return runs[0];
  }

  const warnings = (): vscode.Diagnostic[] => vscode.languages.getDiagnostics(document.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Warning);

  it('is stuck with the kubelet’s words, and the configMapKeyRef line says which ConfigMap is missing', async () => {
    missing = await apply('examples/missing-configmap.yaml');
    document = await openManifest('examples/missing-configmap.yaml');
    const journey = await until('the journey to be stuck', () => {
      const j = api.session.journey(missing.journeyIds[0]);
      return j?.stuck ? j : undefined;
    }, [api.session.onDidChangeJourney]);
    assert.equal(journey.stuckObjects[0]?.stuck.reason, 'CreateContainerConfigError');
    const [warning] = await until('the warning on the manifest line', () => (warnings().length > 0 ? warnings() : undefined), [vscode.languages.onDidChangeDiagnostics]);
    const line = document.getText().split('\n').findIndex((text) => text.includes('name: web-config'));
    assert.equal(warning.range.start.line, line);
    assert.match(warning.message, /wait(s)? for ConfigMap "web-config": CreateContainerConfigError: configmap "web-config" not found/);
    assert.equal(warning.code, 'CreateContainerConfigError');
  });

  it('goes on to Ready once the ConfigMap is applied, and the warning goes', async () => {
    const together = await apply('examples/configmap-deployment.yaml');
    assert.deepEqual(together.outcomes.map((o) => o.failure?.message), [undefined, undefined]);
    assert.equal(together.outcomes[0]?.action, 'created');
    // The Deployment applied again takes over the first journey: its pods are the same ones.
    const journey = await until('the Deployment journey to complete', () => {
      const j = api.session.journey(together.journeyIds[0]);
      return j?.done && !j.stuck ? j : undefined;
    }, [api.session.onDidChangeJourney]);
    assert.equal(journey.status, 'complete');
    await until('the warning to go', () => warnings().length === 0, [vscode.languages.onDidChangeDiagnostics]);
  });
});
