/**
 * One activation in a fresh process: `node activation-child.js <dist/extension.js> <storage folder>`
 * prints `{"requireMs":…,"activateMs":…,"cpuMs":…}`. bench/activation.ts bundles this file first, so plain
 * Node requires the extension bundle as VS Code's extension host does, without tsx's loaders.
 */
import { loadExtension } from '../test/bundle-host/load-extension';

const [bundle, storageFolder] = process.argv.slice(2);
const loaded = loadExtension(bundle, storageFolder);
loaded.deactivate();
process.stdout.write(`${JSON.stringify({ requireMs: loaded.requireMs, activateMs: loaded.activateMs, cpuMs: loaded.cpuMs })}\n`);
