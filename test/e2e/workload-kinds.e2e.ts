// A StatefulSet and a CronJob applied from the editor in the real VS Code: their journeys in the
// Journeys tree and the timeline, as a person sees them.
import * as assert from 'node:assert/strict';
import { productExtensionExists } from '../../scripts/e2e/vsix';
import { screenshotFailures, startSession, type Session } from './harness';

const applyAndTrace = /^(Kube Journey: )?Apply and Trace$/;
const journeyTimeoutMs = 90_000;
/** A `* * * * *` CronJob runs at the next minute boundary: up to a minute, then its Job. */
const cronJourneyTimeoutMs = 150_000;
/** A CodeLens follows its journey's last change after VS Code's own debounce: seconds, not minutes. */
const codeLensTimeoutMs = 30_000;

describe('Kube Journey: a StatefulSet from the editor context menu', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('workload-kinds');
    await session.workbench.widenSideBar(560);
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('shows the StatefulSet with web-0 and web-1 Ready, in ordinal order', async () => {
    const { workbench } = session;
    await workbench.openFile('examples/statefulset.yaml');
    await workbench.editorContextMenu('kind: StatefulSet', applyAndTrace);
    const rows = await workbench.waitForSidebarRows(
      (texts) => texts.some((t) => /^web\s*StatefulSet.*2\/2 ready/.test(t)) && texts.filter((t) => /^web-[01](?!\d).*Running/.test(t)).length === 2,
      'the StatefulSet web, 2/2 ready, with web-0 and web-1 Running',
      journeyTimeoutMs,
    );
    await workbench.clearNotifications();
    await workbench.screenshot('11-statefulset-tree');
    const pods = rows.filter((t) => /^web-\d(?!\d)/.test(t)).map((t) => /^(web-\d)/.exec(t)?.[1]);
    assert.deepEqual(pods, ['web-0', 'web-1'], `pods in ordinal order: ${rows.join(' | ')}`);
  });

  it('shows the OrderedReady wait in the StatefulSet timeline', async () => {
    const { workbench } = session;
    await workbench.page.locator('.codelens-decoration a', { hasText: 'Open Timeline' }).first().click();
    const frame = await workbench.webviewFrame((t) => /StatefulSet default\/web/.test(t) && /complete/.test(t), 'the timeline of the StatefulSet web, complete', journeyTimeoutMs);
    const lanes = await frame.locator('body').innerText();
    await workbench.clearNotifications();
    await workbench.screenshot('12-statefulset-timeline');
    assert.match(lanes, /2\/2 ready/);
  });
});

describe('Kube Journey: a CronJob from the editor context menu', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('cronjob');
    await session.workbench.widenSideBar(560);
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('shows the CronJob, its first Job and the Job’s pod completed', async () => {
    const { workbench } = session;
    await workbench.openFile('examples/cronjob.yaml');
    await workbench.editorContextMenu('kind: CronJob', applyAndTrace);
    const rows = await workbench.waitForSidebarRows(
      (texts) => texts.some((t) => /^hello-\d+\s*Job/.test(t)) && texts.some((t) => /^hello-\d+-[a-z0-9]{5}.*Completed \(exit code 0\)/.test(t)),
      'the CronJob hello with its first Job and a completed pod',
      cronJourneyTimeoutMs,
    );
    await workbench.clearNotifications();
    await workbench.screenshot('13-cronjob-tree');
    assert.ok(rows.some((t) => /^hello\s*CronJob/.test(t)), `the CronJob row: ${rows.join(' | ')}`);
  });
});

/** The docs' pi Job, three pods at once: perl's output is not something the simulator can compute. */
const PI_JOB = `apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  completions: 3
  parallelism: 3
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: pi
        image: perl:5.34.0
        command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
`;

describe('Kube Journey: a Job whose program the simulator cannot read', function () {
  let session: Session;
  before(async function () {
    // Skipped only to check the harness alone (KUBE_JOURNEY_E2E_WITHOUT_PRODUCT=1), see productExtensionExists.
    if (!productExtensionExists()) this.skip();
    session = await startSession('assumed-job', { files: { 'jobs/pi.yaml': PI_JOB } });
    await session.workbench.widenSideBar(560);
  });
  after(async () => { await session?.dispose(); });
  screenshotFailures(() => session);

  it('says on the Job’s tooltip that its three exits are one assumption, for 3 pods', async () => {
    const { workbench } = session;
    await workbench.openFile('jobs/pi.yaml');
    await workbench.editorContextMenu('kind: Job', applyAndTrace);
    await workbench.waitForSidebarRows(
      (texts) => texts.some((t) => /^pi\s*Job · 3\/3 succeeded/.test(t)) && texts.filter((t) => /^pi-[a-z0-9]{5}.*Completed \(exit code 0\)/.test(t)).length === 3,
      'the Job pi, 3/3 succeeded, with its 3 pods completed',
      journeyTimeoutMs,
    );
    await workbench.clearNotifications();
    const tooltip = await workbench.hoverSidebarRow(/^pi\s*Job/, (t) => /Assuming/.test(t));
    await workbench.screenshot('16-assumed-job-tooltip');
    assert.match(tooltip, /Assuming 1 outcome the simulator cannot know, for 3 pods/);
    assert.match(tooltip, /3 succeeded · 0 failed/);
    // Each pod keeps its own run: the grouping above does not hide it.
    const podTooltip = await workbench.hoverSidebarRow(/^pi-[a-z0-9]{5}/, (t) => /assumed:/.test(t));
    await workbench.screenshot('17-assumed-job-pod-tooltip');
    assert.match(podTooltip, /pi — assumed: exit 0 after [\d.]+s \(command not readable by the simulator: perl -Mbignum=bpi -wle print bpi\(2000\)\)/);
  });

  it('shows the Job’s end in its CodeLens too', async () => {
    const { workbench } = session;
    await workbench.page.keyboard.press('Escape');
    await workbench.page.locator('.codelens-decoration a', { hasText: /completed · [\d.]+ s/ }).first().waitFor({ timeout: codeLensTimeoutMs });
    await workbench.screenshot('18-assumed-job-codelens');
  });
});
