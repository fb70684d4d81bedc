/**
 * The layer rules of eslint.config.mjs, checked by linting one import at a time as if written in a
 * file of each folder (ESLint's `lintText` with a `filePath`; no file is written). The matrix
 * comes from the README's Layout table, so the table and the lint rules cannot drift apart.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { ESLint } from 'eslint';

const repoRoot = posix.resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: posix.join(repoRoot, 'eslint.config.mjs') });

const IMPORTS = 'no-restricted-imports';
const DYNAMIC_IMPORTS = 'no-restricted-syntax';

/** The rules that reported on `code` as if it were the file `file` (relative to the repository), each once. */
async function violations(file: string, code: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath: posix.join(repoRoot, file) });
  return [...new Set(result.messages.map((m) => m.ruleId))];
}

const runtimeImport = (source: string): string => `import { probe } from '${source}';\nexport { probe };\n`;
const typeImport = (source: string): string => `import type { Probe } from '${source}';\nexport type { Probe };\n`;
const dynamicImport = (source: string): string => `export const load = () => import('${source}');\n`;

interface LayoutRow {
  folder: string;
  imports: string[];
  typesOnly: string[];
}

/** The rows of the README's Layout table: the folder, and what its "may import" cell lists. */
function layoutTable(): LayoutRow[] {
  const readme = readFileSync(posix.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Layout'));
  const rows: LayoutRow[] = [];
  for (const line of section.split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`(src\/[a-z/]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!folder) continue;
    const row: LayoutRow = { folder, imports: [], typesOnly: [] };
    for (const listed of cells[3].matchAll(/`(src\/[a-z/]+)`( \(types only\))?/g)) (listed[2] ? row.typesOnly : row.imports).push(listed[1]);
    rows.push(row);
  }
  return rows;
}

const table = layoutTable();
const topLevel = table.map((r) => r.folder).filter((f) => f.split('/').length === 2);

/** The import source of `target/probe` written in a file directly inside `from`. */
function sourceFrom(from: string, target: string): string {
  const relative = posix.relative(from, posix.join(target, 'probe'));
  return relative.startsWith('.') ? relative : `./${relative}`;
}

describe('layer rules (eslint.config.mjs) against the README Layout table', () => {
  it('reads a row for every folder of src and the extension headless half', () => {
    assert.deepEqual(table.map((r) => r.folder).sort(), ['src/cli', 'src/cluster', 'src/common', 'src/core', 'src/extension', 'src/extension/headless', 'src/protocol', 'src/server', 'src/sim', 'src/webview']);
  });

  for (const row of table) {
    const file = `${row.folder}/probe.ts`;
    // headless/ is checked against src/extension too: it may not import the rest of it.
    const others = topLevel.filter((target) => target !== row.folder);
    for (const target of others) {
      const source = sourceFrom(row.folder, target);
      const mayRun = row.imports.includes(target);
      const mayType = mayRun || row.typesOnly.includes(target);
      it(`${row.folder} ${mayRun ? 'may' : 'may not'} import ${target} (${source})`, async () => {
        assert.deepEqual(await violations(file, runtimeImport(source)), mayRun ? [] : [IMPORTS]);
        assert.deepEqual(await violations(file, dynamicImport(source)), mayRun ? [] : [DYNAMIC_IMPORTS]);
      });
      it(`${row.folder} ${mayType ? 'may' : 'may not'} import types from ${target}`, async () => {
        assert.deepEqual(await violations(file, typeImport(source)), mayType ? [] : [IMPORTS]);
      });
    }
  }
});

describe('layer rules beyond the table', () => {
  const everyFolder = table.map((r) => r.folder);

  it('only src/extension outside headless/ imports vscode, even for types', async () => {
    for (const folder of everyFolder) {
      const allowed = folder === 'src/extension';
      assert.deepEqual(await violations(`${folder}/probe.ts`, runtimeImport('vscode')), allowed ? [] : [IMPORTS], folder);
      assert.deepEqual(await violations(`${folder}/probe.ts`, typeImport('vscode')), allowed ? [] : [IMPORTS], folder);
    }
    assert.deepEqual(await violations('src/extension/headless/probe.ts', dynamicImport('vscode')), [DYNAMIC_IMPORTS]);
  });

  it('headless/ may not import the rest of src/extension, which may import headless/', async () => {
    assert.deepEqual(await violations('src/extension/headless/probe.ts', runtimeImport('../targets')), [IMPORTS]);
    assert.deepEqual(await violations('src/extension/headless/probe.ts', runtimeImport('./disposable')), []);
    assert.deepEqual(await violations('src/extension/probe.ts', runtimeImport('./headless/disposable')), []);
  });

  it('src/common, src/core and src/sim touch no network', async () => {
    for (const folder of ['src/common', 'src/core/journey', 'src/sim/store']) {
      for (const module of ['node:http', 'https', 'node:net', '@kubernetes/client-node']) {
        assert.deepEqual(await violations(`${folder}/probe.ts`, runtimeImport(module)), [IMPORTS], `${folder} ${module}`);
      }
    }
    assert.deepEqual(await violations('src/server/probe.ts', runtimeImport('node:http')), []);
    assert.deepEqual(await violations('src/cluster/probe.ts', runtimeImport('@kubernetes/client-node')), []);
  });

  it('src/common, src/protocol and src/webview import no Node module', async () => {
    for (const folder of ['src/common', 'src/protocol', 'src/webview/model']) {
      for (const module of ['node:fs', 'path', 'node:crypto']) {
        assert.deepEqual(await violations(`${folder}/probe.ts`, runtimeImport(module)), [IMPORTS], `${folder} ${module}`);
      }
    }
    assert.deepEqual(await violations('src/core/probe.ts', runtimeImport('node:path')), []);
  });

  it('src/protocol imports no package', async () => {
    assert.deepEqual(await violations('src/protocol/probe.ts', runtimeImport('yaml')), [IMPORTS]);
    assert.deepEqual(await violations('src/protocol/probe.ts', typeImport('kubernetes-types/core/v1')), [IMPORTS]);
    assert.deepEqual(await violations('src/protocol/probe.ts', typeImport('./timeline-protocol')), []);
  });

  it('matches a layer by where the path leads, not by a folder name along it', async () => {
    // src/server/printers/cluster.ts is the server's own, not src/cluster.
    assert.deepEqual(await violations('src/server/printers/table.ts', runtimeImport('./cluster')), []);
    assert.deepEqual(await violations('src/server/printers/table.ts', runtimeImport('../../cluster/connection')), [IMPORTS]);
    assert.deepEqual(await violations('src/sim/scheduler/plugins/probe.ts', runtimeImport('../../../server/api-server')), [IMPORTS]);
    assert.deepEqual(await violations('src/sim/scheduler/plugins/probe.ts', runtimeImport('../../../core/k8s')), []);
  });

  it('fails a file deeper below src than the rules reach, rather than leave it unchecked', async () => {
    assert.deepEqual(await violations('src/sim/a/b/c/d/e/probe.ts', runtimeImport('../../../../../../server/probe')), [IMPORTS]);
    assert.deepEqual(await violations('src/sim/a/b/c/d/e/f/probe.ts', 'export const probe = 1;\n'), [DYNAMIC_IMPORTS]);
  });

  it('leaves test files free to import any layer', async () => {
    assert.deepEqual(await violations('test/unit/probe.test.ts', runtimeImport('../../src/sim/simulator')), []);
    assert.deepEqual(await violations('test/unit/probe.test.ts', runtimeImport('vscode')), []);
  });
});
