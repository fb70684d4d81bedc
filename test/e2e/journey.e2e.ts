// The packaged extension in a real VS Code (code-server + chromium): what a person sees.
import * as assert from 'node:assert/strict';
import { waitFor } from '../../scripts/e2e/code-server';
import { productExtensionExists } from '../../scripts/e2e/vsix';
import { screenshotFailures, startSession, type Session } from './harness';
import { axisRange, durationLabelMs, evidenceText, focusFirstPodLane, selectStage, walkLane } from './timeline';

const applyAndTrace = /^(Kube Journey: )?Apply and Trace$/;
const journeyTimeoutMs = 90_000;
/** How far the simulator child's stamps may trail the extension host's clock. */
const CLOCK_SKEW_MS = 50;

describe('real VS Code workbench', () => {
  let session: Session;
  before(async () => { session = await startSession('workbench'); });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('shows the workspace and opens a manifest in the editor', async () => {
    const { workbench } = session;
    await workbench.openFile('examples/nginx-deployment.yaml');
    const kindLine = await workbench.editorLine('kind: Deployment').first().innerText();
    assert.match(kindLine, /kind:\s+Deployment/);
    await workbench.screenshot('00-workbench-file-open');
  });
});

describe('Kube Journey: the nginx Deployment from the editor context menu', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('nginx');
    await session.workbench.widenSideBar(520);
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('applies the manifest and shows the Deployment, its ReplicaSet and 3 Running pods on nodes', async () => {
    const { workbench } = session;
    await workbench.openFile('examples/nginx-deployment.yaml');
    await workbench.screenshot('01-nginx-manifest');
    await workbench.editorContextMenu('kind: Deployment', applyAndTrace);
    const rows = await workbench.waitForSidebarRows(
      (texts) => runningPodRows(texts).length === 3 && texts.some((t) => /ReplicaSet/.test(t)) && texts.some((t) => /^nginx-deployment\s*Deployment/.test(t)),
      'the Journeys tree with the Deployment, its ReplicaSet and 3 Running pods',
      journeyTimeoutMs,
    );
    await workbench.clearNotifications();
    await workbench.screenshot('02-nginx-tree');
    const replicaSet = rows.find((t) => /ReplicaSet/.test(t));
    assert.match(replicaSet ?? '', /^nginx-deployment-[a-z0-9]+\s*ReplicaSet/);
    const nodes = runningPodRows(rows).map((t) => /(node-\d+)/.exec(t)?.[1]);
    assert.equal(nodes.filter(Boolean).length, 3, `every pod row names its node: ${rows.join(' | ')}`);
  });

  it('shows the stages through Running and Ready in the timeline panel', async () => {
    const { workbench } = session;
    await workbench.page.locator('.codelens-decoration a', { hasText: 'Open Timeline' }).first().click();
    const frame = await workbench.webviewFrame((t) => /Deployment default\/nginx-deployment/.test(t) && /complete/.test(t), 'the timeline of the nginx Deployment, complete', journeyTimeoutMs);
    const header = await frame.locator('header').innerText();
    assert.match(header, /3\/3 ready · 3 scheduled · 3 running/);
    // The journey ended seconds before the panel opened: the axis fits the journey, not the time since the apply.
    const totalMs = durationLabelMs(/complete in (\S+)/.exec(header)?.[1] ?? '');
    const axis = await axisRange(frame);
    console.log(`      journey complete in ${(totalMs / 1000).toFixed(2)} s; ${axis.text}`);
    // The axis starts at the apply, or at a stamp a few milliseconds before it: the simulator child
    // paces its clock to the wall clock, and on a loaded machine its stamps can trail the client's.
    assert.ok(axis.startMs <= 0 && axis.startMs > -CLOCK_SKEW_MS, `${axis.text} starts at the apply`);
    assert.ok(axis.endMs >= totalMs && axis.endMs <= totalMs * 1.1 + 300, `${axis.text} for a journey complete in ${totalMs} ms`);
    await focusFirstPodLane(frame);
    const stages = await walkLane(frame);
    console.log(`      pod lane: ${stages.map((s) => s.split(',')[0]).join(' → ')}`);
    const scheduled = stages.findIndex((s) => /^(Scheduled|Bound to node-\d+)/.test(s));
    const running = stages.findIndex((s) => /^Pod Running/.test(s));
    const ready = stages.findIndex((s) => /^Pod Ready/.test(s));
    assert.ok(scheduled >= 0 && running > scheduled && ready >= running, `stages in order Scheduled → Running → Ready: ${stages.join(' | ')}`);
    const selected = await selectStage(frame, /^Pod Ready/);
    const evidence = await evidenceText(frame, (t) => t.includes(selected.split(',')[0]));
    assert.match(evidence, /kubelet/);
    await workbench.clearNotifications();
    await workbench.screenshot('03-nginx-timeline');
  });

  it('explains `replicas` on hover with the live count', async () => {
    const { workbench } = session;
    const hover = await workbench.hoverWord('replicas', (t) => /replicaset-controller/.test(t) && /3 desired · 3 ready/.test(t));
    await workbench.screenshot('04-nginx-hover-replicas');
    assert.match(hover, /3 desired · 3 ready · 3 available/);
  });

  it('logs its activation time in the Kube Journey output', async () => {
    const { workbench } = session;
    await workbench.runCommand('Kube Journey: Show Log');
    const line = await waitFor(async () => /activated: bundle load [\d.]+ ms, activate [\d.]+ ms/.exec(await workbench.outputText().catch(() => ''))?.[0], {
      timeoutMs: 30_000,
      what: 'the activation line in the Kube Journey output',
    });
    await workbench.screenshot('05-nginx-output');
    console.log(`      ${line}`);
  });

  it('still fits the ended journey when its timeline is opened again from the tree, later', async () => {
    const { workbench } = session;
    const row = workbench.page.locator('.part.sidebar .monaco-list-row', { hasText: /^nginx-deployment\s*Deployment/ }).first();
    await row.hover();
    await row.locator('.actions .action-label[aria-label="Open Timeline"]').click();
    // The host posts a snapshot with the current time, then reveals the Deployment: once its
    // evidence shows, the later snapshot has been taken in; two frames later it is drawn.
    const frame = await workbench.webviewFrame((t) => /Deployment default\/nginx-deployment/.test(t), 'the timeline of the nginx Deployment');
    await evidenceText(frame, (t) => /Deployment nginx-deployment/.test(t) && /3\/3 ready, 3 available/.test(t));
    await frame.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    const header = await frame.locator('header').innerText();
    const totalMs = durationLabelMs(/complete in (\S+)/.exec(header)?.[1] ?? '');
    const axis = await axisRange(frame);
    await workbench.clearNotifications();
    await workbench.screenshot('10-nginx-timeline-later');
    console.log(`      journey complete in ${(totalMs / 1000).toFixed(2)} s; opened again: ${axis.text}`);
    assert.ok(axis.endMs >= totalMs && axis.endMs <= totalMs * 1.1 + 300, `${axis.text} for a journey complete in ${totalMs} ms`);
  });
});

