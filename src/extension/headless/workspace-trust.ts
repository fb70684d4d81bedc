/**
 * Apply and Trace in an untrusted workspace. The command is always enabled (an `enablement` on
 * `isWorkspaceTrusted` shows it greyed out in the context menus until the workbench has evaluated
 * trust, seconds after a window opens) and refuses here instead: it says why and offers the
 * workbench's trust editor. No `vscode` import, so plain-Node tests can drive it.
 */

export const UNTRUSTED_APPLY_MESSAGE = 'Apply and Trace applies nothing in an untrusted workspace: its manifests could change a cluster. Trust the workspace to apply them.';
export const MANAGE_TRUST_ACTION = 'Manage Workspace Trust';
/** The workbench's own command that opens the Workspace Trust editor. */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

/** The two workbench calls the refusal needs (`vscode.window` / `vscode.commands` in the product). */
export interface TrustPrompt {
  showWarningMessage(message: string, ...actions: string[]): PromiseLike<string | undefined>;
  executeCommand(command: string): PromiseLike<unknown>;
}

/** Shows why nothing was applied; opens the trust editor when the user asks. Resolves once answered. */
export async function explainUntrustedWorkspace(prompt: TrustPrompt): Promise<void> {
  const choice = await prompt.showWarningMessage(UNTRUSTED_APPLY_MESSAGE, MANAGE_TRUST_ACTION);
  if (choice === MANAGE_TRUST_ACTION) await prompt.executeCommand(MANAGE_TRUST_COMMAND);
}
