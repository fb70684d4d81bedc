// The "Twin of <context>" target in the real VS Code. A served simulator stands for the real
// cluster (context "staging" of the kubeconfig the workspace setting names). Picking its twin in
// the target switcher and applying a Deployment whose pod does not fit puts the scheduler's
// warning on the cpu line with a Quick Fix, on the twin, while the cluster stays untouched;
// taking the fix and Re-simulate (a fresh copy) schedules the pod; a
// manifest that fits, then "Apply for real" (confirmed as any context apply), opens the compare
// view with the prediction against what the cluster did. A context whose server does not answer
// gives one error line and no twin.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/e2e/tools';
import { productExtensionExists } from '../../scripts/e2e/vsix';
import { waitFor } from '../../scripts/e2e/code-server';
import { parse, stringify } from 'yaml';
import { simulatorKubeconfig } from '../../src/server/kubeconfig';
import { serveSimulator, type ServedSimulator } from '../cluster/served-simulator';
import { screenshotFailures, startSession, type Session } from './harness';

const applyAndTrace = /^(Kube Journey: )?Apply and Trace$/;
const journeyTimeoutMs = 120_000;
const uiTimeoutMs = 30_000;
const tooBig = readFileSync(join(repoRoot, 'test/fixtures/fit-quick-fix.yaml'), 'utf8');
const RUNNING = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'already-there', namespace: 'default' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'already-there' } },
    template: { metadata: { labels: { app: 'already-there' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '500m' } } }] } },
  },
};

