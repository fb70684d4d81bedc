// A throwaway workspace folder holding a copy of examples/: the tests never touch the repository
// checkout, and the workbench does not have to watch node_modules/ or .tools/.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './tools';

export interface Workspace { folder: string; dispose(): void }

export function createExamplesWorkspace(): Workspace {
  const folder = mkdtempSync(join(tmpdir(), 'kube-journey-workspace-'));
  cpSync(join(repoRoot, 'examples'), join(folder, 'examples'), { recursive: true });
  return { folder, dispose: () => rmSync(folder, { recursive: true, force: true }) };
}
