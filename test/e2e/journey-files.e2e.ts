// Journeys as files in the real VS Code: a journey saved with `kube-journey trace --save` opens in
// the timeline from the Explorer with no cluster (lanes, stages and evidence from the file alone),
// a broken file says why in one line, and Compare With… overlays the 3- and 6-replica nginx
// journeys on one axis with the clusterloader2 phase deltas.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { waitFor } from '../../scripts/e2e/code-server';
import { productExtensionExists } from '../../scripts/e2e/vsix';
import { repoRoot } from '../../scripts/e2e/tools';
import { screenshotFailures, startSession, type Session } from './harness';
import { evidenceText, focusFirstPodLane, selectStage, walkLane } from './timeline';
import { clickUntilClosed } from './workbench';

const fixture = (name: string): string => readFileSync(join(repoRoot, 'test/fixtures/journey-files', name), 'utf8');
const uiTimeoutMs = 60_000;

describe('Kube Journey: journey files (*.journey.json) open in the timeline and compare', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('journey-files', {
      files: {
        'journeys/nginx-3-replicas.journey.json': fixture('nginx-3-replicas.journey.json'),
        'journeys/nginx-6-replicas.journey.json': fixture('nginx-6-replicas.journey.json'),
        'journeys/broken.journey.json': '{"kind":"KubeJourneyFile","version":2,\n  "meta": {"toolVersion": "0.1.0",}\n}\n',
      },
    });
    await session.workbench.widenSideBar(330);
    // The journey files' custom editor exists only once the extension's contributions are registered.
    await session.workbench.waitForViewContainer('Kube Journey');
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  /** Opens a file of the workspace's journeys/ folder from the Explorer, as a person clicks it. */
  async function openJourneyFile(name: string): Promise<void> {
    const { workbench } = session;
    const folder = workbench.explorerRow('journeys');
    await folder.waitFor({ timeout: uiTimeoutMs });
    if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
    await workbench.explorerRow(name).click();
    await workbench.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: uiTimeoutMs });
  }

  it('opens a saved journey in the timeline, with its stages and evidence, without a cluster', async () => {
    const { workbench } = session;
    await openJourneyFile('nginx-3-replicas.journey.json');
    const frame = await workbench.webviewFrame((t) => /Deployment default\/nginx-deployment/.test(t) && /complete/.test(t) && /saved /.test(t), 'the saved nginx journey in the timeline', uiTimeoutMs);
    const header = await frame.locator('header').innerText();
    assert.match(header, /3\/3 ready · 3 scheduled · 3 running/);
    assert.match(header, /saved \d{4}-\d\d-\d\d \d\d:\d\d UTC · built-in simulator, 3 nodes/);
    await focusFirstPodLane(frame);
    const stages = await walkLane(frame);
    assert.ok(stages.some((s) => /^Pod Ready/.test(s)), `the pod lane reaches Ready: ${stages.join(' | ')}`);
    const selected = await selectStage(frame, /^(Scheduled|Bound to node-\d+)/);
    const evidence = await evidenceText(frame, (t) => t.includes(selected.split(',')[0]));
    assert.match(evidence, /default-scheduler|scheduler/);
    // No simulator was started: the journey came from the file alone.
    assert.equal(await workbench.page.locator('.part.sidebar .monaco-list-row', { hasText: /nginx-deployment\s*Deployment/ }).count(), 0);
    await workbench.screenshot('40-journey-file');
  });

  it('shows one clear error line for a file that is not a journey file', async () => {
    const { workbench } = session;
    await openJourneyFile('broken.journey.json');
    const text = await workbench.webviewText((t) => /cannot be shown/.test(t), 'the broken journey file’s error', uiTimeoutMs);
    assert.match(text, /journeys\/broken\.journey\.json: not JSON at line 2:\d+/);
    await workbench.screenshot('41-journey-file-broken');
  });

  it('compares the 3- and 6-replica journeys from the journey file’s title action', async () => {
    const { workbench } = session;
    await openJourneyFile('nginx-3-replicas.journey.json');
    await workbench.webviewFrame((t) => /Deployment default\/nginx-deployment/.test(t) && /saved /.test(t), 'the saved nginx journey again', uiTimeoutMs);
    const action = workbench.page.locator('.editor-actions .action-label[aria-label^="Compare With"]');
    await action.first().waitFor({ timeout: uiTimeoutMs });
    await action.first().click();
    const pick = workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'nginx-6-replicas.journey.json' });
    await pick.first().waitFor({ timeout: uiTimeoutMs });
    await pick.first().click();
    const frame = await workbench.webviewFrame((t) => /pod_startup/.test(t) && /Both journeys from their apply/.test(t), 'the comparison of the two journeys', uiTimeoutMs);
    const table = await frame.locator('table.phases').innerText();
    for (const phase of ['create_to_schedule', 'schedule_to_run', 'run_to_watch', 'schedule_to_watch', 'pod_startup']) assert.match(table, new RegExp(`${phase}\\s+3 / 6`), phase);
    const sides = await frame.locator('header.sides').innerText();
    assert.match(sides, /A\s+journeys\/nginx-3-replicas\.journey\.json[\s\S]*3\/3 ready/);
    assert.match(sides, /B\s+journeys\/nginx-6-replicas\.journey\.json[\s\S]*6\/6 ready/);
    assert.equal(await frame.locator('.side-a-mark').count() > 0 && (await frame.locator('.side-b-mark').count()) > 0, true, 'marks of both sides');
    const readout = await hoverLastMark(frame, '.side-b-mark');
    assert.match(readout, /^B · Pod nginx-deployment-\S+ · .+ · \+[\d.]+m?s from the apply$/);
    await workbench.screenshot('42-journey-compare');
  });

  it('compares two journey files selected together in the Explorer', async () => {
    const { workbench } = session;
    await workbench.runCommand('View: Close All Editors');
    await workbench.runCommand('View: Show Explorer');
    // A click opens the file (a preview), and the Explorer then reveals the active editor's file,
    // selecting it alone: the second file joins the selection once the first one's editor is up.
    const six = workbench.explorerRow('nginx-6-replicas.journey.json');
    const three = workbench.explorerRow('nginx-3-replicas.journey.json');
    await six.click();
    await workbench.page.locator('.tabs-container .tab.active', { hasText: 'nginx-6-replicas.journey.json' }).waitFor({ timeout: uiTimeoutMs });
    await waitFor(async () => {
      const selected = async (row: typeof six): Promise<boolean> => (await row.getAttribute('aria-selected')) === 'true';
      if ((await selected(six)) && (await selected(three))) return true;
      if (!(await selected(six))) await six.click();
      if (!(await selected(three))) await three.click({ modifiers: ['Control'] });
      return undefined;
    }, { timeoutMs: uiTimeoutMs, intervalMs: 500, what: 'both journey files selected in the Explorer' });
    await workbench.explorerRow('nginx-3-replicas.journey.json').click({ button: 'right' });
    const entry = workbench.page.getByRole('menuitem', { name: /^Compare With…$/ });
    await entry.waitFor({ timeout: uiTimeoutMs });
    await clickUntilClosed(entry);
    const frame = await workbench.webviewFrame((t) => /pod_startup/.test(t) && /Both journeys from their apply/.test(t), 'the comparison from the Explorer', uiTimeoutMs);
    const sides = await frame.locator('header.sides').innerText();
    assert.match(sides, /nginx-6-replicas[\s\S]*nginx-3-replicas|nginx-3-replicas[\s\S]*nginx-6-replicas/);
  });

  it('saves a traced journey from the timeline panel’s title and opens the file', async () => {
    const { workbench } = session;
    await workbench.runCommand('View: Close All Editors');
    await workbench.runCommand('View: Show Explorer');
    await workbench.openFile('examples/nginx-deployment.yaml');
    await workbench.editorContextMenu('kind: Deployment', /^(Kube Journey: )?Apply and Trace$/);
    await workbench.page.locator('.codelens-decoration a', { hasText: /3\/3 ready/ }).first().waitFor({ timeout: 120_000 });
    await workbench.page.locator('.codelens-decoration a', { hasText: 'Open Timeline' }).first().click();
    await workbench.webviewFrame((t) => /Deployment default\/nginx-deployment/.test(t) && /complete/.test(t) && !/saved /.test(t), 'the live nginx timeline', uiTimeoutMs);
    const save = workbench.page.locator('.editor-actions .action-label[aria-label^="Save Journey"]');
    await save.first().waitFor({ timeout: uiTimeoutMs });
    await save.first().click();
    // code-server's save dialog is VS Code's simple file dialog: a path in a quick input, proposed next to the manifest.
    const input = workbench.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: uiTimeoutMs });
    const proposed = await waitFor(async () => {
      const value = await input.inputValue();
      return value.endsWith('nginx-deployment.journey.json') ? value : undefined;
    }, { timeoutMs: uiTimeoutMs, what: 'the proposed file name' });
    assert.match(proposed, /examples\/nginx-deployment\.journey\.json$/);
    await workbench.page.keyboard.press('Enter');
    await waitFor(async () => ((await workbench.notificationTexts()).some((t) => /Saved the journey of Deployment nginx-deployment to examples\/nginx-deployment\.journey\.json/.test(t)) ? true : undefined), { timeoutMs: uiTimeoutMs, what: 'the saved notification' });
    await workbench.clearNotifications();
    await workbench.runCommand('View: Show Explorer');
    const row = workbench.explorerRow('nginx-deployment.journey.json');
    await row.waitFor({ timeout: uiTimeoutMs });
    await row.click();
    await workbench.webviewFrame((t) => /Deployment default\/nginx-deployment/.test(t) && /3\/3 ready/.test(t) && /saved \d{4}-/.test(t), 'the journey just saved, opened from the Explorer', uiTimeoutMs);
    await workbench.screenshot('43-journey-saved-and-opened');
  });
});

/** Rests the mouse on the last mark of a side (a pod's last stage) and returns the readout it writes. */
async function hoverLastMark(frame: Frame, selector: string): Promise<string> {
  const mark = frame.locator(selector).last();
  await mark.scrollIntoViewIfNeeded();
  await mark.hover();
  return waitFor(async () => {
    const text = (await frame.locator('.readout').innerText()).trim();
    return text.startsWith('B · ') ? text : undefined;
  }, { timeoutMs: 10_000, what: 'the readout of the hovered stage' });
}
