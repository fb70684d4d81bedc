/**
 * Loads the built extension bundle in this Node process against the fake `vscode` module and runs
 * activate(): what VS Code's extension host does when a YAML file opens, minus VS Code. Timings
 * cover the bundle's require (read, compile, run its top level) and activate() itself.
 */
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { fakeExtensionContext, fakeVscode, type FakeVscodeOptions, type FakeVscodeRecord } from './fake-vscode';

export interface LoadedExtension {
  requireMs: number;
  activateMs: number;
  /** CPU time of require + activate() (user + system): steadier than wall time on a busy machine. */
  cpuMs: number;
  /** What activate() returned (KubeJourneyApi). */
  api: unknown;
  record: FakeVscodeRecord;
  /** Disposes the context's subscriptions and calls deactivate(), as VS Code does on shutdown. */
  deactivate(): void;
}

interface ExtensionModule {
  activate(context: object): unknown;
  deactivate?(): void;
}

/** The cache key `require('vscode')` resolves to once the fake is installed. */
const FAKE_VSCODE_ID = '<fake vscode>';
const moduleInternals = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string; _cache: Record<string, unknown> };
let fakeInstalled = false;

function installFakeVscode(exports: object): void {
  if (!fakeInstalled) {
    const resolve = moduleInternals._resolveFilename;
    moduleInternals._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? FAKE_VSCODE_ID : resolve.call(this, request, ...rest);
    };
    fakeInstalled = true;
  }
  moduleInternals._cache[FAKE_VSCODE_ID] = { id: FAKE_VSCODE_ID, filename: FAKE_VSCODE_ID, loaded: true, exports };
}

/**
 * `bundle` is an absolute path to dist/extension.js; the extension folder is the one above dist/,
 * so `context.asAbsolutePath('dist/simulator-server.js')` points next to it as in a VSIX.
 */
export function loadExtension(bundle: string, storageFolder: string, options: FakeVscodeOptions = {}): LoadedExtension {
  const { module: vscode, record } = fakeVscode(options);
  installFakeVscode(vscode);
  const context = fakeExtensionContext(dirname(dirname(bundle)), storageFolder) as { subscriptions: { dispose(): unknown }[] };
  const requireFromBundle = Module.createRequire(join(dirname(bundle), 'loader.js'));
  const cpuStart = process.cpuUsage();
  const loadStart = performance.now();
  const extension = requireFromBundle(bundle) as ExtensionModule;
  const activateStart = performance.now();
  const api = extension.activate(context);
  const activateEnd = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  return {
    requireMs: activateStart - loadStart,
    activateMs: activateEnd - activateStart,
    cpuMs: (cpu.user + cpu.system) / 1000,
    api,
    record,
    deactivate: () => {
      for (const subscription of context.subscriptions) subscription.dispose();
      extension.deactivate?.();
    },
  };
}
