// A Deployment asking for more cpu than any node has, in the real VS Code: applied to the simulator,
// its pod is refused and the `cpu:` line carries the scheduler's words; Ctrl+. offers the change
// that makes it fit, taking it rewrites that one value, and Re-simulate applies the file on a
// fresh simulator, where the pod is scheduled and the warning goes.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../../scripts/e2e/code-server';
import { repoRoot } from '../../scripts/e2e/tools';
import { productExtensionExists } from '../../scripts/e2e/vsix';
import { screenshotFailures, startSession, type Session } from './harness';

const applyAndTrace = /^(Kube Journey: )?Apply and Trace$/;
const journeyTimeoutMs = 90_000;
const uiTimeoutMs = 30_000;
const manifest = readFileSync(join(repoRoot, 'test/fixtures/fit-quick-fix.yaml'), 'utf8');

describe('Kube Journey: the Quick Fix that makes a refused pod fit', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('fit-quick-fix', { files: { 'examples/fit-quick-fix.yaml': manifest } });
    await session.workbench.widenSideBar(480);
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('puts the scheduler’s message on the cpu line and offers the request that fits', async () => {
    const { workbench, workbench: { page } } = session;
    await workbench.openFile('examples/fit-quick-fix.yaml');
    await workbench.editorContextMenu('kind: Deployment', applyAndTrace);
    await workbench.waitForSidebarRows((texts) => texts.some((t) => /^too-big\s*Deployment.*0\/1 ready/.test(t)), 'the Deployment too-big 0/1 ready', journeyTimeoutMs);
    // The warning lands on the `cpu:` line: its squiggle sits in the row of that line. (Monaco
    // renders spaces as no-break spaces, which `\s` matches.)
    const cpuLine = workbench.editorLine(/cpu:\s"8"/).first();
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: journeyTimeoutMs });
    const [squiggle, line] = await Promise.all([page.locator('.monaco-editor .squiggly-warning').first().boundingBox(), cpuLine.boundingBox()]);
    assert.ok(squiggle && line && Math.abs(squiggle.y + squiggle.height / 2 - (line.y + line.height / 2)) < line.height, `the warning is on the cpu line (squiggle ${JSON.stringify(squiggle)}, line ${JSON.stringify(line)})`);
    await workbench.clearNotifications();
    // Resting the mouse on the field shows the scheduler's words and what would fit. A click in
    // the editor first: after the context menu it still believes a button is held (no hovers).
    const key = await cpuLine.locator('span > span', { hasText: /^cpu$/ }).first().boundingBox();
    assert.ok(key, 'the cpu key is a token of its line');
    await page.mouse.click(key.x + key.width + 200, key.y + key.height / 2);
    await page.mouse.move(key.x - 30, key.y + key.height / 2);
    await page.mouse.move(key.x + key.width / 2, key.y + key.height / 2, { steps: 8 });
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: /Insufficient cpu/ });
    await hover.first().waitFor({ timeout: uiTimeoutMs });
    const hoverText = await hover.first().innerText();
    assert.match(hoverText, /Pod too-big-[a-z0-9]+-[a-z0-9]{5} is not scheduled: FailedScheduling: 0\/3 nodes are available: 3 Insufficient cpu/);
    assert.match(hoverText, /Fits if: requests\.cpu ≤ 3920m \(fits on 3 of 3 nodes\)/);
    await workbench.screenshot('19-fit-warning-hover');
    await page.keyboard.press('Escape');

    // The cursor on the `cpu` key, then Ctrl+. as a person would; a menu opened before the fits
    // reached the editor is closed and opened again, as a person would after a moment.
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: /Set\scpu:\s3920m\s\(fits\son\s3\sof\s3\snodes\)/ });
    let menusSeen: string[] = [];
    await waitFor(async () => {
      // Read where the key is at each try: a CodeLens line that appears above moves the text down.
      const at = (await cpuLine.locator('span > span', { hasText: /^cpu$/ }).first().boundingBox()) ?? key;
      await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
      await page.keyboard.press('Control+.');
      const menu = page.locator('.action-widget .monaco-list-row');
      const shown = await menu.first().waitFor({ timeout: 5_000 }).then(() => true, () => false);
      if (shown && (await fix.count()) > 0) return true;
      menusSeen = [...menusSeen, shown ? (await menu.allInnerTexts()).join(' | ') : '(no menu)'].slice(-3);
      await page.keyboard.press('Escape');
      return undefined;
    }, { timeoutMs: uiTimeoutMs, what: 'the Quick Fix "Set cpu: 3920m (fits on 3 of 3 nodes)"' }).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; the last menus showed: ${menusSeen.join(' / ') || 'nothing'}`);
    });
    await workbench.screenshot('20-fit-quick-fix-menu');
    await fix.first().click();
    await workbench.editorLine(/cpu:\s3920m\s+#\smore\sthan\sa\snode\shas/).first().waitFor({ timeout: uiTimeoutMs });
  });

  it('re-simulates the file on a fresh simulator, where the pod is scheduled', async () => {
    const { workbench, workbench: { page } } = session;
    await page.locator('.codelens-decoration a', { hasText: 'Re-simulate' }).first().click();
    const rows = await workbench.waitForSidebarRows(
      (texts) => texts.some((t) => /^too-big\s*Deployment.*1\/1 ready/.test(t)),
      'the Deployment too-big 1/1 ready after Re-simulate',
      journeyTimeoutMs,
    );
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ state: 'detached', timeout: journeyTimeoutMs });
    await page.locator('.codelens-decoration a', { hasText: 'Re-simulate' }).first().waitFor({ state: 'detached', timeout: uiTimeoutMs });
    // The CodeLens summary follows the journey (batched): the screenshot waits for it to agree with the tree.
    await page.locator('.codelens-decoration a', { hasText: /1\/1 ready · / }).first().waitFor({ timeout: uiTimeoutMs });
    await workbench.clearNotifications();
    await workbench.screenshot('21-fit-quick-fix-applied');
    assert.ok(rows.some((t) => /^too-big-[a-z0-9]+-[a-z0-9]{5}.*node-\d/.test(t)), `the pod row names its node: ${rows.join(' | ')}`);
  });
});
