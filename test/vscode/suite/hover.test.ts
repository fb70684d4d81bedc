import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { keyPosition, openManifest, productApi } from './helpers';

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((hover) => hover.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n---\n');
}

async function hoversAt(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover[]> {
  return (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, position)) ?? [];
}

describe('hover on manifest keys', () => {
  before(async () => {
    await productApi();
  });

  it('explains replicas: the official description and the controllers that act on it', async () => {
    const document = await openManifest('examples/nginx-deployment.yaml');
    assert.equal(document.languageId, 'yaml');
    const text = hoverText(await hoversAt(document, keyPosition(document, 'replicas')));
    assert.match(text, /Number of desired pods/);
    assert.match(text, /replicaset-controller/);
  });

  it('names the scheduler for nodeSelector and the kubelet for image', async () => {
    const document = await openManifest('examples/node-selector.yaml');
    assert.match(hoverText(await hoversAt(document, keyPosition(document, 'nodeSelector'))), /default-scheduler[\s\S]*NodeAffinity/);
    assert.match(hoverText(await hoversAt(document, keyPosition(document, 'image'))), /kubelet[\s\S]*pull/);
  });

  it('leaves YAML that is not Kubernetes alone, and a half-typed manifest without errors', async () => {
    const plain = await vscode.workspace.openTextDocument({ language: 'yaml', content: 'name: build\nsteps:\n  - run: npm test\n' });
    assert.doesNotMatch(hoverText(await hoversAt(plain, new vscode.Position(0, 2))), /Who acts on it/);
    const broken = await vscode.workspace.openTextDocument({ language: 'yaml', content: 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 2\n  template: [\n' });
    assert.match(hoverText(await hoversAt(broken, new vscode.Position(3, 4))), /Number of desired pods/);
  });
});
