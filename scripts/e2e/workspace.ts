// A throwaway workspace folder holding a copy of examples/: the tests never touch the repository
// checkout, and the workbench does not have to watch node_modules/ or .tools/.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from './tools';

export interface Workspace { folder: string; dispose(): void }

/** `files`: more files for the workspace, by path inside it (a scenario's manifest, `.vscode/settings.json`). */
export function createExamplesWorkspace(files: Readonly<Record<string, string>> = {}): Workspace {
  const folder = mkdtempSync(join(tmpdir(), 'kube-journey-workspace-'));
  cpSync(join(repoRoot, 'examples'), join(folder, 'examples'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return { folder, dispose: () => rmSync(folder, { recursive: true, force: true }) };
}
