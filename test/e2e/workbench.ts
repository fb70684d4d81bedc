// What a person does in the VS Code workbench, expressed with playwright on code-server.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { findFrameText } from '../../scripts/e2e/browser';
import { waitFor } from '../../scripts/e2e/code-server';
import { repoRoot } from '../../scripts/e2e/tools';

export const screenshotsDir = join(repoRoot, 'test/e2e/screenshots');
const uiTimeoutMs = 30_000;

export class Workbench {
  constructor(readonly page: Page) {}

  async screenshot(name: string): Promise<string> {
    mkdirSync(screenshotsDir, { recursive: true });
    const path = join(screenshotsDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  explorerRow(name: string): Locator {
    return this.page.locator('.explorer-folders-view .monaco-list-row', { has: this.page.locator(`.label-name:text-is("${name}")`) });
  }

  /** Opens a workspace file through the Explorer, expanding its folders like a person would. */
  async openFile(relativePath: string): Promise<void> {
    const parts = relativePath.split('/');
    for (const folder of parts.slice(0, -1)) {
      const row = this.explorerRow(folder);
      await row.waitFor({ timeout: uiTimeoutMs });
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    }
    const fileName = parts[parts.length - 1];
    await this.explorerRow(fileName).click();
    await this.page.locator('.tabs-container .tab.active', { hasText: fileName }).waitFor({ timeout: uiTimeoutMs });
    await this.editorLine(/\S/).first().waitFor({ timeout: uiTimeoutMs });
  }

  editorLine(text: string | RegExp): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: text });
  }

  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: uiTimeoutMs });
    await input.fill(`>${title}`);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: uiTimeoutMs });
    await this.page.keyboard.press('Enter');
  }

  /** Right-clicks a line of the active editor and picks an entry of the editor context menu. */
  async editorContextMenu(lineText: string | RegExp, item: string): Promise<void> {
    await this.editorLine(lineText).first().click({ button: 'right' });
    const entry = this.page.getByRole('menuitem', { name: item });
    await entry.waitFor({ timeout: uiTimeoutMs });
    await entry.click();
  }

  /**
   * Rests the mouse on `word` in the active editor and returns the hover's text. After a context
   * menu the editor still believes a button is held (the mouse-up landed on the menu) and shows no
   * hover, hence the click first.
   */
  async hoverWord(word: string, expected: (text: string) => boolean): Promise<string> {
    const line = this.editorLine(word).first();
    const box = await wordBox(line, word);
    await this.page.mouse.click(box.x + box.width + 40, box.y + box.height / 2);
    await this.page.mouse.move(box.x - 30, box.y + box.height / 2);
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
    const hover = this.page.locator('.monaco-hover:not(.hidden)').filter({ hasText: /\S/ });
    await hover.first().waitFor({ state: 'visible', timeout: uiTimeoutMs });
    let last = '';
    try {
      // The hover fills in as providers answer: wait for the content, not for a fixed time.
      return await waitFor(async () => {
        last = (await hover.allInnerTexts()).join('\n');
        return expected(last) ? last : undefined;
      }, { timeoutMs: uiTimeoutMs, what: `the hover over "${word}"` });
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; last hover text:\n${last}`);
    }
  }

  /** Clicks a view container in the activity bar (e.g. "Kube Journey"). */
  async openViewContainer(title: string): Promise<void> {
    const item = this.page.locator(`.activitybar .action-item a[aria-label^="${title}"]`).first();
    await item.waitFor({ timeout: uiTimeoutMs });
    const actionItem = this.page.locator('.activitybar .action-item', { has: item });
    if ((await actionItem.getAttribute('class'))?.includes('checked') !== true) await item.click();
  }

  /** The rows of a tree view, found by the view's title in its pane header. */
  viewRows(viewTitle: string): Locator {
    const pane = this.page.locator('.pane', { has: this.page.locator(`.pane-header[aria-label^="${viewTitle}"], .pane-header h3.title:text-is("${viewTitle}")`) });
    return pane.locator('.monaco-list-row');
  }

  /** Texts of every visible row of the sidebar's trees. */
  async sidebarRowTexts(): Promise<string[]> {
    return this.page.locator('.part.sidebar .monaco-list-row').allInnerTexts();
  }

  async webviewText(accept: (text: string) => boolean, what: string, timeoutMs = uiTimeoutMs): Promise<string> {
    return (await findFrameText(this.page, accept, { timeoutMs, what })).text;
  }

  async statusBarLanguage(): Promise<string> {
    return this.page.locator('[id="status.editor.mode"]').innerText();
  }
}

async function wordBox(line: Locator, word: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await line.evaluate((element, target) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const index = node.textContent?.indexOf(target) ?? -1;
      if (index < 0) continue;
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + target.length);
      const rect = range.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    }
    return undefined;
  }, word);
  if (!box) throw new Error(`"${word}" is not in the editor line`);
  return box;
}
