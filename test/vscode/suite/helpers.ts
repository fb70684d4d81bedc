/**
 * Shared by the extension-host suites: the product's test API, files of the test workspace, and
 * waiting on events with a deadline instead of sleeping.
 */
import * as vscode from 'vscode';
import type { KubeJourneyApi } from '../../../src/extension/extension';

export const EXTENSION_ID = 'kube-journey.kube-journey';

export async function productApi(): Promise<KubeJourneyApi> {
  const extension = vscode.extensions.getExtension<KubeJourneyApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed`);
  return extension.activate();
}

/** A file of the test workspace (a copy of the repository's examples/ folder). */
export function workspaceFile(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the suites need a workspace folder holding examples/');
  return vscode.Uri.joinPath(folder.uri, relative);
}

export async function openManifest(relative: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(workspaceFile(relative));
  await vscode.window.showTextDocument(document);
  return document;
}

/** The position inside the first occurrence of `key:` (one character in). */
export function keyPosition(document: vscode.TextDocument, key: string, nth = 0): vscode.Position {
  const text = document.getText();
  const matches = [...text.matchAll(new RegExp(`(?<![\\w-])${key}:`, 'g'))];
  const index = matches[nth]?.index;
  if (index === undefined) throw new Error(`${document.uri.path} has no ${key}:`);
  return document.positionAt(index + 1);
}

type AnyEvent = (listener: () => void) => { dispose(): void };

/**
 * Resolves with `check()`'s first defined value, checking now and after each of `events`; rejects
 * after `timeoutMs`. The timeout is a deadline for a broken run, never the synchronisation itself.
 */
export function until<T>(what: string, check: () => T | undefined | false, events: AnyEvent[], timeoutMs = 60_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const subscriptions: { dispose(): void }[] = [];
    let settled = false;
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      subscriptions.forEach((s) => s.dispose());
      action();
    };
    const attempt = (): void => {
      try {
        const value = check();
        if (value !== undefined && value !== false) finish(() => resolve(value));
      } catch (error) {
        finish(() => reject(error));
      }
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`))), timeoutMs);
    for (const event of events) subscriptions.push(event(attempt));
    attempt();
  });
}

/**
 * Runs the built-in simulator `speed` times faster for the suite (real pacing makes image pulls
 * take seconds), and restores the setting afterwards. Call it inside a `describe`.
 */
export function simulatorSpeedForSuite(speed: number): void {
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('kubeJourney');
  before(async () => {
    await config().update('simulator.speed', speed, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await config().update('simulator.speed', undefined, vscode.ConfigurationTarget.Global);
  });
}