describe('Kube Journey: the twin of a context, and Apply for real', function () {
  let session: Session;
  let cluster: ServedSimulator;
  let folder: string;
  const deploymentsInCluster = (): string[] =>
    cluster.simulator.store
      .list('Deployment')
      .items.map((d) => d.metadata?.name ?? '')
      .filter((name) => name !== 'already-there');
  const runningPods = (): number => cluster.simulator.store.list('Pod').items.filter((p) => (p as { status?: { phase?: string } }).status?.phase === 'Running').length;

  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    folder = mkdtempSync(join(tmpdir(), 'kj-twin-e2e-'));
    cluster = await serveSimulator({ nodes: 3, seed: 7, speed: 5 });
    // Something running in the cluster, for the twin to copy.
    cluster.simulator.apply(RUNNING);
    await waitFor(() => Promise.resolve(runningPods() === 2 ? true : undefined), { timeoutMs: journeyTimeoutMs, what: 'the cluster to run its Deployment' });
    const kubeconfig = join(folder, 'staging.kubeconfig');
    // Two contexts: "staging", the served simulator, and "gone", whose server does not answer.
    const config = parse(simulatorKubeconfig(`https://127.0.0.1:${cluster.port}`, cluster.token, cluster.certificate.certPem).replaceAll('kube-journey-simulator', 'staging')) as { clusters: unknown[]; users: unknown[]; contexts: unknown[] };
    config.clusters.push({ name: 'gone', cluster: { server: 'https://127.0.0.1:1' } });
    config.users.push({ name: 'gone', user: { token: 'unused' } });
    config.contexts.push({ name: 'gone', context: { cluster: 'gone', user: 'gone' } });
    writeFileSync(kubeconfig, stringify(config), { mode: 0o600 });
    const settings = { 'kubeJourney.kubeconfig': kubeconfig, 'kubeJourney.simulator.speed': 5 };
    session = await startSession('twin-target', { files: { 'examples/fit-quick-fix.yaml': tooBig, '.vscode/settings.json': JSON.stringify(settings) } });
    await session.workbench.widenSideBar(480);
  });
  after(async () => {
    await session?.dispose();
    await cluster?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  screenshotFailures(() => session);

  it('offers a twin of each context in the target switcher and shows it in the status bar', async () => {
    const { workbench, workbench: { page } } = session;
    await workbench.openFile('examples/fit-quick-fix.yaml');
    await page.locator('.statusbar-item', { hasText: 'Simulator' }).first().click();
    const twinItem = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Twin of staging' });
    await twinItem.first().waitFor({ timeout: uiTimeoutMs });
    await page.locator('.quick-input-list', { hasText: 'Twins: simulate against a read-only copy' }).first().waitFor({ timeout: uiTimeoutMs });
    await workbench.screenshot('50-twin-target-picker');
    await twinItem.first().click();
    await page.locator('.statusbar-item', { hasText: 'Twin of staging' }).first().waitFor({ timeout: uiTimeoutMs });
  });

  it('applies a pod that does not fit to the twin: the warning, its Quick Fix and Re-simulate, nothing in the cluster', async () => {
    const { workbench, workbench: { page } } = session;
    await workbench.editorContextMenu('kind: Deployment', applyAndTrace);
    // No confirmation (a twin is a simulator): the copy, then the apply.
    await workbench.waitForSidebarRows((texts) => texts.some((t) => /^too-big\s*Deployment.*0\/1 ready/.test(t)), 'the Deployment too-big 0/1 ready on the twin', journeyTimeoutMs);
    const rows = await workbench.sidebarRowTexts();
    assert.ok(rows.some((t) => /fit-quick-fix\.yaml.*Twin of staging/.test(t)), `the tree says the journey is on the twin: ${rows.join(' | ')}`);
    const cpuLine = workbench.editorLine(/cpu:\s"8"/).first();
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: journeyTimeoutMs });
    await workbench.clearNotifications();
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: /Set\scpu:\s\d+m\s\(fits\son\s\d\sof\s3\snodes\)/ });
    // The cursor on that line, then Ctrl+.; on a loaded machine the editor may not have taken the
    // focus yet, and a person presses again.
    await waitFor(async () => {
      await cpuLine.click();
      await page.keyboard.press('Control+.');
      const shown = await fix
        .first()
        .waitFor({ timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (!shown) await page.keyboard.press('Escape');
      return shown || undefined;
    }, { timeoutMs: uiTimeoutMs, what: 'the Quick Fix menu on the cpu line' });
    await workbench.screenshot('51-twin-quick-fix');
    await fix.first().click();
    await workbench.editorLine(/cpu:\s\d+m\s+#\smore\sthan\sa\snode\shas/).first().waitFor({ timeout: uiTimeoutMs });
    // The edit makes the editor ask for its CodeLenses again (a refresh that came while it had no focus may have been dropped).
    await page.locator('.codelens-decoration a', { hasText: 'Re-simulate' }).first().waitFor({ timeout: uiTimeoutMs });
    assert.deepEqual(deploymentsInCluster(), [], 'the twin wrote nothing to the cluster');

    // Re-simulate on a twin: a fresh copy of the cluster, where the changed request fits.
    await page.locator('.codelens-decoration a', { hasText: 'Re-simulate' }).first().click();
    await workbench.waitForSidebarRows((texts) => texts.some((t) => /^too-big\s*Deployment.*1\/1 ready/.test(t)), 'too-big 1/1 ready on a fresh twin', journeyTimeoutMs);
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ state: 'detached', timeout: journeyTimeoutMs });
    assert.deepEqual(deploymentsInCluster(), [], 'nor did the fresh twin');
    await workbench.clearNotifications();

    // What was copied: the status bar's tooltip.
    const item = await page.locator('.statusbar-item', { hasText: 'Twin of staging' }).first().boundingBox();
    assert.ok(item, 'the status bar item');
    await page.mouse.move(item.x + item.width / 2, item.y - 40);
    await page.mouse.move(item.x + item.width / 2, item.y + item.height / 2, { steps: 8 });
    const hover = page.locator('.workbench-hover, .monaco-hover:not(.hidden)', { hasText: /twin of staging: 3 nodes/ });
    await hover.first().waitFor({ timeout: uiTimeoutMs });
    const tooltip = await hover.first().innerText();
    assert.match(tooltip, /read with GET requests only/);
    assert.match(tooltip, /twin of staging: 3 nodes, 2 pods, 2 workloads, \d+ namespaces/);
    await workbench.screenshot('52-twin-status-tooltip');
  });

  it('applies a manifest that fits for real after confirmation and compares predicted with observed', async () => {
    const { workbench, workbench: { page } } = session;
    await page.mouse.move(400, 300);
    await workbench.runCommand('View: Show Explorer');
    await workbench.openFile('examples/nginx-deployment.yaml');
    await workbench.editorContextMenu('kind: Deployment', applyAndTrace);
    await workbench.waitForSidebarRows((texts) => texts.some((t) => /^nginx-deployment\s*Deployment.*3\/3 ready/.test(t)), 'nginx-deployment 3/3 ready on the twin', journeyTimeoutMs);
    assert.deepEqual(deploymentsInCluster(), []);
    await workbench.clearNotifications();

    await page.locator('.codelens-decoration a', { hasText: 'Apply for real to staging' }).first().click();
    const dialog = page.locator('.monaco-dialog-box', { hasText: /to the cluster of context "staging"/ });
    await dialog.waitFor({ timeout: uiTimeoutMs });
    await workbench.screenshot('53-apply-for-real-confirm');
    await dialog.getByRole('button', { name: 'Apply to staging', exact: true }).click();

    const text = await workbench.webviewText((t) => /Predicted \(twin of staging\)/.test(t) && /Observed \(staging\)/.test(t) && /No divergence|predicted|observed only/.test(t) && !/still under way/.test(t), 'the comparison once the observed journey ended', journeyTimeoutMs);
    assert.match(text, /Deployment default\/nginx-deployment: complete · 3\/3 ready/);
    assert.match(text, /pod_startup/);
    assert.deepEqual(deploymentsInCluster(), ['nginx-deployment'], 'the cluster got the Deployment for real');
    await workbench.clearNotifications();
    await workbench.screenshot('54-predicted-vs-observed');
  });

  it('says in one line why there is no twin of a context it cannot reach', async () => {
    const { workbench, workbench: { page } } = session;
    await page.locator('.statusbar-item', { hasText: 'Twin of staging' }).first().click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Twin of gone' }).first().click();
    await page.locator('.statusbar-item', { hasText: 'Twin of gone' }).first().waitFor({ timeout: uiTimeoutMs });
    await page.locator('.tabs-container .tab', { hasText: 'nginx-deployment.yaml' }).first().click();
    await workbench.editorContextMenu('kind: Deployment', applyAndTrace);
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Cannot make a twin of gone' });
    await toast.first().waitFor({ timeout: journeyTimeoutMs });
    const text = await toast.first().innerText();
    assert.match(text, /Cannot make a twin of gone: context "gone" \(https:\/\/127\.0\.0\.1:1\): cannot reach the API server at https:\/\/127\.0\.0\.1:1/);
    assert.doesNotMatch(text, / {4}at |Error:/, 'no stack');
    await workbench.screenshot('55-twin-unreachable');
  });
});
