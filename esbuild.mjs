// Bundles: the extension host (CommonJS, vscode external), its cluster connection (loaded on first
// use), the CLI, the simulator server and the webview (browser). `--production` (what the VSIX
// ships, see "vscode:prepublish") minifies and writes no source maps.
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };

/**
 * The extension's one runtime import of src/cluster becomes `require('./cluster.js')`, the separate
 * bundle next to dist/extension.js: @kubernetes/client-node (most of the code) is then read and run
 * only when a target is first used, not on every activation.
 */
const clusterBundleOutside = {
  name: 'cluster-bundle-outside',
  setup(build) {
    build.onResolve({ filter: /\/cluster\/for-extension$/ }, () => ({ path: './cluster.js', external: true }));
  },
};

/**
 * node-fetch 2 (client-node's HTTP client) falls back to the whatwg-url package only where Node has
 * no URL class; every Node it runs on has one. The fallback and its IDNA tables (tr46) were a
 * quarter of dist/cluster.js: the package resolves to Node's own URL instead.
 */
const nodeUrlForWhatwgUrl = {
  name: 'node-url-for-whatwg-url',
  setup(build) {
    build.onResolve({ filter: /^whatwg-url$/ }, () => ({ path: 'whatwg-url', namespace: 'node-url' }));
    build.onLoad({ filter: /.*/, namespace: 'node-url' }, () => ({ contents: "const url = require('node:url'); module.exports = { URL: url.URL, URLSearchParams: url.URLSearchParams };", loader: 'js' }));
  },
};

/**
 * The field schema (hover, validation, decoding) is read by the extension host and the simulator
 * server alike: one dist/kubernetes-schema.json next to the bundles instead of a copy inside each,
 * which kept the VSIX within its budget as the served kinds grew.
 */
const SCHEMA_SOURCE = 'src/core/schema/kubernetes-schema.json';
const schemaFileOutside = {
  name: 'schema-file-outside',
  setup(build) {
    build.onResolve({ filter: /\/kubernetes-schema\.json$/ }, () => ({ path: './kubernetes-schema.json', external: true }));
  },
};

const targets = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', plugins: [nodeUrlForWhatwgUrl, schemaFileOutside] },
  // The twin's cluster reading (--twin-context) requires dist/cluster.js, as the extension does.
  { entryPoints: ['src/cli/simulator-server.ts'], outfile: 'dist/simulator-server.js', platform: 'node', format: 'cjs', target: 'node20', supported: { 'dynamic-import': false }, plugins: [clusterBundleOutside, schemaFileOutside] },
  {
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // import() of the external cluster bundle becomes a plain require (VS Code's extension host loads CommonJS).
    supported: { 'dynamic-import': false },
    plugins: [clusterBundleOutside, schemaFileOutside],
  },
  { entryPoints: ['src/cluster/for-extension.ts'], outfile: 'dist/cluster.js', platform: 'node', format: 'cjs', target: 'node20', plugins: [nodeUrlForWhatwgUrl] },
  { entryPoints: ['src/webview/main.ts'], outfile: 'media/timeline.js', platform: 'browser', format: 'iife', target: 'es2022' },
  { entryPoints: ['src/webview/compare/main.ts'], outfile: 'media/compare.js', platform: 'browser', format: 'iife', target: 'es2022' },
].filter((t) => existsSync(t.entryPoints[0]));

// A production build after a development one must not leave the old maps next to the bundles.
if (production) for (const t of targets) rmSync(`${t.outfile}.map`, { force: true });

await Promise.all(targets.map((t) => build({ ...common, ...t })));
writeFileSync('dist/kubernetes-schema.json', JSON.stringify(JSON.parse(readFileSync(SCHEMA_SOURCE, 'utf8'))));
