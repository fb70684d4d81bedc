import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { openManifest, productApi } from './helpers';

describe('CodeLenses', () => {
  before(async () => {
    await productApi();
  });

  it('puts Apply and Trace above each document of a multi-document manifest', async () => {
    const document = await openManifest('examples/multi-document.yaml');
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri)) ?? [];
    const apply = lenses.filter((lens) => lens.command?.command === 'kubeJourney.applyAndTrace');
    assert.deepEqual(apply.map((lens) => lens.range.start.line), [1, 6, 14]);
    assert.ok(apply.every((lens) => lens.command?.title === 'Apply and Trace'));
    assert.deepEqual(apply.map((lens) => (lens.command?.arguments?.[0] as { documentIndex: number }).documentIndex), [0, 1, 2]);
  });

  it('gives no lens to YAML that is not Kubernetes', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'yaml', content: 'on: push\njobs: {}\n' });
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri)) ?? [];
    assert.deepEqual(lenses.filter((lens) => lens.command?.command?.startsWith('kubeJourney.')), []);
  });
});
