// A 10,000-pod Deployment on 1,000 simulated nodes in a real VS Code: the Journeys tree groups its
// pods instead of listing 10,000 rows, and the timeline opens with them folded into a summary.
import * as assert from 'node:assert/strict';
import { waitFor } from '../../scripts/e2e/code-server';
import { productExtensionExists } from '../../scripts/e2e/vsix';
import { screenshotFailures, startSession, type Session } from './harness';

const applyAndTrace = /^(Kube Journey: )?Apply and Trace$/;
const REPLICAS = 10_000;
const NODES = 1000;
/** Simulated time runs at wall speed in the extension (its default speed 1): about 30 s to ready, more on a loaded machine. */
const journeyTimeoutMs = 300_000;

const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${REPLICAS}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
        resources:
          requests:
            cpu: 10m
            memory: 16Mi
`;

describe('Kube Journey at scale: a 10,000-pod Deployment on 1,000 nodes', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('scale', { files: { 'scale/web-10000.yaml': manifest, '.vscode/settings.json': JSON.stringify({ 'kubeJourney.simulator.nodes': NODES }) } });
    await session.workbench.widenSideBar(560);
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('groups the pods in the Journeys tree once all 10,000 are ready', async function () {
    this.timeout(journeyTimeoutMs + 120_000);
    const { workbench } = session;
    await workbench.openFile('scale/web-10000.yaml');
    await workbench.editorContextMenu('kind: Deployment', applyAndTrace);
    // Opened as a person would: the manifest, the Deployment and its ReplicaSet, then the largest group of pods.
    const rows = await waitFor(
      async () => {
        await workbench.expandSidebarRowsMatching(/web-10000\.yaml|Deployment|ReplicaSet/);
        const texts = await workbench.sidebarRowTexts();
        return texts.some((t) => /^web\s*Deployment/.test(t) && /10000\/10000 ready/.test(t)) && texts.some((t) => /^Running/.test(t)) ? texts : undefined;
      },
      { timeoutMs: journeyTimeoutMs, what: 'the web Deployment with 10000/10000 ready and its Running group', intervalMs: 1000 },
    );
    await workbench.clearNotifications();
    const running = rows.find((t) => /^Running/.test(t)) ?? '';
    console.log(`      group: ${running.replace(/\s+/g, ' ')}`);
    assert.match(running, /10,000/);
    await workbench.expandSidebarRowsMatching(/^Running/);
    const ranges = await waitFor(
      async () => {
        const found = (await workbench.sidebarRowTexts()).filter((t) => /^node-\d+ – node-\d+/.test(t));
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 30_000, what: 'the Running pods grouped by node ranges', intervalMs: 250 },
    );
    console.log(`      first node ranges: ${ranges.slice(0, 3).map((t) => t.replace(/\s+/g, ' ')).join(' | ')}`);
    assert.match(ranges[0], /^node-1 – node-10 · 100 pods/);
    await workbench.screenshot('scale-01-tree-10000-pods');
  });

  it('opens the timeline of the 10,000 pods', async function () {
    this.timeout(120_000);
    const { workbench } = session;
    await workbench.page.locator('.codelens-decoration a', { hasText: 'Open Timeline' }).first().click();
    const frame = await workbench.webviewFrame((t) => /Deployment default\/web/.test(t) && /10,?000\/10,?000 ready/.test(t), 'the timeline of the web Deployment, all 10,000 pods ready', 60_000);
    const header = await frame.locator('header').innerText();
    console.log(`      timeline header: ${header.split('\n')[0]}`);
    assert.match(header, /complete/);
    await workbench.clearNotifications();
    await workbench.screenshot('scale-02-timeline-10000-pods');
  });
});

