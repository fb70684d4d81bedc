// Debian's chromium driven by playwright-core, pointed at a code-server workbench.
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from './tools';
import { waitFor } from './code-server';

// Without the background-networking flags chromium keeps calling out to a network that is closed here.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchChromium(): Promise<Browser> {
  // playwright gives every launch a fresh temporary profile.
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

export interface WorkbenchOptions {
  /** A file or folder name expected in the Explorer once the workspace is shown. */
  explorerEntry: string;
  timeoutMs?: number;
  /** Receives every browser console line (the extension host's console.log lands here too). */
  onConsole?: (line: string) => void;
}

/** Opens the workbench and waits until it is usable: workbench, status bar, Explorer populated. */
export async function openWorkbench(browser: Browser, url: string, options: WorkbenchOptions): Promise<{ page: Page; readyMs: number }> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  if (options.onConsole) {
    const onConsole = options.onConsole;
    page.on('console', (message) => onConsole(`[${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => onConsole(`[pageerror] ${error.message}`));
  }
  const start = performance.now();
  const timeout = options.timeoutMs ?? 60_000;
  await page.goto(url, { timeout });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout });
  await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout });
  await page
    .locator('.explorer-folders-view .monaco-list-row', { hasText: options.explorerEntry })
    .first()
    .waitFor({ state: 'visible', timeout });
  return { page, readyMs: performance.now() - start };
}

// A string, not a function: the repository's tsconfig has no DOM types, and this runs in the page.
const bodyTextExpression = 'document.body ? document.body.innerText : ""';

/** Searches every frame (webviews are nested iframes) for one whose body text satisfies `accept`. */
export async function findFrameText(page: Page, accept: (text: string) => boolean, options: { timeoutMs: number; what: string }): Promise<{ frameUrl: string; text: string }> {
  return waitFor(async () => {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      const text = await frame.evaluate<string>(bodyTextExpression).catch(() => '');
      if (text && accept(text)) return { frameUrl: frame.url(), text };
    }
    return undefined;
  }, { timeoutMs: options.timeoutMs, what: options.what, intervalMs: 250 });
}
