// Starts one isolated code-server (the real VS Code workbench and Node extension host) for one
// test run: every folder it could write to lives under a fresh temporary run directory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertToolsInstalled, codeServerEntry, node24Binary, node24Dir } from './tools';

export interface CodeServerOptions {
  /** Folder opened as the workspace. */
  workspace: string;
  /** VSIX files installed into this run's extensions folder before the server starts. */
  vsixes: string[];
  /** Extra environment for the server and so for its extension host. */
  env?: Record<string, string>;
  /** Keep the run directory (logs, user data) after stop(), for debugging. */
  keepRunDir?: boolean;
  readyTimeoutMs?: number;
}

export interface CodeServer {
  /** The workbench URL with the workspace folder open. */
  url: string;
  port: number;
  runDir: string;
  logFile: string;
  timings: { installExtensionsMs: number; listeningMs: number };
  stop(): Promise<void>;
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  assertToolsInstalled();
  const runDir = mkdtempSync(join(tmpdir(), 'kube-journey-code-server-'));
  const dirs = {
    home: join(runDir, 'home'),
    userData: join(runDir, 'user-data'),
    extensions: join(runDir, 'extensions'),
    xdgConfig: join(runDir, 'xdg/config'),
    xdgData: join(runDir, 'xdg/data'),
    xdgCache: join(runDir, 'xdg/cache'),
    xdgState: join(runDir, 'xdg/state'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  writeUserSettings(dirs.userData);

  const port = await freePort();
  const configFile = join(runDir, 'config.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const env = isolatedEnv(dirs, options.env ?? {});
  const commonArgs = [
    codeServerEntry,
    '--config', configFile,
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
  ];

  const installStart = performance.now();
  if (options.vsixes.length > 0) {
    const install = spawnSync(node24Binary, [...commonArgs, ...options.vsixes.flatMap((vsix) => ['--install-extension', vsix])], {
      env, encoding: 'utf8', timeout: 120_000,
    });
    if (install.status !== 0) {
      throw new Error(`code-server --install-extension failed (${install.status ?? install.signal}):\n${install.stdout}\n${install.stderr}`);
    }
  }
  const installExtensionsMs = performance.now() - installStart;

  const logFile = join(runDir, 'code-server.log');
  const log = createWriteStream(logFile);
  const serverStart = performance.now();
  // detached: the server gets its own process group, so stop() ends it and its extension hosts together.
  const server = spawn(node24Binary, [
    ...commonArgs,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--bind-addr', `127.0.0.1:${port}`,
    options.workspace,
  ], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.pipe(log, { end: false });
  server.stderr?.pipe(log, { end: false });

  const stop = async (): Promise<void> => {
    await endProcessGroup(server);
    log.end();
    if (!options.keepRunDir) rmSync(runDir, { recursive: true, force: true });
  };
  try {
    await waitForHealthz(port, server, options.readyTimeoutMs ?? 60_000, logFile);
  } catch (error) {
    await endProcessGroup(server);
    log.end();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(options.workspace)}`,
    port,
    runDir,
    logFile,
    timings: { installExtensionsMs, listeningMs: performance.now() - serverStart },
    stop,
  };
}

function writeUserSettings(userDataDir: string): void {
  const settingsDir = join(userDataDir, 'User');
  mkdirSync(settingsDir, { recursive: true });
  // Quiet, deterministic workbench: no welcome page, no notifications that cover the views.
  const settings = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': false,
    'update.mode': 'none',
    'window.restoreWindows': 'none',
    'editor.hover.delay': 300,
    'workbench.hover.delay': 300,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'chat.commandCenter.enabled': false,
  };
  writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify(settings, null, 2));
}

function isolatedEnv(dirs: Record<'home' | 'xdgConfig' | 'xdgData' | 'xdgCache' | 'xdgState', string>, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // VSCODE_IPC_HOOK_CLI and friends would make code-server forward to an outer VS Code;
    // npm_* would leak the caller's npm settings (nodedir) into the extension host.
    if (/^(VSCODE_|CODE_SERVER_|ELECTRON_|npm_)/i.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    XDG_CACHE_HOME: dirs.xdgCache,
    XDG_STATE_HOME: dirs.xdgState,
    PATH: `${join(node24Dir, 'bin')}:${process.env.PATH ?? ''}`,
    ...extra,
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolvePort(port) : reject(new Error('no free port'))));
    });
  });
}

async function waitForHealthz(port: number, server: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  let exited: string | undefined;
  server.once('exit', (code, signal) => { exited = `code-server exited (${code ?? signal}) before it was ready`; });
  await waitFor(async () => {
    if (exited) throw new Error(`${exited}:\n${readFileSync(logFile, 'utf8')}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) });
      return response.ok;
    } catch {
      return false;
    }
  }, { timeoutMs, what: `code-server on port ${port} to answer /healthz` });
}

async function endProcessGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  signalGroup(child.pid, 'SIGTERM');
  const killed = await Promise.race([exited.then(() => true), delay(10_000).then(() => false)]);
  if (!killed) {
    signalGroup(child.pid, 'SIGKILL');
    await exited;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

export interface WaitOptions { timeoutMs: number; what: string; intervalMs?: number }

/** Polls a condition until it holds; throws with `what` when the deadline passes. */
export async function waitFor<T>(check: () => Promise<T | false | undefined | null> | T | false | undefined | null, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const result = await check();
    if (result !== false && result !== undefined && result !== null) return result;
    if (Date.now() > deadline) throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}`);
    await delay(options.intervalMs ?? 100);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolveDelay) => setTimeout(resolveDelay, ms));
}