describe('Kube Journey: a pod too big for any node', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('too-big');
    await session.workbench.widenSideBar(520);
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('shows "Insufficient cpu" in the tree', async () => {
    const { workbench } = session;
    await workbench.openFile('examples/too-big.yaml');
    await workbench.editorContextMenu('kind: Deployment', applyAndTrace);
    const unscheduledPod = /too-big-[a-z0-9]+-[a-z0-9]{5}\s*not scheduled · Pending/;
    await workbench.waitForSidebarRows((texts) => texts.some((t) => unscheduledPod.test(t)), 'the unschedulable pod in the tree', journeyTimeoutMs);
    await workbench.clearNotifications();
    const tooltip = await workbench.hoverSidebarRow(unscheduledPod, (t) => /Insufficient cpu/.test(t));
    await workbench.screenshot('06-too-big-tree');
    assert.match(tooltip, /FailedScheduling/);
    assert.match(tooltip, /0\/3 nodes are available: 3 Insufficient cpu/);
  });

  it('shows the scheduler\'s reason in the timeline', async () => {
    const { workbench } = session;
    await workbench.page.locator('.codelens-decoration a', { hasText: 'Open Timeline' }).first().click();
    const frame = await workbench.webviewFrame((t) => /Deployment default\/too-big/.test(t) && /stuck/.test(t), 'the timeline of the too-big Deployment, stuck', journeyTimeoutMs);
    await focusFirstPodLane(frame);
    const stages = await walkLane(frame);
    console.log(`      pod lane: ${stages.map((s) => s.split(',')[0]).join(' → ')}`);
    await selectStage(frame, /default-scheduler/);
    const evidence = await evidenceText(frame, (t) => /Insufficient cpu/.test(t));
    await workbench.clearNotifications();
    await workbench.screenshot('07-too-big-timeline');
    assert.match(evidence, /0\/3 nodes are available: 3 Insufficient cpu/);
  });
});

function runningPodRows(rows: string[]): string[] {
  return rows.filter((t) => /nginx-deployment-[a-z0-9]+-[a-z0-9]{5}\s*node-\d+ · Running · 1\/1 ready/.test(t));
}
