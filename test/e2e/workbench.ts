// What a person does in the VS Code workbench, expressed with playwright on code-server.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
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
    return this.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`);
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
    // Any text editor of the editor area: a webview opened beside the file takes the active group.
    return this.page.locator('.part.editor .editor-instance .monaco-editor .view-line', { hasText: text });
  }

  async runCommand(title: string): Promise<void> {
    // The quick input is one widget: a save dialog or picker still closing can take back the palette
    // F1 just opened. Opened again until it keeps the command's name, as a person would.
    const input = this.page.locator('.quick-input-widget input');
    await waitFor(async () => {
      await this.page.keyboard.press('F1');
      const typed = await input.fill(`>${title}`, { timeout: 5_000 }).then(() => true, () => false);
      if (typed && (await input.inputValue()) === `>${title}`) return true;
      // A dialog is not to be escaped from: it is what the test must see.
      const dialog = this.page.locator('.monaco-dialog-box').first();
      if (await dialog.isVisible()) throw new Error(`a dialog covers the workbench: ${(await dialog.innerText()).replace(/\s+/g, ' ')}`);
      await this.page.keyboard.press('Escape');
      return undefined;
    }, { timeoutMs: uiTimeoutMs, what: `the command palette to take "${title}"` });
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: uiTimeoutMs });
    await this.page.keyboard.press('Enter');
  }

  /**
   * Right-clicks a line of the active editor and picks an entry of the editor context menu. The
   * entry must be enabled the first time the menu opens: a person does not close a menu and open
   * it again to see whether a greyed-out entry has come alive.
   */
  async editorContextMenu(lineText: string | RegExp, item: string | RegExp): Promise<void> {
    const entry = await this.openEditorContextMenu(lineText, item);
    if (await isDisabled(entry)) throw new Error(`the editor context menu shows ${String(item)} disabled`);
    await clickUntilClosed(entry);
  }

  /** Right-clicks a line of the active editor once and returns the menu entry, as the menu shows it. */
  async openEditorContextMenu(lineText: string | RegExp, item: string | RegExp): Promise<Locator> {
    await this.editorLine(lineText).first().click({ button: 'right' });
    const entry = this.page.getByRole('menuitem', { name: item, exact: typeof item === 'string' });
    await entry.waitFor({ timeout: uiTimeoutMs });
    return entry;
  }

  /**
   * Right-clicks a line of the active editor until the context menu lists `item`, and returns it as
   * that first menu shows it (enabled or not). Menus opened while the workbench has not yet
   * registered the extensions' contributions do not list it at all; they are closed again and
   * counted.
   */
  async firstEditorContextMenuWith(lineText: string | RegExp, item: string | RegExp): Promise<{ entry: Locator; menusWithout: number }> {
    const entry = this.page.getByRole('menuitem', { name: item, exact: typeof item === 'string' });
    // Always the last entry of the editor context menu: once it is there, the menu is complete.
    const lastEntry = this.page.getByRole('menuitem', { name: /^Command Palette/ });
    let menusWithout = 0;
    const found = await waitFor(async () => {
      await this.editorLine(lineText).first().click({ button: 'right' });
      await lastEntry.waitFor({ timeout: uiTimeoutMs });
      if ((await entry.count()) > 0) return entry;
      menusWithout++;
      await this.page.keyboard.press('Escape');
      await lastEntry.waitFor({ state: 'hidden', timeout: uiTimeoutMs });
      return undefined;
    }, { timeoutMs: uiTimeoutMs, intervalMs: 100, what: `an editor context menu listing ${String(item)}` });
    return { entry: found, menusWithout };
  }

  /** Texts of the notification toasts on screen. */
  /** One line per thing that covers the workbench or waits for input: dialogs, notifications, menus, quick inputs. */
  async describeScreen(): Promise<string[]> {
    const visible = async (selector: string): Promise<string[]> => {
      const texts: string[] = [];
      for (const element of await this.page.locator(selector).all()) {
        if (await element.isVisible()) texts.push((await element.innerText()).replace(/\s+/g, ' ').trim().slice(0, 300));
      }
      return texts;
    };
    const lines = [
      ...(await visible('.monaco-dialog-box')).map((t) => `dialog: ${t}`),
      ...(await visible('.notifications-toasts .notification-toast')).map((t) => `notification: ${t}`),
      ...(await visible('.quick-input-widget')).map((t) => `quick input: ${t}`),
      ...(await visible('.action-widget')).map((t) => `action menu: ${t}`),
      ...(await visible('.context-view .monaco-menu')).map((t) => `menu: ${t}`),
      ...(await visible('.tabs-container .tab.active')).map((t) => `active tab: ${t}`),
    ];
    return lines.length > 0 ? lines : ['nothing covers the workbench'];
  }

  async notificationTexts(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-toast').allInnerTexts();
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
    return this.waitForHover(expected, `the hover over "${word}"`);
  }

  /** Drags the sash between side bar and editor so tree labels are not cut off in screenshots. */
  async widenSideBar(width: number): Promise<void> {
    const sideBar = await this.page.locator('.part.sidebar').boundingBox();
    if (!sideBar || sideBar.width >= width) return;
    const edgeX = sideBar.x + sideBar.width;
    const y = sideBar.y + sideBar.height / 2;
    await this.page.mouse.move(edgeX, y);
    await this.page.mouse.down();
    await this.page.mouse.move(sideBar.x + width, y, { steps: 10 });
    await this.page.mouse.up();
  }

  /**
   * Waits until the side bar's tree rows satisfy `accept`, and returns them. Collapsed rows are
   * expanded on the way, as a person would click them open.
   */
  async waitForSidebarRows(accept: (rows: string[]) => boolean, what: string, timeoutMs = 60_000): Promise<string[]> {
    let last: string[] = [];
    try {
      return await waitFor(async () => {
        await this.expandSidebarRows();
        last = await this.sidebarRowTexts();
        return accept(last) ? last : undefined;
      }, { timeoutMs, what, intervalMs: 250 });
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; rows were:\n${last.join('\n')}`);
    }
  }

  async expandSidebarRows(): Promise<void> {
    const collapsed = this.page.locator('.part.sidebar .monaco-list-row[aria-expanded="false"] .monaco-tl-twistie');
    for (let count = await collapsed.count(); count > 0; count = await collapsed.count()) {
      await collapsed.first().click();
    }
  }

  /**
   * Clicks open the collapsed side-bar rows whose text matches, as a person opens what they look for.
   * The tree re-renders while a journey runs, so the rows are read in one go and a row that went
   * away before its click is looked for again in the next read, instead of waiting on a stale index.
   */
  async expandSidebarRowsMatching(matching: RegExp): Promise<void> {
    const collapsed = this.page.locator('.part.sidebar .monaco-list-row[aria-expanded="false"]');
    for (let attempt = 0; attempt < 50; attempt++) {
      const index = (await collapsed.allInnerTexts()).findIndex((text) => matching.test(text));
      if (index < 0) return;
      await collapsed.nth(index).locator('.monaco-tl-twistie').click({ timeout: 2_000 }).catch(() => undefined);
    }
  }

  async clearNotifications(): Promise<void> {
    if ((await this.page.locator('.notifications-toasts .notification-toast').count()) === 0) return;
    await this.runCommand('Notifications: Clear All Notifications');
    await this.page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached', timeout: uiTimeoutMs });
  }

  /** Rests the mouse on a side-bar tree row and returns its tooltip once `expected` accepts it. */
  async hoverSidebarRow(row: RegExp, expected: (text: string) => boolean): Promise<string> {
    const target = this.page.locator('.part.sidebar .monaco-list-row', { hasText: row }).first();
    const box = await target.boundingBox();
    if (!box) throw new Error(`no side-bar row matches ${row}`);
    await this.page.mouse.move(box.x + 5, box.y - 30);
    await this.page.mouse.move(box.x + Math.min(box.width / 3, 120), box.y + box.height / 2, { steps: 8 });
    return this.waitForHover(expected, `the tooltip of the row ${row}`);
  }

  private async waitForHover(expected: (text: string) => boolean, what: string): Promise<string> {
    const hover = this.page.locator('.monaco-hover:not(.hidden), .workbench-hover');
    let last = '';
    try {
      // Hovers fill in as their providers answer: wait for the content, not for a fixed time.
      const text = await waitFor(async () => {
        last = (await hover.allInnerTexts()).join('\n');
        return expected(last) ? last : undefined;
      }, { timeoutMs: uiTimeoutMs, what });
      // Hovers fade in: a screenshot taken now would show them half transparent.
      await this.page.waitForFunction(hoversOpaqueExpression, undefined, { timeout: uiTimeoutMs, polling: 50 });
      return text;
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; last hover text:\n${last}`);
    }
  }

  /** The visible text of the Output panel (after a command showed a channel). */
  async outputText(): Promise<string> {
    const lines = this.page.locator('.part.panel .output-view .view-line, .part.panel .monaco-editor .view-line');
    await lines.first().waitFor({ timeout: uiTimeoutMs });
    // Monaco renders spaces as no-break spaces.
    return (await lines.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
  }

  /**
   * Waits until the workbench has registered an extension's contributions, seen by its view
   * container in the activity bar: a file opened before then gets the text editor, not the
   * extension's custom editor (the workbench is ready before it has scanned its extensions).
   */
  async waitForViewContainer(title: string): Promise<void> {
    await this.page.locator(`.activitybar .action-item a[aria-label^="${title}"]`).first().waitFor({ timeout: uiTimeoutMs });
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

  /** The webview content frame (webviews are iframes in iframes) whose text satisfies `accept`. */
  async webviewFrame(accept: (text: string) => boolean, what: string, timeoutMs = uiTimeoutMs): Promise<Frame> {
    const found = await findFrameText(this.page, accept, { timeoutMs, what });
    const frame = this.page.frames().find((candidate) => candidate.url() === found.frameUrl);
    if (!frame) throw new Error(`the frame of ${what} went away`);
    return frame;
  }

  async webviewText(accept: (text: string) => boolean, what: string, timeoutMs = uiTimeoutMs): Promise<string> {
    return (await findFrameText(this.page, accept, { timeoutMs, what })).text;
  }

  async statusBarLanguage(): Promise<string> {
    return this.page.locator('[id="status.editor.mode"]').innerText();
  }
}

/**
 * Clicks a menu entry until the menu closes. On a loaded machine the workbench's menu can miss a
 * click that comes right after it opened (it stays open, the entry highlighted); a person clicks again.
 */
export async function clickUntilClosed(entry: Locator, attempts = 3): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0 && !(await entry.isVisible())) return;
    try {
      await entry.click({ timeout: attempt === 0 ? 30_000 : 2_000 });
    } catch (error) {
      // Closed between the check and the click: the previous click took.
      if (attempt > 0 && !(await entry.isVisible())) return;
      throw error;
    }
    try {
      await entry.waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch {
      // Still open: click again.
    }
  }
  throw new Error('the menu stayed open after clicking its entry');
}

/** VS Code's menus mark a disabled entry with aria-disabled (and the `disabled` class). */
export async function isDisabled(entry: Locator): Promise<boolean> {
  return (await entry.getAttribute('aria-disabled')) === 'true';
}

// A string (evaluated in the page; the repository's tsconfig has no DOM types).
const hoversOpaqueExpression = `(() => {
  const hovers = document.querySelectorAll('.workbench-hover, .monaco-hover:not(.hidden)');
  if (hovers.length === 0) return false;
  for (const hover of hovers) {
    for (let element = hover; element; element = element.parentElement) {
      if (getComputedStyle(element).opacity !== '1') return false;
    }
  }
  return true;
})()`;

type Box = { x: number; y: number; width: number; height: number };

/** The on-screen box of `word` in a Monaco view line: the YAML grammar gives a key its own token span. */
async function wordBox(line: Locator, word: string): Promise<Box> {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const token = line.locator('span > span').filter({ hasText: new RegExp(`^${escaped}$`) }).first();
  const box = await token.boundingBox();
  if (!box) throw new Error(`"${word}" is not a token of the editor line`);
  return box;
}
