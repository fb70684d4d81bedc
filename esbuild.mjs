// Bundles: the extension host (CommonJS, vscode external), its cluster connection (loaded on first
// use), the CLI, the simulator server and the webview (browser). `--production` (what the VSIX
// ships, see "vscode:prepublish") minifies and writes no source maps.
import { build } from 'esbuild';
import { existsSync, rmSync } from 'node:fs';

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

const targets = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20' },
  { entryPoints: ['src/server/main.ts'], outfile: 'dist/simulator-server.js', platform: 'node', format: 'cjs', target: 'node20' },
  {
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // import() of the external cluster bundle becomes a plain require (VS Code's extension host loads CommonJS).
    supported: { 'dynamic-import': false },
    plugins: [clusterBundleOutside],
  },
  { entryPoints: ['src/cluster/for-extension.ts'], outfile: 'dist/cluster.js', platform: 'node', format: 'cjs', target: 'node20' },
  { entryPoints: ['src/webview/main.ts'], outfile: 'media/timeline.js', platform: 'browser', format: 'iife', target: 'es2022' },
].filter((t) => existsSync(t.entryPoints[0]));

// A production build after a development one must not leave the old maps next to the bundles.
if (production) for (const t of targets) rmSync(`${t.outfile}.map`, { force: true });

await Promise.all(targets.map((t) => build({ ...common, ...t })));
