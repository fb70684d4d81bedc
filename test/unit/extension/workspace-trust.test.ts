import assert from 'node:assert/strict';
import { explainUntrustedWorkspace, MANAGE_TRUST_ACTION, MANAGE_TRUST_COMMAND, UNTRUSTED_APPLY_MESSAGE, type TrustPrompt } from '../../../src/extension/headless/workspace-trust';

/** A workbench that records what it was asked and answers the warning with `answer`. */
function workbench(answer: string | undefined): TrustPrompt & { warnings: { message: string; actions: string[] }[]; commands: string[] } {
  const warnings: { message: string; actions: string[] }[] = [];
  const commands: string[] = [];
  return {
    warnings,
    commands,
    showWarningMessage: (message, ...actions) => {
      warnings.push({ message, actions });
      return Promise.resolve(answer);
    },
    executeCommand: (command) => {
      commands.push(command);
      return Promise.resolve(undefined);
    },
  };
}

describe('Apply and Trace in an untrusted workspace', () => {
  it('says why nothing is applied and offers to manage workspace trust', async () => {
    const ui = workbench(undefined);
    await explainUntrustedWorkspace(ui);
    assert.equal(ui.warnings.length, 1);
    assert.match(ui.warnings[0].message, /^Apply and Trace applies nothing in an untrusted workspace: its manifests could change a cluster\./);
    assert.equal(ui.warnings[0].message, UNTRUSTED_APPLY_MESSAGE);
    assert.deepEqual(ui.warnings[0].actions, ['Manage Workspace Trust']);
    assert.deepEqual(ui.commands, [], 'a dismissed message runs nothing');
  });

  it('opens the workbench trust editor when the user picks Manage Workspace Trust', async () => {
    const ui = workbench(MANAGE_TRUST_ACTION);
    await explainUntrustedWorkspace(ui);
    assert.deepEqual(ui.commands, ['workbench.trust.manage']);
    assert.equal(MANAGE_TRUST_COMMAND, 'workbench.trust.manage');
  });

  it('passes on a failure to open the trust editor instead of swallowing it', async () => {
    const ui = workbench(MANAGE_TRUST_ACTION);
    ui.executeCommand = () => Promise.reject(new Error("command 'workbench.trust.manage' not found"));
    await assert.rejects(explainUntrustedWorkspace(ui), /workbench\.trust\.manage' not found/);
  });
});
