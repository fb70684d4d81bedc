/**
 * Entry for `@vscode/test-electron` (`extensionTestsPath` pointing at this file, compiled next to
 * the suites): runs every `*.test.js` of this folder with mocha's BDD interface. The code-server
 * harness (scripts/e2e/run-vscode-tests.ts) bundles the same suites into its runner extension and
 * does not use this file.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: true });
  for (const file of readdirSync(__dirname).filter((name) => name.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension-host test(s) failed`)) : resolve()));
  });
}
