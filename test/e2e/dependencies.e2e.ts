// A Deployment, its Service and its ConfigMap in the real VS Code: applied without the ConfigMap,
// the pods wait in CreateContainerConfigError and the manifest line naming the ConfigMap carries a
// warning; once the ConfigMap is applied, the pods start and the Service routes traffic to them.
import * as assert from 'node:assert/strict';
import { productExtensionExists } from '../../scripts/e2e/vsix';
import { screenshotFailures, startSession, type Session } from './harness';

const applyAndTrace = /^(Kube Journey: )?Apply and Trace$/;
const journeyTimeoutMs = 90_000;

describe('Kube Journey: a Deployment whose ConfigMap comes later, with its Service', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('dependencies');
    await session.workbench.widenSideBar(560);
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('leaves the pods in CreateContainerConfigError, naming the ConfigMap on its manifest line', async () => {
    const { workbench } = session;
    await workbench.openFile('examples/web-service.yaml');
    await workbench.editorContextMenu('kind: Deployment', applyAndTrace);
    const rows = await workbench.waitForSidebarRows(
      (texts) => texts.some((t) => /^web\s*Deployment.*0\/2 ready/.test(t)) && texts.some((t) => /^web\s*Service.*stuck: CreateContainerConfigError/.test(t)),
      'the Deployment web 0/2 ready and the Service web stuck on CreateContainerConfigError',
      journeyTimeoutMs,
    );
    const warning = workbench.page.locator('.monaco-editor .squiggly-warning');
    await warning.first().waitFor({ timeout: journeyTimeoutMs });
    await workbench.clearNotifications();
    await workbench.screenshot('14-configmap-missing');
    assert.ok(rows.filter((t) => /^web-[a-z0-9]+-[a-z0-9]{5}/.test(t)).length >= 2, `the two pods of web: ${rows.join(' | ')}`);
  });

  it('starts the pods once the ConfigMap is applied, and the Service serves them', async () => {
    const { workbench } = session;
    await workbench.runCommand('View: Show Explorer');
    await workbench.openFile('examples/web-config.yaml');
    await workbench.page.locator('.codelens-decoration a', { hasText: 'Apply and Trace' }).first().click();
    await workbench.runCommand('Focus on Journeys View');
    const rows = await workbench.waitForSidebarRows(
      (texts) => texts.some((t) => /^web\s*Deployment.*2\/2 ready/.test(t)) && texts.some((t) => /^web\s*Service.*2 endpoints/.test(t)),
      'the Deployment web 2/2 ready and its Service with 2 endpoints, after the ConfigMap',
      journeyTimeoutMs,
    );
    // Back to the Deployment's file (a single click opened each file in the preview tab).
    await workbench.runCommand('View: Show Explorer');
    await workbench.openFile('examples/web-service.yaml');
    await workbench.runCommand('Focus on Journeys View');
    await workbench.page.locator('.monaco-editor .squiggly-warning').first().waitFor({ state: 'detached', timeout: journeyTimeoutMs });
    // The CodeLens above the Deployment follows the journey too, once the editor shows the file again.
    await workbench.page.locator('.codelens-decoration a', { hasText: /2\/2 ready · / }).first().waitFor({ timeout: journeyTimeoutMs });
    await workbench.clearNotifications();
    await workbench.screenshot('15-configmap-applied');
    assert.ok(!rows.some((t) => /CreateContainerConfigError/.test(t)), `nothing waits any more: ${rows.join(' | ')}`);
  });
});
