import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { openManifest, productApi, until } from './helpers';

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

describe('CodeLenses after a refresh the editor may have dropped', () => {
  it('refreshes again when the YAML editor comes back, once per refresh', async () => {
    const api = await productApi();
    const manifest = await openManifest('examples/multi-document.yaml');
    let fired = 0;
    const counting = api.codeLenses.onDidChangeCodeLenses(() => fired++);
    const other = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'elsewhere\n' });
    const activeIs = (document: vscode.TextDocument) => () => vscode.window.activeTextEditor?.document === document || undefined;
    try {
      // A journey's refresh arrives while the user is elsewhere.
      await vscode.window.showTextDocument(other);
      await until('the other editor active', activeIs(other), [vscode.window.onDidChangeActiveTextEditor]);
      api.codeLenses.refresh();
      assert.equal(fired, 1);
      await vscode.window.showTextDocument(manifest);
      await until('the lens refreshed again for the manifest', () => fired === 2 || undefined, [api.codeLenses.onDidChangeCodeLenses]);

      // Without a new refresh, coming back costs nothing.
      await vscode.window.showTextDocument(other);
      await until('the other editor active again', activeIs(other), [vscode.window.onDidChangeActiveTextEditor]);
      await vscode.window.showTextDocument(manifest);
      await until('the manifest active again', activeIs(manifest), [vscode.window.onDidChangeActiveTextEditor]);
      assert.equal(fired, 2);
    } finally {
      counting.dispose();
    }
  });
});
