import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMAND_IDS } from '../../../src/extension/commands';
import { EXTENSION_ID, productApi, until } from './helpers';

describe('activation', () => {
  it('activates without starting the simulator and logs its timings', async () => {
    const api = await productApi();
    assert.equal(api.targets.simulatorRunning, false, 'activation must not start the simulator');
    assert.ok(api.activation.bundleLoadMs > 0, `bundle load ${api.activation.bundleLoadMs} ms`);
    assert.ok(api.activation.activateMs >= 0 && api.activation.activateMs < 1000, `activate ${api.activation.activateMs} ms`);
  });

  it('registers every command of the command table', async () => {
    await productApi();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = COMMAND_IDS.filter((id) => !registered.has(id));
    assert.deepEqual(missing, []);
  });

  it('is installed with the contributions of the command table', () => {
    const packageJson = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: { command: string }[] } };
    assert.deepEqual(packageJson.contributes.commands.map((c) => c.command).sort(), [...COMMAND_IDS].sort());
  });

  it('shows the Journeys view in its own container', async () => {
    const api = await productApi();
    await vscode.commands.executeCommand('workbench.view.extension.kubeJourney');
    await until('the Journeys view to become visible', () => api.treeView.visible, [api.treeView.onDidChangeVisibility], 10_000);
  });
});
