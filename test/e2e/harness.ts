// One isolated real-VS-Code session per scenario: code-server with the packaged extension, a
// workspace holding a copy of examples/, and a chromium page on the workbench.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, openWorkbench } from '../../scripts/e2e/browser';
import { startCodeServer, type CodeServer } from '../../scripts/e2e/code-server';
import { buildProductVsix, productExtensionExists, type BuiltVsix } from '../../scripts/e2e/vsix';
import { createExamplesWorkspace, type Workspace } from '../../scripts/e2e/workspace';
import { screenshotsDir, Workbench } from './workbench';

let productVsix: BuiltVsix | undefined;

/**
 * Packages the product once per test run (undefined while src/extension does not exist), or takes
 * the VSIX named by KUBE_JOURNEY_E2E_VSIX (to check a release artifact as it is).
 */
export function packagedProduct(): BuiltVsix | undefined {
  const given = process.env.KUBE_JOURNEY_E2E_VSIX;
  if (!productVsix && given) productVsix = { file: resolve(given), bytes: statSync(given).size, ms: 0 };
  if (!productVsix && productExtensionExists()) {
    productVsix = buildProductVsix();
    console.log(`      packaged ${productVsix.file} (${(productVsix.bytes / 1024).toFixed(0)} KiB) in ${(productVsix.ms / 1000).toFixed(1)} s`);
  }
  return productVsix;
}

export interface Session {
  workbench: Workbench;
  server: CodeServer;
  workbenchReadyMs: number;
  /** Browser console lines, the extension host's console output included. */
  consoleLines: string[];
  dispose(): Promise<void>;
}

export interface SessionOptions {
  /** A workspace file (e.g. `examples/nginx-deployment.yaml`) the window opens with, as a restored window does. */
  openFile?: string;
  /** More workspace files, by path inside it (see createExamplesWorkspace). */
  files?: Readonly<Record<string, string>>;
}

export async function startSession(name: string, options: SessionOptions = {}): Promise<Session> {
  const product = packagedProduct();
  const workspace: Workspace = createExamplesWorkspace(options.files);
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  const consoleLines: string[] = [];
  const dispose = async (): Promise<void> => {
    mkdirSync(screenshotsDir, { recursive: true });
    writeFileSync(join(screenshotsDir, `${name}.console.log`), consoleLines.join('\n'));
    await browser?.close();
    await server?.stop();
    workspace.dispose();
  };
  try {
    server = await startCodeServer({ workspace: workspace.folder, vsixes: product ? [product.file] : [], keepRunDir: process.env.KUBE_JOURNEY_E2E_KEEP === '1' });
    const url = options.openFile ? `${server.url}&payload=${encodeURIComponent(JSON.stringify([['openFile', `vscode-remote://127.0.0.1:${server.port}${workspace.folder}/${options.openFile}`]]))}` : server.url;
    const open = async (): Promise<Awaited<ReturnType<typeof openWorkbench>>> => {
      browser = await launchChromium();
      return openWorkbench(browser, url, { explorerEntry: 'examples', onConsole: (line) => consoleLines.push(line) });
    };
    // On a loaded machine chromium has closed itself while loading the workbench, before the
    // product did anything: that browser is replaced once, and said so.
    const { page, readyMs } = await open().catch(async (error: unknown) => {
      if (!/browser has been closed|Target crashed/.test(String(error))) throw error;
      console.log(`      [${name}] chromium closed while loading the workbench (${String(error).split('\n')[0]}); starting it again`);
      await browser?.close().catch(() => undefined);
      return open();
    });
    const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
    console.log(`      [${name}] extensions installed in ${seconds(server.timings.installExtensionsMs)}, code-server listening in ${seconds(server.timings.listeningMs)}, workbench ready in ${seconds(readyMs)}`);
    return { workbench: new Workbench(page), server, workbenchReadyMs: readyMs, consoleLines, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * Registers an afterEach that, when a test fails, saves a screenshot of the workbench and prints
 * what covers it (dialogs, notifications, open menus): CI keeps the log, not the screenshot.
 */
export function screenshotFailures(current: () => Session | undefined): void {
  afterEach(async function () {
    const session = current();
    if (this.currentTest?.state !== 'failed' || !session) return;
    const name = `FAILED-${this.currentTest.fullTitle().replace(/[^\w-]+/g, '-').slice(0, 100)}`;
    await session.workbench.screenshot(name).catch(() => undefined);
    const screen = await session.workbench.describeScreen().catch((error: unknown) => [`(could not read the screen: ${String(error)})`]);
    console.log(`      on screen when it failed:\n${screen.map((line) => `        ${line}`).join('\n')}`);
  });
}
