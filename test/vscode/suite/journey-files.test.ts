import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ApplyRun } from '../../../src/extension/apply-command';
import type { KubeJourneyApi } from '../../../src/extension/extension';
import { decodeJourneyFile, journeyFileSnapshot } from '../../../src/extension/headless/journey-file-view';
import { openManifest, productApi, simulatorSpeedForSuite, until, workspaceFile } from './helpers';

/**
 * Journeys as files in the extension host: Save Journey… writes the journey the session traced,
 * the file opens in the journey-file editor, and Compare With… compares two files.
 */
describe('Journey files: Save Journey…, the journey-file editor and Compare With…', function () {
  this.timeout(180_000);
  let api: KubeJourneyApi;
  const saved = workspaceFile('examples/nginx-deployment.journey.json');
  simulatorSpeedForSuite(20);

  before(async () => {
    api = await productApi();
  });
  after(async () => {
    // Only clean tabs: closing an editor another suite left dirty would wait on a save prompt.
    const clean = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => !tab.isDirty);
    await vscode.window.tabGroups.close(clean);
    await rm(saved.fsPath, { force: true });
    // The suites share one simulator: the next one applies the same nginx file and expects to create it.
    await vscode.commands.executeCommand('kubeJourney.resetSimulator');
  });

  it('saves the traced nginx journey to a file that the timeline draws (Deployment, ReplicaSet, 3 pods)', async () => {
    const document = await openManifest('examples/nginx-deployment.yaml');
    const [run] = await vscode.commands.executeCommand<ApplyRun[]>('kubeJourney.applyAndTrace', document.uri);
    const journeyId = run.journeyIds[0];
    const journey = await until('the nginx journey to complete', () => {
      const j = api.session.journey(journeyId);
      return j?.done ? j : undefined;
    }, [api.session.onDidChangeJourney]);
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('kubeJourney.saveJourney', { journeyId }, saved);
    assert.equal(written?.toString(), saved.toString());
    const file = decodeJourneyFile(await readFile(saved.fsPath), 'nginx-deployment.journey.json');
    assert.equal(file.meta.source, 'examples/nginx-deployment.yaml');
    assert.deepEqual(file.results.map((r) => [r.object, r.action]), [['deployment.apps/nginx-deployment', 'created']]);
    assert.equal(file.journeys[0].phaseValues?.pod_startup.length, 3);
    // The live journey may still take late events after the save: compare what the file froze.
    assert.equal(file.journeys[0].journey.id, journeyId);
    assert.equal(file.journeys[0].journey.status, 'complete');
    assert.equal(file.journeys[0].journey.counts.ready, 3);
    const opened = journeyFileSnapshot(file);
    assert.equal(opened.journeys[0].id, journeyId);
    assert.equal(opened.lanes[0].lanes.extras.length, 5, 'Deployment, ReplicaSet and 3 pods');
    assert.equal(journey.id, journeyId);
  });

  it('opens the file in the journey-file editor and compares it with itself', async () => {
    await vscode.commands.executeCommand('vscode.open', saved);
    await until('the journey-file editor to be active', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.viewType === 'kubeJourney.journeyFile' ? input : undefined;
    }, [vscode.window.tabGroups.onDidChangeTabs]);
    await vscode.commands.executeCommand('kubeJourney.compareJourneyFiles', saved, [saved, saved]);
    const panel = api.comparePanels().at(-1);
    const shown = panel?.shown;
    assert.equal(shown?.type, 'compare');
    if (shown?.type !== 'compare') return;
    assert.equal(shown.model.a.lanes.length, 5);
    for (const row of shown.model.phases) assert.deepEqual(row.delta, { p50: 0, p90: 0, max: 0 }, row.phase);
  });
});
