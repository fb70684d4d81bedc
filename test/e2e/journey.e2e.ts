// The packaged extension in a real VS Code (code-server + chromium): what a person sees.
import * as assert from 'node:assert/strict';
import { startSession, type Session } from './harness';

describe('real VS Code workbench', () => {
  let session: Session;
  before(async () => { session = await startSession('workbench'); });
  after(async () => { await session?.dispose(); });

  it('shows the workspace and opens a manifest in the editor', async () => {
    const { workbench } = session;
    await workbench.openFile('examples/nginx-deployment.yaml');
    const kindLine = await workbench.editorLine('kind: Deployment').first().innerText();
    assert.match(kindLine, /kind:\s+Deployment/);
    await workbench.screenshot('00-workbench-file-open');
    console.log(`      workbench ready in ${(session.workbenchReadyMs / 1000).toFixed(1)} s`);
  });
});
