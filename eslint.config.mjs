// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Which folder of src/ may import which: the README's "Layout" table, enforced (test/unit/lint checks
 * each cell). `imports`: folders it may import; `types`: folders it may import with `import type`
 * only (erased from the build, they add no code to its bundle). `pure`: no network; `browser`: runs
 * in the webview, no Node module; `noPackages`: nothing from node_modules.
 * @type {Record<string, { imports: string[]; types?: string[]; pure?: boolean; browser?: boolean; noPackages?: boolean }>}
 */
const LAYERS = {
  common: { imports: [], pure: true, browser: true },
  core: { imports: ['common'], pure: true },
  sim: { imports: ['common', 'core'], pure: true },
  server: { imports: ['common', 'core', 'sim', 'protocol'] },
  cluster: { imports: ['common', 'core'] },
  cli: { imports: ['common', 'core', 'sim', 'server', 'cluster', 'protocol'] },
  protocol: { imports: ['common'], types: ['core'], noPackages: true, browser: true },
  webview: { imports: ['common', 'protocol'], types: ['core'], browser: true },
  extension: { imports: ['common', 'core', 'cluster', 'protocol'] },
};

const NETWORK = ['http', 'https', 'http2', 'net', 'tls', 'dgram', '@kubernetes/client-node'].flatMap((m) => (m.startsWith('@') ? [m] : [m, `node:${m}`]));
const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** The vscode-free half of the extension: plain-Node code a unit test can load without VS Code. */
const EXTENSION_HEADLESS = 'src/extension/headless';

/** Folder levels below src/ a source file may sit at (src/sim/scheduler/plugins/x.ts is at 3). */
const MAX_DEPTH = 6;

/**
 * The import sources of `src/<layer>` written in a file `depth` folders below src/: exactly that many
 * `../` then the folder, so `./cluster` beside a file, or a subfolder named like a layer, is not it.
 * @param {string} layer @param {number} depth
 */
const sourcesOf = (layer, depth) => `^(\\.\\./){${depth}}${layer}(/|$)`;

/** @param {string[]} modules @returns {string} a regex matching exactly these import sources */
const exactly = (modules) => `^(${modules.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;

/**
 * @typedef {{ regex: string; message: string; allowTypeImports?: boolean }} Restriction
 * @param {string} layer @param {number} depth @param {{ vscode?: boolean }} [options]
 * @returns {Restriction[]}
 */
function layerPatterns(layer, depth, { vscode = false } = {}) {
  const rules = LAYERS[layer];
  const allowed = new Set([layer, ...rules.imports]);
  const typeOnly = new Set(rules.types ?? []);
  /** @type {Restriction[]} */
  const patterns = [];
  for (const other of Object.keys(LAYERS)) {
    if (allowed.has(other)) continue;
    const regex = sourcesOf(other, depth);
    if (typeOnly.has(other)) {
      patterns.push({ regex, allowTypeImports: true, message: `src/${layer} may import only types from src/${other} (import type), no code.` });
    } else {
      patterns.push({ regex, message: `src/${layer} may not import src/${other} (see README "Layout").` });
    }
  }
  if (!vscode) patterns.push({ regex: exactly(['vscode']), message: `only src/extension imports vscode (not src/${layer}${layer === 'extension' ? '/headless' : ''}).` });
  if (rules.pure) patterns.push({ regex: exactly(NETWORK), message: `src/${layer} is pure: no network.` });
  if (rules.browser) patterns.push({ regex: exactly(NODE_BUILTINS), message: `src/${layer} runs in the webview: no Node modules.` });
  if (rules.noPackages) patterns.push({ regex: '^[^.]', message: `src/${layer} imports no package.` });
  return patterns;
}

/** @param {string} folder @param {number} depth below `folder` (1: its own files) */
const filesAt = (folder, depth) => [`${folder}/${'*/'.repeat(depth - 1)}*.ts`];

/**
 * no-restricted-imports checks import/export declarations; dynamic `import()` (which loads code,
 * so type-only permissions do not apply) is checked by the same expressions as selectors.
 * @param {string[]} files @param {Restriction[]} patterns
 */
const restrict = (files, patterns) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns }],
    // esquery regexes cannot contain a slash, even escaped.
    'no-restricted-syntax': ['error', ...patterns.map(({ regex, message }) => ({ selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`, message }))],
  },
});

const depths = Array.from({ length: MAX_DEPTH }, (_, i) => i + 1);
const layerRules = Object.keys(LAYERS).flatMap((layer) =>
  depths.map((depth) => restrict(filesAt(`src/${layer}`, depth), layerPatterns(layer, depth, { vscode: layer === 'extension' }))),
);
// A file deeper than the rules above reach would escape them: it fails until MAX_DEPTH is raised.
const tooDeep = {
  files: [`src/${'*/'.repeat(MAX_DEPTH + 1)}**/*.ts`],
  rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: `More than ${MAX_DEPTH} folders below src/: raise MAX_DEPTH in eslint.config.mjs so that the layer rules cover this file.` }] },
};
// After the extension's rules: a file matched by both takes the last one.
const headlessRules = depths.slice(1).map((depth) =>
  restrict(filesAt(EXTENSION_HEADLESS, depth - 1), [
    ...layerPatterns('extension', depth),
    // `../x` from headless/ is the vscode half of src/extension; `../../core/…` leaves it.
    { regex: `^(\\.\\./){${depth - 1}}(?!\\.\\./)`, message: 'src/extension/headless may not import the vscode half of src/extension.' },
  ]),
);

export default tseslint.config(
  { ignores: ['**/dist/**', 'media/**', '**/node_modules/**', '.vscode-test/**', 'bin/**', '.e2e/**', '.tools/**', 'test/e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...layerRules,
  ...headlessRules,
  tooDeep,
);
