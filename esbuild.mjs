// Bundles: the extension host (CommonJS, vscode external), the CLI, and the webview (browser).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };

const targets = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20' },
  { entryPoints: ['src/server/main.ts'], outfile: 'dist/simulator-server.js', platform: 'node', format: 'cjs', target: 'node20' },
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { entryPoints: ['src/webview/main.ts'], outfile: 'media/timeline.js', platform: 'browser', format: 'iife', target: 'es2022' },
].filter((t) => existsSync(t.entryPoints[0]));

await Promise.all(targets.map((t) => build({ ...common, ...t })));
